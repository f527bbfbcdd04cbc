/// Appends little-endian values to a byte array.
public struct ByteWriter: Sendable {
    /// What has been written.
    public private(set) var bytes: [UInt8] = []
    /// An empty writer.
    public init() {}
    /// One byte.
    public mutating func byte(_ v: UInt8) { bytes.append(v) }
    /// Four bytes, least significant first.
    public mutating func uint32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    /// Eight bytes, least significant first.
    public mutating func uint64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    /// An IEEE double's bit pattern, as `uint64`.
    public mutating func double(_ v: Double) { uint64(v.bitPattern) }
    /// Bytes as they are.
    public mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }
    /// A string: its UTF-8 length, then its UTF-8 bytes.
    public mutating func string(_ s: String) {
        let utf8 = Array(s.utf8)
        uint32(UInt32(utf8.count))
        bytes.append(contentsOf: utf8)
    }
    /// A signed value as a zigzag varint: seven bits a byte, small magnitudes first.
    public mutating func zigzag(_ v: Int64) {
        var u = UInt64(bitPattern: (v << 1) ^ (v >> 63))
        while u >= 0x80 {
            bytes.append(UInt8(u & 0x7F) | 0x80)
            u >>= 7
        }
        bytes.append(UInt8(u))
    }
    /// An image: width, height, then every pixel.
    public mutating func image(_ image: PixelImage) {
        uint32(UInt32(image.width))
        uint32(UInt32(image.height))
        bytes.reserveCapacity(bytes.count + image.pixels.count * 4)
        for p in image.pixels { uint32(p) }
    }
    /// A background that has no pixels: tag 0 (transparent), or tag 1 and r, g, b.
    public mutating func backgroundColor(_ color: Color?) {
        guard let color else { return byte(0) }
        byte(1)
        byte(color.r)
        byte(color.g)
        byte(color.b)
    }
}

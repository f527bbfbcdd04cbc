/// Reads little-endian values from a byte array; every read is bounds-checked and returns nil
/// past the end.
public struct ByteReader: Sendable {
    private let bytes: [UInt8]
    /// How many bytes have been read.
    public private(set) var offset = 0
    /// A reader at the start of `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    /// Bytes left to read.
    public var remaining: Int { bytes.count - offset }
    /// Whether every byte has been read.
    public var isAtEnd: Bool { offset == bytes.count }

    /// One byte.
    public mutating func byte() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// Four bytes, least significant first.
    public mutating func uint32() -> UInt32? { littleEndian(UInt32.self) }

    /// Eight bytes, least significant first.
    public mutating func uint64() -> UInt64? { littleEndian(UInt64.self) }

    private mutating func littleEndian<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { return nil }
        var v: T = 0
        for i in 0..<size { v |= T(bytes[offset + i]) << (8 * i) }
        offset += size
        return v
    }

    /// An IEEE double from its bit pattern.
    public mutating func double() -> Double? { uint64().map(Double.init(bitPattern:)) }

    /// A zigzag varint as `ByteWriter.zigzag` writes it; nil when cut short or longer than
    /// ten bytes.
    public mutating func zigzag() -> Int64? {
        var u: UInt64 = 0
        for shift in stride(from: UInt64(0), to: 70, by: 7) {
            guard let b = byte() else { return nil }
            u |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return Int64(bitPattern: u >> 1) ^ -Int64(bitPattern: u & 1) }
        }
        return nil
    }

    /// Three bytes r, g, b (what follows tag 1 of `ByteWriter.backgroundColor`).
    public mutating func rgb() -> Color? {
        guard let r = byte(), let g = byte(), let b = byte() else { return nil }
        return Color(r: r, g: g, b: b)
    }

    /// An image as `ByteWriter.image` writes it, which must fill the rest of the input; at most
    /// 65,536 pixels a side.
    public mutating func image() -> PixelImage? {
        guard let w = uint32(), let h = uint32(), w > 0, h > 0, w <= 1 << 16, h <= 1 << 16,
            Int(w) * Int(h) * 4 == remaining
        else { return nil }
        var pixels = [UInt32]()
        pixels.reserveCapacity(Int(w) * Int(h))
        for _ in 0..<(Int(w) * Int(h)) {
            guard let p = uint32() else { return nil }
            pixels.append(p)
        }
        return PixelImage(width: Int(w), height: Int(h), pixels: pixels)
    }

    /// A string as `ByteWriter.string` writes it: nil when longer than `maxBytes`, cut short, or
    /// not valid UTF-8.
    public mutating func string(maxBytes: Int) -> String? {
        guard let count = uint32(), Int(count) <= maxBytes, let bytes = take(Int(count)) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The next `count` bytes.
    public mutating func take(_ count: Int) -> [UInt8]? {
        guard count >= 0, remaining >= count else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }
}

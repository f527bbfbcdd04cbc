import PaintCore

/// BMP, read by hand: 1, 4 and 8 bits per pixel with a palette (RLE8 and RLE4 too), 16 and 32
/// with channel masks, 24; bottom-up or top-down; BMPs wrapping a PNG or JPEG.
///
/// The size is checked against the limits, and an uncompressed file against its own length,
/// before the pixels are allocated: a short file claiming a big picture is refused at once.
public enum BMPDecoder {
    /// Decodes BMP `bytes`; a `control` told to stop (a paste cancelled) ends the decode at its
    /// next row.
    public static func decode(
        _ bytes: [UInt8], name: String, limits: ImageLimits = .default, control: ReplayControl? = nil
    ) throws(ImageFileError) -> DecodedImage {
        guard !bytes.isEmpty else { throw .emptyFile(path: name) }
        let header = try BMPHeader(bytes, name: name)
        let (width, height) = (header.width, header.height)
        guard limits.allows(width: width, height: height) else {
            throw .tooLarge(path: name, width: width, height: height, limits: limits)
        }
        switch header.compression {
        case .embedded:
            let inner = Array(bytes[header.dataOffset...])
            guard let format = ImageFormat.sniff(inner), format == .png || format == .jpeg else {
                throw .damaged(path: name, reason: "its embedded picture is neither PNG nor JPEG")
            }
            var decoded = try ImageDecoder.decode(inner, name: name, limits: limits, control: control)
            decoded.format = .bmp
            return decoded
        case .rle8, .rle4:
            let pixels = try decodeRLE(bytes, header, name: name, control: control)
            guard let image = PixelImage(width: width, height: height, pixels: pixels) else {
                throw .damaged(path: name, reason: "the pixel count does not match the size")
            }
            // Pixels the run-length codes skipped stay transparent, as Windows shows them.
            return DecodedImage(image: image, format: .bmp, hasAlpha: !image.isOpaque)
        case .none, .bitfields:
            guard header.dataOffset + header.rowBytes * height <= bytes.count else {
                throw .cutShort(
                    path: name, reason: "it holds \(bytes.count) bytes, too few for a \(width) x \(height) picture")
            }
            let alpha = Channel(header.masks.alpha)
            var pixels = try PixelBuffer.make(count: width * height) { (out) throws(ImageFileError) in
                try decodeRows(bytes, header, name: name, control: control, into: out)
            }
            // Many writers leave the alpha byte 0 everywhere: then it means nothing.
            let usesAlpha = alpha.bits > 0 && pixels.contains { $0 >> 24 != 0 }
            if alpha.bits > 0 {
                for i in pixels.indices {
                    pixels[i] = usesAlpha ? Pixel.premultiply(pixels[i]) : pixels[i] | 0xFF00_0000
                }
            }
            guard let image = PixelImage(width: width, height: height, pixels: pixels) else {
                throw .damaged(path: name, reason: "the pixel count does not match the size")
            }
            return DecodedImage(image: image, format: .bmp, hasAlpha: usesAlpha)
        }
    }

    /// One channel mask: where its bits are and how to scale them to 8 bits.
    struct Channel {
        let mask: UInt32
        let shift: UInt32
        let bits: Int

        init(_ mask: UInt32) {
            self.mask = mask
            shift = mask == 0 ? 0 : UInt32(mask.trailingZeroBitCount)
            bits = (mask >> shift).trailingZeroBitCount == 0 ? (~(mask >> shift)).trailingZeroBitCount : 0
        }

        /// The channel of `value` scaled to 0...255 (0 when the mask is empty).
        @inline(__always)
        func value(_ v: UInt32) -> UInt32 {
            guard bits > 0 else { return 0 }
            let top = UInt64(1) << UInt64(bits) - 1
            return UInt32((UInt64((v & mask) >> shift) * 255 * 2 + top) / (2 * top))
        }
    }

    /// Uncompressed rows into straight pixels (alpha only where a mask gives one, else 255).
    private static func decodeRows(
        _ bytes: [UInt8], _ header: BMPHeader, name: String, control: ReplayControl?,
        into out: UnsafeMutableBufferPointer<UInt32>
    ) throws(ImageFileError) {
        guard let target = out.baseAddress else { return }
        let converter = RowConverter(header)
        try bytes.withUnsafeBufferPointer { (data) throws(ImageFileError) in
            for stored in 0..<header.height {
                try ReplayControl.checkDecodeStep(control, name)
                let y = header.topDown ? stored : header.height - 1 - stored
                let row = header.dataOffset + stored * header.rowBytes
                converter.convert(
                    UnsafeBufferPointer(rebasing: data[row..<(row + header.rowBytes)]), into: target + y * header.width)
            }
        }
    }

    /// Decodes the BMP `stream` reads into tiles, as `decode` and then cutting would, without
    /// holding the file: an uncompressed picture without an alpha mask row after row as its
    /// rows are read (a bottom-up one turned as its bands are cut); any other (run-length
    /// coded, an alpha mask that may mean nothing, a PNG or JPEG inside) from its bytes read
    /// whole, then cut with its pages given back.
    static func decodeTiles(
        _ stream: PictureStream, limits: ImageLimits
    ) throws(ImageFileError) -> (picture: TiledPicture, hasAlpha: Bool, damage: PictureDamage?) {
        let name = stream.name
        // The headers and the color table come before the pixels, within the first bytes.
        let head = stream.read(min(stream.size, Self.headBytes))
        guard !head.isEmpty else { throw .emptyFile(path: name) }
        let header = try BMPHeader(head, name: name, fileSize: stream.size)
        let (width, height) = (header.width, header.height)
        guard limits.allows(width: width, height: height) else {
            throw .tooLarge(path: name, width: width, height: height, limits: limits)
        }
        let plain = header.compression == .none || header.compression == .bitfields
        guard plain, header.masks.alpha == 0, header.dataOffset <= head.count else {
            // Up to the picture's end (`PictureExtent`), not the file's: a tail is not held.
            let decoded = try decode(
                ImageDecoder.pictureBytes(stream, limits: limits, after: head), name: name, limits: limits)
            // A PNG or JPEG inside may be damaged: what it gave, said so.
            let (hasAlpha, damage) = (decoded.hasAlpha, decoded.damage)
            return (TiledPicture(releasing: (consume decoded).image), hasAlpha, damage)
        }
        guard header.dataOffset + header.rowBytes * height <= stream.size else {
            throw .cutShort(
                path: name, reason: "it holds \(stream.size) bytes, too few for a \(width) x \(height) picture")
        }
        // Bottom-up rows (the usual kind) fill the picture from its last band.
        let writer = TiledPicture.Writer(
            width: width, height: height, orientation: header.topDown ? .identity : .flipVertical)
        let converter = RowConverter(header)
        let row = UnsafeMutableRawBufferPointer.allocate(byteCount: header.rowBytes, alignment: 4)
        defer { row.deallocate() }
        // The first rows may be among the bytes read for the headers.
        var early = head[header.dataOffset...]
        for stored in 0..<height {
            let taken = min(early.count, row.count)
            early.withUnsafeBytes { row.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[0..<taken])) }
            early = early.dropFirst(taken)
            let got = taken + stream.read(into: UnsafeMutableRawBufferPointer(rebasing: row[taken...]))
            guard got == row.count, let band = writer.band.baseAddress else {
                throw .cutShort(
                    path: name,
                    reason: "it holds \(header.dataOffset + stored * header.rowBytes + got) bytes, too few for a"
                        + " \(width) x \(height) picture")
            }
            converter.convert(
                UnsafeBufferPointer(row.bindMemory(to: UInt8.self)), into: band + writer.bandRow(of: stored) * width)
            writer.rowWritten(stored)
        }
        return (writer.finish(), false, nil)
    }

    /// Bytes read for a streamed BMP's headers: the largest header (124), its masks and a
    /// 256-color table, with room to spare.
    static let headBytes = 2048

    /// One stored row of an uncompressed BMP to straight pixels (alpha only where a mask gives
    /// one, else 255).
    private struct RowConverter {
        let header: BMPHeader
        let red: Channel
        let green: Channel
        let blue: Channel
        let alpha: Channel

        init(_ header: BMPHeader) {
            self.header = header
            (red, green, blue, alpha) = (
                Channel(header.masks.red), Channel(header.masks.green), Channel(header.masks.blue),
                Channel(header.masks.alpha)
            )
        }

        func convert(_ data: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt32>) {
            let width = header.width
            let black: UInt32 = 0xFF00_0000
            switch header.bitsPerPixel {
            case 24:
                for x in 0..<width {
                    let p = x * 3
                    out[x] = black | UInt32(data[p + 2]) << 16 | UInt32(data[p + 1]) << 8 | UInt32(data[p])
                }
            case 16, 32:
                let size = header.bitsPerPixel / 8
                for x in 0..<width {
                    let p = x * size
                    var v = UInt32(data[p]) | UInt32(data[p + 1]) << 8
                    if size == 4 { v |= UInt32(data[p + 2]) << 16 | UInt32(data[p + 3]) << 24 }
                    let a = alpha.bits > 0 ? alpha.value(v) : 255
                    out[x] = a << 24 | red.value(v) << 16 | green.value(v) << 8 | blue.value(v)
                }
            default:  // 1, 4, 8: palette indices, most significant bits first
                let bits = header.bitsPerPixel
                let perByte = 8 / bits
                let mask = UInt8(truncatingIfNeeded: (1 << bits) - 1)
                for x in 0..<width {
                    let byte = data[x / perByte]
                    let index = Int(byte >> UInt8(8 - bits - (x % perByte) * bits) & mask)
                    // An index past the table shows black, as Windows does.
                    out[x] = index < header.palette.count ? header.palette[index] : black
                }
            }
        }
    }

    /// RLE8 / RLE4: runs of one index, literal runs, end of line, delta moves, end of bitmap.
    ///
    /// The codes only ever move forward, so rows are finished one at a time and written to the
    /// picture as they are: a stream that ends early has touched only the rows it described.
    private static func decodeRLE(
        _ bytes: [UInt8], _ header: BMPHeader, name: String, control: ReplayControl?
    ) throws(ImageFileError) -> [UInt32] {
        let four = header.compression == .rle4
        let (width, height) = (header.width, header.height)
        let cut = ImageFileError.cutShort(path: name, reason: "its run-length data ends early")
        return try PixelBuffer.make(count: width * height) { (out) throws(ImageFileError) in
            guard let base = out.baseAddress else { return }
            var row = [UInt32](repeating: 0, count: width)
            var x = 0
            var line = 0  // rows from the first stored one
            var i = header.dataOffset
            // Writes the current row in its place; the next one starts transparent.
            func nextLine() {
                guard line < height else { return }
                let y = header.topDown ? line : height - 1 - line
                row.withUnsafeBufferPointer { source in
                    if let first = source.baseAddress { (base + y * width).update(from: first, count: width) }
                }
                for k in row.indices { row[k] = 0 }
                line += 1
            }
            func put(_ index: Int) {
                if x < width { row[x] = index < header.palette.count ? header.palette[index] : 0xFF00_0000 }
                x += 1
            }
            var checked = -1
            while line < height {
                if line != checked {
                    try ReplayControl.checkDecodeStep(control, name)
                    checked = line
                }
                guard i + 2 <= bytes.count else { throw cut }
                let count = Int(bytes[i])
                let value = bytes[i + 1]
                i += 2
                if count > 0 && x >= width {
                    x += count  // past the row's end: nothing to write
                    continue
                }
                if count > 0 {
                    for n in 0..<count { put(four ? Int(n % 2 == 0 ? value >> 4 : value & 15) : Int(value)) }
                    continue
                }
                switch value {
                case 0:  // end of line
                    nextLine()
                    x = 0
                case 1:  // end of bitmap: the rest is transparent
                    while line < height { nextLine() }
                case 2:  // delta: move right and down
                    guard i + 2 <= bytes.count else { throw cut }
                    for _ in 0..<Int(bytes[i + 1]) { nextLine() }
                    x += Int(bytes[i])
                    i += 2
                default:  // a literal run of `value` indices, padded to 16 bits
                    let n = Int(value)
                    let size = four ? (n + 1) / 2 : n
                    guard i + size <= bytes.count else { throw cut }
                    for k in 0..<n {
                        let byte = bytes[i + (four ? k / 2 : k)]
                        put(four ? Int(k % 2 == 0 ? byte >> 4 : byte & 15) : Int(byte))
                    }
                    i += size + size % 2
                }
            }
        }
    }
}

import PaintCore

/// BMP, read by hand: 1, 4 and 8 bits per pixel with a palette (RLE8 and RLE4 too), 16 and 32
/// with channel masks, 24; bottom-up or top-down; BMPs wrapping a PNG or JPEG.
///
/// The size is checked against the limits, and an uncompressed file against its own length,
/// before the pixels are allocated: a short file claiming a big picture is refused at once.
///
/// A file cut short opens with the rows it holds, as the other formats do (`PictureDamage`):
/// an uncompressed one when it holds at least one whole row and at least 1/`mostPixelBytesPerByte`
/// of its pixel data, run-length codes with the rows they finished. Rows are stored bottom-up
/// unless the header says top-down, so a cut bottom-up file keeps the picture's bottom rows
/// (`PictureDamage.orientation` is `.flipVertical`); the rest is white, or transparent where
/// the picture has alpha (always, for run-length codes, whose skipped pixels are transparent).
public enum BMPDecoder {
    /// An uncompressed file cut short claims at most this many bytes of pixel data per byte it
    /// holds: the most a PNG's deflate can pack into one (`DeflateBound`), so a few hundred
    /// bytes claiming a 20000 x 10000 picture are refused before it is set aside.
    static let mostPixelBytesPerByte = DeflateBound.mostBytesPerByte

    /// How many stored rows of an uncompressed picture `size` bytes of file hold: every one,
    /// or as many as a cut file holds, when they are worth showing (see `mostPixelBytesPerByte`);
    /// else the file is refused as cut short.
    static func rowsHeld(_ header: BMPHeader, size: Int, name: String) throws(ImageFileError) -> Int {
        let pixelBytes = header.rowBytes * header.height
        guard header.dataOffset + pixelBytes > size else { return header.height }
        let rows = max(0, size - header.dataOffset) / header.rowBytes
        guard rows > 0, size >= pixelBytes / mostPixelBytesPerByte else {
            throw .cutShort(
                path: name,
                reason: ImageFileError.tooFewBytes(size, width: header.width, height: header.height))
        }
        return rows
    }

    /// The most pixels a run-length coded file claims per byte it holds (headers and color
    /// table counted), checked before its pixels are set aside.
    ///
    /// Codes that give every pixel (runs and literals, each row ended by an end of line, as
    /// Windows, GIMP and ImageMagick write them) spend at least 2 bytes on 255 pixels: at most
    /// 127.5 pixels a byte. End of line, delta and end of bitmap leave pixels transparent with
    /// no bytes for them, and that is legal (an icon's clear rows, an end of bitmap before the
    /// last rows), so the codes alone bound nothing: 60 bytes ending in an end of bitmap claim
    /// 16384 x 16384 pixels, a gigabyte of transparent rows. A file may leave this much
    /// unsaid: 1032 pixels a byte, the bound of an uncompressed file cut short and of PNG's
    /// deflate (`mostPixelBytesPerByte`, `DeflateBound`), eight times the densest coding that gives every
    /// pixel. Past it the file is refused as damaged, with nothing set aside.
    static let mostRunLengthPixelsPerByte = mostPixelBytesPerByte

    /// Refuses a run-length coded file of `size` bytes that claims more pixels than it could
    /// plausibly describe (`mostRunLengthPixelsPerByte`).
    static func checkRunLengthSize(_ header: BMPHeader, size: Int, name: String) throws(ImageFileError) {
        guard header.width * header.height > size * mostRunLengthPixelsPerByte else { return }
        throw .damaged(
            path: name,
            reason: ImageFileError.tooFewBytes(size, width: header.width, height: header.height))
    }

    /// What a cut uncompressed or run-length coded file kept: `rows` stored rows of `header`'s.
    static func damage(_ header: BMPHeader, rows: Int, size: Int, name: String) -> PictureDamage? {
        guard rows < header.height else { return nil }
        return PictureDamage(
            error: .cutShort(
                path: name,
                reason: ImageFileError.tooFewBytes(size, width: header.width, height: header.height)),
            rowsRead: rows, height: header.height, orientation: header.topDown ? .identity : .flipVertical)
    }

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
            try checkRunLengthSize(header, size: bytes.count, name: name)
            let (pixels, rows) = try decodeRLE(bytes, header, name: name, control: control)
            guard let image = PixelImage(width: width, height: height, pixels: pixels) else {
                throw .damaged(path: name, reason: "the pixel count does not match the size")
            }
            // Pixels the run-length codes skipped stay transparent, as Windows shows them; so do
            // the rows of a cut file.
            let cut =
                rows < height
                ? PictureDamage(
                    error: .cutShort(path: name, reason: "its run-length data ends early"), rowsRead: rows,
                    height: height,
                    orientation: header.topDown ? .identity : .flipVertical) : nil
            return DecodedImage(image: image, format: .bmp, hasAlpha: !image.isOpaque, damage: cut)
        case .none, .bitfields:
            let rows = try rowsHeld(header, size: bytes.count, name: name)
            let alpha = Channel(header.masks.alpha)
            var pixels = try PixelBuffer.make(count: width * height) { (out) throws(ImageFileError) in
                try decodeRows(bytes, header, rows: rows, name: name, control: control, into: out)
            }
            // Many writers leave the alpha byte 0 everywhere: then it means nothing. (The rows
            // of a cut file not read are 0 here, and filled below.)
            let usesAlpha = alpha.bits > 0 && pixels.contains { $0 >> 24 != 0 }
            if alpha.bits > 0 {
                for i in pixels.indices {
                    pixels[i] = usesAlpha ? Pixel.premultiply(pixels[i]) : pixels[i] | 0xFF00_0000
                }
            }
            let damage = damage(header, rows: rows, size: bytes.count, name: name)
            if rows < height {
                let fill = PictureDamage.fill(hasAlpha: usesAlpha)
                let unread = header.topDown ? (rows * width)..<(height * width) : 0..<((height - rows) * width)
                pixels.withUnsafeMutableBufferPointer { $0[unread].update(repeating: fill) }
            }
            guard let image = PixelImage(width: width, height: height, pixels: pixels) else {
                throw .damaged(path: name, reason: "the pixel count does not match the size")
            }
            return DecodedImage(image: image, format: .bmp, hasAlpha: usesAlpha, damage: damage)
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

    /// The first `rows` stored uncompressed rows into straight pixels (alpha only where a mask
    /// gives one, else 255); the picture's other rows 0.
    private static func decodeRows(
        _ bytes: [UInt8], _ header: BMPHeader, rows: Int, name: String, control: ReplayControl?,
        into out: UnsafeMutableBufferPointer<UInt32>
    ) throws(ImageFileError) {
        guard let target = out.baseAddress else { return }
        let width = header.width
        let unread = header.topDown ? (rows * width)..<out.count : 0..<((header.height - rows) * width)
        out[unread].update(repeating: 0)
        let converter = RowConverter(header)
        try bytes.withUnsafeBufferPointer { (data) throws(ImageFileError) in
            for stored in 0..<rows {
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
        // A cut file: the rows it holds (checked before a row is read), the rest white.
        _ = try rowsHeld(header, size: stream.size, name: name)
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
                let size = header.dataOffset + stored * header.rowBytes + got
                // Shorter than its size said (a file cut while it was read): as a cut file.
                _ = try rowsHeld(header, size: size, name: name)
                writer.fill(rows: stored..<height, with: PictureDamage.fill(hasAlpha: false))
                return (writer.finish(), false, damage(header, rows: stored, size: size, name: name))
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
    /// picture as they are: a stream that ends early has written only the rows it finished,
    /// which are kept, the rest transparent (with the row it ended in); none is refused, cut
    /// short. Returns the pixels and how many stored rows were finished.
    private static func decodeRLE(
        _ bytes: [UInt8], _ header: BMPHeader, name: String, control: ReplayControl?
    ) throws(ImageFileError) -> (pixels: [UInt32], rows: Int) {
        let four = header.compression == .rle4
        let (width, height) = (header.width, header.height)
        let cut = ImageFileError.cutShort(path: name, reason: "its run-length data ends early")
        var finished = height
        let pixels = try PixelBuffer.make(count: width * height) { (out) throws(ImageFileError) in
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
            // The data ended after `line` whole rows: those are kept, the rest made transparent.
            func ended() throws(ImageFileError) {
                guard line > 0 else { throw cut }
                finished = line
                let unread = header.topDown ? (line * width)..<out.count : 0..<((height - line) * width)
                out[unread].update(repeating: 0)
            }
            var checked = -1
            rows: while line < height {
                if line != checked {
                    try ReplayControl.checkDecodeStep(control, name)
                    checked = line
                }
                guard i + 2 <= bytes.count else {
                    try ended()
                    break rows
                }
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
                    guard i + 2 <= bytes.count else {
                        try ended()
                        break rows
                    }
                    for _ in 0..<Int(bytes[i + 1]) { nextLine() }
                    x += Int(bytes[i])
                    i += 2
                default:  // a literal run of `value` indices, padded to 16 bits
                    let n = Int(value)
                    let size = four ? (n + 1) / 2 : n
                    guard i + size <= bytes.count else {
                        try ended()
                        break rows
                    }
                    for k in 0..<n {
                        let byte = bytes[i + (four ? k / 2 : k)]
                        put(four ? Int(k % 2 == 0 ? byte >> 4 : byte & 15) : Int(byte))
                    }
                    i += size + size % 2
                }
            }
        }
        return (pixels, finished)
    }
}

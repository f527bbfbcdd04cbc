import CJPEG
import PaintCore

/// JPEG bytes to and from `PixelImage`, through libjpeg-turbo (via the `CJPEG` C functions,
/// which keep libjpeg's longjmp inside C).
///
/// Decoding writes libjpeg-turbo's BGRA output straight into the picture's rows (or the engine's
/// tiles, 64 rows at a time), converts an
/// embedded ICC profile's colors to sRGB, converts CMYK (through its profile, or naively without
/// one), and turns the picture upright as its EXIF orientation says. Encoding writes baseline
/// JFIF with optimized Huffman tables at a quality of 1 to 100.
public enum JPEGCodec {
    /// The most scans a (progressive) JPEG may have: each scan can cost a pass over the whole
    /// picture, and real encoders write about ten.
    static let maxScans = 1000

    /// Decodes JPEG `bytes` into an opaque premultiplied image, upright. A `control` told to
    /// stop (a paste cancelled) ends the decode at its next step: a row of a progressive file's
    /// scan while they are read, a row of the picture after.
    public static func decode(
        _ bytes: [UInt8], name: String, limits: ImageLimits = .default, control: ReplayControl? = nil
    ) throws(ImageFileError) -> DecodedImage {
        let ((image, damage), orientation) = try reading(bytes, name: name, limits: limits, control: control) {
            (rows) throws(ImageFileError) -> (PixelImage, PictureDamage?) in
            let (width, height) = (rows.width, rows.height)
            var damage: PictureDamage?
            let pixels = try PixelBuffer.make(count: width * height) { (out) throws(ImageFileError) in
                guard let start = out.baseAddress else { return }
                var y = 0
                do throws(ImageFileError) {
                    while y < height {
                        try rows.read(into: start + y * width)
                        y += 1
                    }
                } catch {
                    damage = try rows.damage(error, rowsRead: y)
                    (start + y * width).update(
                        repeating: PictureDamage.fill(hasAlpha: false), count: (height - y) * width)
                }
            }
            guard let image = PixelImage(width: width, height: height, pixels: pixels) else {
                throw .damaged(path: name, reason: "the pixel count does not match the size")
            }
            return (image, damage ?? rows.coarse)
        }
        // The rows read are turned with the picture: a photo on its side read down to its middle
        // holds its left or right half (`PictureDamage.orientation`).
        return DecodedImage(
            image: image.oriented(orientation), format: .jpeg, hasAlpha: false, damage: damage?.turned(orientation))
    }

    /// Decodes JPEG `bytes` as `decode` does, straight into the engine's tiles: 64 rows at a
    /// time, turned upright as they are cut (`TiledPicture.Writer`), so no buffer of the whole
    /// picture is made, not even for a photo whose EXIF orientation turns it. The same checks,
    /// errors and pixels as `decode`.
    public static func decodeTiles(
        _ bytes: [UInt8], name: String, limits: ImageLimits = .default
    ) throws(ImageFileError) -> (picture: TiledPicture, damage: PictureDamage?) {
        try reading(bytes, name: name, limits: limits, control: nil, tiles)
    }

    /// Decodes the JPEG `stream` reads as `decodeTiles` decodes bytes: libjpeg's source asks
    /// the stream for each next chunk of the file (`cjpeg_reader_new_stream`), so the file is
    /// never held whole; its EXIF orientation and ICC profile come from the header segments,
    /// kept as they pass (`JPEGHeaderCapture`).
    static func decodeTiles(
        _ stream: PictureStream, limits: ImageLimits
    ) throws(ImageFileError) -> (picture: TiledPicture, damage: PictureDamage?) {
        let capture = JPEGHeaderCapture(limit: limits.maxMetadataBytes + (1 << 20))
        stream.observe { capture.see($0) }
        // libjpeg reads the chunk in place until it asks for the next one.
        let fill: cjpeg_fill = { user, data in
            guard let user else { return 0 }
            let stream = Unmanaged<PictureStream>.fromOpaque(user).takeUnretainedValue()
            let chunk = stream.available
            stream.consume(chunk.count)
            data?.pointee = chunk.baseAddress?.assumingMemoryBound(to: UInt8.self)
            return chunk.count
        }
        return try withExtendedLifetime(stream) { () throws(ImageFileError) in
            let reader = cjpeg_reader_new_stream(
                fill, Unmanaged.passUnretained(stream).toOpaque(), 16 << 20, Int32(maxScans))
            return try reading(
                reader, name: stream.name, fileSize: stream.size, limits: limits,
                metadata: { JPEGMetadata(capture.prefix, maxProfileBytes: limits.maxMetadataBytes) }, tiles)
        }
    }

    /// The rows of `rows` into tiles, turned upright as `orientation` asks while they are cut;
    /// a file that ends or breaks after its first row keeps the rows before (`PictureDamage`).
    private static func tiles(
        _ rows: JPEGRows, _ orientation: Orientation
    ) throws(ImageFileError) -> (picture: TiledPicture, damage: PictureDamage?) {
        let writer = TiledPicture.Writer(width: rows.width, height: rows.height, orientation: orientation)
        guard let band = writer.band.baseAddress else { return (writer.finish(), nil) }
        var y = 0
        do throws(ImageFileError) {
            while y < rows.height {
                try rows.read(into: band + writer.bandRow(of: y) * rows.width)
                writer.rowWritten(y)
                y += 1
            }
        } catch {
            let damage = try rows.damage(error, rowsRead: y)
            writer.fill(rows: y..<rows.height, with: PictureDamage.fill(hasAlpha: false))
            return (writer.finish(), damage.turned(orientation))
        }
        return (writer.finish(), rows.coarse?.turned(orientation))
    }

    /// Reads the header of JPEG `bytes`, checks its size against `limits`, starts the decoder
    /// and hands `body` the rows to read, with the orientation the file asks for.
    private static func reading<Result>(
        _ bytes: [UInt8], name: String, limits: ImageLimits, control: ReplayControl?,
        _ body: (JPEGRows, Orientation) throws(ImageFileError) -> Result
    ) throws(ImageFileError) -> Result {
        guard !bytes.isEmpty else { throw .emptyFile(path: name) }
        let metadata = JPEGMetadata(bytes, maxProfileBytes: limits.maxMetadataBytes)
        let result: Swift.Result<Result, ImageFileError> = bytes.withUnsafeBufferPointer { raw in
            Swift.Result { () throws(ImageFileError) in
                let reader = raw.baseAddress.flatMap { cjpeg_reader_new($0, raw.count, 16 << 20, Int32(maxScans)) }
                return try stoppable(reader, control) { () throws(ImageFileError) in
                    try reading(reader, name: name, fileSize: raw.count, limits: limits, metadata: { metadata }, body)
                }
            }
        }
        return try result.get()
    }

    /// Reads the header through `reader` (freed here), checks the size against `limits`,
    /// starts the decoder and hands `body` the rows to read, with the orientation `metadata`
    /// (asked once the header is read) says.
    private static func reading<Result>(
        _ reader: OpaquePointer?, name: String, fileSize: Int, limits: ImageLimits, metadata: () -> JPEGMetadata,
        _ body: (JPEGRows, Orientation) throws(ImageFileError) -> Result
    ) throws(ImageFileError) -> Result {
        guard let reader else { throw .damaged(path: name, reason: "out of memory") }
        defer { cjpeg_reader_free(reader) }
        let (rows, orientation) = try JPEGRows.start(
            reader, name: name, fileSize: fileSize, limits: limits, metadata: metadata)
        defer { rows.deallocate() }
        return try body(rows, orientation)
    }

    /// Decodes JPEG `bytes` with the orientation the file asks for, not yet applied.
    private static func reading<Result>(
        _ bytes: [UInt8], name: String, limits: ImageLimits, control: ReplayControl?,
        _ body: (JPEGRows) throws(ImageFileError) -> Result
    ) throws(ImageFileError) -> (Result, Orientation) {
        try reading(bytes, name: name, limits: limits, control: control) { (rows, orientation) throws(ImageFileError) in
            (try body(rows), orientation)
        }
    }

    /// Runs `body` with `reader` asking `control` at each of libjpeg's steps whether to stop
    /// (see `cjpeg_reader_set_stop`; libjpeg checks once per row, in the scans and out of them).
    private static func stoppable<Result>(
        _ reader: OpaquePointer?, _ control: ReplayControl?, _ body: () throws(ImageFileError) -> Result
    ) throws(ImageFileError) -> Result {
        guard let reader, let control else { return try body() }
        let ask: cjpeg_should_stop = { user in
            guard let user else { return 0 }
            return Unmanaged<ReplayControl>.fromOpaque(user).takeUnretainedValue().decodeShouldStop() ? 1 : 0
        }
        cjpeg_reader_set_stop(reader, ask, Unmanaged.passUnretained(control).toOpaque())
        return try withExtendedLifetime(control) { () throws(ImageFileError) in try body() }
    }

    /// A started decoding: the picture's rows, one after another, as packed opaque pixels.
    private struct JPEGRows {
        let reader: OpaquePointer
        let name: String
        let width: Int
        let height: Int
        let rgb: Bool
        let adobe: Bool
        let transform: ColorTransform?
        let scratch: UnsafeMutableBufferPointer<UInt16>
        /// Set when a progressive file ended while its scans were read: every row is read, from
        /// the scans the data held (coarser than the whole file's).
        let coarse: PictureDamage?

        /// What `error`, met after `rowsRead` rows, leaves: the rows read, when there is at least
        /// one and the file is at fault; otherwise `error` is thrown.
        func damage(_ error: ImageFileError, rowsRead: Int) throws(ImageFileError) -> PictureDamage {
            guard PictureDamage.keeps(error), rowsRead > 0 else { throw error }
            return PictureDamage(error: error, rowsRead: rowsRead, height: height, inOrder: coarse == nil)
        }

        /// Reads the header, checks the size against `limits` and that the file can hold it,
        /// and starts decompressing.
        static func start(
            _ reader: OpaquePointer, name: String, fileSize: Int, limits: ImageLimits, metadata: () -> JPEGMetadata
        ) throws(ImageFileError) -> (JPEGRows, Orientation) {
            var info = cjpeg_info()
            guard cjpeg_read_header(reader, &info) != 0 else { throw failure(reader, name) }
            // Every segment before the first scan has been read by now.
            let metadata = metadata()
            let profile = metadata.iccProfile
            let width = Int(info.width)
            let height = Int(info.height)
            guard limits.allows(width: width, height: height) else {
                throw .tooLarge(path: name, width: width, height: height, limits: limits)
            }
            // Huffman coding spends at least one bit on every 8 x 8 block (its DC code), so a
            // file shorter than that is cut short: refused here, before any buffer is made.
            let blocks = ((width + 7) / 8) * ((height + 7) / 8)
            if info.arithmetic == 0 && fileSize * 8 < blocks {
                throw .cutShort(
                    path: name, reason: ImageFileError.tooFewBytes(fileSize, width: width, height: height))
            }
            // libjpeg's own memory: a progressive file keeps every coefficient (2 bytes per
            // sample, at most 4 samples per pixel) until its last scan; anything beyond that is
            // refused.
            let started = cjpeg_start(reader, width * height * 8 + (16 << 20))
            guard started != 0 else { throw failure(reader, name) }
            let coarse =
                started == 2
                ? PictureDamage(
                    error: .cutShort(path: name, reason: String(cString: cjpeg_reader_message(reader))),
                    rowsRead: 0, height: height, inOrder: false) : nil
            let rgb = info.rgb != 0
            let transform: ColorTransform? =
                rgb
                ? profile.flatMap { ColorTransform.make(for: .icc($0), gray: false) }
                : profile.flatMap { ColorTransform.cmyk(profile: $0, inverted: info.adobe != 0) }
            let rows = JPEGRows(
                reader: reader, name: name, width: width, height: height, rgb: rgb, adobe: info.adobe != 0,
                transform: transform, scratch: .allocate(capacity: width * 4), coarse: coarse)
            return (rows, metadata.orientation)
        }

        func deallocate() { scratch.deallocate() }

        /// Decodes the next row into the `width` pixels at `row`.
        func read(into row: UnsafeMutablePointer<UInt32>) throws(ImageFileError) {
            // libjpeg-turbo writes bytes B, G, R, 255: SwiftPaint's packed pixel, opaque. CMYK
            // rows are 4 bytes per pixel too, converted in place below.
            guard cjpeg_read_row(reader, UnsafeMutableRawPointer(row).assumingMemoryBound(to: UInt8.self)) != 0
            else { throw Self.failure(reader, name) }
            let pixels = UnsafeMutableBufferPointer(start: row, count: width)
            if rgb {
                if let transform { JPEGCodec.convertRGB(pixels, transform, scratch) }
            } else {
                JPEGCodec.convertCMYK(pixels, transform, inverted: adobe, scratch)
            }
        }

        /// The decoder's last failure: the file cut short, or damaged.
        static func failure(_ reader: OpaquePointer, _ name: String) -> ImageFileError {
            let reason = String(cString: cjpeg_reader_message(reader))
            return cjpeg_reader_truncated(reader) != 0
                ? .cutShort(path: name, reason: reason) : .damaged(path: name, reason: reason)
        }
    }

    /// Opaque BGRA pixels through an RGB profile's transform, in place.
    private static func convertRGB(
        _ row: UnsafeMutableBufferPointer<UInt32>, _ transform: ColorTransform,
        _ scratch: UnsafeMutableBufferPointer<UInt16>
    ) {
        for (i, p) in row.enumerated() {
            scratch[i * 4] = UInt16(truncatingIfNeeded: p >> 16 & 0xFF) &* 257
            scratch[i * 4 + 1] = UInt16(truncatingIfNeeded: p >> 8 & 0xFF) &* 257
            scratch[i * 4 + 2] = UInt16(truncatingIfNeeded: p & 0xFF) &* 257
            scratch[i * 4 + 3] = 65535
        }
        scratch.baseAddress.map { transform.apply($0, count: row.count) }
        for i in row.indices {
            row[i] = PixelBuffer.pack16(scratch[i * 4], scratch[i * 4 + 1], scratch[i * 4 + 2], 65535)
        }
    }

    /// CMYK bytes (C, M, Y, K in memory) to opaque pixels, in place: through the file's profile
    /// when it has one, else by the usual formula (each ink taking away its share of light).
    private static func convertCMYK(
        _ row: UnsafeMutableBufferPointer<UInt32>, _ transform: ColorTransform?, inverted: Bool,
        _ scratch: UnsafeMutableBufferPointer<UInt16>
    ) {
        if let transform, let base = row.baseAddress, let rgb = scratch.baseAddress {
            transform.convert(cmyk: UnsafeRawPointer(base), to: rgb, count: row.count)
            for i in row.indices {
                row[i] = PixelBuffer.pack16(scratch[i * 3], scratch[i * 3 + 1], scratch[i * 3 + 2], 65535)
            }
            return
        }
        for i in row.indices {
            let p = UInt32(littleEndian: row[i])
            // Adobe's files store 255 for no ink; others store the ink amount.
            var c = p & 0xFF
            var m = p >> 8 & 0xFF
            var y = p >> 16 & 0xFF
            var k = p >> 24
            if !inverted { (c, m, y, k) = (255 - c, 255 - m, 255 - y, 255 - k) }
            row[i] = 0xFF00_0000 | Pixel.div255(c * k) << 16 | Pixel.div255(m * k) << 8 | Pixel.div255(y * k)
        }
    }

    /// Encodes `image` as a baseline JPEG of `quality` (1...100, clamped): the color as
    /// `sampling` says (an opened JPEG's own), or without one at full resolution (4:4:4) from
    /// quality 90 up, halved both ways (4:2:0) below; a `resolution` is declared as the JFIF
    /// density in dots per inch.
    ///
    /// JPEG has no alpha: the premultiplied channels are written as they are, which is the image
    /// over black; flatten a picture with transparency onto the backdrop you want first.
    public static func encode(
        _ image: PixelImage, quality: Int, sampling: JPEGSampling? = nil, resolution: PictureResolution? = nil
    ) throws(ImageFileError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else {
            throw .cannotEncode(path: "", reason: "the image has no pixels")
        }
        guard image.width <= 65500, image.height <= 65500 else {
            throw .cannotEncode(path: "", reason: "JPEG pictures are at most 65500 pixels on a side")
        }
        var message = [CChar](repeating: 0, count: 256)
        var output: UnsafeMutablePointer<UInt8>?
        var size = 0
        let density = resolution?.perInch ?? (x: 0, y: 0)
        let ok = image.pixels.withUnsafeBytes { raw in
            cjpeg_encode(
                raw.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt32(image.width), UInt32(image.height),
                image.width * 4, Int32(min(100, max(1, quality))), Int32(sampling?.horizontal ?? 0),
                Int32(sampling?.vertical ?? 0), UInt32(density.x), UInt32(density.y), &output,
                &size, &message, message.count)
        }
        guard ok != 0, let output else {
            let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw .cannotEncode(path: "", reason: reason)
        }
        defer { cjpeg_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}

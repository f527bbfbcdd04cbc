import CSPNG
import PaintCore

/// PNG bytes to and from `PixelImage`, through libspng.
///
/// Decoding handles every valid file: bit depths 1 to 16, gray, gray+alpha, palette, RGB and
/// RGBA, transparency from tRNS, Adam7 interlacing. Rows are decoded one at a time at the
/// file's precision (16-bit samples stay 16-bit until the end), converted to sRGB when the file
/// says it is in another space (iCCP, gAMA, cHRM; see `SourceColor`), rounded to 8 bits and
/// premultiplied. libspng reports errors as return codes (no longjmp) and bounds what ancillary
/// chunks may cost; see BENCHMARKS.md for why it was chosen over libpng.
public enum PNGCodec {
    /// The eight bytes every PNG file starts with.
    static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

    /// Decodes PNG `bytes` into a premultiplied image (see `decodePicture`).
    public static func decode(
        _ bytes: [UInt8], name: String, limits: ImageLimits = .default, control: ReplayControl? = nil
    ) throws(ImageFileError) -> PixelImage {
        try decodePicture(bytes, name: name, limits: limits, control: control).image
    }

    /// Decodes PNG `bytes`: the pixels, and whether the file stores transparency.
    ///
    /// `name` is only used in error messages. The size in the header is checked against `limits`
    /// before the pixel buffer is allocated, so a header claiming 100000 x 100000 pixels fails
    /// at once; so does a file far too short to hold the picture it claims. No ancillary chunk
    /// (text, color profile) may take more than `limits.maxMetadataBytes`, together. A
    /// `control` told to stop (a paste decoded on its own thread, cancelled) ends the decode at
    /// the next row, with its memory freed.
    public static func decodePicture(
        _ bytes: [UInt8], name: String, limits: ImageLimits = .default, control: ReplayControl? = nil
    ) throws(ImageFileError) -> DecodedImage {
        guard !bytes.isEmpty else { throw .emptyFile(path: name) }
        // Our own signature check gives "not a PNG file" for text, JPEGs and the like. A short
        // prefix of the signature is a truncated PNG, so it falls through and is cut short.
        let checked = min(bytes.count, signature.count)
        guard bytes[0..<checked].elementsEqual(signature[0..<checked]) else { throw .notPNG(path: name) }
        try checkClaims(bytes, name: name, limits: limits)
        return try retryingWithoutMetadata(bytes, name: name, limits: limits, control: control) {
            (reading) throws(ImageFileError) in try reading.read()
        }
    }

    /// Decodes PNG `bytes` straight into the engine's tiles (`TiledPicture`), one band of 64
    /// rows at a time: no buffer of the whole picture is made, and squares of one value take no
    /// memory of their own. The same checks, errors and pixels as `decodePicture` (an interlaced
    /// file, whose rows come in seven passes, is decoded whole and then cut, its memory given
    /// back as it is cut: `TiledPicture(releasing:)`).
    public static func decodeTiles(
        _ bytes: [UInt8], name: String, limits: ImageLimits = .default
    ) throws(ImageFileError) -> (picture: TiledPicture, hasAlpha: Bool, damage: PictureDamage?) {
        guard !bytes.isEmpty else { throw .emptyFile(path: name) }
        let checked = min(bytes.count, signature.count)
        guard bytes[0..<checked].elementsEqual(signature[0..<checked]) else { throw .notPNG(path: name) }
        try checkClaims(bytes, name: name, limits: limits)
        return try retryingWithoutMetadata(bytes, name: name, limits: limits) { (reading) throws(ImageFileError) in
            try reading.readTiles()
        }
    }

    /// Decodes the PNG `stream` reads straight into tiles, as `decodeTiles` decodes bytes, in
    /// one attempt: libspng reads the file through the stream's buffer (its stream callback),
    /// so the file is never held whole. `.metadataTooLarge` when an ancillary chunk is over the
    /// limit (the caller then decodes the file's bytes without such chunks).
    static func decodeTiles(
        _ stream: PictureStream, limits: ImageLimits
    ) throws(ImageFileError) -> (picture: TiledPicture, hasAlpha: Bool, damage: PictureDamage?) {
        let head = stream.peek(signature.count)
        guard !head.isEmpty else { throw .emptyFile(path: stream.name) }
        guard head.elementsEqual(signature[0..<head.count]) else { throw .notPNG(path: stream.name) }
        guard let context = spng_ctx_new(0) else { throw .damaged(path: stream.name, reason: "out of memory") }
        defer { spng_ctx_free(context) }
        let metadata = min(limits.maxMetadataBytes, Int(Int32.max))
        spng_set_chunk_limits(context, metadata, metadata)
        return try withExtendedLifetime(stream) { () throws(ImageFileError) in
            read(context, from: stream)
            return try PNGReading(context: context, name: stream.name, fileSize: stream.size, limits: limits)
                .readTiles()
        }
    }

    /// Makes libspng read through `stream` (which must outlive the decode), from memory or a
    /// file alike: it asks for exactly `length` bytes each time (the picture data 8 KB at a
    /// time), and fewer is the end of the file. Its buffer mode would read each IDAT chunk
    /// whole before decoding any of it; read this way, a file cut inside a large chunk still
    /// gives the rows before the cut, the same from memory as from the file.
    private static func read(_ context: OpaquePointer, from stream: PictureStream) {
        spng_set_png_stream(
            context,
            { _, user, target, length in
                guard let user, let target else { return SPNG_IO_ERROR.rawValue }
                let stream = Unmanaged<PictureStream>.fromOpaque(user).takeUnretainedValue()
                let got = stream.read(into: UnsafeMutableRawBufferPointer(start: target, count: length))
                return got == length ? 0 : SPNG_IO_EOF.rawValue
            }, Unmanaged.passUnretained(stream).toOpaque())
    }

    /// Picture data (`IDAT`) claiming more than its picture can need was read only up to that
    /// chunk's header (`PictureExtent.pngEnd`): this says so, not that the file is cut short.
    private static func checkClaims(_ bytes: [UInt8], name: String, limits: ImageLimits) throws(ImageFileError) {
        var extent = PictureExtent(limits: limits, fileSize: bytes.count)
        if case .end = extent.look(at: bytes, atEnd: true), let error = extent.overclaimError(name: name) {
            throw error
        }
    }

    /// Runs `read` on a decoding of `bytes`. Metadata SwiftPaint does not use (text, suggested
    /// palettes, EXIF) that is larger than it reads is skipped, as libpng's chunk limit skips
    /// it: the picture opens from a copy without those chunks, and then without its color
    /// profile if that is what was too large (it shows as sRGB, as in viewers).
    private static func retryingWithoutMetadata<Result>(
        _ bytes: [UInt8], name: String, limits: ImageLimits, control: ReplayControl? = nil,
        _ read: (PNGReading) throws(ImageFileError) -> Result
    ) throws(ImageFileError) -> Result {
        func attempt(_ png: [UInt8]) throws(ImageFileError) -> Result? {
            do {
                return try decodeOnce(png, name: name, limits: limits, control: control, read)
            } catch .metadataTooLarge {
                return nil
            }
        }
        if let picture = try attempt(bytes) { return picture }
        if let picture = try attempt(PNGChunks.essentials(of: bytes, keepingProfile: true)) { return picture }
        if let picture = try attempt(PNGChunks.essentials(of: bytes, keepingProfile: false)) { return picture }
        throw .metadataTooLarge(path: name, limit: limits.maxMetadataBytes)
    }

    /// One decoding of `bytes` through `read`; `.metadataTooLarge` when an ancillary chunk is
    /// over the limit.
    private static func decodeOnce<Result>(
        _ bytes: [UInt8], name: String, limits: ImageLimits, control: ReplayControl?,
        _ read: (PNGReading) throws(ImageFileError) -> Result
    ) throws(ImageFileError) -> Result {
        guard let context = spng_ctx_new(0) else { throw .damaged(path: name, reason: "out of memory") }
        defer { spng_ctx_free(context) }
        let metadata = min(limits.maxMetadataBytes, Int(Int32.max))
        spng_set_chunk_limits(context, metadata, metadata)
        let stream = PictureStream(bytes: bytes, name: name)
        return try withExtendedLifetime(stream) { () throws(ImageFileError) in
            Self.read(context, from: stream)
            return try read(
                PNGReading(context: context, name: name, fileSize: bytes.count, limits: limits, control: control))
        }
    }
}

extension PNGChunks {
    /// The ancillary chunks the decoder reads for the picture's pixels and colours: its
    /// transparency, gamma, chromaticities, sRGB intent and ICC profile.
    static let colorChunks = ["tRNS", "gAMA", "cHRM", "sRGB", "iCCP"].map { Array($0.utf8) }

    /// `png` with only the chunks that make its pixels and their colors (IHDR, PLTE, IDAT,
    /// IEND, tRNS, gAMA, cHRM, sRGB, and iCCP when `keepingProfile`), copied as they are. A
    /// structure that breaks stops the copy there, and the decoder then finds it cut short.
    static func essentials(of png: [UInt8], keepingProfile: Bool) -> [UInt8] {
        var kept = ["IHDR", "PLTE", "IDAT", "IEND"].map { Array($0.utf8) } + colorChunks
        if !keepingProfile { kept.removeAll { $0 == Array("iCCP".utf8) } }
        let chunks: [Chunk]
        switch walk(png) {
        case .complete(let all), .broken(let all, _, _): chunks = all
        case .notPNG: return png
        }
        var out = signature
        for chunk in chunks where kept.contains(chunk.type) { out += png[chunk.start..<chunk.end] }
        return out
    }
}

/// One decoding: libspng's context and what has been learned about the file so far.
private struct PNGReading {
    let context: OpaquePointer
    let name: String
    let fileSize: Int
    let limits: ImageLimits
    /// Stops the decode between two rows when told to (nil: never).
    var control: ReplayControl? = nil

    /// The whole picture in one buffer. A file that breaks or ends after its first row keeps
    /// the rows (an interlaced one: the passes) read before (`PictureDamage`).
    func read() throws(ImageFileError) -> DecodedImage {
        let (header, hasAlpha, rows) = try start()
        defer { rows.deallocate() }
        let width = Int(header.width)
        let height = Int(header.height)
        let interlaced = header.interlace_method != 0
        var damage: PictureDamage?
        let pixels = try PixelBuffer.make(count: width * height) { (out) throws(ImageFileError) in
            var stored = 0
            var last: (y: Int, pass: Int)?
            do throws(ImageFileError) {
                try eachRow(rows) { (y, pass) throws(ImageFileError) in
                    stored += rows.store(into: out, y: y, pass: pass)
                    last = (y, pass)
                }
                // The buffer was not zeroed: every pixel must have been written.
                try checkComplete(stored, of: width * height)
                try finish()
            } catch {
                guard PictureDamage.keeps(error), let last else { throw error }
                let read =
                    stored == width * height
                    ? height
                    : RowStore.fillUnread(
                        out, width: width, interlaced: interlaced, after: last,
                        with: PictureDamage.fill(hasAlpha: hasAlpha))
                damage = PictureDamage(error: error, rowsRead: read, height: height, inOrder: !interlaced)
            }
        }
        guard let image = PixelImage(width: width, height: height, pixels: pixels) else {
            throw .damaged(path: name, reason: "the pixel count does not match the size")
        }
        return DecodedImage(image: image, format: .png, hasAlpha: hasAlpha, damage: damage)
    }

    /// The picture in the engine's tiles, 64 rows at a time (an interlaced one through `read`);
    /// a file that breaks or ends after its first row keeps the rows before, the rest filled
    /// (flat tiles, which take no memory of their own).
    func readTiles() throws(ImageFileError) -> (picture: TiledPicture, hasAlpha: Bool, damage: PictureDamage?) {
        var first = spng_ihdr()
        try check(spng_get_ihdr(context, &first))
        if first.interlace_method != 0 {
            // The seven passes each cover the whole picture: decoded whole, its memory given
            // back band by band as it is cut.
            let decoded = try read()
            let (hasAlpha, damage) = (decoded.hasAlpha, decoded.damage)
            return (TiledPicture(releasing: (consume decoded).image), hasAlpha, damage)
        }
        let (header, hasAlpha, rows) = try start()
        defer { rows.deallocate() }
        let width = Int(header.width)
        let height = Int(header.height)
        let writer = TiledPicture.Writer(width: width, height: height)
        var stored = 0
        var next = 0
        var damage: PictureDamage?
        do throws(ImageFileError) {
            try eachRow(rows) { (y, _) throws(ImageFileError) in
                // Rows come in order; a band is cut into tiles once its last row is in.
                guard y == next else { throw .damaged(path: name, reason: "row \(y) came where row \(next) was due") }
                next += 1
                stored += rows.store(into: writer.band, y: writer.bandRow(of: y), pass: 0)
                writer.rowWritten(y)
            }
            try checkComplete(stored, of: width * height)
            try finish()
        } catch {
            guard PictureDamage.keeps(error), next > 0 else { throw error }
            writer.fill(rows: next..<height, with: PictureDamage.fill(hasAlpha: hasAlpha))
            damage = PictureDamage(error: error, rowsRead: next, height: height)
        }
        return (writer.finish(), hasAlpha, damage)
    }

    /// Reads the header and starts decoding: the size within the limits, a file long enough to
    /// hold it, the transparency and the color conversion the file asks for.
    private func start() throws(ImageFileError) -> (header: spng_ihdr, hasAlpha: Bool, rows: RowStore) {
        var header = spng_ihdr()
        try check(spng_get_ihdr(context, &header))
        let width = Int(header.width)
        let height = Int(header.height)
        guard limits.allows(width: width, height: height) else {
            throw .tooLarge(path: name, width: width, height: height, limits: limits)
        }
        try checkPlausible(header)
        let hasAlpha = try hasTransparency(header)
        let gray =
            header.color_type == UInt8(SPNG_COLOR_TYPE_GRAYSCALE.rawValue)
            || header.color_type == UInt8(SPNG_COLOR_TYPE_GRAYSCALE_ALPHA.rawValue)
        let transform = ColorTransform.make(for: try sourceColor(), gray: gray)

        let wide = header.bit_depth == 16
        // Opaque 8-bit color with nothing to convert, the usual PNG: libspng hands its rows over
        // as the file has them, three bytes a pixel, and they are packed straight into opaque
        // pixels, rather than widened to RGBA first and then "premultiplied" by an alpha that is
        // always 255 (at 1920 x 1080, 28 of libspng's 29 million instructions per picture).
        let rgb =
            !wide && !hasAlpha && transform == nil && header.color_type == UInt8(SPNG_COLOR_TYPE_TRUECOLOR.rawValue)
        let format = wide ? SPNG_FMT_RGBA16 : rgb ? SPNG_FMT_RGB8 : SPNG_FMT_RGBA8
        let flags = (rgb ? 0 : SPNG_DECODE_TRNS.rawValue) | SPNG_DECODE_PROGRESSIVE.rawValue
        try check(spng_decode_image(context, nil, 0, Int32(format.rawValue), Int32(flags)))
        let rows = RowStore(
            width: width, wide: wide, rgb: rgb, interlaced: header.interlace_method != 0, transform: transform)
        return (header, hasAlpha, rows)
    }

    /// Decodes row after row into libspng's row buffer, calling `body` with each row's number
    /// and pass.
    private func eachRow(_ rows: RowStore, _ body: (Int, Int) throws(ImageFileError) -> Void) throws(ImageFileError) {
        var info = spng_row_info()
        while true {
            // libspng answers SPNG_EOI either with the last row or, after it, here.
            let next = spng_get_row_info(context, &info)
            if next == SPNG_EOI.rawValue { break }
            try check(next)
            let status = spng_decode_row(context, rows.row.baseAddress, rows.row.count)
            if status != 0 && status != SPNG_EOI.rawValue { try check(status) }
            // Nobody waits for the picture any more (a cancelled paste): the buffers go now.
            try ReplayControl.checkDecodeStep(control, name)
            try body(Int(info.row_num), Int(info.pass))
            if status == SPNG_EOI.rawValue { break }
        }
    }

    /// Every pixel must have been written: the buffers are not zeroed.
    private func checkComplete(_ stored: Int, of count: Int) throws(ImageFileError) {
        guard stored == count else {
            throw .damaged(path: name, reason: "the decoder stopped after \(stored) of \(count) pixels")
        }
    }

    /// The chunks after the image: this checks the last IDAT's CRC. A file that lost only its
    /// IEND still has every pixel, so running out of data here is tolerated.
    private func finish() throws(ImageFileError) {
        let end = spng_decode_chunks(context)
        if end != 0 && end != SPNG_IO_EOF.rawValue && end != SPNG_EOF.rawValue { try check(end) }
    }

    /// A file cannot be shorter than its image data compressed: deflate packs at most
    /// `DeflateBound.mostBytesPerByte` bytes into one, so a few hundred bytes claiming a
    /// 20000 x 10000 picture are refused here, before a gigabyte is set aside for it.
    private func checkPlausible(_ header: spng_ihdr) throws(ImageFileError) {
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(header.color_type)] ?? 4
        let bitsPerPixel = channels * Int(header.bit_depth)
        var raw = 0
        for pass in Adam7.passes(interlaced: header.interlace_method != 0) {
            let (columns, rows) = pass.size(width: Int(header.width), height: Int(header.height))
            if columns > 0 && rows > 0 { raw += rows * (1 + (columns * bitsPerPixel + 7) / 8) }
        }
        if fileSize < raw / DeflateBound.mostBytesPerByte {
            throw .cutShort(
                path: name,
                reason: ImageFileError.tooFewBytes(fileSize, width: Int(header.width), height: Int(header.height)))
        }
    }

    private func hasTransparency(_ header: spng_ihdr) throws(ImageFileError) -> Bool {
        if header.color_type & 4 != 0 { return true }
        var trns = spng_trns()
        let status = spng_get_trns(context, &trns)
        if status == SPNG_ECHUNKAVAIL.rawValue { return false }
        try check(status)
        return true
    }

    /// What the file says about its colors, in the PNG specification's order of precedence.
    private func sourceColor() throws(ImageFileError) -> SourceColor {
        var iccp = spng_iccp()
        if try present(spng_get_iccp(context, &iccp)), let profile = iccp.profile, iccp.profile_len > 0 {
            return .icc(Array(UnsafeRawBufferPointer(start: profile, count: iccp.profile_len)))
        }
        var intent: UInt8 = 0
        if try present(spng_get_srgb(context, &intent)) { return .sRGB }
        var chrm = spng_chrm()
        let chromaticities: SourceColor.Chromaticities? =
            try present(spng_get_chrm(context, &chrm))
            ? .init(
                white: (chrm.white_point_x, chrm.white_point_y), red: (chrm.red_x, chrm.red_y),
                green: (chrm.green_x, chrm.green_y), blue: (chrm.blue_x, chrm.blue_y)) : nil
        var gamma = 0.0
        if try present(spng_get_gama(context, &gamma)) { return .gamma(gamma, chromaticities) }
        return chromaticities.map { .chromaticities($0) } ?? .sRGB
    }

    /// Whether a chunk getter found its chunk; a damaged file throws.
    private func present(_ status: Int32) throws(ImageFileError) -> Bool {
        if status == SPNG_ECHUNKAVAIL.rawValue { return false }
        try check(status)
        return true
    }

    /// libspng's status as an error in words; 0 passes.
    private func check(_ status: Int32) throws(ImageFileError) {
        switch status {
        case 0: return
        case SPNG_IO_EOF.rawValue, SPNG_EOF.rawValue:
            throw .cutShort(path: name, reason: "it ends before the picture does")
        case SPNG_EIDAT_TOO_SHORT.rawValue:
            throw .cutShort(path: name, reason: "the image data ends early")
        case SPNG_ECHUNK_LIMITS.rawValue:
            throw .metadataTooLarge(path: name, limit: limits.maxMetadataBytes)
        default:
            let text = spng_strerror(status).map { String(cString: $0) } ?? "error \(status)"
            throw .damaged(path: name, reason: text)
        }
    }
}

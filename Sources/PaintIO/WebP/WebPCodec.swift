import CWebP
import PaintCore

/// WebP bytes to and from `PixelImage`, through libwebp.
///
/// Decoding writes libwebp's straight BGRA output into the picture's buffer and premultiplies it
/// in place; an animation opens as its first frame on a transparent canvas; an ICC profile
/// (ICCP chunk) is converted to sRGB. Encoding is lossless by default, lossy with a quality.
public enum WebPCodec {
    /// WebP's own limit on either side.
    static let maxSide = 16383

    /// Decodes WebP `bytes` (the first frame of an animation). With a `control`, the frame is
    /// decoded a chunk of its data at a time (`decodeChunk`), so a control told to stop (a
    /// paste cancelled) ends the decode within one.
    public static func decode(
        _ bytes: [UInt8], name: String, limits: ImageLimits = .default, control: ReplayControl? = nil
    ) throws(ImageFileError) -> DecodedImage {
        guard !bytes.isEmpty else { throw .emptyFile(path: name) }
        // A chunk claiming more than its picture can need, or a fixed-size chunk far more than
        // its size, was read only up to its header (`PictureExtent.webpEnd`): say so, not that
        // the file is cut short.
        var extent = PictureExtent(limits: limits, fileSize: bytes.count)
        if case .end = extent.look(at: bytes, atEnd: true) {
            if let error = extent.overclaimError(name: name) { throw error }
            if let chunk = extent.overlong {
                throw .damaged(
                    path: name,
                    reason: "its \(chunk.type) chunk claims \(chunk.bytes) bytes, where the format gives it"
                        + " \(chunk.type == "VP8X" ? 10 : 6)")
            }
        }
        let result: Result<DecodedImage, ImageFileError> = bytes.withUnsafeBufferPointer { raw in
            Result { () throws(ImageFileError) in
                guard let base = raw.baseAddress else { throw .emptyFile(path: name) }
                return try decode(base, raw.count, name: name, limits: limits, control: control)
            }
        }
        return try result.get()
    }

    private static func decode(
        _ base: UnsafePointer<UInt8>, _ count: Int, name: String, limits: ImageLimits, control: ReplayControl?
    ) throws(ImageFileError) -> DecodedImage {
        var features = WebPBitstreamFeatures()
        guard count >= 12 else { throw .cutShort(path: name, reason: "it ends inside its header") }
        try check(WebPGetFeatures(base, count, &features), name)
        // The RIFF header says how long the file is: a shorter one is cut short, and opens with
        // the rows its first picture's data gives (at least one, else it is refused).
        let riffSize = 8 + (Int(base[4]) | Int(base[5]) << 8 | Int(base[6]) << 16 | Int(base[7]) << 24)
        let cut: ImageFileError? =
            count < riffSize
            ? .cutShort(path: name, reason: "it holds \(count) of the \(riffSize) bytes its header announces") : nil
        var data = WebPData(bytes: base, size: count)
        // The demuxer reads the container (no copies): canvas, frames, the ICC profile.
        var state = WEBP_DEMUX_PARSING_HEADER
        guard let demux = WebPDemuxPartial(&data, &state) else {
            if state == WEBP_DEMUX_PARSE_ERROR { throw .damaged(path: name, reason: "the WebP container is malformed") }
            throw .cutShort(path: name, reason: "it ends inside its header")
        }
        defer { WebPDemuxDelete(demux) }
        let width = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH))
        let height = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
        guard limits.allows(width: width, height: height) else {
            throw .tooLarge(path: name, width: width, height: height, limits: limits)
        }
        var frame = WebPIterator()
        guard WebPDemuxGetFrame(demux, 1, &frame) != 0 else {
            throw cut ?? .damaged(path: name, reason: "it holds no picture")
        }
        defer { WebPDemuxReleaseIterator(&frame) }
        // An incomplete frame's data is what the file holds of it: decoded as far as it goes.
        let incomplete =
            frame.complete == 0 ? cut ?? .cutShort(path: name, reason: "its first picture is incomplete") : nil
        let (x0, y0, fw, fh) = (Int(frame.x_offset), Int(frame.y_offset), Int(frame.width), Int(frame.height))
        guard fw > 0, fh > 0, x0 >= 0, y0 >= 0, x0 + fw <= width, y0 + fh <= height else {
            throw .damaged(path: name, reason: "its first frame lies outside the canvas")
        }
        let covers = fw == width && fh == height
        let hasAlpha = frame.has_alpha != 0 || !covers
        var damage: PictureDamage?
        let transform = iccProfile(demux, limit: limits.maxMetadataBytes).flatMap {
            ColorTransform.make(for: .icc($0), gray: false)
        }

        let pixels = try PixelBuffer.make(count: width * height) { (out) throws(ImageFileError) in
            guard let start = out.baseAddress else { return }
            var config = WebPDecoderConfig()
            guard WebPInitDecoderConfig(&config) != 0 else {
                throw .damaged(path: name, reason: "libwebp version mismatch")
            }
            // Straight B, G, R, A: SwiftPaint's byte order, written into the canvas at the frame.
            config.output.colorspace = MODE_BGRA
            config.output.is_external_memory = 1
            config.output.u.RGBA.rgba = UnsafeMutableRawPointer(start + y0 * width + x0).assumingMemoryBound(
                to: UInt8.self)
            config.output.u.RGBA.stride = Int32(width * 4)
            config.output.u.RGBA.size = ((fh - 1) * width + fw) * 4
            let partial = try decodeFrame(frame.fragment, &config, name: name, control: control, incomplete: incomplete)
            let rows = min(partial?.rows ?? fh, fh)
            var scratch = [UInt16](repeating: 0, count: transform == nil ? 0 : fw * 4)
            for y in y0..<(y0 + rows) {
                let row = UnsafeMutableBufferPointer(start: start + y * width + x0, count: fw)
                if let transform { convert(row, transform, &scratch) }
                for i in row.indices { row[i] = Pixel.premultiply(row[i]) }
            }
            if let partial {
                // The frame's rows libwebp did not give: transparent, or white without alpha.
                for y in (y0 + rows)..<(y0 + fh) {
                    (start + y * width + x0).update(repeating: PictureDamage.fill(hasAlpha: hasAlpha), count: fw)
                }
                damage = PictureDamage(error: partial.error, rowsRead: y0 + rows, height: height)
            }
            // An animation's canvas starts transparent around its first frame.
            if !covers { PixelBuffer.clear(out, width: width, outside: x0, y0, fw, fh) }
        }
        guard let image = PixelImage(width: width, height: height, pixels: pixels) else {
            throw .damaged(path: name, reason: "the pixel count does not match the size")
        }
        return DecodedImage(image: image, format: .webp, hasAlpha: hasAlpha, damage: damage)
    }

    /// Bytes of a frame's data given to libwebp's incremental decoder at a time when a decode
    /// may be stopped: a stop is seen within as much decoding as one such chunk holds.
    static let decodeChunk = 1 << 14

    /// Decodes `data` into `config`'s output: at once, or (with a `control`, or data that is
    /// `incomplete`: the file cut inside it) through libwebp's incremental decoder, given one
    /// more chunk of the same bytes at a time (no copy), with the control asked before each.
    /// Data that ends or breaks part-way gives the rows decoded before (`WebPIDecGetRGB`'s last
    /// row) and why the rest is missing; none decoded throws.
    private static func decodeFrame(
        _ data: WebPData, _ config: inout WebPDecoderConfig, name: String, control: ReplayControl?,
        incomplete: ImageFileError?
    ) throws(ImageFileError) -> (rows: Int, error: ImageFileError)? {
        if control == nil && incomplete == nil {
            let status = WebPDecode(data.bytes, data.size, &config)
            if status == VP8_STATUS_OK { return nil }
            // Damaged: decoded again incrementally, which tells how many rows came out whole.
        }
        return try decodeIncrementally(data, &config, name: name, control: control, incomplete: incomplete)
    }

    /// `decodeFrame` through libwebp's incremental decoder.
    private static func decodeIncrementally(
        _ data: WebPData, _ config: inout WebPDecoderConfig, name: String, control: ReplayControl?,
        incomplete: ImageFileError?
    ) throws(ImageFileError) -> (rows: Int, error: ImageFileError)? {
        guard let decoder = WebPIDecode(nil, 0, &config) else { throw .damaged(path: name, reason: "out of memory") }
        defer { WebPIDelete(decoder) }
        var given = 0
        while true {
            try ReplayControl.checkDecodeStep(control, name)
            given = control == nil ? data.size : min(data.size, given + decodeChunk)
            let status = WebPIUpdate(decoder, data.bytes, given)
            if status == VP8_STATUS_OK { return nil }
            guard status != VP8_STATUS_SUSPENDED || given == data.size else { continue }
            let error: ImageFileError
            do throws(ImageFileError) {
                try check(status == VP8_STATUS_SUSPENDED ? VP8_STATUS_NOT_ENOUGH_DATA : status, name)
                error = .damaged(path: name, reason: "the WebP data is malformed")
            } catch let failure {
                error = status == VP8_STATUS_SUSPENDED ? incomplete ?? failure : failure
            }
            var lastRow: Int32 = 0
            var (w, h, stride): (Int32, Int32, Int32) = (0, 0, 0)
            _ = WebPIDecGetRGB(decoder, &lastRow, &w, &h, &stride)
            guard PictureDamage.keeps(error), lastRow > 0 else { throw error }
            return (Int(lastRow), error)
        }
    }

    /// Straight BGRA pixels through a profile's transform, in place.
    private static func convert(
        _ row: UnsafeMutableBufferPointer<UInt32>, _ transform: ColorTransform, _ scratch: inout [UInt16]
    ) {
        scratch.withUnsafeMutableBufferPointer { s in
            for (i, p) in row.enumerated() {
                s[i * 4] = UInt16(truncatingIfNeeded: p >> 16 & 0xFF) &* 257
                s[i * 4 + 1] = UInt16(truncatingIfNeeded: p >> 8 & 0xFF) &* 257
                s[i * 4 + 2] = UInt16(truncatingIfNeeded: p & 0xFF) &* 257
                s[i * 4 + 3] = UInt16(truncatingIfNeeded: p >> 24) &* 257
            }
            s.baseAddress.map { transform.apply($0, count: row.count) }
            for i in row.indices {
                let r = PixelBuffer.to8(s[i * 4])
                let g = PixelBuffer.to8(s[i * 4 + 1])
                let b = PixelBuffer.to8(s[i * 4 + 2])
                row[i] = row[i] & 0xFF00_0000 | r << 16 | g << 8 | b
            }
        }
    }

    /// The ICCP chunk, if the file has one no larger than `limit`.
    private static func iccProfile(_ demux: OpaquePointer, limit: Int) -> [UInt8]? {
        guard WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS) & UInt32(ICCP_FLAG.rawValue) != 0 else { return nil }
        var chunk = WebPChunkIterator()
        guard WebPDemuxGetChunk(demux, "ICCP", 1, &chunk) != 0 else { return nil }
        defer { WebPDemuxReleaseChunkIterator(&chunk) }
        guard chunk.chunk.size <= limit, let bytes = chunk.chunk.bytes else { return nil }
        return Array(UnsafeBufferPointer(start: bytes, count: chunk.chunk.size))
    }

    private static func check(_ status: VP8StatusCode, _ name: String) throws(ImageFileError) {
        switch status {
        case VP8_STATUS_OK: return
        case VP8_STATUS_NOT_ENOUGH_DATA: throw .cutShort(path: name, reason: "it ends before the picture does")
        case VP8_STATUS_OUT_OF_MEMORY: throw .damaged(path: name, reason: "out of memory")
        case VP8_STATUS_UNSUPPORTED_FEATURE:
            throw .damaged(path: name, reason: "it uses a WebP feature libwebp does not know")
        case VP8_STATUS_INVALID_PARAM: throw .damaged(path: name, reason: "its picture has invalid parameters")
        default: throw .damaged(path: name, reason: "the WebP data is malformed")
        }
    }

    /// Pictures of more pixels than a 2560 x 1440 screen are encoded with libwebp's fastest
    /// method (0) and, lossless, a search effort ("quality") of 50; smaller ones as libwebp's
    /// one-call encoders do (method 4, cwebp's and libvips' default; lossless at 70). Method 4
    /// took 6.4-8.1 s of CPU for a lossless 4000 x 3000 photo (closing after Save waited for it)
    /// and 2.4-3.0 s for a lossy one at quality 90; method 0 about 1 s for either (BENCHMARKS.md,
    /// session 16; lossless at 70 it took 2.2 s, for the same bytes). The photo's file is then
    /// 4 % larger lossless and 2 % smaller lossy at 0.1 dB less PSNR; a screenshot's lossless
    /// file is 21 % larger, but one up to 2560 x 1440 keeps method 4.
    static let fastAbovePixels = 2560 * 1440

    /// libwebp's method (0 fastest ... 6 slowest, smallest) and lossless effort for a picture of
    /// `pixels` pixels.
    static func effort(pixels: Int) -> (method: Int32, losslessQuality: Int) {
        pixels > fastAbovePixels ? (0, 50) : (4, 70)
    }

    /// Encodes `image` as WebP: lossless when `quality` is nil, else lossy at `quality`
    /// (0...100). With `withAlpha` the alpha channel is kept (straight, as WebP stores it);
    /// without it the premultiplied channels are written opaque, which is the image over black:
    /// flatten first. The settings of libwebp's one-call encoders (`WebPEncodeBGRA`; lossless at
    /// quality 70) but a large picture's effort (`effort(pixels:)`); libwebp's threads are on
    /// (a second thread for its analysis and alpha: the same bytes).
    public static func encode(_ image: PixelImage, quality: Int?, withAlpha: Bool) throws(ImageFileError) -> [UInt8] {
        guard image.width > 0, image.height > 0 else {
            throw .cannotEncode(path: "", reason: "the image has no pixels")
        }
        guard image.width <= maxSide, image.height <= maxSide else {
            throw .cannotEncode(path: "", reason: "WebP pictures are at most \(maxSide) pixels on a side")
        }
        var config = WebPConfig()
        var picture = WebPPicture()
        let chosen = effort(pixels: image.width * image.height)
        let factor = Float(quality.map { min(100, max(0, $0)) } ?? chosen.losslessQuality)
        guard WebPConfigPreset(&config, WEBP_PRESET_DEFAULT, factor) != 0, WebPPictureInit(&picture) != 0 else {
            throw .cannotEncode(path: "", reason: "libwebp version mismatch")
        }
        config.lossless = quality == nil ? 1 : 0
        config.method = chosen.method
        config.thread_level = 1
        picture.use_argb = config.lossless
        picture.width = Int32(image.width)
        picture.height = Int32(image.height)
        defer { WebPPictureFree(&picture) }
        // libwebp copies the pixels into its own planes as it imports them: an opaque picture
        // is read in place (BGRX: its alpha bytes ignored), not copied first.
        let stride = Int32(image.width * 4)
        func importing(_ pixels: [UInt32], alpha: Bool) -> Int32 {
            pixels.withUnsafeBytes { raw in
                guard let bgra = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
                return alpha
                    ? WebPPictureImportBGRA(&picture, bgra, stride) : WebPPictureImportBGRX(&picture, bgra, stride)
            }
        }
        let imported =
            withAlpha
            ? importing(image.pixels.map(Pixel.unpremultiply), alpha: true) : importing(image.pixels, alpha: false)
        guard imported != 0 else { throw .cannotEncode(path: "", reason: "out of memory") }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let encoded = withUnsafeMutablePointer(to: &writer) { writer in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(writer)
            return WebPEncode(&config, &picture)
        }
        guard encoded != 0, writer.size > 0, let output = writer.mem else {
            let reason =
                picture.error_code == VP8_ENC_ERROR_OUT_OF_MEMORY ? "out of memory" : "libwebp could not encode it"
            throw .cannotEncode(path: "", reason: reason)
        }
        return Array(UnsafeBufferPointer(start: output, count: writer.size))
    }
}

import CGIF
import PaintCore

/// The first frame of a GIF, through giflib's record-by-record API.
///
/// Only the records up to the first image are read (never `DGifSlurp`, which would decode every
/// frame of an animation into memory); the frame is drawn at its place on the logical screen,
/// which is transparent elsewhere, as browsers show it.
public enum GIFDecoder {
    /// The most pixels a GIF's picture claims per byte of its file, checked before its pixels
    /// are set aside. LZW gives a code of w bits at most 2^w pixels (each code read adds one
    /// string to the table, one pixel longer than one before it, and a w-bit code names one of
    /// at most 2^w), and codes are at most 12 bits wide: 4096 pixels in 12 bits, 2731 a byte.
    /// The logical screen outside the first frame is transparent with no bytes for it, which is
    /// legal (browsers show it so), so 35 bytes with a 1 x 1 frame claimed a 16384 x 16384
    /// screen: a gigabyte filled with transparency (`--export` took 1 GB and 200 s). A screen
    /// larger than the file's bytes could give at that rate is refused as damaged; a frame
    /// covering its screen always fits.
    static let mostPixelsPerByte = 2731

    /// Decodes the first frame of GIF `bytes`; a `control` told to stop (a paste cancelled)
    /// ends the decode at its next record or row.
    public static func decode(
        _ bytes: [UInt8], name: String, limits: ImageLimits = .default, control: ReplayControl? = nil
    ) throws(ImageFileError) -> DecodedImage {
        guard !bytes.isEmpty else { throw .emptyFile(path: name) }
        return try decode(PictureStream(bytes: bytes, name: name), limits: limits, control: control)
    }

    /// Decodes the first frame of the GIF `stream` reads, as giflib asks for its bytes: the
    /// file is not held whole (the frame's pixels are).
    static func decode(
        _ stream: PictureStream, limits: ImageLimits, control: ReplayControl? = nil
    ) throws(ImageFileError) -> DecodedImage {
        let name = stream.name
        var error: Int32 = 0
        let opened = withExtendedLifetime(stream) {
            DGifOpen(Unmanaged.passUnretained(stream).toOpaque(), read, &error)
        }
        guard let gif = opened else { throw failure(error, name) }
        defer { DGifCloseFile(gif, &error) }
        return try withExtendedLifetime(stream) { () throws(ImageFileError) in
            try firstFrame(gif, name: name, size: stream.size, limits: limits, control: control)
        }
    }

    /// giflib's input callback: copies up to `count` bytes from the stream; fewer means the
    /// file ended.
    private static let read: InputFunc = { gif, buffer, count in
        guard let gif, let buffer, let user = gif.pointee.UserData, count > 0 else { return 0 }
        let stream = Unmanaged<PictureStream>.fromOpaque(user).takeUnretainedValue()
        return Int32(stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: Int(count))))
    }

    private static func firstFrame(
        _ gif: UnsafeMutablePointer<GifFileType>, name: String, size: Int, limits: ImageLimits,
        control: ReplayControl?
    ) throws(ImageFileError) -> DecodedImage {
        var transparentIndex: Int?
        while true {
            try ReplayControl.checkDecodeStep(control, name)
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &record) == GIF_OK else { throw failure(gif.pointee.Error, name) }
            switch record {
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>?
                guard DGifGetExtension(gif, &code, &block) == GIF_OK else { throw failure(gif.pointee.Error, name) }
                // Graphic control: [size 4][flags][delay lo][delay hi][transparent index].
                if code == GRAPHICS_EXT_FUNC_CODE, let b = block, b[0] >= 4 {
                    transparentIndex = b[1] & 1 != 0 ? Int(b[4]) : nil
                }
                while block != nil {
                    guard DGifGetExtensionNext(gif, &block) == GIF_OK else { throw failure(gif.pointee.Error, name) }
                }
            case IMAGE_DESC_RECORD_TYPE:
                return try readImage(
                    gif, transparentIndex: transparentIndex, name: name, size: size, limits: limits,
                    control: control)
            case TERMINATE_RECORD_TYPE:
                throw .damaged(path: name, reason: "it holds no picture")
            default:
                throw .damaged(path: name, reason: "it has an unknown record")
            }
        }
    }

    private static func readImage(
        _ gif: UnsafeMutablePointer<GifFileType>, transparentIndex: Int?, name: String, size: Int,
        limits: ImageLimits, control: ReplayControl?
    ) throws(ImageFileError) -> DecodedImage {
        guard DGifGetImageDesc(gif) == GIF_OK else { throw failure(gif.pointee.Error, name) }
        let frame = gif.pointee.Image
        let (left, top, fw, fh) = (Int(frame.Left), Int(frame.Top), Int(frame.Width), Int(frame.Height))
        // The canvas is the logical screen; some files leave it 0 x 0 and mean the frame's size.
        let screenWidth = Int(gif.pointee.SWidth)
        let screenHeight = Int(gif.pointee.SHeight)
        let width = screenWidth > 0 ? screenWidth : left + fw
        let height = screenHeight > 0 ? screenHeight : top + fh
        for (w, h) in [(width, height), (fw, fh)] where !limits.allows(width: w, height: h) {
            throw .tooLarge(path: name, width: w, height: h, limits: limits)
        }
        guard width > 0, height > 0, fw > 0, fh > 0 else {
            throw .damaged(path: name, reason: "its picture has no pixels")
        }
        guard width * height <= size * mostPixelsPerByte else {
            throw .damaged(path: name, reason: ImageFileError.tooFewBytes(size, width: width, height: height))
        }
        guard let map = frame.ColorMap ?? gif.pointee.SColorMap, let colors = map.pointee.Colors else {
            throw .damaged(path: name, reason: "it has no color table")
        }
        var palette = [UInt32](repeating: 0, count: 256)  // indices past the table: transparent
        for i in 0..<min(256, Int(map.pointee.ColorCount)) where i != transparentIndex {
            let c = colors[i]
            palette[i] = Pixel.pack(r: c.Red, g: c.Green, b: c.Blue, a: 255)
        }
        let covers = left == 0 && top == 0 && fw >= width && fh >= height
        var line = [GifPixelType](repeating: 0, count: fw)
        let rows = frame.Interlace ? interlacedRows(fh) : Array(0..<fh)
        var damage: PictureDamage?
        let pixels = try PixelBuffer.make(count: width * height) { (out) throws(ImageFileError) in
            var read = 0
            do throws(ImageFileError) {
                for y in rows {
                    try ReplayControl.checkDecodeStep(control, name)
                    guard DGifGetLine(gif, &line, Int32(fw)) == GIF_OK else { throw failure(gif.pointee.Error, name) }
                    read += 1
                    let canvasY = top + y
                    guard canvasY < height, left < width else { continue }
                    for x in 0..<min(fw, width - left) { out[canvasY * width + left + x] = palette[Int(line[x])] }
                }
            } catch {
                // The frame's rows not read (after the last one, or between an interlaced
                // file's passes) are filled: transparent where the file has transparency.
                guard PictureDamage.keeps(error), read > 0 else { throw error }
                let fill = PictureDamage.fill(hasAlpha: transparentIndex != nil || !covers)
                for y in rows[read...] where top + y < height && left < width {
                    let start = out.baseAddress.map { $0 + (top + y) * width + left }
                    start?.update(repeating: fill, count: min(fw, width - left))
                }
                damage = PictureDamage(
                    error: error, rowsRead: frame.Interlace ? 0 : min(height, top + read), height: height,
                    inOrder: !frame.Interlace)
            }
            if !covers { PixelBuffer.clear(out, width: width, outside: left, top, fw, fh) }
        }
        guard let image = PixelImage(width: width, height: height, pixels: pixels) else {
            throw .damaged(path: name, reason: "the pixel count does not match the size")
        }
        let hasAlpha =
            transparentIndex != nil || !covers
            || Int(map.pointee.ColorCount) < 256
                && image.pixels.contains { $0 >> 24 == 0 }
        return DecodedImage(image: image, format: .gif, hasAlpha: hasAlpha, damage: damage)
    }

    /// The order in which an interlaced GIF stores its rows: every 8th from 0, every 8th from
    /// 4, every 4th from 2, every 2nd from 1.
    static func interlacedRows(_ height: Int) -> [Int] {
        [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in Array(stride(from: start, to: height, by: step)) }
    }

    private static func failure(_ code: Int32, _ name: String) -> ImageFileError {
        switch code {
        case D_GIF_ERR_READ_FAILED, D_GIF_ERR_EOF_TOO_SOON:
            return .cutShort(path: name, reason: "it ends before the picture does")
        default:
            let text = GifErrorString(code).map { String(cString: $0) } ?? "giflib error \(code)"
            return .damaged(path: name, reason: text)
        }
    }
}

import Glibc
import PaintCore
import PaintIO

/// A picture copied to the clipboard (Ctrl+C), encoded as PNG on a thread of its own while the
/// window goes on: a 4000 x 3000 photo took 1 to 2.5 s to encode on the window's thread, which
/// froze the window and, as the clipboard was taken only after, left another program pasting
/// the picture copied before. The window takes the clipboard at once (`ClipboardRequest.claim`)
/// and answers requests for the picture when this is done (`ClipboardRequest.fulfil`).
///
/// A `BackgroundJob`: one given up (a newer copy) ends by itself and frees what it made.
final class ClipboardEncoding {
    /// Pictures smaller than this many pixels are encoded at once (a few milliseconds): no
    /// thread, and the clipboard holds them from the moment they are copied.
    static let pixelsEncodedAtOnce = 1 << 20

    private let job: BackgroundJob<Result<[UInt8], ImageFileError>>
    private let picture: PixelImage
    private let withAlpha: Bool
    /// Readable once the thread is done; nil once that was seen.
    var descriptor: Int32? { job.descriptor }
    /// Whether the thread has said it is done (see `checkFinished`).
    var isFinished: Bool { job.isFinished }

    /// Starts encoding `picture` on a thread of its own (here and now when no thread can be
    /// made); nil when no pipe could be made (the caller encodes it itself).
    init?(_ picture: PixelImage, withAlpha: Bool) {
        guard let job = BackgroundJob.withPipe({ Self.encode(picture, withAlpha: withAlpha) }) else {
            return nil
        }
        self.job = job
        self.picture = picture
        self.withAlpha = withAlpha
    }

    /// The PNG the clipboard offers for `picture`, or why there is none.
    static func encode(_ picture: PixelImage, withAlpha: Bool) -> Result<[UInt8], ImageFileError> {
        Result { () throws(ImageFileError) in try PNGCodec.encode(picture, withAlpha: withAlpha) }
    }

    /// Whether the thread is done, reading its signal when there is one.
    @discardableResult
    func checkFinished() -> Bool { job.checkFinished() }

    /// Waits for the thread and gives the PNG, or why there is none.
    func finish() -> Result<[UInt8], ImageFileError> {
        job.finish() ?? Self.encode(picture, withAlpha: withAlpha)
    }
}

import Glibc
import PaintCore
import PaintIO

/// A picture copied to the clipboard (Ctrl+C), encoded as PNG on a thread of its own while the
/// window goes on: a 4000 x 3000 photo took 1 to 2.5 s to encode on the window's thread, which
/// froze the window and, as the clipboard was taken only after, left another program pasting
/// the picture copied before. The window takes the clipboard at once (`ClipboardRequest.claim`)
/// and answers requests for the picture when this is done (`ClipboardRequest.fulfil`).
///
/// The same pattern as `PasteDecoding`: the thread shares nothing with the window's thread but
/// the picture in, the PNG out, and the pipe it signals through.
final class ClipboardEncoding {
    /// Pictures smaller than this many pixels are encoded at once (a few milliseconds): no
    /// thread, and the clipboard holds them from the moment they are copied.
    static let pixelsEncodedAtOnce = 1 << 20

    /// Shared with the thread: the picture in, the PNG out.
    private final class Work: @unchecked Sendable {
        let picture: PixelImage
        let withAlpha: Bool
        /// Written by the thread before it signals; read only after joining it.
        var result: Result<[UInt8], ImageFileError>?
        let done: DonePipe

        init(picture: PixelImage, withAlpha: Bool, done: DonePipe) {
            self.picture = picture
            self.withAlpha = withAlpha
            self.done = done
        }

        func run() {
            result = ClipboardEncoding.encode(picture, withAlpha: withAlpha)
            done.signal()
        }
    }

    private let work: Work
    private var thread: pthread_t?
    /// Readable once the thread is done.
    var descriptor: Int32 { work.done.readEnd }
    /// Whether the thread has said it is done (see `checkFinished`).
    private(set) var isFinished = false

    /// Starts encoding `picture` on a thread of its own (here and now when no thread can be
    /// made); nil when no pipe could be made (the caller encodes it itself).
    init?(_ picture: PixelImage, withAlpha: Bool) {
        guard let done = DonePipe() else { return nil }
        let work = Work(picture: picture, withAlpha: withAlpha, done: done)
        self.work = work
        if let thread = BackgroundThread.start({ work.run() }) {
            self.thread = thread
        } else {
            work.run()
        }
    }

    /// The PNG the clipboard offers for `picture`, or why there is none.
    static func encode(_ picture: PixelImage, withAlpha: Bool) -> Result<[UInt8], ImageFileError> {
        Result { () throws(ImageFileError) in try PNGCodec.encode(picture, withAlpha: withAlpha) }
    }

    /// Whether the thread is done, reading its signal when there is one.
    @discardableResult
    func checkFinished() -> Bool {
        if !isFinished && work.done.take() { isFinished = true }
        return isFinished
    }

    /// Waits for the thread and gives the PNG, or why there is none.
    func finish() -> Result<[UInt8], ImageFileError> {
        if let thread {
            pthread_join(thread, nil)
            self.thread = nil
        }
        isFinished = true
        return work.result ?? Self.encode(work.picture, withAlpha: work.withAlpha)
    }

    /// One given up (a newer copy): its thread ends by itself and frees what it made.
    deinit {
        if let thread { pthread_detach(thread) }
    }
}

import Glibc
import PaintCore
import PaintIO

/// A pasted or dropped picture, decoded on a thread of its own while the window goes on
/// drawing and answering: a 1 MB PNG that inflates to 16000 x 16000 pixels (within
/// `ImageLimits`) takes half a minute and a gigabyte to decode, which on the window's thread
/// froze it for as long.
///
/// The same pattern as the history rebuild (`HistoryRebuild`): the thread shares nothing with
/// the window's thread but the request and, once it has written a byte to `descriptor` (which
/// the window polls), the result. Dropped unfinished (Escape, a second paste, another
/// document), it tells the decode to stop (`ReplayControl`: every format's decoder looks at it
/// at each row, a WebP's at each chunk of its data), so the thread ends within one and frees
/// what it decoded.
final class PasteDecoding {
    /// Where the picture comes from.
    enum Source: Sendable {
        /// The clipboard's picture bytes, in any format SwiftPaint opens.
        case clipboard([UInt8])
        /// A picture file dropped with Ctrl held, in any format SwiftPaint opens.
        case file(String)
        /// A picture file chosen as the background in the file dialog (Ctrl+B): a 1 MB PNG
        /// bomb froze the window for as long as it decoded, as a paste once did.
        case background(String)
    }

    /// How a picture is decoded: `decode`, unless a test gives one it holds for as long as it
    /// needs (`Session.decodePaste`).
    typealias Decoder = @Sendable (Source, ReplayControl?) -> Result<PixelImage, ImageFileError>

    /// Shared with the thread: the request in, the result out, the pipe between them.
    private final class Work: @unchecked Sendable {
        let source: Source
        let decoder: Decoder
        let control = ReplayControl()
        /// Written by the thread before it signals; read only after joining it.
        var result: Result<PixelImage, ImageFileError>?
        let done: DonePipe

        init(source: Source, decoder: @escaping Decoder, done: DonePipe) {
            self.source = source
            self.decoder = decoder
            self.done = done
        }

        func run() {
            result = decoder(source, control)
            done.signal()
        }
    }

    private let work: Work
    private var thread: pthread_t?
    /// The picture's size as its header says (nil when the header says nothing usable): for
    /// the status bar while it decodes.
    let header: PictureHeader?
    /// Where the picture comes from (its messages differ).
    var source: Source { work.source }
    /// Readable once the thread is done.
    var descriptor: Int32 { work.done.readEnd }
    /// Whether the thread has said it is done (see `checkFinished`).
    private(set) var isFinished = false

    /// Starts decoding `source` on a thread of its own (here and now when no thread can be
    /// made); nil when no pipe could be made (the caller decodes it itself).
    init?(_ source: Source, decoder: @escaping Decoder = { decode($0, control: $1) }) {
        guard let done = DonePipe() else { return nil }
        switch source {
        case .clipboard(let bytes): header = PictureHeader.parse(bytes)
        case .file(let path), .background(let path): header = PictureHeader.read(path: path)
        }
        let work = Work(source: source, decoder: decoder, done: done)
        self.work = work
        if let thread = BackgroundThread.start({ work.run() }) {
            self.thread = thread
        } else {
            work.run()
        }
    }

    /// Decodes `source` in whatever format it is, the clipboard's bytes as "the clipboard" in
    /// the messages.
    static func decode(_ source: Source, control: ReplayControl?) -> Result<PixelImage, ImageFileError> {
        Result { () throws(ImageFileError) in
            switch source {
            case .clipboard(let bytes):
                return try ImageDecoder.decode(bytes, name: "the clipboard", control: control).image
            case .file(let path), .background(let path): return try ImageFile.load(path: path, control: control)
            }
        }
    }

    /// Whether the thread is done, reading its signal when there is one.
    @discardableResult
    func checkFinished() -> Bool {
        if !isFinished && work.done.take() { isFinished = true }
        return isFinished
    }

    /// Waits for the thread and gives the picture, or why there is none.
    func finish() -> Result<PixelImage, ImageFileError> {
        if let thread {
            pthread_join(thread, nil)
            self.thread = nil
        }
        isFinished = true
        return work.result ?? work.decoder(work.source, nil)
    }

    /// Tells the decode to stop at its next step, a row or a chunk (nothing once it is done).
    func cancel() { work.control.stop() }

    /// An unfinished decode is not waited for: it is told to stop and ends at its next step,
    /// freeing what it decoded.
    deinit {
        if let thread {
            work.control.stop()
            pthread_detach(thread)
        }
    }
}

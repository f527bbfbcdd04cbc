import Glibc
import PaintCore
import PaintIO

/// A pasted or dropped picture, decoded on a thread of its own while the window goes on
/// drawing and answering: a 1 MB PNG that inflates to 16000 x 16000 pixels (within
/// `ImageLimits`) takes half a minute and a gigabyte to decode, which on the window's thread
/// froze it for as long.
///
/// A `BackgroundJob`. Dropped unfinished (Escape, a second paste, another
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
    typealias Decoder = @Sendable (Source, ReplayControl?) -> Result<DecodedImage, ImageFileError>

    private let job: BackgroundJob<Result<DecodedImage, ImageFileError>>
    private let decoder: Decoder
    /// The picture's size as its header says (nil when the header says nothing usable): for
    /// the status bar while it decodes.
    let header: PictureHeader?
    /// Where the picture comes from (its messages differ).
    let source: Source
    /// Whether it becomes a new picture of its own when done (Paste as New Picture) instead of
    /// floating over this one.
    var makesNewPicture = false
    /// Readable once the thread is done; nil once that was seen.
    var descriptor: Int32? { job.descriptor }
    /// Whether the thread has said it is done (see `checkFinished`).
    var isFinished: Bool { job.isFinished }

    /// Starts decoding `source` on a thread of its own (here and now when no thread can be
    /// made); nil when no pipe could be made (the caller decodes it itself).
    init?(_ source: Source, decoder: @escaping Decoder = { decode($0, control: $1) }) {
        let control = ReplayControl()
        guard let job = BackgroundJob.withPipe(control: control, { decoder(source, control) }) else {
            return nil
        }
        self.job = job
        self.decoder = decoder
        self.source = source
        switch source {
        case .clipboard(let bytes): header = PictureHeader.parse(bytes)
        case .file(let path), .background(let path): header = PictureHeader.read(path: path)
        }
    }

    /// Decodes `source` in whatever format it is, the clipboard's bytes as "the clipboard" in
    /// the messages. A damaged or cut-short picture gives what could be read, with its
    /// `DecodedImage.damage`, as Open does.
    static func decode(_ source: Source, control: ReplayControl?) -> Result<DecodedImage, ImageFileError> {
        Result { () throws(ImageFileError) in
            switch source {
            case .clipboard(let bytes): return try ImageDecoder.decode(bytes, name: "the clipboard", control: control)
            case .file(let path), .background(let path): return try ImageFile.decode(path: path, control: control)
            }
        }
    }

    /// How the status bar names the picture `source` gives when it is damaged: the file by its
    /// name, as Open says it; the clipboard's bytes as the pasted picture.
    static func damageMessage(_ damage: PictureDamage, from source: Source) -> String {
        switch source {
        case .clipboard: return damage.message(subject: "The pasted picture")
        case .file(let path), .background(let path): return damage.message(name: PathDisplay.abbreviatingHome(path))
        }
    }

    /// Whether the thread is done, reading its signal when there is one.
    @discardableResult
    func checkFinished() -> Bool { job.checkFinished() }

    /// Waits for the thread and gives the picture, or why there is none.
    func finish() -> Result<DecodedImage, ImageFileError> { job.finish() ?? decoder(source, nil) }

    /// Tells the decode to stop at its next step, a row or a chunk (nothing once it is done).
    /// Dropped unfinished, it is told the same and not waited for.
    func cancel() { job.cancel() }
}

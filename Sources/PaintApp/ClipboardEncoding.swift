import Glibc
import PaintCore
import PaintIO

/// A picture copied to the clipboard (Ctrl+C), encoded as PNG on a thread of its own while the
/// window goes on: a 4000 x 3000 photo took 1 to 2.5 s to encode on the window's thread, which
/// froze the window and, as the clipboard was taken only after, left another program pasting
/// the picture copied before. The window takes the clipboard at once (`ClipboardRequest.claim`)
/// and answers requests for the picture when this is done (`ClipboardRequest.fulfil`).
///
/// The BMP another program asks for is made the same way, from the PNG offered: decoding it and
/// writing the BMP took 819 ms for a 4000 x 3000 photo on the window's thread
/// (`ClipboardRequest.fulfilBMP`).
///
/// A `BackgroundJob`: one given up (a newer copy) ends by itself and frees what it made.
final class ClipboardEncoding {
    /// Pictures smaller than this many pixels are encoded at once (a few milliseconds): no
    /// thread, and the clipboard holds them from the moment they are copied.
    static let pixelsEncodedAtOnce = 1 << 20

    /// What the thread makes.
    enum Work {
        /// The PNG of a picture copied.
        case png(PixelImage, withAlpha: Bool)
        /// The BMP of the PNG the clipboard offers, for a program that asked for one.
        case bmp(fromPNG: [UInt8])
    }

    private let job: BackgroundJob<Result<[UInt8], ImageFileError>>
    private let work: Work
    /// Readable once the thread is done; nil once that was seen.
    var descriptor: Int32? { job.descriptor }
    /// Whether the thread has said it is done (see `checkFinished`).
    var isFinished: Bool { job.isFinished }
    /// Whether this makes a BMP (else the PNG of a copy).
    var makesBMP: Bool {
        if case .bmp = work { return true }
        return false
    }

    /// Starts `work` on a thread of its own (here and now when no thread can be made); nil when
    /// no pipe could be made (the caller does it itself).
    init?(_ work: Work) {
        guard let job = BackgroundJob.withPipe({ Self.make(work) }) else { return nil }
        self.job = job
        self.work = work
    }

    /// Starts encoding `picture`'s PNG (see `init(_:)`).
    convenience init?(_ picture: PixelImage, withAlpha: Bool) {
        self.init(.png(picture, withAlpha: withAlpha))
    }

    /// The PNG the clipboard offers for `picture`, or why there is none.
    static func encode(_ picture: PixelImage, withAlpha: Bool) -> Result<[UInt8], ImageFileError> {
        Result { () throws(ImageFileError) in try PNGCodec.encode(picture, withAlpha: withAlpha) }
    }

    /// What `work` makes, or why it cannot.
    static func make(_ work: Work) -> Result<[UInt8], ImageFileError> {
        switch work {
        case .png(let picture, let withAlpha):
            return encode(picture, withAlpha: withAlpha)
        case .bmp(let png):
            guard let bmp = BMPEncoder.encode(png: png) else {
                return .failure(.cannotEncode(path: "the clipboard's picture", reason: "no BMP can hold it"))
            }
            return .success(bmp)
        }
    }

    /// Whether the thread is done, reading its signal when there is one.
    @discardableResult
    func checkFinished() -> Bool { job.checkFinished() }

    /// Waits for the thread and gives what it made, or why there is nothing.
    func finish() -> Result<[UInt8], ImageFileError> {
        job.finish() ?? Self.make(work)
    }
}

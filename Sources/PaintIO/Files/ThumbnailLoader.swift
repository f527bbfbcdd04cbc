import PaintCore

/// Small pictures of picture files for the file dialog, each made by a `BackgroundJob` (a
/// thread of its own, as every other piece of background work) so the window never waits for a
/// decode.
///
/// The window asks for the files in view (`request`: the newest request replaces what was not
/// started yet) and, when `descriptor` becomes readable, takes what is done (`take`), which
/// starts the next. One thumbnail is made at a time. Each file is read and decoded as opening
/// it would (`ImageFile.open`: orientation, color, alpha), then shrunk to fit a square; files
/// larger than `maxFileBytes` or pictures over `maxPixels` are not decoded (the dialog keeps
/// its icon for them), so the memory a thumbnail takes stays bounded. Used on the window's
/// thread only.
public final class ThumbnailLoader {
    /// A finished request: the thumbnail, or nil when none could be made.
    public struct Done: Sendable {
        public let path: String
        public let side: Int
        public let image: PixelImage?
    }

    /// Files up to this size are decoded.
    public static let maxFileBytes = 48 << 20
    /// Pictures up to this many pixels are decoded (a 24-megapixel photo).
    public static let maxPixels = 24 << 20

    /// What was asked for and not started yet, in order.
    private var queue: [(path: String, side: Int)] = []
    /// The thumbnail being made, or made and not taken yet.
    private var current: (path: String, side: Int, job: BackgroundJob<PixelImage?>)?
    /// Thumbnails made and not handed over yet.
    private var done: [Done] = []
    private let startThread: BackgroundJob<PixelImage?>.ThreadStarter

    /// A loader making nothing yet; `startThread` makes its threads (`BackgroundThread.start`,
    /// or one that fails, for tests).
    public init(startThread: @escaping BackgroundJob<PixelImage?>.ThreadStarter = BackgroundThread.start) {
        self.startThread = startThread
    }

    /// Readable once the thumbnail being made is done; nil while none is being made.
    public var descriptor: Int32? { current?.job.descriptor }

    /// Asks for thumbnails of `paths` (in this order) fitting a `side` x `side` square; what was
    /// asked before and not started yet is dropped, and one being made that is not asked for
    /// any more (the folder changed, the list scrolled on) is stopped at its next row and not
    /// handed over: a large photo's decode does not hold up the new folder's thumbnails.
    public func request(_ paths: [String], side: Int) {
        // One finished stays, to be handed over when its descriptor wakes the window (`take`).
        if let making = current, !making.job.isDone, !paths.contains(making.path) || making.side != side {
            // Dropped unfinished, the job tells its decode to stop; its thread ends on its own.
            making.job.cancel()
            current = nil
        }
        let going = current?.path
        queue = paths.filter { $0 != going }.map { ($0, side) }
        startNext()
    }

    /// The file whose thumbnail is being made now, if any (for tests).
    var making: String? { current.flatMap { $0.job.isDone ? nil : $0.path } }

    /// The thumbnails finished since the last call; the next one asked for starts.
    public func take() -> [Done] {
        collect()
        startNext()
        defer { done = [] }
        return done
    }

    /// Moves the thumbnail being made into `done` once it is.
    private func collect() {
        guard let finished = current, finished.job.checkFinished() else { return }
        current = nil
        done.append(Done(path: finished.path, side: finished.side, image: finished.job.finish() ?? nil))
    }

    /// Starts the first thumbnail asked for, when none is being made. Without a thread or a
    /// pipe for it, none are made until the next request: the dialog keeps its icons.
    private func startNext() {
        guard current == nil, !queue.isEmpty else { return }
        let next = queue.removeFirst()
        let control = ReplayControl()
        guard
            let job = BackgroundJob<PixelImage?>.inBackgroundOnly(
                control: control, startThread: startThread,
                { Self.thumbnail(of: next.path, side: next.side, control: control) })
        else {
            queue = []
            return
        }
        current = (next.path, next.side, job)
    }

    /// Makes one thumbnail: nil for a file that is too large, not a picture, or damaged, or
    /// when `control` was told to stop.
    public static func thumbnail(of path: String, side: Int, control: ReplayControl? = nil) -> PixelImage? {
        guard side > 0, let entry = FolderListing.entry(at: path), !entry.isFolder, entry.size <= maxFileBytes,
            let header = PictureHeader.read(path: path), header.width * header.height <= maxPixels
        else { return nil }
        let limits = ImageLimits(maxSide: ImageLimits.default.maxSide, maxPixels: maxPixels)
        guard let picture = try? ImageFile.load(path: path, limits: limits, control: control) else { return nil }
        let scale = min(1, Double(side) / Double(max(picture.width, picture.height)))
        let width = max(1, Int((Double(picture.width) * scale).rounded()))
        let height = max(1, Int((Double(picture.height) * scale).rounded()))
        if width == picture.width && height == picture.height { return picture }
        return picture.scaled(toWidth: width, height: height)
    }
}

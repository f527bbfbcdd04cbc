import Glibc
import PaintCore

/// Small pictures of picture files for the file dialog, made on a thread of their own so the
/// window never waits for a decode.
///
/// The window asks for the files in view (`request`: the newest request replaces what was not
/// started yet), and takes what is done (`take`) when `wakeFD` becomes readable. Each file is
/// read and decoded as opening it would (`ImageFile.open`: orientation, color, alpha), then
/// shrunk to fit a square; files larger than `maxFileBytes` or pictures over `maxPixels` are not
/// decoded (the dialog keeps its icon for them), so the thread's memory stays bounded.
public final class ThumbnailLoader: @unchecked Sendable {
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

    private let core = LoaderCore()
    private var thread = pthread_t()
    private var started = false

    /// Starts the thread; nil when it cannot be started (the dialog then shows icons).
    public init?() {
        guard core.wake != nil else { return nil }
        let core = core
        guard let thread = BackgroundThread.start({ core.run() }) else { return nil }
        self.thread = thread
        started = true
    }

    deinit {
        guard started else { return }
        core.stop()
        pthread_join(thread, nil)
    }

    /// Readable when finished thumbnails wait to be taken.
    public var wakeFD: Int32 { core.wake?.readEnd ?? -1 }

    /// Asks for thumbnails of `paths` (in this order) fitting a `side` x `side` square; what was
    /// asked before and not started yet is dropped, and one being made that is not asked for
    /// any more (the folder changed, the list scrolled on) is stopped at its next row and not
    /// handed over: a large photo's decode no longer holds up the new folder's thumbnails.
    public func request(_ paths: [String], side: Int) {
        core.locked {
            core.queue = paths.map { ($0, side) }
            if let current = core.current, !paths.contains(current.path) || current.side != side {
                current.control.stop()
            }
            pthread_cond_signal(core.condition)
        }
    }

    /// The file whose thumbnail is being made now, if any (for tests).
    var making: String? { core.locked { core.current?.path } }

    /// The thumbnails finished since the last call.
    public func take() -> [Done] {
        // Empty the pipe: one byte a finished thumbnail, or fewer when it was full.
        core.wake?.drain()
        return core.locked {
            defer { core.done = [] }
            return core.done
        }
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

/// The state a loader shares with its thread, guarded by `mutex` (never held while decoding).
private final class LoaderCore: @unchecked Sendable {
    let mutex: UnsafeMutablePointer<pthread_mutex_t>
    let condition: UnsafeMutablePointer<pthread_cond_t>
    /// Tells the window a thumbnail is done (a byte each); nil when no pipe could be made.
    let wake = DonePipe()
    var queue: [(path: String, side: Int)] = []
    var done: [ThumbnailLoader.Done] = []
    /// The thumbnail being made, with what stops it.
    var current: (path: String, side: Int, control: ReplayControl)?
    var stopping = false

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func locked<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    func stop() {
        locked {
            stopping = true
            queue = []
            current?.control.stop()
            pthread_cond_signal(condition)
        }
    }

    /// The thread: takes the first request, makes it, hands it over, until stopped.
    func run() {
        while true {
            let control = ReplayControl()
            let next: (path: String, side: Int)? = locked {
                while queue.isEmpty && !stopping { pthread_cond_wait(condition, mutex) }
                guard !stopping else { return nil }
                let next = queue.removeFirst()
                current = (next.path, next.side, control)
                return next
            }
            guard let next else { return }
            let image = ThumbnailLoader.thumbnail(of: next.path, side: next.side, control: control)
            // A stopped one is not handed over: asked for again, it is made again.
            let handed: Bool = locked {
                current = nil
                guard !control.isStopped else { return false }
                done.append(ThumbnailLoader.Done(path: next.path, side: next.side, image: image))
                return true
            }
            if handed { wake?.signal() }
        }
    }
}

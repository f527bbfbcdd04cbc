import Glibc
import Synchronization

/// A thread that frees what the history lets go of (large packed snapshots, the tiles of
/// snapshots that were packed), so the thread that draws never waits while the system takes
/// back megabytes of pages: freeing one packed 4K keyframe (8 MB) took up to 2 ms of an idle
/// slice, 64 tiles up to 1.7 ms when malloc gave the top of its heap back. The history hands
/// them over from an idle slice (`History.reclaimer`), when it holds the last reference; the
/// program's documents and `paint-bench` give their histories `Reclaimer.shared`. Without
/// one, idle slices free them a bounded amount at a time.
public final class Reclaimer: Sendable {
    /// The one the program uses (its thread starts with the first use); nil when no thread or
    /// pipe could be made.
    public static let shared = Reclaimer()

    /// Something to free.
    enum Item: Sendable {
        case packed(PackedPixels)
        case tiles(ContiguousArray<PaintTile>)
    }

    private let queue = Mutex<[Item]>([])
    private let freed = Atomic<Int>(0)
    private let readEnd: Int32
    private let writeEnd: Int32

    /// Starts the thread; nil when it cannot be started.
    init?() {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return nil }
        readEnd = ends[0]
        writeEnd = ends[1]
        // The writer never blocks: a full pipe already wakes the thread.
        _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        guard let thread = BackgroundThread.start({ [self] in run() }) else {
            close(readEnd)
            close(writeEnd)
            return nil
        }
        pthread_detach(thread)
    }

    /// Takes `packed` and `tiles` over (leaving both empty) and frees them on the thread
    /// (whatever else still holds them keeps them alive). The caller's references are gone
    /// before the thread can see them, so the last one is the thread's.
    func take(_ packed: inout [PackedPixels], _ tiles: inout [ContiguousArray<PaintTile>]) {
        guard !packed.isEmpty || !tiles.isEmpty else { return }
        queue.withLock { queue in
            for snapshot in packed { queue.append(.packed(snapshot)) }
            for list in tiles { queue.append(.tiles(list)) }
            packed = []
            tiles = []
        }
        var byte: UInt8 = 1
        _ = write(writeEnd, &byte, 1)
    }

    /// Items freed so far (for tests).
    public var freedCount: Int { freed.load(ordering: .acquiring) }

    /// Items handed over and not freed yet (for tests).
    public var pendingCount: Int { queue.withLock { $0.count } }

    private func run() {
        // Freeing can wait for drawing.
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
        var bytes = [UInt8](repeating: 0, count: 64)
        while true {
            let n = read(readEnd, &bytes, bytes.count)
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            // Taken out under the lock, freed outside it: the last references go here.
            var taken = queue.withLock { queue -> [Item] in
                defer { queue = [] }
                return queue
            }
            let count = taken.count
            taken = []
            freed.add(count, ordering: .releasing)
        }
    }
}

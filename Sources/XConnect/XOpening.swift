import Glibc
import Synchronization

/// The one process-wide lock every `XOpenDisplay` of the process is made under (`XConnection`).
///
/// Opening a connection reads the authority file's name with libXau's `XauFileName`, which, when
/// XAUTHORITY is not set (as under the tests and in many sessions), frees and re-allocates a
/// static buffer without a lock: two threads opening their first connections at once can write
/// the name into a block the other just freed. Opens are serialised rather than XAUTHORITY set
/// to the `$HOME/.Xauthority` libXau would compute: `setenv` is itself unsafe while other threads
/// call `getenv` (glibc may free the environment array under them), and a test process has no
/// moment before its threads start. An open takes milliseconds, so waiting for another costs
/// little; and every connection, whenever it is opened, is covered.
public enum XOpening {
    nonisolated(unsafe) private static var lock = pthread_mutex_t()
    private static let waiting = Atomic<Int>(0)

    /// Runs `body` (an `XOpenDisplay`) holding the lock.
    public static func serialised<T>(_ body: () -> T) -> T {
        waiting.add(1, ordering: .relaxed)
        pthread_mutex_lock(&lock)
        waiting.subtract(1, ordering: .relaxed)
        defer { pthread_mutex_unlock(&lock) }
        return body()
    }

    /// How many threads are waiting for the lock now: lets a test see an open wait its turn.
    public static var waitingCount: Int { waiting.load(ordering: .relaxed) }
}

import PaintCore
import PaintIO

/// Hears every committed change of a document, so work survives a crash.
public protocol OperationSink: AnyObject {
    /// A stroke, clear or history move was committed.
    func record(_ operation: Operation)
    /// The document was saved to `path`, which now holds `version` (nil when it cannot be read
    /// back): everything so far is safe on disk but the last `drawnDuring` changes, recorded
    /// while the save was written.
    func saved(path: String, version: FileVersion?, drawnDuring: Int)
    /// The program is leaving with nothing to lose (saved, or the user chose Discard).
    func closedCleanly()
    /// Everything recorded so far must be durable before this returns.
    func flush()
    /// Whether what is recorded is safe against a crash right now.
    var protection: CrashProtection { get }
}

extension OperationSink {
    public var protection: CrashProtection { .safe }
}

/// How far a document's crash journal has got.
public enum CrashProtection: Equatable, Sendable {
    /// Every recorded change is on disk.
    case safe
    /// Changes are on their way to the disk (look again soon).
    case writing
    /// Changes wait for the disk, and why in words ("the disk is full"); retried by itself.
    case stopped(String)
}

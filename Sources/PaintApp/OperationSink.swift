import PaintCore

/// Hears every committed change of a document, so work survives a crash.
public protocol OperationSink: AnyObject {
    /// A stroke, clear or history move was committed.
    func record(_ operation: Operation)
    /// The document was saved to `path`: everything so far is safe on disk.
    func saved(path: String)
    /// The program is leaving with nothing to lose (saved, or the user chose Discard).
    func closedCleanly()
    /// Everything recorded so far must be durable before this returns.
    func flush()
}

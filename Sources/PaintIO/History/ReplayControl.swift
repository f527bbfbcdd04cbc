import Synchronization

/// Tells work running on another thread to stop, and how far it got: a replay looks at it
/// between operations (`HistoryReplay.replay(…, control:)`) and the hash of the picture before
/// it between bands of rows (`HistoryKey(of:control:)`), so a rebuild nobody waits for any more
/// (`HistoryRebuild` dropped when another picture is opened) ends within one operation or band
/// and frees what it built. A picture's decode, in every format, looks at it at each step
/// (`decodeShouldStop`: a row, or a chunk of a WebP's data), so a paste decoded on its own
/// thread and cancelled ends within one.
public final class ReplayControl: Sendable {
    private let stopped = Atomic<Bool>(false)
    private let replayed = Atomic<Int>(0)
    private let expected = Atomic<Int>(0)
    private let replayedBefore = Atomic<Int>(0)
    private let hashed = Atomic<Int>(0)
    private let decoded = Atomic<Int>(0)
    private let ended = Atomic<Bool>(false)
    /// Operations after which it stops by itself (tests: a stop at a known point).
    private let stopAfter: Int
    /// Decode steps at which it stops by itself (tests: a decode stopped midway).
    private let stopAtDecodeStep: Int

    /// A control that stops when told; or, for tests, after `operations` operations, or at a
    /// decode's `decodeSteps`th step.
    public init(stoppingAfter operations: Int = .max, decodeSteps: Int = .max) {
        stopAfter = operations
        stopAtDecodeStep = decodeSteps
    }

    /// Asks the replay to stop at its next stop point.
    public func stop() { stopped.store(true, ordering: .releasing) }

    /// Whether the replay was asked to stop.
    public var isStopped: Bool {
        stopped.load(ordering: .acquiring) || replayed.load(ordering: .relaxed) >= stopAfter
    }

    /// Operations replayed so far.
    public var operationsReplayed: Int { replayed.load(ordering: .relaxed) }

    /// Whether whoever ran the replay is done with it (`noteEnded`).
    public var hasEnded: Bool { ended.load(ordering: .acquiring) }

    func noteReplayed() { replayed.add(1, ordering: .relaxed) }

    /// How far the replay under way got, for the status bar: operations replayed of those it
    /// holds (nil until one starts; a second replay, the file's own history after the store's
    /// was left out, counts afresh).
    public var replayProgress: (done: Int, total: Int)? {
        let total = expected.load(ordering: .acquiring)
        guard total > 0 else { return nil }
        let done = replayed.load(ordering: .relaxed) - replayedBefore.load(ordering: .relaxed)
        return (min(max(done, 0), total), total)
    }

    /// Says a replay of `count` operations starts (`replayProgress` counts from here).
    public func noteReplayStarts(_ count: Int) {
        replayedBefore.store(replayed.load(ordering: .relaxed), ordering: .relaxed)
        expected.store(count, ordering: .releasing)
    }

    /// Rows of the picture hashed so far (`HistoryKey(of:control:)`).
    public var rowsHashed: Int { hashed.load(ordering: .relaxed) }

    func noteHashed(rows: Int) { hashed.add(rows, ordering: .relaxed) }

    /// Steps a decode has taken so far (`decodeShouldStop`).
    public var decodeSteps: Int { decoded.load(ordering: .relaxed) }

    /// Counts one step of a picture's decode (a row, a chunk of data) and says whether the
    /// decode should end here, throwing `ImageFileError.stopped`: nobody waits for the picture
    /// any more, and its buffers go now.
    func decodeShouldStop() -> Bool {
        let step = decoded.add(1, ordering: .relaxed).newValue
        return stopped.load(ordering: .acquiring) || step >= stopAtDecodeStep
    }

    /// Says the work around the replay is over (its thread is about to end).
    public func noteEnded() { ended.store(true, ordering: .releasing) }
}

extension ReplayControl {
    /// Counts a step of the decode of `name` under `control` (none: nothing to count) and
    /// throws `.stopped` when it should end there (`decodeShouldStop`).
    static func checkDecodeStep(_ control: ReplayControl?, _ name: String) throws(ImageFileError) {
        if let control, control.decodeShouldStop() { throw .stopped(path: name) }
    }
}

import PaintCore

/// Counts the steps a log shows once replayed, for a restore question and its answer: every
/// change of any kind (a stroke, a shape, a fill, a text, a paste, a canvas change, a removal),
/// less those undone. A stroke without points (a damaged record's stand-in) draws nothing and
/// is not counted.
public struct StepCounter: Sendable {
    /// The steps shown.
    public private(set) var steps = 0
    /// The steps recorded, undone ones included (as far as a redo can go).
    private var recorded = 0

    public init() {}

    /// Counts the steps of `operations`.
    public init(_ operations: some Sequence<Operation>) {
        for operation in operations { add(operation) }
    }

    /// Counts one more operation of the log.
    public mutating func add(_ operation: Operation) {
        switch operation {
        case .undo: steps = max(0, steps - 1)
        case .redo: steps = min(recorded, steps + 1)
        case .stroke(_, let points, _) where points.isEmpty: break
        default:
            steps += 1
            recorded = steps
        }
    }
}

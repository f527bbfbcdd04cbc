import PaintCore

/// Where each change of a log being replayed left the history: a save marker that came after
/// changes drawn while the save was written (`JournalRecord.saved`'s `drawnDuring`) names the
/// step the history was on before them, unless one of them replaced it (an undo past it, then
/// a new step), as the window itself decided when the save ended.
struct SavedStepTrail {
    /// The cursor before the first change, then after each, and whether that change was a new
    /// step (not an undo or redo). Two words a change, for the length of one replay.
    private var cursors: [Int]
    private var newSteps: [Bool] = []

    init(cursor: Int) { cursors = [cursor] }

    mutating func note(_ operation: Operation, cursor: Int) {
        cursors.append(cursor)
        newSteps.append(operation != .undo && operation != .redo)
    }

    /// The step a save holds whose marker follows `drawnDuring` changes drawn during it; nil
    /// when a change replaced that step, or the log holds fewer changes (damage).
    func savedStep(drawnDuring: Int) -> Int? {
        let count = newSteps.count
        guard drawnDuring >= 0, drawnDuring <= count else { return nil }
        var step: Int? = cursors[count - drawnDuring]
        for index in (count - drawnDuring)..<count {
            step = History.step(step, afterNewStep: newSteps[index], cursor: cursors[index + 1])
        }
        return step
    }
}

extension History {
    /// What becomes of history step `step` (the saved one, or one being saved) once `operation`
    /// is committed and the history is at `cursor`: nil when a new step took its place (it was
    /// undone before), since no undo reaches that picture again. The one rule for a window's
    /// document and for a log read back.
    public static func step(_ step: Int?, after operation: Operation, cursor: Int) -> Int? {
        Self.step(step, afterNewStep: operation != .undo && operation != .redo, cursor: cursor)
    }

    /// `step(_:after:cursor:)`, told only whether the change was a new step (not an undo or a
    /// redo).
    public static func step(_ step: Int?, afterNewStep newStep: Bool, cursor: Int) -> Int? {
        guard let step, step >= cursor, newStep else { return step }
        return nil
    }
}

import PaintCore

/// The undo of a text box while it is typed, as in any editor: Ctrl+Z takes back a run of typed
/// characters, a run of deletions, a paste, a line break, a change of font, color or opacity, or
/// a move, and Ctrl+Shift+Z / Ctrl+Y does it again. It lives with the box: put down, the text
/// is one step of the picture's history and these go.
struct TextEdits {
    /// What a step takes back: the box (text, caret, font, place) and the color and opacity it
    /// is shown in.
    struct State: Equatable {
        var box: TextBox
        var style: StrokeStyle
    }

    /// What an edit did; edits of one kind made one after the other are taken back together.
    enum Kind: Equatable {
        /// Characters typed; a word started after a space begins a new step, as in GNOME's and
        /// KDE's editors, so undo takes back the last word, not the whole line.
        case typing(startsWord: Bool)
        /// A line break (Enter): a step of its own.
        case lineBreak
        /// Backspace (or Ctrl+Backspace) pressed.
        case deleteBackward
        /// Delete (or Ctrl+Delete) pressed.
        case deleteForward
        /// Text from the clipboard: a step of its own.
        case paste
        /// The selection cut to the clipboard: a step of its own.
        case cut
        /// Font, size, bold, italic, color or opacity: one slider drag or font list visit is one
        /// step.
        case style
        /// The box dragged to another place.
        case move

        /// Whether an edit of this kind joins the step before it of `previous` kind.
        func joins(_ previous: Kind) -> Bool {
            switch (previous, self) {
            case (.typing, .typing(let startsWord)): return !startsWord
            case (.deleteBackward, .deleteBackward), (.deleteForward, .deleteForward), (.style, .style),
                (.move, .move):
                return true
            default: return false
            }
        }
    }

    /// The states before each step, oldest first.
    private var undoable: [State] = []
    /// The states undo went back from, newest last.
    private var redoable: [State] = []
    /// The last edit and the state it left: the next edit joins it only when it starts from
    /// exactly that state (a caret moved or a click between them starts a new step).
    private var last: (kind: Kind, after: State)?

    /// How many UTF-8 bytes of text the steps may keep (a full box is 10,000 characters): past
    /// it the oldest steps go, so a long session of typing stays within a few megabytes.
    static let textBudget = 4 << 20

    /// Whether there is a step to take back.
    var canUndo: Bool { !undoable.isEmpty }
    /// Whether there is a step taken back to do again.
    var canRedo: Bool { !redoable.isEmpty }

    /// Notes an edit that took the box from `before` to `after` (nothing when it changed
    /// nothing). Anything newly done drops what was taken back.
    mutating func record(_ kind: Kind, from before: State, to after: State) {
        guard before != after else { return }
        if let last, kind.joins(last.kind), last.after == before {
            // The same run goes on: the step already holds the state before it. A run that
            // came back where it started (fonts tried in the list, then Escape) is no step.
            if undoable.last == after {
                undoable.removeLast()
                self.last = nil
                return
            }
        } else {
            undoable.append(before)
            trim()
        }
        redoable.removeAll()
        last = (kind, after)
    }

    /// Ends the run of edits: the next edit is a step of its own (a press, a key that is no
    /// edit).
    mutating func endRun() { last = nil }

    /// The state to go back to from `current`, which redo comes back to; nil when there is
    /// nothing to undo.
    mutating func undo(from current: State) -> State? {
        guard let state = undoable.popLast() else { return nil }
        redoable.append(current)
        last = nil
        return state
    }

    /// The state to go forward to from `current`; nil when there is nothing to redo.
    mutating func redo(from current: State) -> State? {
        guard let state = redoable.popLast() else { return nil }
        undoable.append(current)
        last = nil
        return state
    }

    /// Lets go of the oldest steps while the text they keep is over `textBudget`.
    private mutating func trim() {
        var bytes = undoable.reduce(0) { $0 + $1.box.text.utf8.count }
        var drop = 0
        while bytes > Self.textBudget && drop < undoable.count - 1 {
            bytes -= undoable[drop].box.text.utf8.count
            drop += 1
        }
        undoable.removeFirst(drop)
    }
}

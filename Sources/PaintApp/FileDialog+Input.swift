import PaintIO

/// Keys and the pointer in the file dialog (panel coordinates).
extension FileDialog {
    /// A key: Up / Down / Page Up / Page Down move through the list, Enter accepts, Escape
    /// cancels, Tab completes, Backspace in an empty field (Alt+Up always) goes up, Ctrl+H shows
    /// hidden files; anything else edits the field (which filters the list when opening).
    public mutating func key(_ key: Key, _ modifiers: Modifiers = []) -> Action? {
        switch key {
        case .escape:
            return .cancel
        case .enter:
            return accept()
        case .up where modifiers.contains(.alt):
            goUp()
        case .up, .down, .pageUp, .pageDown:
            guard !rows.isEmpty else { return nil }
            let step = key == .up ? -1 : key == .down ? 1 : key == .pageUp ? -visibleRows : visibleRows
            let from = selected ?? (step > 0 ? -1 : rows.count)
            choose(from + step)
        case .tab:
            let matches = complete()
            if !matches.isEmpty {
                setNote(matches.prefix(8).joined(separator: "   ") + (matches.count > 8 ? "   …" : ""))
            }
        case .backspace where field.text.isEmpty && modifiers.isEmpty:
            goUp()
        case .character(let c) where modifiers == .control && c.lowercased() == "h":
            toggleHidden()
        case .character(let c) where modifiers == .alt && c.lowercased() == "h":
            toggleHistory()
        default:
            guard field.handle(key, modifiers) else { return nil }
            listActive = false
            if purpose.isSave {
                nameEdited()
            } else {
                applyFilter(choosing: nil)
            }
            if noteIsProblem { setNote(nil) }
        }
        return nil
    }

    /// Text pasted into the field (its first line, cleaned by the session).
    mutating func paste(_ text: String) {
        field.insert(text)
        listActive = false
        if purpose.isSave { nameEdited() } else { applyFilter(choosing: nil) }
    }

    /// A button press at panel position (x, y): a place or a folder of the path bar goes there,
    /// a row is chosen, the scrollbar scrolls (its thumb follows the pointer), the format and
    /// the buttons act. The field's own presses are the session's (it knows where the text is).
    public mutating func press(x: Int, y: Int, button: PointerButton) -> Action? {
        switch button {
        case .wheelUp, .wheelDown:
            if rowsArea.contains(x, y) || list.contains(x, y) { scroll(by: button == .wheelUp ? -3 : 3) }
            return nil
        case .left:
            break
        default:
            return nil
        }
        switch target(atX: x, y: y) {
        case .up: goUp()
        case .crumb(let i):
            if crumbs[i].path.isEmpty { showRecent() } else { go(to: crumbs[i].path) }
        case .place(let i): open(place: i)
        case .row(let i): choose(i)
        case .scrollbar:
            guard let bar = scrollbar, let hit = bar.hit(x: x, y: y) else { return nil }
            switch hit {
            case .thumb: thumbDrag = ThumbDrag(y: y, top: top)
            case .pageBack: scroll(by: -bar.page)
            case .pageForward: scroll(by: bar.page)
            }
        case .format(let f): setFormat(f)
        case .history: toggleHistory()
        case .accept: return accept()
        case .cancel: return .cancel
        case .transparent: return .backgroundText("transparent")
        case .field, nil: break
        }
        return nil
    }

    /// A double click: a row opens (a folder is entered, a picture opened or saved over).
    public mutating func doubleClick(x: Int, y: Int) -> Action? {
        guard case .row(let i) = target(atX: x, y: y), rows.indices.contains(i) else { return nil }
        return activate(i)
    }

    /// Whether the scrollbar's thumb is held.
    public var isDragging: Bool { thumbDrag != nil }

    /// The pointer at panel y with the thumb held: the list follows it.
    mutating func drag(y: Int) {
        guard let grab = thumbDrag, let bar = scrollbar else { return }
        let new = bar.offset(from: grab.top, draggedBy: y - grab.y)
        if new != top {
            top = new
            readVisibleHeaders()
        }
    }

    /// The button went up.
    mutating func release() { thumbDrag = nil }

    /// The pointer moved over the panel; true when what it is over changed (a redraw).
    mutating func hover(x: Int, y: Int) -> Bool {
        let new = target(atX: x, y: y)
        guard new != hovered else { return false }
        hovered = new
        return true
    }
}

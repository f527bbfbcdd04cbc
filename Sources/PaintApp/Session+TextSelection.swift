import PaintCore

/// Selecting text in the box being typed, as in any text field: Shift with the caret keys, a
/// drag over the text, a double click (a word), a triple click (a line), Ctrl+A; the selection
/// shows as a light blue ground behind its letters (chrome: the engine's view only, never the
/// placed text), and Ctrl+C / Ctrl+X give it to the clipboard as text.
extension Session {
    // MARK: The highlight

    /// The image rectangles the selection covers: per line it touches, a piece per run of
    /// selected glyphs (right-to-left and mixed text select in logical order, so a selection can
    /// show as several pieces), a line high so that lines selected together make one block.
    func textHighlight(_ live: LiveText) -> [IntRect] { textHighlightPieces(live).map(\.rect) }

    /// `textHighlight` with each rectangle's exact left and right sides (image pixels): the
    /// window draws the sides there when zoomed in, where the caret stands.
    func textHighlightPieces(_ live: LiveText) -> [(rect: IntRect, sides: HighlightSides)] {
        let composing = live.preedit.map { $0.text.unicodeScalars.count } ?? 0
        var pieces: [(rect: IntRect, sides: HighlightSides)] = []
        for entry in live.box.selectedLines(composing: composing) where live.layout.lines.indices.contains(entry.line) {
            let top = live.box.y + live.layout.lines[entry.line].top
            let x = live.box.x
            for piece in live.layout.highlightPieces(line: entry.line, scalars: entry.range, withBreak: entry.withBreak)
            {
                pieces.append(
                    (
                        IntRect(
                            x: x + piece.pixels.lowerBound, y: top, width: piece.pixels.count,
                            height: live.layout.lineHeight),
                        HighlightSides(left: Double(x) + piece.left, right: Double(x) + piece.right)
                    ))
            }
        }
        return pieces
    }

    /// The selected text of the box being typed, nil when nothing is selected.
    public var selectedText: String? {
        guard let live = liveText, live.box.selection != nil else { return nil }
        return live.box.selectedText
    }

    // MARK: Clipboard

    /// Ctrl+C in the box: the selected text goes to the clipboard.
    func copyText() {
        guard let text = selectedText else { return setMessage("Select text in the box to copy it") }
        clipboardEncoding = nil
        effects.clipboard.append(.offerText(text))
        let count = text.count
        setMessage("Copied \(count) character\(count == 1 ? "" : "s") to the clipboard")
    }

    /// Ctrl+X in the box: the selected text goes to the clipboard and out of the box, one step
    /// of the box's undo.
    func cutText() {
        guard var live = liveText, let text = selectedText else {
            return setMessage("Select text in the box to cut it")
        }
        clipboardEncoding = nil
        effects.clipboard.append(.offerText(text))
        let before = live.editState
        live.box.deleteSelection()
        live.preedit = nil
        liveText = live
        refreshText(.reshape)
        recordTextEdit(.cut, from: before)
        let count = text.count
        setMessage("Cut \(count) character\(count == 1 ? "" : "s") to the clipboard")
    }

    /// Ctrl+A in the box: all its text.
    func selectAllText() {
        guard var live = liveText else { return }
        live.edits.endRun()
        live.box.selectAll()
        liveText = live
        refreshText(.caret)
    }

    // MARK: Pointer

    /// The scalar offset in the whole text nearest to window point (x, y): where a press or a
    /// drag over the box puts the caret.
    func textOffset(atWindowX x: Int, y: Int) -> Int? {
        guard let live = liveText else { return nil }
        let point = layout.imagePoint(windowX: x, windowY: y)
        let at = live.layout.offset(nearX: point.x - Double(live.box.x), y: point.y - Double(live.box.y))
        var box = live.box
        box.setCaret(line: at.line, scalarOffset: at.offset)
        return box.caret
    }

    /// The box's text area in window coordinates: its frame without the margin, where a press
    /// selects (on the margin it moves the box).
    func textInnerFrameInWindow() -> IntRect? {
        guard let frame = textFrameInWindow() else { return nil }
        let m = textFrameMargin
        return IntRect(x: frame.x + m, y: frame.y + m, width: frame.width - 2 * m, height: frame.height - 2 * m)
    }

    /// The pointer moved with the button held since a press on the text: the selection runs
    /// from where the press was to the pointer.
    func dragTextSelection(toWindowX x: Int, y: Int) {
        guard case .selectingText(let anchor) = gesture else { return }
        // A motion of the pointer's own scrolls by itself: the repeat waits a whole interval.
        autoscrolledAt = nil
        scrollTowardPointer(x, y)
        guard var live = liveText, let at = textOffset(atWindowX: x, y: y) else { return }
        live.box.select(from: anchor, to: at)
        guard live.box != liveText?.box else { return }
        liveText = live
        refreshText(.caret)
    }

    /// The pointer is past the canvas's edge during a drag: the picture scrolls that way by as
    /// far as the pointer is past it (at most a wheel click's step per motion), so a selection
    /// can reach text out of view, as in any text field. A picture that fits does not move.
    func scrollTowardPointer(_ x: Int, _ y: Int) {
        if let scrolled = scrolledTowardPointer(x, y) { setLayout(scrolled) }
    }

    /// The layout `scrollTowardPointer` goes to; nil when the picture stays (the pointer over
    /// the canvas, or the picture already as far as it goes that way).
    private func scrolledTowardPointer(_ x: Int, _ y: Int) -> Layout? {
        let area = layout.canvasArea
        let limit = Int(Self.wheelStep * layout.ui.factor)
        func past(_ v: Int, _ low: Int, _ high: Int) -> Int {
            v < low ? max(-limit, v - low) : v >= high ? min(limit, v - high + 1) : 0
        }
        let dx = past(x, area.x, area.maxX)
        let dy = past(y, area.y, area.maxY)
        guard dx != 0 || dy != 0 else { return nil }
        let scrolled = layout.scrolled(toX: layout.scrollX + dx, y: layout.scrollY + dy)
        return scrolled.scrollX == layout.scrollX && scrolled.scrollY == layout.scrollY ? nil : scrolled
    }

    /// Where the pointer rests past the canvas's edge during a drag selecting text while the
    /// picture can still scroll that way: `runTimers` repeats its motion there every
    /// `autoscrollInterval`, so the view keeps moving while the pointer holds still, as in a
    /// GTK text view or GIMP's canvas; nil otherwise (the gesture is looked at first: this is
    /// asked at every turn of the window's loop).
    public var autoscrollPoint: (x: Int, y: Int)? {
        guard case .selectingText = gesture, let p = lastPointer, scrolledTowardPointer(p.x, p.y) != nil else {
            return nil
        }
        return p
    }

    /// A double click on the box's text selects the word under it (a triple click, its line);
    /// false when the click was not on the text of a box with something in it.
    func selectTextUnit(atWindowX x: Int, y: Int, line wholeLine: Bool) -> Bool {
        guard var live = liveText, !live.box.text.isEmpty, let inner = textInnerFrameInWindow(), inner.contains(x, y),
            let nearest = textOffset(atWindowX: x, y: y)
        else { return false }
        if wholeLine {
            live.box.selectLine(at: nearest)
        } else {
            // The letter under the pointer, not the caret place nearest to it (a click on a
            // word's last letter's right half is still on that word).
            let point = layout.imagePoint(windowX: x, windowY: y)
            let line = live.box.caretPosition.line
            let under = live.layout.scalar(line: line, atX: point.x - Double(live.box.x))
            var box = live.box
            if let under { box.setCaret(line: line, scalarOffset: under) }
            live.box.selectWord(at: under == nil ? nearest : box.caret)
        }
        live.edits.endRun()
        liveText = live
        refreshText(.caret)
        if case .selectingText = gesture { gesture = .idle }
        offerPrimarySelection()
        return true
    }

    // MARK: The PRIMARY selection

    /// Offers the box's selected text as the PRIMARY selection when it changed (not during a
    /// drag: the release offers it once); an emptied selection is forgotten, so selecting the
    /// same text again offers it again after another program took PRIMARY. (The window gives
    /// PRIMARY up once nothing is selected: `takeEffects`.)
    func offerPrimarySelection() {
        guard var live = liveText else { return }
        if case .selectingText = gesture { return }
        guard live.box.selection != nil else {
            if live.primaryOffered != nil {
                live.primaryOffered = nil
                liveText = live
            }
            return
        }
        let text = live.box.selectedText
        guard text != live.primaryOffered else { return }
        live.primaryOffered = text
        liveText = live
        primaryHeld = true
        effects.clipboard.append(.offerPrimary(text))
    }

    /// A middle click on the box: the caret goes where it was clicked and the PRIMARY
    /// selection's text is fetched to be typed there (`paste(text:)`); false when the click
    /// was not on a box.
    func pastePrimarySelection(atWindowX x: Int, y: Int) -> Bool {
        guard var live = liveText, let frame = textFrameInWindow(), frame.contains(x, y) else { return false }
        let at = textOffset(atWindowX: x, y: y) ?? live.box.caret
        let composing = live.preedit != nil
        live.edits.endRun()
        live.preedit = nil
        live.box.select(from: at, to: at)
        liveText = live
        refreshText(composing ? .reshape : .caret)
        effects.clipboard.append(.fetchPrimaryText)
        return true
    }
}

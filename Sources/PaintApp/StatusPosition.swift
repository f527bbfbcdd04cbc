import PaintCore

/// The pointer position at the left end of the status bar, drawn on its own while the pointer
/// moves: a slot of the status bar's background and its position text, the same pixels the
/// whole bar has there, for a fraction of the whole bar's cost (its fields, rounded boxes and
/// texts are not redrawn 30 times a second during a stroke).
extension Session {
    /// The part of the status bar the pointer position owns, in window coordinates: from the
    /// bar's left end to halfway into the gap after the widest position this picture can show.
    /// Nothing else is drawn there.
    public var positionSlot: IntRect {
        let bar = layout.statusBar
        let slot = positionX + widestPositionWidth + statusGap / 2
        return IntRect(x: bar.x, y: bar.y, width: min(bar.width, slot), height: bar.height)
    }

    /// The position slot alone, for a redraw of the pointer position: nil when the bar shows
    /// something else there (a question, a prompt). `measure` must be the one the last whole
    /// bar was drawn with (the slot's width comes from it).
    public func renderPosition() -> (strip: ChromeStrip, at: IntRect)? {
        guard let (slot, text) = positionText() else { return nil }
        return (ChromeStrip(pixels: positionBackdrop(slot), texts: [text]), slot)
    }

    /// The width of the widest position the bar keeps room for ("88888, 88888"), measured once
    /// per picture size and measurer: the slot's width is asked at every pointer-position redraw,
    /// where measuring the text again was 40 % of the redraw's instructions.
    var widestPositionWidth: Int {
        let side = max(engine.width, engine.height)
        if let kept = widestPosition, kept.side == side { return kept.width }
        let width = textMeasure.width(of: statusSlots.position, bold: false)
        widestPosition = (side, width)
        return width
    }

    /// The slot and the position's text over it, nil when the bar shows something else there.
    /// The window keeps the slot's backdrop (`positionBackdrop`, the same pixels for every
    /// position while the slot stays) and draws only this text over it per pointer move.
    public func positionText() -> (slot: IntRect, text: TextRun)? {
        guard mode == .normal else { return nil }
        let slot = positionSlot
        guard !slot.isEmpty else { return nil }
        return (slot, positionRun)
    }

    /// The slot's pixels under the text: the status bar's background there. They depend on
    /// the slot's rectangle alone (the theme's colors are constants).
    public func positionBackdrop(_ slot: IntRect) -> PixelImage {
        statusPainter(width: slot.width, asking: false).image
    }

    /// The status bar's background, `width` pixels of it from its left end: its fill and the
    /// line along its top edge.
    func statusPainter(width: Int, asking: Bool) -> ChromePainter {
        let bar = layout.statusBar
        var p = ChromePainter(width: width, height: bar.height, background: asking ? Theme.askFill : Theme.statusFill)
        p.offsetY = -Double(bar.y)
        p.fill(IntRect(x: 0, y: bar.y, width: width, height: 1), asking ? Theme.askBorder : Theme.border)
        return p
    }

    /// The baseline of the status bar's texts (window coordinates).
    var statusBaseline: Int {
        let bar = layout.statusBar
        return bar.y + (bar.height + layout.ui.px(10)) / 2
    }

    /// The gap between the status bar's fields.
    var statusGap: Int { layout.ui.px(22) }

    /// Where the pointer position's text starts.
    var positionX: Int { layout.ui.px(10) }

    /// The pointer position's text: "x, y" in picture pixels, or a dash off the picture.
    var positionRun: TextRun {
        TextRun(
            text: pointerPixel.map { Self.positionLabel($0.x, $0.y) } ?? "—", x: positionX, baseline: statusBaseline,
            color: Theme.text, bold: false)
    }

    /// "x, y", as `"\(x), \(y)"` spells it, written digit by digit into a stack buffer: the
    /// position is redrawn 30 times a second while the pointer moves, and string interpolation
    /// was a fifth of each redraw's instructions. (A position is short enough to be stored in
    /// the string itself: no allocation.)
    static func positionLabel(_ x: Int, _ y: Int) -> String {
        // Two 20-character numbers (Int.min) and ", ".
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { buffer in
            var count = 0
            appendDecimal(x, to: buffer, at: &count)
            buffer[count] = UInt8(ascii: ",")
            buffer[count + 1] = UInt8(ascii: " ")
            count += 2
            appendDecimal(y, to: buffer, at: &count)
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
    }

    /// Writes `value` in decimal at `buffer[count...]` and moves `count` past it.
    private static func appendDecimal(_ value: Int, to buffer: UnsafeMutableBufferPointer<UInt8>, at count: inout Int) {
        if value < 0 {
            buffer[count] = UInt8(ascii: "-")
            count += 1
        }
        var rest = value.magnitude
        let start = count
        repeat {
            buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            count += 1
        } while rest > 0
        // The digits came out least significant first.
        var (i, j) = (start, count - 1)
        while i < j {
            buffer.swapAt(i, j)
            i += 1
            j -= 1
        }
    }
}

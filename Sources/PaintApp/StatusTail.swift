import PaintCore

/// A text of the status bar cut short with "…" (a narrow window, a long file name or message):
/// the whole text, and where its cut run is drawn. Resting the pointer there shows the whole
/// text in a tooltip, as GTK shows an ellipsized label's; before, the rest could not be read.
public struct CutText: Equatable, Sendable {
    /// The text as it would read uncut.
    public var whole: String
    /// Where its cut run is drawn: the bar's height, the run's width (window coordinates).
    public var anchor: IntRect
}

/// The end of the plain status bar: the file name, "with history" and the last message, each
/// cut short where the window is too narrow, never drawn past the edge.
extension Session {
    /// The runs the name, "with history" and the message are drawn as, and those of them cut short.
    struct StatusTail {
        var runs: [TextRun] = []
        var cut: [CutText] = []
    }

    /// The stabilizer's field, a box after the zoom field that reads as a button (`measure`
    /// must be `textMeasure`, as the zoom field's place is).
    func stabilizerFieldRect(_ measure: TextMeasuring) -> IntRect {
        let zoom = zoomField
        let s = layout.ui
        return IntRect(
            x: zoom.maxX + s.px(8), y: zoom.y, width: measure.width(of: "Stabilizer 16", bold: false) + s.px(16),
            height: zoom.height)
    }

    /// Lays out the name and the message at the right end after the stabilizer's field. The
    /// message wins the room (it may say that a save failed, and it goes by itself): "with
    /// history" gives way first, then the name shrinks, and a name cut to fewer than
    /// `fewestNameCharacters` is left out (the window's title still names the file). Before, the
    /// name kept a third of the room, so at 420 px an error read "Can…" beside "ph…".
    func statusTail(_ measure: TextMeasuring) -> StatusTail {
        let bar = layout.statusBar
        let s = layout.ui
        let gap = statusGap
        let baseline = statusBaseline
        var tail = StatusTail()
        /// Notes a run cut short from `whole`, drawn `shown` at `x`.
        func note(_ whole: String, _ shown: String?, x: Int, width: Int) {
            guard shown != whole, width > 0 else { return }
            tail.cut.append(CutText(whole: whole, anchor: IntRect(x: x, y: bar.y, width: width, height: bar.height)))
        }
        let end = bar.width - s.px(10)
        var x = stabilizerFieldRect(measure).maxX + gap
        let name = displayName + (isModified ? " (unsaved)" : "")
        let message = shownMessage
        let failed = Self.isError(message)
        let historyWidth = carriesHistory ? s.px(8) + measure.width(of: "with history", bold: false) : 0
        let messageWidth = message.isEmpty ? 0 : gap + measure.width(of: message, bold: failed)
        let room = end - x
        let nameRoom = room - historyWidth - messageWidth
        // Without "with history" when the name does not fit (beside the message) with it.
        let nameWidth = measure.width(of: name, bold: true)
        let withoutHistory = nameWidth <= nameRoom ? nameRoom : nameRoom + historyWidth
        let shownName = Self.elided(name, width: min(room, withoutHistory), bold: true, measure).flatMap {
            $0 == name || $0.count > Self.fewestNameCharacters ? $0 : nil
        }
        if let shownName {
            tail.runs.append(TextRun(text: shownName, x: x, baseline: baseline, color: Theme.text, bold: true))
            let width = measure.width(of: shownName, bold: true)
            note(name, shownName, x: x, width: width)
            x += width
        }
        // A file that carries its editing history says so wherever its name shows.
        if carriesHistory, shownName != nil, x + historyWidth <= end - messageWidth {
            x += s.px(8)
            tail.runs.append(
                TextRun(text: "with history", x: x, baseline: baseline, color: Theme.cautionText, bold: false))
            x += measure.width(of: "with history", bold: false)
        }
        x += gap
        guard !message.isEmpty else { return tail }
        if let shown = Self.elidedMessage(message, width: end - x, bold: failed, measure) {
            let width = measure.width(of: shown, bold: failed)
            let at = max(x, end - width)
            tail.runs.append(
                TextRun(
                    text: shown, x: at, baseline: baseline, color: failed ? Theme.errorText : Theme.text, bold: failed))
            note(message, shown, x: at, width: width)
        } else {
            // Not one character fits: the room left still shows the whole message when rested on.
            note(message, nil, x: x, width: end - x)
        }
        return tail
    }

    /// The fewest characters of the file name worth showing before its "…" in the status bar.
    static let fewestNameCharacters = 4

    /// The status bar's text under the pointer when it is cut short (the name or message, a
    /// question, the quality prompt's label or keys): its whole text for the tooltip. Nil elsewhere.
    public var statusTip: CutText? {
        guard let p = lastPointer, layout.statusBar.contains(p.x, p.y) else { return nil }
        let cut: [CutText]
        switch mode {
        case .normal: cut = statusTail(textMeasure).cut
        case .qualityPrompt: cut = qualityPromptTail(textMeasure).tail.cut
        case .confirmLeave, .offerRestore, .restoring, .confirmReplace, .chooseFormat, .confirmOverwrite:
            cut = questionTail(textMeasure).cut
        }
        return cut.first { $0.anchor.contains(p.x, p.y) }
    }
}

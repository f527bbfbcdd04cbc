import PaintCore
import PaintIO

/// The status bar while it asks something: the question before its answer buttons, or the
/// quality prompt's label, field and keys, each cut short with "…" where the window is too
/// narrow and shown whole in the tooltip (`statusTip`). Before, a question ran on under its
/// buttons ("Restore the drawing “/tmp/qa/photo.png” from …" over Restore and Discard at 420 px).
extension Session {
    /// The question the bar asks with answer buttons; nil in the other modes.
    var statusQuestion: String? {
        switch mode {
        case .normal, .qualityPrompt: return nil
        case .offerRestore(let text), .restoring(let text): return text
        case .chooseFormat(let target, _):
            let name = FileSystem.lastComponent(target)
            switch ImageFormat.naming(of: target) {
            case .known(let format):
                return "SwiftPaint opens \(format.name) pictures but does not write them. Save “\(name)” as:"
            case .unknown(let ext):
                return "“.\(ext)” is not a format SwiftPaint writes. Save “\(name)” as:"
            case .none:
                return "Save “\(name)” as:"
            }
        case .confirmReplace(let target, _):
            return "“\(FileSystem.lastComponent(target))” already exists. Replace it?"
        case .confirmOverwrite(let target, _):
            return "Another program changed “\(FileSystem.lastComponent(target))” since it was opened or saved here:"
        case .confirmLeave(.quit) where !isModified && deletedOnDisk:
            return "“\(displayName)” was deleted since it was saved here. Save this picture?"
        case .confirmLeave(.quit) where !isModified:
            // Saved here, then replaced by another program: this window holds the only copy.
            return "Another program changed “\(displayName)” since it was saved here. Save this picture?"
        case .confirmLeave(.quit): return "Save changes to “\(displayName)” before closing?"
        case .confirmLeave: return "Save changes to “\(displayName)” first?"
        }
    }

    /// The question as drawn: from the bar's left margin to a gap before the first answer
    /// button, cut short there when longer.
    func questionTail(_ measure: TextMeasuring) -> StatusTail {
        var tail = StatusTail()
        guard let question = statusQuestion else { return tail }
        let s = layout.ui
        let x = s.px(10)
        let end = (answerButtons().first?.1.x ?? layout.statusBar.maxX) - s.px(8)
        tail.add(question, x: x, end: end, baseline: statusBaseline, bar: layout.statusBar, measure, bold: true)
        return tail
    }

    /// The quality prompt's label, field and keys: the label cut short so the field always
    /// shows (a long file name pushed it out of a narrow window), the keys cut at the bar's end.
    func qualityPromptTail(_ measure: TextMeasuring) -> (tail: StatusTail, field: IntRect) {
        var tail = StatusTail()
        let bar = layout.statusBar
        let s = layout.ui
        guard case .qualityPrompt(_, let target, _) = mode else {
            return (tail, IntRect(x: 0, y: 0, width: 0, height: 0))
        }
        let webp = qualityFormat(target) == .webp
        // Why 90 is offered, where it is: the picture came from a lossy file.
        let range =
            webp
            ? (offersLossyWebP
                ? ", 100 lossless; lossy \(SaveOptions.lossyWebPQuality) for a picture from a JPEG or lossy WebP"
                : ", 100 lossless")
            : document.sourceJPEG?.sampling.map { ", color \($0.name) as the JPEG opened" } ?? ""
        let label = "\(webp ? "WebP" : "JPEG") quality for “\(FileSystem.lastComponent(target))” (1–100\(range)):"
        let fieldWidth = s.px(64)
        let end = bar.maxX - s.px(10)
        let labelEnd = tail.add(
            label, x: s.px(10), end: max(s.px(10), end - fieldWidth - s.px(8)), baseline: statusBaseline, bar: bar,
            measure, bold: true)
        let field = IntRect(
            x: labelEnd + s.px(8), y: bar.y + s.px(3), width: fieldWidth, height: bar.height - s.px(7))
        let keys = "Enter: save   Esc: cancel   (higher: finer, larger file)"
        let hint = message.isEmpty ? keys : message
        let runs = tail.runs.count
        tail.add(
            hint, x: field.maxX + s.px(14), end: end, baseline: statusBaseline, bar: bar, measure, bold: false,
            color: Theme.dimText)
        if tail.runs.count == runs, let shown = tail.runs.first {
            // No room for a character of the keys: the label's tip says them after it.
            let both = label + "   " + hint
            if let i = tail.cut.firstIndex(where: { $0.whole == label }) {
                tail.cut[i].whole = both
            } else {
                let anchor = IntRect(
                    x: shown.x, y: bar.y, width: measure.width(of: shown.text, bold: true), height: bar.height)
                tail.cut.append(CutText(whole: both, anchor: anchor))
            }
        }
        return (tail, field)
    }
}

extension Session.StatusTail {
    /// Adds `text` drawn from `x`, cut short with "…" to end by `end`, and notes it as cut when
    /// it is (nothing of it fitting, the room left still shows it whole when rested on).
    /// Returns where the drawn run ends.
    @discardableResult
    mutating func add(
        _ text: String, x: Int, end: Int, baseline: Int, bar: IntRect, _ measure: TextMeasuring, bold: Bool,
        color: Color = Theme.text
    ) -> Int {
        let room = max(0, end - x)
        let shown = Session.elided(text, width: room, bold: bold, measure)
        let width = shown.map { measure.width(of: $0, bold: bold) } ?? 0
        if let shown { runs.append(TextRun(text: shown, x: x, baseline: baseline, color: color, bold: bold)) }
        if shown != text {
            let anchor = shown == nil ? room : width
            if anchor > 0 {
                cut.append(CutText(whole: text, anchor: IntRect(x: x, y: bar.y, width: anchor, height: bar.height)))
            }
        }
        return x + width
    }
}

import PaintCore

extension SizeDialog {
    /// The panel drawn, in the color editor's look: the two tabs, the three number fields with
    /// their units, keep aspect, the anchor (canvas tab), the size before and after or what is
    /// wrong with it (that field framed in red, OK dimmed), OK and Cancel.
    public func render(measure: TextMeasuring) -> ChromeStrip {
        let s = scale
        var p = ChromePainter(width: width, height: height, background: Color(r: 0xFA, g: 0xFA, b: 0xFB))
        var texts: [TextRun] = []
        p.strokeRoundedRect(0.5, 0.5, Double(width) - 1, Double(height) - 1, radius: 0, lineWidth: 1, Theme.border)
        // The tabs look like the buttons, the chosen one like the default button.
        for k in Kind.allCases {
            PanelButtons.button(
                tab(k), k.title, isDefault: k == kind, scale: s, painter: &p, texts: &texts, measure: measure)
        }
        for field in Field.allCases {
            let l = label(field)
            texts.append(
                TextRun(
                    text: field.label, x: l.x, baseline: l.y + s.px(16), color: Theme.dimText, bold: field == focus))
            // A drag handle under the label says it can be dragged.
            let mark = measure.width(of: field.label, bold: field == focus)
            p.fill(IntRect(x: l.x, y: l.y + s.px(20), width: mark, height: 1), Theme.separator)
            let b = box(field)
            let frame = IntRect(x: b.x, y: b.y, width: b.width - 1, height: b.height - 1)
            if field == focus {
                _ = TextFieldView.draw(
                    fields[field.rawValue], preedit: nil, frame: frame, baseline: b.y + s.px(17), painter: &p,
                    texts: &texts, measure: measure)
            } else {
                p.fillRoundedRect(
                    Double(frame.x) + 0.5, Double(frame.y) + 0.5, Double(frame.width), Double(frame.height),
                    radius: 3, .white)
                p.strokeRoundedRect(
                    Double(frame.x) + 0.5, Double(frame.y) + 0.5, Double(frame.width), Double(frame.height),
                    radius: 3, lineWidth: 1, Theme.border)
                texts.append(
                    TextRun(
                        text: fields[field.rawValue].text, x: b.x + s.px(6), baseline: b.y + s.px(17),
                        color: Theme.text, bold: false))
            }
            if field == problemField {
                // The field that keeps OK from being used, framed in the error color.
                PanelButtons.markProblem(frame, scale: s, painter: &p)
            }
            texts.append(
                TextRun(
                    text: field.unit, x: b.maxX + s.px(6), baseline: b.y + s.px(17), color: Theme.dimText, bold: false))
        }
        PanelButtons.checkBox(
            keepAspectBox, "Keep aspect ratio", checked: keepsAspect, scale: s, painter: &p, texts: &texts)
        if kind == .canvas { drawAnchor(&p, &texts) }
        // The size now and after, or why it cannot be used.
        let summaryY = s.px(196)
        if let problem {
            // On two lines, between the check box and the buttons, when it is longer than the
            // panel is wide: never cut off by the panel's edge.
            let lines = Session.wrapped(problem, width: width - s.px(32), lines: 2, bold: false, measure)
            let lineHeight = s.px(17)
            for (i, line) in lines.enumerated() {
                let baseline = summaryY - (lines.count - 1) * lineHeight / 2 + i * lineHeight
                texts.append(TextRun(text: line, x: s.px(16), baseline: baseline, color: Theme.errorText, bold: false))
            }
        } else if let (w, h) = size {
            texts.append(
                TextRun(
                    text: "\(originalWidth) × \(originalHeight) → \(w) × \(h) px", x: s.px(16), baseline: summaryY,
                    color: Theme.dimText, bold: false))
        }
        // OK is dimmed while the size cannot be used (Enter does nothing then either).
        let usable = problem == nil
        for (rect, text, isDefault) in [(acceptButton, "OK", true), (cancelButton, "Cancel", false)] {
            PanelButtons.button(
                rect, text, isDefault: isDefault, enabled: !isDefault || usable, scale: s, painter: &p, texts: &texts,
                measure: measure)
        }
        return ChromeStrip(pixels: p.image, texts: texts)
    }

    /// The 3 x 3 anchor: the chosen cell dark, the others white with a small arrow pointing
    /// away from it (where the canvas grows).
    private func drawAnchor(_ p: inout ChromePainter, _ texts: inout [TextRun]) {
        let s = scale
        let first = anchorCell(0)
        texts.append(
            TextRun(text: "Anchor", x: first.x, baseline: first.y - s.px(6), color: Theme.dimText, bold: false))
        for cell in 0..<9 {
            let r = anchorCell(cell)
            let chosen = cell == anchor
            PanelButtons.box(
                r, radius: 3, fill: chosen ? Theme.icon : .white, border: chosen ? Theme.icon : Theme.border,
                painter: &p)
            let dx = cell % 3 - anchor % 3
            let dy = cell / 3 - anchor / 3
            guard !chosen, abs(dx) <= 1, abs(dy) <= 1 else { continue }
            // An arrow from the cell's centre towards the side away from the anchor.
            let cx = Double(r.x) + Double(r.width) / 2
            let cy = Double(r.y) + Double(r.height) / 2
            let length = (Double(dx * dx + dy * dy)).squareRoot()
            let (ux, uy) = (Double(dx) / length, Double(dy) / length)
            let tip = (cx + ux * s.d(6), cy + uy * s.d(6))
            let tail = (cx - ux * s.d(5), cy - uy * s.d(5))
            p.line(tail.0, tail.1, tip.0, tip.1, width: s.d(1.5), Theme.icon)
            for turn in [-1.0, 1.0] {
                let (bx, by) = (-ux * 0.7 - uy * 0.7 * turn, -uy * 0.7 + ux * 0.7 * turn)
                p.line(tip.0, tip.1, tip.0 + bx * s.d(4.5), tip.1 + by * s.d(4.5), width: s.d(1.5), Theme.icon)
            }
        }
    }
}

import PaintCore

/// The push buttons and check boxes of the panels (the color editor, the size dialog): one
/// look for both.
enum PanelButtons {
    /// A push button: rounded, the default one filled with the active color, its label centred;
    /// one that cannot be used now (`enabled` false) plain with a gray label.
    static func button(
        _ rect: IntRect, _ label: String, isDefault: Bool, enabled: Bool = true, scale: UIScale,
        painter p: inout ChromePainter, texts: inout [TextRun], measure: TextMeasuring
    ) {
        let lit = isDefault && enabled
        box(
            rect, radius: 4, fill: lit ? Theme.activeFill : .white, border: lit ? Theme.activeBorder : Theme.border,
            painter: &p)
        let w = measure.width(of: label, bold: isDefault)
        texts.append(
            TextRun(
                text: label, x: rect.x + (rect.width - w) / 2, baseline: rect.y + scale.px(17),
                color: enabled ? Theme.text : Theme.disabledText, bold: isDefault))
    }

    /// Frames a text field (`frame` as `TextFieldView.draw` takes it) in the error color, two
    /// pixels thick over its own border: what it holds cannot be used.
    static func markProblem(_ frame: IntRect, scale s: UIScale, painter p: inout ChromePainter) {
        let inset = s.d(2) / 2
        p.strokeRoundedRect(
            Double(frame.x) + inset, Double(frame.y) + inset, Double(frame.width) + 1 - 2 * inset,
            Double(frame.height) + 1 - 2 * inset, radius: 3, lineWidth: s.d(2), Theme.errorText)
    }

    /// A rounded box filling `rect`, its one-pixel border inside it.
    static func box(_ rect: IntRect, radius: Double, fill: Color, border: Color, painter p: inout ChromePainter) {
        p.fillRoundedRect(
            Double(rect.x) + 0.5, Double(rect.y) + 0.5, Double(rect.width) - 1, Double(rect.height) - 1,
            radius: radius, fill)
        p.strokeRoundedRect(
            Double(rect.x) + 0.5, Double(rect.y) + 0.5, Double(rect.width) - 1, Double(rect.height) - 1,
            radius: radius, lineWidth: 1, border)
    }

    /// A check box at the left of `rect`, ticked or not, with its label after it.
    static func checkBox(
        _ rect: IntRect, _ label: String, checked: Bool, scale s: UIScale, painter p: inout ChromePainter,
        texts: inout [TextRun]
    ) {
        let side = s.px(14)
        let box = IntRect(x: rect.x, y: rect.y + (rect.height - side) / 2, width: side, height: side)
        p.fillRoundedRect(
            Double(box.x) + 0.5, Double(box.y) + 0.5, Double(side) - 1, Double(side) - 1, radius: 3,
            checked ? Theme.trackFill : .white)
        p.strokeRoundedRect(
            Double(box.x) + 0.5, Double(box.y) + 0.5, Double(side) - 1, Double(side) - 1, radius: 3, lineWidth: 1,
            checked ? Theme.activeBorder : Theme.border)
        if checked {
            let (x, y) = (Double(box.x), Double(box.y))
            p.strokePolyline(
                [(x + s.d(3.5), y + s.d(7.5)), (x + s.d(6), y + s.d(10)), (x + s.d(10.5), y + s.d(4.5))],
                width: s.d(1.8), .white)
        }
        texts.append(
            TextRun(text: label, x: box.maxX + s.px(8), baseline: rect.y + s.px(15), color: Theme.text, bold: false))
    }
}

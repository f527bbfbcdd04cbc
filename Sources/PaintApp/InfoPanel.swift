import PaintCore

/// A panel over the canvas that tells something and closes: the keys (F1) or About SwiftPaint.
/// Enter, Escape, its OK button or a click outside close it.
public struct InfoPanel: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case keys, about }

    public let kind: Kind
    public let title: String
    /// Key and what it does (keys), or lines of text (about: empty keys).
    public let rows: [(key: String, text: String)]

    public static func == (a: InfoPanel, b: InfoPanel) -> Bool { a.kind == b.kind }

    /// The panel of `kind`, its contents from the command table and the tools.
    public init(_ kind: Kind) {
        self.kind = kind
        switch kind {
        case .keys:
            title = "Keys"
            // A tool's name is its title up to the first explanation ("Line (Shift: …)").
            var rows: [(String, String)] = Tool.allCases.map { tool in
                (tool.key, String(tool.title.prefix { $0 != "(" && $0 != ":" }).trimmingSpaces)
            }
            rows += Command.all.compactMap { command in
                command.keys.first.map { ($0.label, MnemonicLabel(command.label).text) }
            }
            rows += [
                ("[  ]", "Brush width down / up"), ("1 … 9, 0", "Opacity 10 … 90, 100 %"),
                ("Shift+click", "Line from the last point"), ("Ctrl+click", "Pick the color there"),
                ("Escape", "Cancel or deselect"), ("Enter", "Put a paste down"),
                ("Arrow keys", "Nudge a paste, else scroll"),
                ("Page Up, Down", "Scroll a page (Shift: sideways)"), ("Home, End", "Scroll to a corner"),
                ("Wheel", "Scroll (Shift: sideways)"),
                ("Wheel on a slider", "Turn it"), ("Ctrl+wheel", "Zoom about the pointer"),
                ("Middle drag", "Pan the picture"), ("F10", "Open the menus"), ("Alt+letter", "Open that menu"),
            ]
            self.rows = rows
        case .about:
            title = "About SwiftPaint"
            rows = [
                ("", "SwiftPaint \(CommandLineOptions.version)"),
                ("", "A paint program for the Linux desktop, in Swift, talking to X through Xlib."),
                ("", "Undo without a step limit; every stroke journaled against a crash."),
                ("", "Every key, option and file: man swiftpaint"),
            ]
        }
    }

    // MARK: Geometry (panel coordinates)

    /// How the panel is laid out for a window at a scale with a font.
    public struct Geometry: Sendable, Equatable {
        public let width: Int
        public let height: Int
        public let columns: Int
        public let rowsPerColumn: Int
        public let keyWidth: Int
        public let columnWidth: Int
        public let okButton: IntRect
    }

    static let rowHeight = 18.0
    static let margin = 16.0

    /// The panel's size and layout: as many columns of keys as the window's width allows, and
    /// never larger than the window.
    public func geometry(windowWidth: Int, windowHeight: Int, scale s: UIScale, measure: TextMeasuring) -> Geometry {
        let keyWidth = (rows.map { measure.width(of: $0.key, bold: true) }.max() ?? 0) + (kind == .keys ? s.px(12) : 0)
        let textWidth = rows.map { measure.width(of: $0.text, bold: false) }.max() ?? 0
        let columnWidth = keyWidth + textWidth + s.px(18)
        let margin = s.px(Self.margin)
        let room = max(columnWidth, windowWidth - 2 * margin - s.px(8))
        let columns = kind == .keys ? max(1, min(3, room / columnWidth)) : 1
        let perColumn = (rows.count + columns - 1) / columns
        let width = min(
            windowWidth, max(columns * columnWidth + 2 * margin, measure.width(of: title, bold: true) + 2 * margin))
        let height = min(
            windowHeight, s.px(44) + perColumn * s.px(Self.rowHeight) + s.px(50))
        let button = IntRect(x: width - margin - s.px(72), y: height - s.px(40), width: s.px(72), height: s.px(26))
        return Geometry(
            width: width, height: height, columns: columns, rowsPerColumn: perColumn, keyWidth: keyWidth,
            columnWidth: columnWidth, okButton: button)
    }

    /// The panel drawn: a frame, the title, the rows in columns, the OK button.
    public func render(_ g: Geometry, scale s: UIScale, measure: TextMeasuring) -> ChromeStrip {
        var p = ChromePainter(
            width: max(1, g.width), height: max(1, g.height), background: Color(r: 0xFA, g: 0xFA, b: 0xFB))
        p.strokeRoundedRect(0.5, 0.5, Double(g.width) - 1, Double(g.height) - 1, radius: 0, lineWidth: 1, Theme.border)
        let margin = s.px(Self.margin)
        var texts = [TextRun(text: title, x: margin, baseline: s.px(28), color: Theme.text, bold: true)]
        p.fill(IntRect(x: margin, y: s.px(38), width: g.width - 2 * margin, height: 1), Theme.separator)
        for (index, row) in rows.enumerated() {
            let column = index / g.rowsPerColumn
            let x = margin + column * g.columnWidth
            let baseline = s.px(44) + (index % g.rowsPerColumn) * s.px(Self.rowHeight) + s.px(15)
            guard baseline < g.okButton.y else { continue }
            if !row.key.isEmpty {
                texts.append(TextRun(text: row.key, x: x, baseline: baseline, color: Theme.text, bold: true))
            }
            texts.append(
                TextRun(
                    text: row.text, x: x + (row.key.isEmpty ? 0 : g.keyWidth), baseline: baseline,
                    color: row.key.isEmpty ? Theme.text : Theme.dimText, bold: false))
        }
        let ok = g.okButton
        p.fillRoundedRect(
            Double(ok.x) + 0.5, Double(ok.y) + 0.5, Double(ok.width) - 1, Double(ok.height) - 1, radius: s.d(4),
            Theme.activeFill)
        p.strokeRoundedRect(
            Double(ok.x) + 0.5, Double(ok.y) + 0.5, Double(ok.width) - 1, Double(ok.height) - 1, radius: s.d(4),
            lineWidth: 1, Theme.activeBorder)
        let w = measure.width(of: "OK", bold: true)
        texts.append(
            TextRun(text: "OK", x: ok.x + (ok.width - w) / 2, baseline: ok.y + s.px(17), color: Theme.text, bold: true))
        return ChromeStrip(pixels: p.image, texts: texts)
    }
}

import PaintCore

/// The text tool's font list: a search field over the installed families (from fontconfig),
/// each shown in its own face. A value type driven by the session, like `ColorEditor`;
/// coordinates are local to its panel.
///
/// Typing filters (every word must appear in the name), Up and Down move through the list and
/// try each font on the text at once, Enter or a click takes one, Escape goes back to the font
/// the panel opened with.
public struct FontChooser: Equatable {
    /// What a key or click asks of the session.
    public enum Action: Equatable, Sendable {
        /// Show the text in this family, keep the panel open.
        case preview(String)
        /// Use this family and close the panel.
        case accept(String)
        /// Close the panel and go back to `original`.
        case cancel
    }

    /// How large it is drawn (its geometry, text and previews scale with the interface).
    public let scale: UIScale

    // MARK: Geometry (panel coordinates, designed at 96 dpi and scaled)

    static let baseWidth = 300
    static let baseRowHeight = 28
    /// Rows the list shows at once.
    static let visibleRows = 11
    /// The em size the family names are shown at, 96-dpi pixels.
    static let basePreviewSize = 17

    /// A 96-dpi rectangle at this panel's scale, its edges on whole pixels.
    private func scaled(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> IntRect {
        let x0 = scale.px(Double(x))
        let y0 = scale.px(Double(y))
        return IntRect(x: x0, y: y0, width: scale.px(Double(x + w)) - x0, height: scale.px(Double(y + h)) - y0)
    }

    /// The panel's size at interface scale `scale`.
    public static func size(_ scale: UIScale) -> (width: Int, height: Int) {
        (scale.px(Double(baseWidth)), scale.px(Double(72 + visibleRows * baseRowHeight + 8)))
    }
    public var width: Int { Self.size(scale).width }
    public var height: Int { Self.size(scale).height }
    /// One row of the list.
    public var rowHeight: Int { scale.px(Double(Self.baseRowHeight)) }
    public var searchField: IntRect { scaled(32, 36, Self.baseWidth - 44, 26) }
    public var list: IntRect {
        let r = scaled(8, 72, Self.baseWidth - 16, 0)
        return IntRect(x: r.x, y: r.y, width: r.width, height: Self.visibleRows * rowHeight)
    }
    /// The em size the family names are shown at, screen pixels.
    public static func previewSize(_ scale: UIScale) -> Int { scale.px(Double(basePreviewSize)) }

    /// Every family, as fontconfig lists them.
    public let families: [String]
    /// The family when the panel opened.
    public let original: String
    /// The search text.
    public private(set) var search = TextField("")
    /// The families that match the search, in list order.
    public private(set) var matches: [String]
    /// The highlighted row (an index into `matches`).
    public private(set) var highlighted: Int?
    /// The row under the pointer.
    public private(set) var hovered: Int?
    /// The first row shown.
    public private(set) var top = 0

    /// A panel over `families` with `current` highlighted and scrolled into view, drawn at
    /// interface scale `scale`.
    public init(families: [String], current: String, scale: UIScale = .one) {
        self.scale = scale
        self.families = families
        original = current
        matches = families
        highlighted = families.firstIndex(of: current)
        if let h = highlighted { top = max(0, min(h - Self.visibleRows / 2, families.count - Self.visibleRows)) }
    }

    // MARK: Input

    /// A key: Up and Down move (and preview), Page Up / Down by a page, Enter accepts, Escape
    /// cancels, anything else edits the search.
    public mutating func key(_ key: Key, _ modifiers: Modifiers = []) -> Action? {
        switch key {
        case .escape:
            return .cancel
        case .enter:
            guard let h = highlighted, matches.indices.contains(h) else { return matches.isEmpty ? nil : .cancel }
            return .accept(matches[h])
        case .up, .down:
            guard !matches.isEmpty else { return nil }
            let step = key == .up ? -1 : 1
            let next = min(max((highlighted ?? (step > 0 ? -1 : matches.count)) + step, 0), matches.count - 1)
            highlighted = next
            scrollIntoView(next)
            return .preview(matches[next])
        default:
            guard search.handle(key, modifiers) else { return nil }
            filter()
            return nil
        }
    }

    /// A button press in the panel: a row takes its family.
    public mutating func press(x: Int, y: Int) -> Action? {
        guard let row = row(atX: x, y: y) else { return nil }
        highlighted = row
        return .accept(matches[row])
    }

    /// The pointer moved over the panel.
    public mutating func hover(x: Int, y: Int) {
        hovered = row(atX: x, y: y)
    }

    /// The wheel: three rows up (negative) or down.
    public mutating func scroll(by rows: Int) {
        top = min(max(top + rows, 0), max(0, matches.count - Self.visibleRows))
    }

    /// The row of `matches` at a panel position.
    func row(atX x: Int, y: Int) -> Int? {
        guard list.contains(x, y) else { return nil }
        let row = top + (y - list.y) / rowHeight
        return matches.indices.contains(row) ? row : nil
    }

    private mutating func filter() {
        let words = search.text.lowercased().split(separator: " ")
        matches = families.filter { name in
            let lower = name.lowercased()
            return words.allSatisfy { lower.contains($0) }
        }
        top = 0
        hovered = nil
        // The best match is a name that starts with what was typed.
        let typed = search.text.lowercased().trimmingSpaces
        highlighted =
            matches.isEmpty ? nil : matches.firstIndex { $0.lowercased().hasPrefix(typed) } ?? 0
        if let h = highlighted { scrollIntoView(h) }
    }

    private mutating func scrollIntoView(_ row: Int) {
        if row < top { top = row }
        if row >= top + Self.visibleRows { top = row - Self.visibleRows + 1 }
    }

    // MARK: Drawing

    /// The panel drawn: pixels and text, in local coordinates. `preview` gives a family's name
    /// set in that family (coverage, its box's top-left at (0, 0)), or nil to show it in the
    /// chrome's font.
    public func render(measure: TextMeasuring, preview: (String) -> (mask: CoverageMask, ascent: Int)?) -> ChromeStrip {
        let s = scale
        var p = ChromePainter(width: width, height: height, background: Color(r: 0xFA, g: 0xFA, b: 0xFB))
        var texts: [TextRun] = []
        p.strokeRoundedRect(0.5, 0.5, Double(width) - 1, Double(height) - 1, radius: 0, lineWidth: 1, Theme.border)
        texts.append(TextRun(text: "Font", x: s.px(16), baseline: s.px(23), color: Theme.text, bold: true))
        let count =
            matches.count == families.count ? "\(families.count) families" : "\(matches.count) of \(families.count)"
        let countWidth = measure.width(of: count, bold: false)
        texts.append(
            TextRun(
                text: count, x: width - s.px(16) - countWidth, baseline: s.px(23), color: Theme.dimText, bold: false))

        // A magnifier, then the search field (the one field every prompt uses).
        let f = searchField
        let mx = Double(s.px(18))
        let my = Double(f.y) + Double(f.height) / 2 - s.d(1)
        p.strokeCircle(mx, my, radius: s.d(5), lineWidth: s.d(1.5), Theme.dimText)
        p.line(mx + s.d(3.8), my + s.d(3.8), mx + s.d(7.5), my + s.d(7.5), width: s.d(1.8), Theme.dimText)
        _ = TextFieldView.draw(
            search, preedit: nil, frame: IntRect(x: f.x, y: f.y, width: f.width - 1, height: f.height - 1),
            baseline: f.y + s.px(18), painter: &p, texts: &texts, measure: measure)
        if search.text.isEmpty {
            texts.append(
                TextRun(
                    text: "Search fonts", x: f.x + s.px(8), baseline: f.y + s.px(18), color: Theme.dimText, bold: false)
            )
        }

        let list = self.list
        p.fill(list, .white)
        p.strokeRoundedRect(
            Double(list.x) - 0.5, Double(list.y) - 0.5, Double(list.width) + 1, Double(list.height) + 1, radius: 0,
            lineWidth: 1, Theme.border)
        if matches.isEmpty {
            texts.append(
                TextRun(
                    text: "No font matches “\(search.text.trimmingSpaces)”", x: list.x + s.px(12),
                    baseline: list.y + s.px(22), color: Theme.dimText, bold: false))
        }
        let rows = min(Self.visibleRows, max(0, matches.count - top))
        let scrollbar = matches.count > Self.visibleRows
        let rowWidth = list.width - (scrollbar ? s.px(10) : 0)
        for i in 0..<rows {
            let index = top + i
            let rowRect = IntRect(x: list.x, y: list.y + i * rowHeight, width: rowWidth, height: rowHeight)
            let name = matches[index]
            let (bx, by) = (Double(rowRect.x) + s.d(2) + 0.5, Double(rowRect.y) + s.d(1) + 0.5)
            let (bw, bh) = (Double(rowRect.width) - s.d(4) - 1, Double(rowRect.height) - s.d(2) - 1)
            if index == highlighted {
                p.fillRoundedRect(bx, by, bw, bh, radius: s.d(4), Theme.activeFill)
                p.strokeRoundedRect(bx, by, bw, bh, radius: s.d(4), lineWidth: 1, Theme.activeBorder)
            } else if index == hovered {
                p.fillRoundedRect(bx, by, bw, bh, radius: s.d(4), Theme.hoverFill)
            }
            let baseline = rowRect.y + s.px(19)
            let inner = IntRect(
                x: rowRect.x + s.px(10), y: rowRect.y + 1, width: rowRect.width - s.px(20), height: rowRect.height - 2)
            if let shown = preview(name), shown.mask.width > 0 {
                p.blend(
                    shown.mask, atX: inner.x + shown.mask.x, y: baseline - shown.ascent + shown.mask.y, clip: inner,
                    Theme.text)
            } else {
                texts.append(TextRun(text: name, x: inner.x, baseline: baseline, color: Theme.text, bold: false))
            }
        }
        if scrollbar {
            let track = IntRect(
                x: list.maxX - s.px(8), y: list.y + s.px(2), width: s.px(5), height: list.height - s.px(4))
            let thumbHeight = max(s.px(24), track.height * Self.visibleRows / matches.count)
            let span = track.height - thumbHeight
            let maxTop = max(1, matches.count - Self.visibleRows)
            let thumbY = track.y + span * top / maxTop
            p.fillRoundedRect(
                Double(track.x), Double(thumbY), Double(track.width), Double(thumbHeight), radius: s.d(2.5), Theme.track
            )
        }
        return ChromeStrip(pixels: p.image, texts: texts)
    }
}

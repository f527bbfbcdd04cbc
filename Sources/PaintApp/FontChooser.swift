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

    public static let width = 300
    public static let height = 388
    public static let rowHeight = 28
    public static let searchField = IntRect(x: 12, y: 36, width: width - 24, height: 26)
    public static let list = IntRect(x: 8, y: 72, width: width - 16, height: 11 * rowHeight)
    static var visibleRows: Int { list.height / rowHeight }
    /// The em size the family names are shown at.
    public static let previewSize = 17

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

    /// A panel over `families` with `current` highlighted and scrolled into view.
    public init(families: [String], current: String) {
        self.families = families
        original = current
        matches = families
        highlighted = families.firstIndex(of: current)
        if let h = highlighted { top = max(0, min(h - Self.visibleRows / 2, families.count - Self.visibleRows)) }
    }

    // MARK: Input

    /// A key: Up and Down move (and preview), Page Up / Down by a page, Enter accepts, Escape
    /// cancels, anything else edits the search.
    public mutating func key(_ key: Key) -> Action? {
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
            guard search.handle(key) else { return nil }
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
        guard Self.list.contains(x, y) else { return nil }
        let row = top + (y - Self.list.y) / Self.rowHeight
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
        var p = ChromePainter(width: Self.width, height: Self.height, background: Color(r: 0xFA, g: 0xFA, b: 0xFB))
        var texts: [TextRun] = []
        p.strokeRoundedRect(
            0.5, 0.5, Double(Self.width) - 1, Double(Self.height) - 1, radius: 0, lineWidth: 1, Theme.border)
        texts.append(TextRun(text: "Font", x: 16, baseline: 23, color: Theme.text, bold: true))
        let count =
            matches.count == families.count ? "\(families.count) families" : "\(matches.count) of \(families.count)"
        let countWidth = measure.width(of: count, bold: false)
        texts.append(
            TextRun(text: count, x: Self.width - 16 - countWidth, baseline: 23, color: Theme.dimText, bold: false))

        let f = Self.searchField
        p.fillRoundedRect(
            Double(f.x) + 0.5, Double(f.y) + 0.5, Double(f.width) - 1, Double(f.height) - 1, radius: 4, .white)
        p.strokeRoundedRect(
            Double(f.x) + 0.5, Double(f.y) + 0.5, Double(f.width) - 1, Double(f.height) - 1, radius: 4, lineWidth: 1,
            Theme.activeBorder)
        // A magnifier: the field is for searching.
        p.strokeCircle(Double(f.x) + 13, Double(f.y) + 11.5, radius: 4.5, lineWidth: 1.4, Theme.dimText)
        p.line(Double(f.x) + 16.5, Double(f.y) + 15, Double(f.x) + 20, Double(f.y) + 18.5, width: 1.6, Theme.dimText)
        let textX = f.x + 28
        if search.text.isEmpty {
            texts.append(
                TextRun(text: "Search fonts", x: textX, baseline: f.y + 18, color: Theme.dimText, bold: false))
        } else {
            let visible = Session.visibleSlice(of: search, width: f.width - 36, measure)
            texts.append(TextRun(text: visible.text, x: textX, baseline: f.y + 18, color: Theme.text, bold: false))
        }
        let cursorText = search.text.isEmpty ? "" : Session.visibleSlice(of: search, width: f.width - 36, measure).text
        let cursorIndex =
            search.text.isEmpty ? 0 : Session.visibleSlice(of: search, width: f.width - 36, measure).cursor
        let cursorX = textX + measure.width(of: String(cursorText.prefix(cursorIndex)), bold: false)
        p.fill(IntRect(x: cursorX, y: f.y + 6, width: 1, height: f.height - 12), Theme.text)

        let list = Self.list
        p.fill(list, .white)
        p.strokeRoundedRect(
            Double(list.x) - 0.5, Double(list.y) - 0.5, Double(list.width) + 1, Double(list.height) + 1, radius: 0,
            lineWidth: 1, Theme.border)
        if matches.isEmpty {
            texts.append(
                TextRun(
                    text: "No font matches “\(search.text.trimmingSpaces)”", x: list.x + 12, baseline: list.y + 22,
                    color: Theme.dimText, bold: false))
        }
        let rows = min(Self.visibleRows, max(0, matches.count - top))
        let scrollbar = matches.count > Self.visibleRows
        let rowWidth = list.width - (scrollbar ? 10 : 0)
        for i in 0..<rows {
            let index = top + i
            let rowRect = IntRect(x: list.x, y: list.y + i * Self.rowHeight, width: rowWidth, height: Self.rowHeight)
            let name = matches[index]
            if index == highlighted {
                p.fillRoundedRect(
                    Double(rowRect.x) + 2.5, Double(rowRect.y) + 1.5, Double(rowRect.width) - 5,
                    Double(rowRect.height) - 3, radius: 4, Theme.activeFill)
                p.strokeRoundedRect(
                    Double(rowRect.x) + 2.5, Double(rowRect.y) + 1.5, Double(rowRect.width) - 5,
                    Double(rowRect.height) - 3, radius: 4, lineWidth: 1, Theme.activeBorder)
            } else if index == hovered {
                p.fillRoundedRect(
                    Double(rowRect.x) + 2.5, Double(rowRect.y) + 1.5, Double(rowRect.width) - 5,
                    Double(rowRect.height) - 3, radius: 4, Theme.hoverFill)
            }
            let baseline = rowRect.y + 19
            let inner = IntRect(
                x: rowRect.x + 10, y: rowRect.y + 1, width: rowRect.width - 20, height: rowRect.height - 2)
            if let shown = preview(name), shown.mask.width > 0 {
                p.blend(
                    shown.mask, atX: inner.x + shown.mask.x, y: baseline - shown.ascent + shown.mask.y, clip: inner,
                    Theme.text)
            } else {
                texts.append(TextRun(text: name, x: inner.x, baseline: baseline, color: Theme.text, bold: false))
            }
        }
        if scrollbar {
            let track = IntRect(x: list.maxX - 8, y: list.y + 2, width: 5, height: list.height - 4)
            let thumbHeight = max(24, track.height * Self.visibleRows / matches.count)
            let span = track.height - thumbHeight
            let maxTop = max(1, matches.count - Self.visibleRows)
            let thumbY = track.y + span * top / maxTop
            p.fillRoundedRect(
                Double(track.x), Double(thumbY), Double(track.width), Double(thumbHeight), radius: 2.5, Theme.track)
        }
        return ChromeStrip(pixels: p.image, texts: texts)
    }
}

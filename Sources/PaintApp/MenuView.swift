import PaintCore

/// Where the menu bar's titles and each menu's drop-down and items sit, in window coordinates.
public struct MenuGeometry: Sendable, Equatable {
    /// The menu bar strip.
    public let bar: IntRect
    /// Each menu's title in the bar.
    public let titles: [IntRect]
    /// Each menu's drop-down panel (below its title, kept inside the window).
    public let dropDowns: [IntRect]
    /// Each menu's item rectangles (window coordinates).
    public let items: [[IntRect]]
    /// Where, inside a drop-down, the shortcuts' column starts (from the panel's left edge).
    public let shortcutColumn: [Int]
    let scale: UIScale

    /// 96-dpi metrics.
    static let itemHeight = 26.0
    static let groupGap = 9.0

    /// The titles in `bar` (the window's width), with text measured by `measure`.
    public init(menus: [Menu], bar: IntRect, scale: UIScale, measure: TextMeasuring) {
        self.scale = scale
        self.bar = bar
        let top = bar.y
        let windowWidth = bar.width
        var x = scale.px(4)
        var titles: [IntRect] = []
        for menu in menus {
            let w = measure.width(of: menu.title.text, bold: false) + scale.px(18)
            titles.append(IntRect(x: x, y: top, width: w, height: bar.height))
            x += w
        }
        self.titles = titles
        let panels = menus.indices.map { index in
            Self.dropDown(
                menus[index], left: titles[index].x, top: bar.maxY, minimumWidth: titles[index].width,
                windowWidth: windowWidth, scale: scale, measure: measure)
        }
        dropDowns = panels.map(\.frame)
        items = panels.map(\.items)
        shortcutColumn = panels.map(\.column)
    }

    /// One menu opening from `anchor` (the status bar's zoom field): above it when `above`, kept
    /// inside the window.
    public init(
        popup menu: Menu, anchor: IntRect, above: Bool, windowWidth: Int, scale: UIScale, measure: TextMeasuring
    ) {
        self.scale = scale
        bar = .empty
        titles = [anchor]
        var panel = Self.dropDown(
            menu, left: anchor.x, top: 0, minimumWidth: anchor.width, windowWidth: windowWidth, scale: scale,
            measure: measure)
        let top = above ? anchor.y - panel.frame.height : anchor.maxY
        panel.frame = IntRect(x: panel.frame.x, y: top, width: panel.frame.width, height: panel.frame.height)
        panel.items = panel.items.map { IntRect(x: $0.x, y: $0.y + top, width: $0.width, height: $0.height) }
        dropDowns = [panel.frame]
        items = [panel.items]
        shortcutColumn = [panel.column]
    }

    /// A drop-down for `menu` with its left edge at `left` (moved left where the window ends)
    /// and its top at `top`: its frame, its items' rectangles and where shortcuts start.
    private static func dropDown(
        _ menu: Menu, left: Int, top: Int, minimumWidth: Int, windowWidth: Int, scale: UIScale, measure: TextMeasuring
    ) -> (frame: IntRect, items: [IntRect], column: Int) {
        let itemHeight = scale.px(Self.itemHeight)
        let labels = menu.items.map { measure.width(of: $0.label.text, bold: false) }.max() ?? 0
        let keys = menu.items.map { measure.width(of: $0.shortcut, bold: false) }.max() ?? 0
        // Check mark column, label, a gap, the shortcut, a margin.
        let column = scale.px(28) + labels + scale.px(36)
        let width = max(minimumWidth, column + keys + scale.px(14))
        let x = max(0, min(left, windowWidth - width))
        var y = top + scale.px(4)
        var rects: [IntRect] = []
        for item in menu.items {
            if item.startsGroup && !rects.isEmpty { y += scale.px(Self.groupGap) }
            rects.append(IntRect(x: x + 1, y: y, width: width - 2, height: itemHeight))
            y += itemHeight
        }
        return (IntRect(x: x, y: top, width: width, height: y + scale.px(4) - top), rects, column)
    }

    /// Menu `menu`'s drop-down panel.
    public func dropDown(_ menu: Int) -> IntRect { dropDowns.indices.contains(menu) ? dropDowns[menu] : .empty }

    /// The item of menu `menu` at a window position, if any.
    public func item(in menu: Int, atX x: Int, y: Int) -> Int? {
        guard items.indices.contains(menu) else { return nil }
        return items[menu].firstIndex { $0.contains(x, y) }
    }
}

/// Drawing the menu bar and an open drop-down.
public enum MenuView {
    /// The bar: titles, the open one highlighted, access keys underlined. Texts in window
    /// coordinates; pixels for `geometry.bar`.
    public static func renderBar(_ menuBar: MenuBar, _ geometry: MenuGeometry, measure: TextMeasuring) -> ChromeStrip {
        let bar = geometry.bar
        let s = geometry.scale
        var p = ChromePainter(width: max(1, bar.width), height: max(1, bar.height), background: Theme.toolbarTop)
        p.offsetY = -Double(bar.y)
        p.fill(IntRect(x: 0, y: bar.maxY - 1, width: bar.width, height: 1), Theme.separator)
        var texts: [TextRun] = []
        let baseline = bar.y + (bar.height + s.px(9)) / 2
        for (index, menu) in menuBar.menus.enumerated() {
            let r = geometry.titles[index]
            if menuBar.open == index {
                p.fillRoundedRect(
                    Double(r.x) + 0.5, Double(r.y) + s.d(2.5), Double(r.width) - 1, Double(r.height) - s.d(5),
                    radius: s.d(4), Theme.activeFill)
            }
            let x = r.x + s.px(9)
            texts.append(TextRun(text: menu.title.text, x: x, baseline: baseline, color: Theme.text, bold: false))
            underline(menu.title, x: x, baseline: baseline, s, &p, measure)
        }
        return ChromeStrip(pixels: p.image, texts: texts)
    }

    /// Menu `index`'s drop-down in panel coordinates: items, their shortcuts, check marks, the
    /// highlighted item, group lines; disabled items gray.
    public static func renderDropDown(
        _ menuBar: MenuBar, _ index: Int, _ geometry: MenuGeometry, measure: TextMeasuring
    ) -> ChromeStrip {
        let frame = geometry.dropDown(index)
        let s = geometry.scale
        var p = ChromePainter(width: max(1, frame.width), height: max(1, frame.height), background: .white)
        p.offsetX = -Double(frame.x)
        p.offsetY = -Double(frame.y)
        var texts: [TextRun] = []
        p.strokeRoundedRect(
            Double(frame.x) + 0.5, Double(frame.y) + 0.5, Double(frame.width) - 1, Double(frame.height) - 1, radius: 0,
            lineWidth: 1, Theme.border)
        let menu = menuBar.menus[index]
        for (i, item) in menu.items.enumerated() {
            let r = geometry.items[index][i]
            if item.startsGroup && i > 0 {
                let lineY = r.y - s.px(Double(MenuGeometry.groupGap) / 2) - 1
                p.fill(IntRect(x: r.x + s.px(8), y: lineY, width: r.width - s.px(16), height: 1), Theme.separator)
            }
            if menuBar.highlighted == i && item.enabled {
                p.fillRoundedRect(
                    Double(r.x) + s.d(3), Double(r.y), Double(r.width) - s.d(6), Double(r.height), radius: s.d(4),
                    Theme.activeFill)
            }
            let color = item.enabled ? Theme.text : Theme.disabledText
            let baseline = r.y + (r.height + s.px(9)) / 2
            if item.checked == true {
                let cx = Double(r.x) + s.d(14)
                let cy = Double(r.y) + Double(r.height) / 2
                p.strokePolyline(
                    [(cx - s.d(5), cy), (cx - s.d(1.5), cy + s.d(4)), (cx + s.d(5), cy - s.d(4.5))], width: s.d(1.8),
                    color)
            }
            let x = r.x + s.px(27)
            texts.append(
                TextRun(text: item.label.text, x: x - frame.x, baseline: baseline - frame.y, color: color, bold: false))
            if item.enabled { underline(item.label, x: x, baseline: baseline, s, &p, measure) }
            if !item.shortcut.isEmpty {
                texts.append(
                    TextRun(
                        text: item.shortcut, x: frame.x + geometry.shortcutColumn[index] - frame.x,
                        baseline: baseline - frame.y, color: item.enabled ? Theme.dimText : Theme.disabledText,
                        bold: false))
            }
        }
        return ChromeStrip(pixels: p.image, texts: texts)
    }

    /// A line under a label's access key.
    private static func underline(
        _ label: MnemonicLabel, x: Int, baseline: Int, _ s: UIScale, _ p: inout ChromePainter,
        _ measure: TextMeasuring
    ) {
        guard let index = label.index else { return }
        let characters = Array(label.text)
        let before = measure.width(of: String(characters[..<index]), bold: false)
        let letter = measure.width(of: String(characters[index]), bold: false)
        p.fill(
            IntRect(x: x + before, y: baseline + s.px(2), width: max(1, letter), height: max(1, s.px(1))), Theme.text)
    }
}

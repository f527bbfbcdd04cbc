import PaintCore

/// Where every toolbar control sits for a window width and an interface scale.
///
/// The toolbar is six groups: tools (with the shape toggles and the pen toggles), colors (current
/// colors and palette), the recent colors beside them, width, opacity, and the actions (undo,
/// redo, background, clear, new, open, save). They stand in one row when the window is wide
/// enough; otherwise in two (tools and colors above, width, opacity and the actions below). A
/// window narrower still (no window manager holds it at the 640 x 480 it asks for) keeps two
/// rows by putting the less-used groups, the recent colors and then the actions (all in the menus
/// and on keys), behind a "»" button at the end of the second row: a click shows them in a third
/// row, another hides them. Before, every group that did not fit started a row of its own, and
/// at 420 x 320 four rows left the canvas 3 px tall. Only a window too narrow even for that
/// wraps group by group. No control ever lies over another; the actions and "»" keep to the right
/// edge of their row. Every length is a 96-dpi length times the scale, rounded to whole pixels,
/// so edges stay sharp at 1.25 and 1.5.
public struct ToolbarLayout: Sendable, Equatable {
    /// The interface scale it was laid out for.
    public let scale: UIScale
    /// The window width it was laid out for.
    public let width: Int
    /// The toolbar strip (full window width, one or more rows high).
    public let frame: IntRect
    /// How many rows the groups take.
    public let rows: Int
    /// The brush preview box left of the width slider.
    public let widthPreview: IntRect
    /// Thin vertical lines between groups that share a row.
    public let separators: [IntRect]
    /// Whether the groups behind "»" are shown (in a row of their own).
    public let expanded: Bool
    /// Whether some groups are behind "»" (the window is too narrow for them in two rows).
    public let hasMore: Bool
    private let rects: [ToolbarItem: IntRect]

    // MARK: 96-dpi metrics

    static let rowHeight = 64.0
    static let margin = 10.0
    /// Between two groups (a separator stands in the middle).
    static let groupGap = 14.0
    /// Between the palette and the recent colors (no separator: they read as one group).
    static let recentGap = 8.0
    static let smallButton = 28.0
    static let smallGap = 2.0
    /// The tools stand in two rows.
    static var toolColumns: Int { (Tool.allCases.count + 1) / 2 }
    static let colorsButton = 40.0
    /// 15 (18 before the arrow tool made the tools a column wider): the toolbar still fits one
    /// row in a 1024 px window at every scale (1008 px at 1x, 1262 of 1280 at 1.25x; with 18 it
    /// needed 1050 at 1x). The group gaps and sliders keep their sizes: their hit areas need
    /// the room.
    static let swatch = 15.0
    static let swatchGap = 2.0
    static let recentColumns = 4
    static let previewSize = 34.0
    static let sliderWidth = 84.0
    static let sliderHeight = 22.0
    static let actionButton = 36.0

    /// The groups, in order.
    enum Group: CaseIterable { case tools, colors, recent, width, opacity, actions, more }

    /// The groups of the full toolbar ("»" only stands in for those it hides).
    static let allGroups: [Group] = [.tools, .colors, .recent, .width, .opacity, .actions]

    /// Lays out the toolbar of a window `width` pixels wide, its top edge at `top`; `expanded`
    /// shows what "»" hides, where the window is narrow enough to hide something.
    public init(width: Int, scale: UIScale, top: Int = 0, expanded: Bool = false) {
        self.scale = scale
        self.width = width
        let rowHeight = scale.px(Self.rowHeight)
        let margin = scale.px(Self.margin)
        let available = width - 2 * margin
        func fits(_ groups: [Group]) -> Bool { Self.rowWidth(groups, scale) <= available }
        // One row; else the two rows of a small window; else two rows with the recent colors,
        // then the actions too, behind "»"; else as many rows as it takes.
        var arrangement: [[Group]]
        var hidden: [Group] = []
        if fits(Self.allGroups) {
            arrangement = [Self.allGroups]
        } else if fits([.tools, .colors, .recent]) && fits([.width, .opacity, .actions]) {
            arrangement = [[.tools, .colors, .recent], [.width, .opacity, .actions]]
        } else if fits([.tools, .colors]) && fits([.width, .opacity, .actions, .more]) {
            arrangement = [[.tools, .colors], [.width, .opacity, .actions, .more]]
            hidden = [.recent]
        } else if fits([.tools, .width]) && fits([.colors, .opacity, .more]) {
            arrangement = [[.tools, .width], [.colors, .opacity, .more]]
            hidden = [.recent, .actions]
        } else {
            arrangement = [[]]
            for group in Self.allGroups {
                if !arrangement[arrangement.count - 1].isEmpty && !fits(arrangement[arrangement.count - 1] + [group]) {
                    arrangement.append([])
                }
                arrangement[arrangement.count - 1].append(group)
            }
        }
        hasMore = !hidden.isEmpty
        self.expanded = expanded && hasMore
        if self.expanded { arrangement.append(hidden) }
        rows = arrangement.count
        frame = IntRect(x: 0, y: top, width: width, height: rowHeight * rows)

        var rects: [ToolbarItem: IntRect] = [:]
        var separators: [IntRect] = []
        var preview = IntRect.empty
        for (row, groups) in arrangement.enumerated() {
            let y = top + row * rowHeight
            var x = margin
            for (index, group) in groups.enumerated() {
                if index > 0 {
                    let gap = Self.gap(before: group, after: groups[index - 1], scale)
                    if group != .recent {
                        separators.append(
                            IntRect(x: x - gap / 2, y: y + scale.px(12), width: 1, height: rowHeight - scale.px(24)))
                    }
                }
                if group == .actions || group == .more {
                    // Right-aligned, whatever stands before it in the row ("»" after the actions).
                    x = max(x, width - margin - Self.rowWidth(Array(groups[index...]), scale))
                }
                Self.place(group, x: x, rowTop: y, scale, into: &rects, preview: &preview)
                x += Self.width(of: group, scale)
                if index + 1 < groups.count { x += Self.gap(before: groups[index + 1], after: group, scale) }
            }
        }
        self.rects = rects
        self.separators = separators
        widthPreview = preview
    }

    /// The room between two groups side by side: the recent colors follow the palette closely.
    static func gap(before group: Group, after previous: Group, _ s: UIScale) -> Int {
        group == .recent && previous == .colors ? s.px(recentGap) : s.px(groupGap)
    }

    /// The width `groups` take side by side, gaps included.
    static func rowWidth(_ groups: [Group], _ s: UIScale) -> Int {
        var total = 0
        for (index, group) in groups.enumerated() {
            total += width(of: group, s)
            if index > 0 { total += gap(before: group, after: groups[index - 1], s) }
        }
        return total
    }

    /// The narrowest window whose toolbar needs no more than two rows, nothing behind "»" (at
    /// this scale).
    public static func twoRowWidth(_ scale: UIScale) -> Int {
        max(rowWidth([.tools, .colors, .recent], scale), rowWidth([.width, .opacity, .actions], scale))
            + 2 * scale.px(margin)
    }

    /// The narrowest window whose toolbar fits in one row (at this scale).
    public static func oneRowWidth(_ scale: UIScale) -> Int {
        rowWidth(allGroups, scale) + 2 * scale.px(margin)
    }

    /// The same toolbar with what "»" hides shown or hidden.
    public func with(expanded: Bool) -> ToolbarLayout {
        ToolbarLayout(width: width, scale: scale, top: frame.y, expanded: expanded)
    }

    // MARK: Items

    /// The rectangle of a toolbar item in window coordinates.
    public func rect(of item: ToolbarItem) -> IntRect { rects[item] ?? .empty }

    /// Where a press counts for `item`: its rectangle, and for a slider its label above it and
    /// a margin at the ends, so the knob can be caught at either end of the track.
    public func hitRect(of item: ToolbarItem) -> IntRect {
        let r = rect(of: item)
        guard item == .widthSlider || item == .opacitySlider else { return r }
        let x0 = r.x - scale.px(6)
        let y0 = r.y - scale.px(20)
        return IntRect(x: x0, y: y0, width: r.maxX + scale.px(6) - x0, height: r.maxY + scale.px(2) - y0)
    }

    /// The baseline of a slider's label and value, above its track.
    public func labelBaseline(of item: ToolbarItem) -> Int { rect(of: item).y - scale.px(8) }

    /// Every item the toolbar shows now (not those behind "»" while it is closed).
    public var items: [ToolbarItem] { Self.allItems.filter { rects[$0] != nil } }

    /// Every toolbar item, in drawing order.
    public static let allItems: [ToolbarItem] =
        Tool.allCases.map { .tool($0) } + [
            .filledToggle, .dashedToggle, .pressureWidthToggle, .pressureOpacityToggle, .currentColors,
        ]
        + Palette.colors.indices.map { .swatch($0) } + (0..<Layout.recentCount).map { .recent($0) }
        + [.font, .widthSlider, .opacitySlider] + [.undo, .redo, .background, .clear, .newDocument, .open, .save]
        + [.more]

    /// The toolbar item under a window position, if any.
    public func item(atX x: Int, y: Int) -> ToolbarItem? {
        guard frame.contains(x, y) else { return nil }
        return items.first { hitRect(of: $0).contains(x, y) }
    }

    // MARK: Groups

    /// A group's width at `scale`.
    static func width(of group: Group, _ s: UIScale) -> Int {
        switch group {
        case .tools:
            // The tools, the shape toggles' column and the pen toggles' column.
            return toolColumns * s.px(smallButton + smallGap) - s.px(smallGap) + s.px(8) + s.px(smallButton)
                + s.px(smallGap) + s.px(smallButton)
        case .colors:
            return s.px(colorsButton) + s.px(8) + Palette.columns * s.px(swatch + swatchGap) - s.px(swatchGap)
        case .recent:
            return recentColumns * s.px(swatch + swatchGap) - s.px(swatchGap)
        case .width:
            return s.px(previewSize) + s.px(8) + s.px(sliderWidth)
        case .opacity:
            return s.px(sliderWidth)
        case .actions:
            return 3 * s.px(actionButton) + 2 * s.px(smallButton) + 2 * s.px(4) + 2 * s.px(8)
        case .more:
            return s.px(smallButton)
        }
    }

    /// Puts `group`'s items at `x` in the row whose top is `rowTop`.
    private static func place(
        _ group: Group, x: Int, rowTop: Int, _ s: UIScale, into rects: inout [ToolbarItem: IntRect],
        preview: inout IntRect
    ) {
        let rowHeight = s.px(rowHeight)
        let small = s.px(smallButton)
        let smallPitch = s.px(smallButton + smallGap)
        // Two rows of small buttons, centred in the row.
        let gridY = rowTop + (rowHeight - small - smallPitch) / 2
        switch group {
        case .tools:
            for (index, tool) in Tool.allCases.enumerated() {
                rects[.tool(tool)] = IntRect(
                    x: x + (index % toolColumns) * smallPitch, y: gridY + (index / toolColumns) * smallPitch,
                    width: small, height: small)
            }
            let togglesX = x + toolColumns * smallPitch - s.px(smallGap) + s.px(8)
            rects[.filledToggle] = IntRect(x: togglesX, y: gridY, width: small, height: small)
            rects[.dashedToggle] = IntRect(x: togglesX, y: gridY + smallPitch, width: small, height: small)
            let penX = togglesX + smallPitch
            rects[.pressureWidthToggle] = IntRect(x: penX, y: gridY, width: small, height: small)
            rects[.pressureOpacityToggle] = IntRect(x: penX, y: gridY + smallPitch, width: small, height: small)
        case .colors:
            let button = s.px(colorsButton)
            rects[.currentColors] = IntRect(x: x, y: rowTop + (rowHeight - button) / 2, width: button, height: button)
            let side = s.px(swatch)
            let pitch = s.px(swatch + swatchGap)
            let top = rowTop + (rowHeight - side - pitch) / 2
            let paletteX = x + button + s.px(8)
            for index in Palette.colors.indices {
                rects[.swatch(index)] = IntRect(
                    x: paletteX + (index % Palette.columns) * pitch, y: top + (index / Palette.columns) * pitch,
                    width: side, height: side)
            }
        case .recent:
            let side = s.px(swatch)
            let pitch = s.px(swatch + swatchGap)
            let top = rowTop + (rowHeight - side - pitch) / 2
            for index in 0..<Layout.recentCount {
                rects[.recent(index)] = IntRect(
                    x: x + (index % recentColumns) * pitch, y: top + (index / recentColumns) * pitch,
                    width: side, height: side)
            }
        case .width:
            let side = s.px(previewSize)
            preview = IntRect(x: x, y: rowTop + (rowHeight - side) / 2, width: side, height: side)
            rects[.font] = preview
            rects[.widthSlider] = sliderRect(x: x + side + s.px(8), rowTop: rowTop, s)
        case .opacity:
            rects[.opacitySlider] = sliderRect(x: x, rowTop: rowTop, s)
        case .actions:
            // Undo, redo | background over clear | new over open, save.
            let big = s.px(actionButton)
            let bigY = rowTop + (rowHeight - big) / 2
            var cx = x
            rects[.undo] = IntRect(x: cx, y: bigY, width: big, height: big)
            cx += big + s.px(4)
            rects[.redo] = IntRect(x: cx, y: bigY, width: big, height: big)
            cx += big + s.px(8)
            rects[.background] = IntRect(x: cx, y: gridY, width: small, height: small)
            rects[.clear] = IntRect(x: cx, y: gridY + smallPitch, width: small, height: small)
            cx += small + s.px(8)
            rects[.newDocument] = IntRect(x: cx, y: gridY, width: small, height: small)
            rects[.open] = IntRect(x: cx, y: gridY + smallPitch, width: small, height: small)
            cx += small + s.px(4)
            rects[.save] = IntRect(x: cx, y: bigY, width: big, height: big)
        case .more:
            rects[.more] = IntRect(x: x, y: rowTop + (rowHeight - small) / 2, width: small, height: small)
        }
    }

    /// A slider's track box: in the lower part of the row, its label above it.
    private static func sliderRect(x: Int, rowTop: Int, _ s: UIScale) -> IntRect {
        IntRect(x: x, y: rowTop + s.px(30), width: s.px(sliderWidth), height: s.px(sliderHeight))
    }
}

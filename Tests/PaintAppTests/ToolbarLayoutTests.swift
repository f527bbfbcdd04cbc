import PaintApp
import PaintCore
import Testing

/// The toolbar at every size and scale: nothing overlaps, nothing leaves the window.
@Suite struct ToolbarLayoutTests {
    static let scales = [1.0, 1.25, 1.5, 2.0]
    /// Window widths in 96-dpi pixels (the window is `scale` times wider on screen).
    static let widths = [480, 640, 800, 1024, 1280, 1920]

    /// Every pair of rectangles that overlap, by name.
    static func overlaps(_ rects: [(String, IntRect)]) -> [String] {
        var found: [String] = []
        for (i, a) in rects.enumerated() {
            for b in rects[(i + 1)...] where !a.1.intersection(b.1).isEmpty {
                found.append("\(a.0) \(a.1) and \(b.0) \(b.1)")
            }
        }
        return found
    }

    @Test(
        "no control, hit area, preview or separator overlaps another, and all lie inside the toolbar",
        arguments: scales, widths)
    func nothingOverlaps(scale: Double, logicalWidth: Int) {
        let s = UIScale(scale)
        let width = Int((Double(logicalWidth) * scale).rounded())
        let t = ToolbarLayout(width: width, scale: s, top: 7)
        // The width preview is an item of its own: the text tool's font button.
        let controls = t.items.map { ("\($0)", t.rect(of: $0)) }
        #expect(t.rect(of: .font) == t.widthPreview)
        for (name, r) in controls {
            #expect(!r.isEmpty, "\(name) has no place")
            #expect(t.frame.intersection(r) == r, "\(name) \(r) leaves the toolbar \(t.frame)")
        }
        let separators = t.separators.enumerated().map { ("separator \($0.offset)", $0.element) }
        #expect(Self.overlaps(controls + separators).isEmpty, "\(Self.overlaps(controls + separators))")
        // Hit areas (a slider's includes its label) overlap nothing either.
        let hits = t.items.map { ("\($0) hit area", t.hitRect(of: $0)) }
        #expect(Self.overlaps(hits).isEmpty, "\(Self.overlaps(hits))")
        // What the pointer hits is what is drawn there.
        for item in t.items {
            let r = t.rect(of: item)
            #expect(t.item(atX: r.x + r.width / 2, y: r.y + r.height / 2) == item)
        }
    }

    @Test("one row when wide enough, two rows at 640 px, more only when narrower than that", arguments: scales)
    func rows(scale: Double) {
        let s = UIScale(scale)
        func rows(_ logical: Int) -> Int {
            ToolbarLayout(width: Int((Double(logical) * scale).rounded()), scale: s).rows
        }
        #expect(rows(1920) == 1 && rows(640) == 2 && rows(800) == 2)
        #expect(rows(400) > 2)
        #expect(ToolbarLayout.twoRowWidth(s) <= Int(640 * scale), "two rows fit a 640 px window")
        #expect(ToolbarLayout(width: ToolbarLayout.oneRowWidth(s), scale: s).rows == 1)
        #expect(ToolbarLayout(width: ToolbarLayout.oneRowWidth(s) - 1, scale: s).rows == 2)
    }

    @Test(
        "narrower than two rows: two rows, the rest behind “»”; open, every control has its place once",
        arguments: scales, [420, 500])
    func moreHoldsWhatANarrowWindowHasNoRoomFor(scale: Double, logicalWidth: Int) {
        let s = UIScale(scale)
        let t = ToolbarLayout(width: Int((Double(logicalWidth) * scale).rounded()), scale: s, top: 7)
        #expect(t.rows == 2 && t.hasMore && !t.expanded)
        #expect(t.items.contains(.more) && t.items.count < ToolbarLayout.allItems.count)
        #expect(t.rect(of: .more).maxX == t.width - s.px(10), "“»” keeps to the right edge")
        let open = t.with(expanded: true)
        #expect(open.rows == 3 && open.expanded)
        #expect(open.items == ToolbarLayout.allItems, "\(Set(ToolbarLayout.allItems).subtracting(open.items))")
        let controls = open.items.map { ("\($0)", open.hitRect(of: $0)) }
        #expect(Self.overlaps(controls).isEmpty, "\(Self.overlaps(controls))")
        for (name, r) in controls where open.frame.intersection(r) != r { Issue.record("\(name) leaves the toolbar") }
        // Wide enough for two rows: nothing behind "»".
        let wide = ToolbarLayout(width: ToolbarLayout.twoRowWidth(s), scale: s)
        #expect(!wide.hasMore && wide.items == ToolbarLayout.allItems.filter { $0 != .more })
    }

    @Test("the actions keep to the right edge; sizes grow with the scale")
    func actionsRightAndScaled() {
        let one = ToolbarLayout(width: 1400, scale: .one)
        #expect(one.rect(of: .save).maxX == 1400 - 10)
        #expect(one.rect(of: .tool(.brush)) == IntRect(x: 10, y: 3, width: 28, height: 28))
        let two = ToolbarLayout(width: 2800, scale: UIScale(2))
        #expect(two.rect(of: .save).maxX == 2800 - 20)
        #expect(two.rect(of: .tool(.brush)) == IntRect(x: 20, y: 6, width: 56, height: 56))
        #expect(two.frame.height == 128)
        let small = ToolbarLayout(width: 700, scale: .one)
        #expect(small.rows == 2 && small.rect(of: .save).maxX == 690 && small.rect(of: .save).y >= 64)
    }
}

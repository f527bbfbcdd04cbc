import PaintCore
import PaintText
import Testing

@testable import PaintApp

/// The font list panel: searching, moving, choosing, and what it draws.
@Suite struct FontChooserTests {
    static let families =
        ["Cantarell", "DejaVu Sans", "DejaVu Sans Mono", "DejaVu Serif"] + (1...30).map { "Z Font \($0)" }

    @Test func opensOnTheCurrentFamily() {
        let chooser = FontChooser(families: Self.families, current: "Z Font 20")
        #expect(chooser.highlighted == 23)
        #expect((chooser.top..<(chooser.top + FontChooser.visibleRows)).contains(23))
    }

    @Test func typingFiltersAndHighlightsThePrefixMatch() {
        var chooser = FontChooser(families: Self.families, current: "Cantarell")
        for c in "sans" { #expect(chooser.key(.character(c)) == nil) }
        #expect(chooser.matches == ["DejaVu Sans", "DejaVu Sans Mono"])
        #expect(chooser.highlighted == 0)
        for c in " MONO dej" { _ = chooser.key(.character(c)) }
        #expect(chooser.matches == ["DejaVu Sans Mono"])
        #expect(chooser.key(.enter) == .accept("DejaVu Sans Mono"))
        _ = chooser.key(.character("x"))
        #expect(chooser.matches.isEmpty && chooser.highlighted == nil)
        #expect(chooser.key(.enter) == nil)
        #expect(chooser.key(.escape) == .cancel)
    }

    @Test func arrowsPreviewAndScroll() {
        var chooser = FontChooser(families: Self.families, current: "Cantarell")
        #expect(chooser.key(.up) == .preview("Cantarell"))
        #expect(chooser.key(.down) == .preview("DejaVu Sans"))
        for _ in 0..<20 { _ = chooser.key(.down) }
        #expect(chooser.highlighted == 21)
        #expect(chooser.top == 21 - FontChooser.visibleRows + 1)
        chooser.scroll(by: 1000)
        #expect(chooser.top == Self.families.count - FontChooser.visibleRows)
        chooser.scroll(by: -1000)
        #expect(chooser.top == 0)
    }

    @Test func clickingARowTakesIt() {
        var chooser = FontChooser(families: Self.families, current: "Cantarell")
        let list = chooser.list
        #expect(chooser.press(x: list.x + 20, y: list.y + chooser.rowHeight * 2 + 5) == .accept("DejaVu Sans Mono"))
        #expect(chooser.press(x: list.x + 20, y: list.y - 10) == nil)
        chooser.hover(x: list.x + 20, y: list.y + 3)
        #expect(chooser.hovered == 0)
    }

    /// Each name is drawn in its own face: the preview's ink lands in its row, dark on white,
    /// and the chosen row is highlighted.
    @Test func rowsShowEachFamilyInItsOwnFace() throws {
        let typesetter = try #require(Typesetter())
        let families = typesetter.catalog.families(matching: "dejavu")
        let chooser = FontChooser(families: families, current: "DejaVu Sans Mono")
        var asked: [String] = []
        let strip = chooser.render(measure: FixedWidthMeasurer()) { family in
            asked.append(family)
            let layout = typesetter.layout(family, font: TextFont(family: family, size: FontChooser.previewSize(.one)))
            return (
                typesetter.rasterize(layout, atX: 0, y: 0, clip: IntRect(x: 0, y: -50, width: 400, height: 100)),
                layout.ascent
            )
        }
        #expect(asked == Array(families.prefix(FontChooser.visibleRows)))
        let monoRow = try #require(families.firstIndex(of: "DejaVu Sans Mono"))
        let list = chooser.list
        let rowHeight = chooser.rowHeight
        func inkInRow(_ row: Int) -> Int {
            var dark = 0
            for y in (list.y + row * rowHeight)..<(list.y + (row + 1) * rowHeight) {
                for x in (list.x + 10)..<(list.x + 200) where Pixel.unpack(strip.pixels[x, y]).r < 100 { dark += 1 }
            }
            return dark
        }
        for row in 0..<min(families.count, FontChooser.visibleRows) { #expect(inkInRow(row) > 20) }
        // The highlighted row's fill.
        let fill = strip.pixels[list.x + 6, list.y + monoRow * rowHeight + 14]
        #expect(fill == Theme.activeFill.pixel)
        #expect(strip.texts.allSatisfy { !families.contains($0.text) })
    }
}

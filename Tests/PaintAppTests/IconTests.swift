import PaintCore
import Testing

@testable import PaintApp

/// Every toolbar button has an icon of its own.
@Suite struct IconTests {
    /// The buttons drawn with an icon (swatches, sliders and the color squares are drawn by the
    /// toolbar itself).
    static let iconItems: [ToolbarItem] =
        Tool.allCases.map { .tool($0) } + [
            .filledToggle, .dashedToggle, .pressureWidthToggle, .pressureOpacityToggle, .undo, .redo, .background,
            .clear, .newDocument, .open, .save,
        ]

    static func render(_ item: ToolbarItem, side: Int = 28) -> PixelImage {
        var p = ChromePainter(width: side, height: side, background: .white)
        Icons.draw(item, in: IntRect(x: 0, y: 0, width: side, height: side), painter: &p)
        return p.image
    }

    @Test("each icon draws something, inside its button, and no two look the same")
    func everyIconIsDrawnAndDistinct() {
        var seen: [[UInt32]: ToolbarItem] = [:]
        for item in Self.iconItems {
            let image = Self.render(item)
            let inked = image.pixels.filter { $0 != Color.white.pixel }.count
            // A 28 px button: at least a few dozen pixels of ink, and a margin left clear.
            #expect(inked > 40, "\(item): \(inked) pixels drawn")
            let border = (0..<28).flatMap { [image[$0, 0], image[$0, 27], image[0, $0], image[27, $0]] }
            #expect(border.allSatisfy { $0 == Color.white.pixel }, "\(item) touches its button's edge")
            if let other = seen[image.pixels] { Issue.record("\(item) looks exactly like \(other)") }
            seen[image.pixels] = item
        }
    }
}

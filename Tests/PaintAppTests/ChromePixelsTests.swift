import PaintCore
import Testing

@testable import PaintApp

/// The chrome's pixels, pinned: how `ChromePainter` reaches its pixels (through the buffer, not
/// a call per pixel) and when a polygon's edges are measured (once, not at every pixel) are its
/// own business; what it draws must stay exactly what it drew.
@Suite struct ChromePixelsTests {
    /// FNV-1a over the size and every pixel.
    static func digest(_ image: PixelImage) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for v in [UInt32(image.width), UInt32(image.height)] + image.pixels {
            h = (h ^ UInt64(v)) &* 0x0000_0100_0000_01B3
        }
        return h
    }

    /// Every strip the window shows, in a window smaller than the picture (both scrollbars),
    /// at two interface scales and with two tools (the text tool has toggles of its own).
    static func strips() -> [(String, PixelImage)] {
        var out: [(String, PixelImage)] = []
        for scale in [1.0, 1.5] {
            for tool in [Tool.brush, .text] {
                let s = SessionTests.makeSession(width: 3000, height: 2000, windowWidth: 1100, windowHeight: 700)
                s.uiScale = UIScale(scale)
                s.settings.tool = tool
                let name = "\(scale)× \(tool)"
                out.append(("toolbar \(name)", s.renderToolbar(measure: FixedWidthMeasurer()).pixels))
                out.append(("menu bar \(name)", s.renderMenuBar(measure: FixedWidthMeasurer()).pixels))
                out.append(("status bar \(name)", s.renderStatus(measure: FixedWidthMeasurer()).pixels))
                for bar in [s.layout.horizontalScrollbar, s.layout.verticalScrollbar].compactMap({ $0 }) {
                    out.append(("scrollbar \(name)", ScrollbarView.render(bar, scale: s.layout.ui)))
                    out.append(
                        ("dragged scrollbar \(name)", ScrollbarView.render(bar, scale: s.layout.ui, active: true)))
                }
            }
        }
        return out
    }

    /// Every shape the painter has, translucent and opaque, scaled and not, with an offset.
    static func shapes() -> PixelImage {
        var p = ChromePainter(width: 97, height: 61, background: Color(r: 240, g: 241, b: 243))
        p.offsetX = -3
        p.offsetY = 2
        p.gradient(IntRect(x: 0, y: 0, width: 97, height: 20), top: .white, bottom: Color(r: 10, g: 90, b: 200))
        p.fill(IntRect(x: -5, y: 50, width: 200, height: 3), Color(r: 200, g: 30, b: 30))
        p.checkerboard(IntRect(x: 80, y: 30, width: 12, height: 12))
        for scale in [1.0, 0.7] {
            p.scale = scale
            p.scaleOrigin = (10, 10)
            p.fillPolygon([(5, 5), (30.5, 8), (18, 27.25)], Color(r: 20, g: 160, b: 60), alpha: 0.8)
            p.fillPolygon([(40, 5), (60, 5), (60, 5), (55, 25), (42, 22)], Color(r: 0, g: 0, b: 0))
            p.fillRoundedRect(62, 4, 30, 18, radius: 5, Color(r: 255, g: 200, b: 0), alpha: 0.6)
            p.strokeRoundedRect(62, 4, 30, 18, radius: 5, lineWidth: 1.5, Color(r: 30, g: 30, b: 30))
            p.fillCircle(20, 40, radius: 9.5, Color(r: 90, g: 0, b: 140))
            p.strokeCircle(45, 40, radius: 8, lineWidth: 2, Color(r: 0, g: 120, b: 120), alpha: 0.5)
            p.line(55, 35, 90, 55, width: 3, Color(r: 10, g: 10, b: 10))
            p.strokePolyline(
                [(5, 55), (30, 45), (50, 58)], closed: true, width: 2.5, Color(r: 250, g: 0, b: 90), alpha: 0.7)
        }
        var mask = CoverageMask(x: 0, y: 0, width: 9, height: 7)
        mask = CoverageMask(x: 0, y: 0, width: 9, height: 7, bytes: (0..<63).map { UInt8(($0 * 37) % 256) }) ?? mask
        p.blend(mask, atX: 70, y: 40, clip: IntRect(x: 71, y: 40, width: 6, height: 7), Color(r: 0, g: 0, b: 255))
        var thumb = PixelImage(width: 5, height: 4)
        for i in thumb.pixels.indices { thumb.pixels[i] = Pixel.premultiply(UInt32(i * 13) << 24 | 0x00C8_6400) }
        p.draw(thumb, atX: 2, y: 44)
        return p.image
    }

    @Test("the toolbar, menu bar, status bar, scrollbars, every icon and every shape draw the pixels they drew before")
    func pinned() {
        var digests = Self.strips().map { ($0.0, Self.digest($0.1)) }
        for item in IconTests.iconItems {
            for side in [28, 41] {
                var p = ChromePainter(width: side, height: side, background: .white)
                Icons.draw(item, in: IntRect(x: 0, y: 0, width: side, height: side), painter: &p)
                var q = ChromePainter(width: side, height: side, background: .white)
                Icons.draw(item, in: IntRect(x: 0, y: 0, width: side, height: side), painter: &q, enabled: false)
                digests.append(("icon \(item) \(side)", Self.digest(p.image) ^ (Self.digest(q.image) &* 3)))
            }
        }
        digests.append(("shapes", Self.digest(Self.shapes())))
        // One digest over all of them (each named, so a change says which): taken from the
        // painter as it was before it drew through the buffer (main afa8e44).
        var all: UInt64 = 0
        for (name, d) in digests {
            all = (all ^ d) &* 0x0000_0100_0000_01B3
            print("chrome digest \(name): \(String(d, radix: 16))")
        }
        #expect(String(all, radix: 16) == "17f0414b09bb4bd7")
    }
}

import Glibc
import PaintCore

/// Toolbar icons drawn as anti-aliased vectors in a 40 x 40 button box.
enum Icons {
    /// Draws the icon of `item` centred in `r`.
    static func draw(_ item: ToolbarItem, in r: IntRect, painter p: inout ChromePainter, enabled: Bool = true) {
        // Designed in a 40 x 40 box; smaller buttons draw them scaled.
        let x = Double(r.x)
        let y = Double(r.y)
        p.scale = Double(min(r.width, r.height)) / 40
        p.scaleOrigin = (x, y)
        defer { p.scale = 1 }
        switch item {
        case .undo, .redo:
            // A curved arrow: three quarters of a circle ending in a head; redo is the mirror.
            let ink = enabled ? Theme.icon : Theme.track
            let mirror = item == .undo ? -1.0 : 1.0
            let cx = x + 20
            let cy = y + 22
            let radius = 8.0
            let arc = (0...24).map { step in
                let angle = Double.pi * (-0.95 + 1.25 * Double(step) / 24)
                return (cx - mirror * radius * cos(angle), cy + radius * sin(angle))
            }
            p.strokePolyline(arc, width: 2.2, ink)
            let tipX = cx - mirror * radius * cos(-0.95 * Double.pi)
            let tipY = cy + radius * sin(-0.95 * Double.pi)
            p.fillPolygon(
                [(tipX - mirror * 5.5, tipY), (tipX + mirror * 2.5, tipY - 6), (tipX + mirror * 2.5, tipY + 6)], ink)
        case .tool(.brush):
            // A round brush: wooden handle, ferrule, and a paint-loaded tip.
            p.line(x + 29, y + 9, x + 20, y + 19, width: 4.5, Color(r: 0xB0, g: 0x7A, b: 0x45))
            p.line(x + 20, y + 19, x + 17, y + 22, width: 6, Color(r: 0x9A, g: 0xA0, b: 0xA8))
            p.fillPolygon(
                [(x + 13.5, y + 21.5), (x + 18.5, y + 26.5), (x + 13, y + 32), (x + 8, y + 32.5), (x + 9, y + 27)],
                Theme.iconAccent)
            p.line(x + 9.5, y + 31, x + 11, y + 29, width: 1.5, Color(r: 0xA8, g: 0x35, b: 0x28))
        case .tool(.strokeEraser):
            // One whole stroke picked out with the dashed magenta outline the tool shows on hover,
            // and the eraser touching its end: "this stroke goes away", not "rub out pixels".
            let wave = (0...20).map { step in
                let t = Double(step) / 20
                return (x + 6 + 22 * t, y + 31 - 16 * t - 7 * sin(t * 2 * Double.pi))
            }
            p.strokePolyline(wave, width: 5, Color(r: 0x3F, g: 0x6F, b: 0xB5), alpha: 0.35)
            for (k, (a, b)) in zip(wave, wave.dropFirst()).enumerated() where k % 4 < 2 {
                p.line(a.0, a.1, b.0, b.1, width: 1.8, Color(r: 0xE0, g: 0x1F, b: 0xB8))
            }
            let block = [(x + 26, y + 5), (x + 35, y + 11), (x + 30, y + 18), (x + 21, y + 12)]
            p.fillPolygon(block, Color(r: 0xF2, g: 0x8C, b: 0xA6))
            p.strokePolyline(block, closed: true, width: 1.2, Theme.icon)
        case .tool(.line):
            p.line(x + 9, y + 31, x + 31, y + 9, width: 2.6, Theme.icon)
        case .tool(.arrow):
            // The line tool's diagonal ending in a filled head at the top right, as the tool
            // draws it: the shaft stops inside the head so the point is sharp.
            p.line(x + 9, y + 31, x + 24.5, y + 15.5, width: 2.6, Theme.icon)
            p.fillPolygon([(x + 32, y + 8), (x + 19.5, y + 12.5), (x + 27.5, y + 20.5)], Theme.icon)
        case .tool(.rectangle):
            p.strokeRoundedRect(x + 8.5, y + 11.5, 23, 17, radius: 1, lineWidth: 2.2, Theme.icon)
        case .tool(.ellipse):
            p.shade((x + 5, y + 8, x + 35, y + 32), Theme.icon) { px, py in
                // A 12 x 9 ellipse outline, 2.2 px wide, from its normalized radius.
                let dx = (px - (x + 20)) / 12
                let dy = (py - (y + 20)) / 9
                let r = (dx * dx + dy * dy).squareRoot()
                return min(max(1.1 + 0.5 - abs(r - 1) * 10.5, 0), 1)
            }
        case .tool(.fill):
            // A tipped paint bucket pouring a drop.
            let bucket = [(x + 10, y + 17), (x + 21, y + 8), (x + 30, y + 19), (x + 19, y + 30)]
            p.fillPolygon(bucket, Color(r: 0xDD, g: 0xE3, b: 0xEA))
            p.strokePolyline(bucket, closed: true, width: 1.6, Theme.icon)
            p.fillCircle(x + 31, y + 28, radius: 2.6, Color(r: 0x3F, g: 0x6F, b: 0xB5))
            p.fillPolygon([(x + 29, y + 27), (x + 31, y + 22), (x + 33, y + 27)], Color(r: 0x3F, g: 0x6F, b: 0xB5))
        case .tool(.select):
            // A dashed selection rectangle with a filled corner handle.
            let corners: [(Double, Double)] = [(9, 11), (31, 11), (31, 29), (9, 29), (9, 11)]
            for (a, b) in zip(corners, corners.dropFirst()) {
                let length = max(abs(b.0 - a.0), abs(b.1 - a.1))
                var t = 0.0
                while t < length {
                    let e = min(t + 3, length)
                    let (ux, uy) = ((b.0 - a.0) / length, (b.1 - a.1) / length)
                    p.line(
                        x + a.0 + ux * t, y + a.1 + uy * t, x + a.0 + ux * e, y + a.1 + uy * e, width: 1.6, Theme.icon)
                    t += 6
                }
            }
            p.fillRoundedRect(x + 28, y + 26, 6, 6, radius: 1, Theme.iconAccent)
        case .tool(.picker):
            // An eyedropper: bulb, barrel, tip.
            p.line(x + 27, y + 13, x + 13, y + 27, width: 3.2, Theme.icon)
            p.fillCircle(x + 28.5, y + 11.5, radius: 4, Theme.icon)
            p.line(x + 13, y + 27, x + 10, y + 30, width: 1.6, Theme.icon)
        case .tool(.text):
            // A serif capital T, and the text caret blinking after it.
            p.fillPolygon([(x + 7, y + 8), (x + 27, y + 8), (x + 27, y + 14), (x + 7, y + 14)], Theme.icon)
            p.fillPolygon([(x + 7, y + 14), (x + 9.5, y + 14), (x + 7, y + 17.5)], Theme.icon)
            p.fillPolygon([(x + 24.5, y + 14), (x + 27, y + 14), (x + 27, y + 17.5)], Theme.icon)
            p.fillPolygon([(x + 14.5, y + 13), (x + 19.5, y + 13), (x + 19.5, y + 30), (x + 14.5, y + 30)], Theme.icon)
            p.fillPolygon([(x + 11, y + 29), (x + 23, y + 29), (x + 23, y + 32), (x + 11, y + 32)], Theme.icon)
            p.line(x + 32, y + 15, x + 32, y + 32, width: 2, Color(r: 0x3F, g: 0x6F, b: 0xB5))
            p.line(x + 29.5, y + 14.5, x + 34.5, y + 14.5, width: 1.4, Color(r: 0x3F, g: 0x6F, b: 0xB5))
            p.line(x + 29.5, y + 32.5, x + 34.5, y + 32.5, width: 1.4, Color(r: 0x3F, g: 0x6F, b: 0xB5))
        case .filledToggle:
            // A rectangle and an ellipse, outlined as the shape tools draw them, filled with
            // color: the shape tools then fill what they draw.
            let fill = Color(r: 0x5B, g: 0x8F, b: 0xD8)
            p.fillRoundedRect(x + 6, y + 9, 17, 15, radius: 1, fill)
            p.strokeRoundedRect(x + 6, y + 9, 17, 15, radius: 1, lineWidth: 2, Theme.icon)
            p.fillCircle(x + 25, y + 25, radius: 9, Color(r: 0xF2, g: 0xB3, b: 0x4A))
            p.strokeCircle(x + 25, y + 25, radius: 9, lineWidth: 2, Theme.icon)
        case .pressureWidthToggle:
            // A pen's stroke swelling where it is pressed harder: thin, wide, thin.
            let spine = (0...20).map { i -> (Double, Double, Double) in
                let t = Double(i) / 20
                return (x + 7 + 26 * t, y + 27 - 12 * t, 0.8 + 4.2 * sin(Double.pi * t))
            }
            p.fillPolygon(
                spine.map { ($0.0 + $0.2 * 0.42, $0.1 + $0.2 * 0.91) }
                    + spine.reversed().map { ($0.0 - $0.2 * 0.42, $0.1 - $0.2 * 0.91) }, Theme.icon)
            p.fillPolygon([(x + 29, y + 6), (x + 34, y + 11), (x + 31, y + 13), (x + 27, y + 9)], Theme.iconAccent)
        case .pressureOpacityToggle:
            // A stroke of one width fading where it is pressed lightly.
            for i in 0..<7 {
                let t = Double(i) / 6
                p.fillCircle(
                    x + 8 + 24 * t, y + 27 - 12 * t, radius: 3.4, Theme.icon, alpha: 0.15 + 0.85 * sin(Double.pi * t))
            }
            p.fillPolygon([(x + 29, y + 6), (x + 34, y + 11), (x + 31, y + 13), (x + 27, y + 9)], Theme.iconAccent)
        case .dashedToggle:
            // The line tool's diagonal, dashed.
            for k in 0..<3 {
                let t0 = Double(k) * 0.39
                let t1 = t0 + 0.22
                p.line(x + 8 + 24 * t0, y + 32 - 24 * t0, x + 8 + 24 * t1, y + 32 - 24 * t1, width: 2.8, Theme.icon)
            }
        case .tool(.eraser):
            // A tilted two-tone block eraser.
            p.fillPolygon(
                [(x + 18, y + 10), (x + 31, y + 20), (x + 24, y + 29), (x + 11, y + 19)],
                Color(r: 0xF2, g: 0x8C, b: 0xA6))
            p.fillPolygon(
                [(x + 11, y + 19), (x + 24, y + 29), (x + 20, y + 34), (x + 7, y + 24)],
                Color(r: 0xF4, g: 0xF4, b: 0xF4))
            p.line(x + 11, y + 19, x + 24, y + 29, width: 1.2, Theme.icon)
            p.strokePolyline(
                [(x + 18, y + 10), (x + 31, y + 20), (x + 20, y + 34), (x + 7, y + 24)], closed: true, width: 1.2,
                Theme.icon)
        case .background:
            // A colored sheet behind a white one with paint on it: the layer under the paint.
            p.fillRoundedRect(x + 14, y + 14, 20, 19, radius: 2, Color(r: 0xF2, g: 0xB3, b: 0x4A))
            p.strokeRoundedRect(x + 14, y + 14, 20, 19, radius: 2, lineWidth: 1.4, Theme.icon)
            p.fillRoundedRect(x + 6, y + 7, 20, 19, radius: 2, .white)
            p.strokeRoundedRect(x + 6, y + 7, 20, 19, radius: 2, lineWidth: 1.4, Theme.icon)
            let squiggle = (0...12).map { step in
                let t = Double(step) / 12
                return (x + 10 + 12 * t, y + 19 - 5 * sin(t * 1.6 * Double.pi))
            }
            p.strokePolyline(squiggle, width: 2.2, Color(r: 0x3F, g: 0x6F, b: 0xB5))
        case .clear:
            // A broom sweeping a sheet clean (the desktop's "clear" sign), not a cross that reads
            // as "close".
            p.fillRoundedRect(x + 5, y + 6, 20, 26, radius: 2, .white)
            p.strokeRoundedRect(x + 5, y + 6, 20, 26, radius: 2, lineWidth: 1.4, Theme.icon)
            p.line(x + 9, y + 12, x + 18, y + 12, width: 1.4, Theme.track)
            p.line(x + 9, y + 16, x + 15, y + 16, width: 1.4, Theme.track)
            p.line(x + 35, y + 5, x + 24, y + 22, width: 2.6, Color(r: 0x9A, g: 0x62, b: 0x2E))
            let bristles = [(x + 20, y + 20), (x + 28.5, y + 25.5), (x + 25, y + 36), (x + 12, y + 30)]
            p.fillPolygon(bristles, Color(r: 0xE8, g: 0xB8, b: 0x3C))
            p.strokePolyline(bristles, closed: true, width: 1.2, Color(r: 0x8A, g: 0x5A, b: 0x24))
            p.line(x + 20, y + 20, x + 28.5, y + 25.5, width: 2.4, Color(r: 0xC0, g: 0x3A, b: 0x2E))
            p.line(x + 17, y + 28.5, x + 22, y + 33, width: 1, Color(r: 0x8A, g: 0x5A, b: 0x24))
        case .newDocument:
            // A blank page with a folded corner and a plus.
            p.fillPolygon(
                [(x + 11, y + 8), (x + 24, y + 8), (x + 30, y + 14), (x + 30, y + 32), (x + 11, y + 32)], .white)
            p.strokePolyline(
                [
                    (x + 11, y + 8), (x + 24, y + 8), (x + 30, y + 14), (x + 30, y + 32), (x + 11, y + 32),
                    (x + 11, y + 8),
                ],
                width: 1.4, Theme.icon)
            p.strokePolyline([(x + 24, y + 8), (x + 24, y + 14), (x + 30, y + 14)], width: 1.2, Theme.icon)
            p.line(x + 20.5, y + 18, x + 20.5, y + 28, width: 2.2, Color(r: 0x3F, g: 0x6F, b: 0xB5))
            p.line(x + 15.5, y + 23, x + 25.5, y + 23, width: 2.2, Color(r: 0x3F, g: 0x6F, b: 0xB5))
        case .open:
            // An open folder: the back with its tab, the front flap tilted forward.
            let folder = Color(r: 0xE8, g: 0xB3, b: 0x3C)
            let back = Color(r: 0xC9, g: 0x92, b: 0x22)
            p.fillPolygon([(x + 8, y + 11), (x + 16, y + 11), (x + 18, y + 14), (x + 8, y + 14)], back)
            p.fillPolygon([(x + 8, y + 14), (x + 30, y + 14), (x + 30, y + 30), (x + 8, y + 30)], back)
            p.fillPolygon([(x + 12, y + 19), (x + 34, y + 19), (x + 30, y + 30), (x + 8, y + 30)], folder)
            p.strokePolyline(
                [
                    (x + 8, y + 30), (x + 8, y + 11), (x + 16, y + 11), (x + 18, y + 14), (x + 30, y + 14),
                    (x + 30, y + 19),
                ],
                width: 1.3, Theme.icon)
            p.strokePolyline(
                [(x + 12, y + 19), (x + 34, y + 19), (x + 30, y + 30), (x + 8, y + 30), (x + 12, y + 19)], width: 1.3,
                Theme.icon)
        case .save:
            // A floppy disk: body, shutter, label.
            p.fillRoundedRect(x + 9, y + 9, 22, 22, radius: 2.5, Color(r: 0x3F, g: 0x6F, b: 0xB5))
            p.fillRoundedRect(x + 14, y + 9, 12, 8, radius: 1, Color(r: 0xDD, g: 0xE3, b: 0xEA))
            p.fillRoundedRect(x + 22, y + 10.5, 2.5, 5, radius: 0.5, Color(r: 0x3F, g: 0x6F, b: 0xB5))
            p.fillRoundedRect(x + 13, y + 21, 14, 10, radius: 1, .white)
            p.line(x + 15.5, y + 24.5, x + 24.5, y + 24.5, width: 1, Color(r: 0x9A, g: 0xA4, b: 0xB0))
            p.line(x + 15.5, y + 27.5, x + 24.5, y + 27.5, width: 1, Color(r: 0x9A, g: 0xA4, b: 0xB0))
        case .more:
            // "»": two chevrons, as GTK and Qt toolbars show what did not fit.
            for dx in [0.0, 7.0] {
                p.strokePolyline(
                    [(x + 12 + dx, y + 13), (x + 19 + dx, y + 20), (x + 12 + dx, y + 27)], width: 2.2, Theme.icon)
            }
        default:
            break
        }
    }
}

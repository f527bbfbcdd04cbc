/// ARGB pointer images drawn here rather than taken from a cursor theme: the brush's outline at
/// the size it paints, and a not-allowed sign for a canvas that waits for an answer.
enum CursorImages {
    /// A square ARGB image (premultiplied, 0xAARRGGBB) with its hot spot.
    struct Image: Equatable {
        let size: Int
        let hotX: Int
        let hotY: Int
        let pixels: [UInt32]
    }

    /// The largest brush outline drawn as a pointer; beyond it (or below 5 px) the pointer is
    /// the crosshair, as the outline would hide what is painted or say nothing.
    static let outlineRange = 5...240

    /// The brush's outline, `diameter` window pixels across: a dark ring inside a light one,
    /// so it shows on any paint, and a dot at the centre where the stroke starts.
    static func brushOutline(diameter: Int) -> Image {
        let size = diameter + 4
        let r = Double(diameter) / 2
        return render(size: size) { dx, dy, d in
            // The dark ring on the brush's edge, the light one just outside it: each a pixel
            // wide, anti-aliased.
            if abs(dx) < 1, abs(dy) < 1 { return blend(0, 0.8, over: blend(255, 0.8, over: 0)) }
            let dark = max(0, 1 - abs(d - r + 0.5))
            let light = max(0, 1 - abs(d - r - 0.5))
            return blend(0, dark * 0.85, over: blend(255, light * 0.75, over: 0))
        }
    }

    /// A red circle with a slash, 20 px across.
    static func notAllowed() -> Image {
        render(size: 20) { dx, dy, d in
            let ring = max(0, min(1, 1.6 - abs(d - 7.5)))
            // The slash, from top left to bottom right, inside the ring.
            let slash = d < 8 ? max(0, min(1, 1.6 - abs(dx - dy) / 2.squareRoot())) : 0
            let halo = max(0, min(1, 2.6 - abs(d - 7.5))) * 0.9
            return redOver(max(ring, slash), over: blend(255, halo, over: 0))
        }
    }

    /// A `size` x `size` image hot at its centre, each pixel from its offset from the centre
    /// and its distance.
    static func render(size: Int, _ pixel: (Double, Double, Double) -> UInt32) -> Image {
        let c = Double(size) / 2
        var pixels = [UInt32](repeating: 0, count: size * size)
        for y in 0..<size {
            for x in 0..<size {
                let dx = Double(x) + 0.5 - c
                let dy = Double(y) + 0.5 - c
                pixels[y * size + x] = pixel(dx, dy, (dx * dx + dy * dy).squareRoot())
            }
        }
        return Image(size: size, hotX: size / 2, hotY: size / 2, pixels: pixels)
    }

    /// `gray` at `alpha` over a premultiplied pixel.
    static func blend(_ gray: UInt32, _ alpha: Double, over below: UInt32) -> UInt32 {
        let a = min(max(alpha, 0), 1)
        let ba = Double(below >> 24) / 255
        let outA = a + ba * (1 - a)
        let g = Double(gray) * a + Double(below & 0xFF) * (1 - a)
        let v = UInt32(g.rounded())
        return UInt32((outA * 255).rounded()) << 24 | v << 16 | v << 8 | v
    }

    static func redOver(_ alpha: Double, over below: UInt32) -> UInt32 {
        let a = min(max(alpha, 0), 1)
        let ba = Double(below >> 24) / 255
        let outA = a + ba * (1 - a)
        func channel(_ value: Double, _ shift: UInt32) -> UInt32 {
            UInt32((value * a + Double(below >> shift & 0xFF) * (1 - a)).rounded()) << shift
        }
        return UInt32((outA * 255).rounded()) << 24 | channel(0xD0, 16) | channel(0x20, 8) | channel(0x20, 0)
    }
}

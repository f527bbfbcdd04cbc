extension StrokeEngine {
    /// A pixel along a fill's edge and the paint the fill leaves there.
    struct EdgePixel {
        var x: Int32
        var y: Int32
        var value: UInt32
    }

    /// The most pixels one fill's soft edge takes (about 40 MB of bookkeeping at the most): an
    /// outline around a 4K region is tens of thousands; only a fill of noise comes near it, and
    /// beyond it the rest of its edge is left as it was (the same pixels every replay: the
    /// pixels are found in the same order each time).
    public static let edgeLimit = 1 << 20

    /// How many pixels a version 3 fill reaches into a soft outline beyond the matching area:
    /// a brush's anti-aliased rim is one or two pixels, a soft or wide one up to three. A ramp
    /// longer than this keeps its outer part (the fill stays local and bounded).
    public static let edgeReach = 3

    /// How far (in any channel) a pixel may be from the mix of the fill's target and an
    /// outline color and still be read as that mix: the anti-aliasing's rounding, and a little
    /// noise. A pixel farther off is something else (texture, another color) and is left alone.
    public static let mixSlack = 8

    /// What a fill of `fill` at `opacity` makes of a pixel `p` along its edge, read as a mix of
    /// the area's color `t` and the outline's color `o`: p = a·o + (1 − a)·t, with a the
    /// projection of p onto the line from t to o. Under the outline the fill would have turned
    /// the t part into opacity·f + (1 − opacity)·t, so the pixel becomes
    /// p + opacity·(1 − a)·(f − t): exact for a true mix (a half-grey pixel between white and
    /// black, filled with red, becomes half red: (128, 0, 0)), and it keeps whatever else the
    /// pixel holds. All four channels, premultiplied: on a transparent picture t is the searched
    /// paint (usually nothing) and the fill goes in behind the outline. nil when p is not such
    /// a mix (off the line by more than `mixSlack` in a channel) or the result is p itself.
    public static func filledEdgePixel(
        pixel p: UInt32, target t: UInt32, outline o: UInt32, fill f: UInt32, opacity: Double
    ) -> UInt32? {
        @inline(__always) func channel(_ v: UInt32, _ k: Int) -> Double { Double(v >> UInt32(8 * k) & 0xFF) }
        guard let a = outlineShare(pixel: p, target: t, outline: o) else { return nil }
        var result: UInt32 = 0
        var values = (0.0, 0.0, 0.0, 0.0)
        for k in 0..<4 {
            let mix = channel(t, k) + a * (channel(o, k) - channel(t, k))
            guard abs(channel(p, k) - mix) <= Double(mixSlack) else { return nil }
            let v = channel(p, k) + opacity * (1 - a) * (channel(f, k) - channel(t, k))
            let byte = min(max(v, 0), 255)
            switch k {
            case 0: values.0 = byte
            case 1: values.1 = byte
            case 2: values.2 = byte
            default: values.3 = byte
            }
        }
        // Premultiplied: no color above the alpha.
        let alpha = UInt32(values.3 + 0.5)
        for (k, v) in [values.0, values.1, values.2].enumerated() {
            result |= min(UInt32(v + 0.5), alpha) << UInt32(8 * k)
        }
        result |= alpha << 24
        return result == p ? nil : result
    }

    /// The directions `blendFillRamps` walks in: the sides, then the diagonals.
    static let walks = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)]

    /// Finds the soft outline around a finished fill search (version 3 fills,
    /// `DrawingVersion.session8`) and gives its pixels `filledEdgePixel`, in `fillEdge`.
    ///
    /// From each filled pixel, towards each of its 8 neighbours that is not filled (the
    /// diagonals reach the inside corner of a soft box, which no row or column from a filled
    /// pixel crosses), it walks up to
    /// `edgeReach` + 1 pixels while they get farther from the target: the last of them is the
    /// outline's color (a hard edge is its own peak: nothing to blend), the ones before it the
    /// ramp. The ramp stops at the first pixel that is not a mix of the target and that color.
    /// A pixel reached by several walks takes the one whose outline is farthest from the target.
    /// `state` holds the search's bytes (2 filled) for the rows `ready` says were prepared;
    /// `filled` bounds the filled pixels; `read` gives a row's pixels as the search saw them.
    /// Returns the bounds of the pixels given paint, or `.empty`.
    func blendFillRamps(
        in area: IntRect, state: UnsafeMutablePointer<UInt8>, ready: UnsafeMutableBufferPointer<Bool>,
        filled: IntRect, target: UInt32,
        read: (_ y: Int, _ x0: Int, _ count: Int, _ into: UnsafeMutablePointer<UInt32>) -> Void
    ) -> IntRect {
        let fill = style.sourcePixel
        // The eraser leaves nothing to mix in (and its result is not a shown color).
        guard fill >> 24 == 255 else { return .empty }
        let opacity = Double(style.alpha8) / 255
        let walk = Self.edgeReach + 1
        // The columns and rows the walks can reach, rows kept in a ring of 2·walk + 1.
        let rx = max(area.x, filled.x - walk)
        let count = min(area.maxX - 1, filled.maxX - 1 + walk) - rx + 1
        let ringRows = 2 * walk + 1
        let rows = UnsafeMutablePointer<UInt32>.allocate(capacity: ringRows * count)
        defer { rows.deallocate() }
        @inline(__always) func pixels(_ y: Int) -> UnsafeMutablePointer<UInt32> {
            rows + ((y - area.y) % ringRows) * count
        }
        @inline(__always) func isFilled(_ x: Int, _ y: Int) -> Bool {
            guard y >= area.y, y < area.maxY, x >= area.x, x < area.maxX, ready[y - area.y] else { return false }
            return state[(y - area.y) * area.width + x - area.x] == 2
        }
        var loaded = max(area.y, filled.y - walk) - 1
        // Per pixel (by its offset in the area): the strength of its outline and its new paint.
        var found: [Int: (strength: Int, value: UInt32)] = [:]
        var ramp: [(x: Int, y: Int, pixel: UInt32)] = []
        ramp.reserveCapacity(walk)
        for y in filled.y..<filled.maxY {
            while loaded < min(area.maxY - 1, y + walk) {
                loaded += 1
                read(loaded, rx, count, pixels(loaded))
            }
            guard ready[y - area.y] else { continue }
            // The search's bytes of rows y - 1, y, y + 1 (offsets by canvas column), when all
            // three are inside the area and prepared: a pixel whose 8 neighbours are all
            // filled starts no walk, and most filled pixels are such (checked without bounds).
            let here = (y - area.y) * area.width - area.x
            let whole =
                y > area.y && y < area.maxY - 1 && ready[y - 1 - area.y] && ready[y + 1 - area.y]
            @inline(__always) func surrounded(_ x: Int) -> Bool {
                guard whole, x > area.x, x < area.maxX - 1 else { return false }
                let up = here - area.width
                let down = here + area.width
                return state[here + x - 1] == 2 && state[here + x + 1] == 2 && state[up + x - 1] == 2
                    && state[up + x] == 2 && state[up + x + 1] == 2 && state[down + x - 1] == 2
                    && state[down + x] == 2 && state[down + x + 1] == 2
            }
            for x in filled.x..<filled.maxX where state[here + x] == 2 && !surrounded(x) {
                for (dx, dy) in Self.walks where !isFilled(x + dx, y + dy) {
                    // The pixels getting farther from the target, up to the outline's peak.
                    ramp.removeAll(keepingCapacity: true)
                    var last = 0
                    for k in 1...walk {
                        let qx = x + k * dx
                        let qy = y + k * dy
                        guard area.contains(qx, qy), !isFilled(qx, qy) else { break }
                        let q = pixels(qy)[qx - rx]
                        let d = Self.distance2(q, target)
                        guard d > last else { break }
                        last = d
                        ramp.append((qx, qy, q))
                    }
                    guard ramp.count >= 2, let outline = ramp.last?.pixel else { continue }
                    for step in ramp.dropLast() {
                        guard
                            let value = Self.filledEdgePixel(
                                pixel: step.pixel, target: target, outline: outline, fill: fill, opacity: opacity)
                        else { break }
                        let key = (step.y - area.y) * area.width + step.x - area.x
                        if let held = found[key] {
                            if held.strength >= last { continue }
                        } else if found.count >= Self.edgeLimit {
                            continue
                        }
                        found[key] = (last, value)
                    }
                }
            }
        }
        var bounds = IntRect.empty
        fillEdge.reserveCapacity(found.count)
        // In pixel order: the tiles are claimed (and the snapshot lists them) the same way each time.
        for key in found.keys.sorted() {
            guard let entry = found[key] else { continue }
            let x = area.x + key % area.width
            let y = area.y + key / area.width
            fillEdge.append(EdgePixel(x: Int32(x), y: Int32(y), value: entry.value))
            // Claimed, so the step's snapshot and the recomposite cover it (its coverage stays 0).
            let tile = claim((y >> Tile.shift) * coverage.across + (x >> Tile.shift))
            CoverageLayer.mark(tile, row: y & Tile.mask, from: x & Tile.mask, through: x & Tile.mask)
            bounds = bounds.union(IntRect(x: x, y: y, width: 1, height: 1))
        }
        return bounds
    }

    /// Shows the fill's edge pixels in the view as they will be once merged (the view is
    /// composited from the paint, which takes them only when the fill ends).
    func showFillEdge() {
        guard let view else { return }
        for e in fillEdge {
            let (x, y) = (Int(e.x), Int(e.y))
            guard viewRect.contains(x, y) else { continue }
            let backdrop: UInt32
            switch background {
            case .color(let color): backdrop = color.pixel
            case .transparent: backdrop = Background.checker(x, y)
            case .image(let image): backdrop = image.pixels.withUnsafeBufferPointer { $0[y * width + x] }
            }
            view[(y - viewRect.y) * viewStride + x - viewRect.x] = SpanCompositor.over(e.value, backdrop: backdrop)
        }
    }

    /// Writes the fill's edge pixels into the paint (its tiles are the step's, claimed: an
    /// earlier stroke's coverage there is merged already).
    func writeFillEdge() {
        for e in fillEdge {
            let (x, y) = (Int(e.x), Int(e.y))
            paint.writableTile(paint.tile(x: x, y: y))[(y & Tile.mask) * Tile.size + (x & Tile.mask)] = e.value
        }
        fillEdge.removeAll()
    }
}

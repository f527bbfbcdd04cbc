/// One straight piece of a stroke as the rasterizer stamps it: a round-capped segment of one
/// width, at one strength (coverage level, 255 = full).
struct StrokePiece: Equatable {
    var from: Point
    var to: Point
    var width: Double
    var level: UInt8
    /// The disc at `from` was stamped by the piece before, at least as wide and as strong: the
    /// rasterizer can skip what lies behind it.
    var continues: Bool
}

/// Turns a stroke's samples into the straight pieces the engine stamps: round-capped segments
/// between the samples, or a curve through them, with the stabilizer's smoothing and the pen's
/// pressure applied.
///
/// With curves, the samples q0, q1, … are joined by quadratic pieces from the midpoint of one
/// pair to the midpoint of the next, each bent towards the sample between (the curve passes
/// near every sample and has no corners). The last half-span, from the newest midpoint to the
/// newest sample, is drawn straight as a *provisional* piece so the line reaches the pointer at
/// once: the next sample replaces it with the curve, and at the release it stays. Every result
/// depends only on the samples, so a replay draws the same pieces.
struct StrokePath {
    /// A sample: where, and how hard the pen pressed (1 for a mouse).
    struct Sample: Equatable {
        var point: Point
        var pressure: Double
    }

    private(set) var style = StrokeStyle()
    /// The last raw samples, for the stabilizer's mean (at most its window).
    private var recent: [Sample] = []
    /// The samples as drawn (smoothed): the one before the newest, and the newest.
    private var previous: Sample?
    private var newest: Sample?
    /// The last raw sample, where the release draws the line on to.
    private var lastRaw: Sample?
    /// The end of the last final piece: where the next final or provisional piece starts.
    private var chainEnd: (point: Point, width: Double, level: UInt8)?

    /// Pieces to stamp for good, and pieces to stamp provisionally (replacing the last
    /// provisional ones), after each call.
    private(set) var final: [StrokePiece] = []
    private(set) var provisional: [StrokePiece] = []
    /// The last provisional pieces may stay under the new ones: the curve that replaces them
    /// passes within 1/64 pixel of where they end, at the same width and strength, so taking
    /// them back would change no pixel by more than a level or two (and a replay decides the
    /// same way, from the same samples).
    private(set) var keepsProvisional = false

    /// Flatness of the curve's straight pieces, in pixels.
    static let tolerance = 0.1

    /// Starts a stroke of `style` at `sample`: one disc.
    mutating func begin(_ style: StrokeStyle, at sample: Sample) {
        self.style = style
        recent.removeAll(keepingCapacity: true)
        recent.append(sample)
        previous = nil
        newest = sample
        lastRaw = sample
        final.removeAll(keepingCapacity: true)
        provisional.removeAll(keepingCapacity: true)
        chainEnd = nil
        appendPiece(to: sample.point, pressure: sample.pressure, provisional: false)
        final[0].continues = false
    }

    /// One more raw sample: `final` and `provisional` say what to stamp.
    mutating func add(_ raw: Sample) {
        lastRaw = raw
        let window = style.dynamics.stabilizer
        var sample = raw
        if window > 1 {
            if recent.count == window { recent.removeFirst() }
            recent.append(raw)
            var x = 0.0
            var y = 0.0
            var p = 0.0
            for s in recent {
                x += s.point.x
                y += s.point.y
                p += s.pressure
            }
            let n = Double(recent.count)
            sample = Sample(point: Point(x: x / n, y: y / n), pressure: p / n)
        }
        advance(to: sample)
    }

    /// The release: the pieces that finish the line (the stabilizer's lag drawn on to the last
    /// raw sample). `provisional` is then empty: the provisional pieces drawn last stay.
    /// Returns whether anything changed (false: keep the provisional pieces as they are).
    mutating func finish() -> Bool {
        final.removeAll(keepingCapacity: true)
        provisional.removeAll(keepingCapacity: true)
        keepsProvisional = false
        guard let raw = lastRaw, let drawn = newest, raw != drawn else { return false }
        advance(to: raw)
        // The new provisional pieces end the stroke: they are final now.
        final.append(contentsOf: provisional)
        provisional.removeAll(keepingCapacity: true)
        return true
    }

    private mutating func advance(to sample: Sample) {
        final.removeAll(keepingCapacity: true)
        provisional.removeAll(keepingCapacity: true)
        keepsProvisional = false
        guard let last = newest else { return }
        if !style.dynamics.curves {
            straight(from: last, to: sample, provisional: false)
            previous = last
            newest = sample
            return
        }
        let mid = Self.midpoint(last, sample)
        if let before = previous {
            // The curve from the last midpoint, bent towards `last`, to the new midpoint. It
            // passes |before - 2 last + sample| / 8 from `last`, where the provisional piece
            // ended.
            let ddx = before.point.x - 2 * last.point.x + sample.point.x
            let ddy = before.point.y - 2 * last.point.y + sample.point.y
            let samePen =
                width(before.pressure) == width(last.pressure) && width(sample.pressure) == width(last.pressure)
                && level(before.pressure) == level(last.pressure) && level(sample.pressure) == level(last.pressure)
            keepsProvisional = samePen && (ddx * ddx + ddy * ddy) <= (8.0 / 64) * (8.0 / 64)
            curve(from: Self.midpoint(before, last), via: last, to: mid)
        } else {
            straight(from: last, to: mid, provisional: false)
        }
        straight(from: mid, to: sample, provisional: true)
        previous = last
        newest = sample
    }

    static func midpoint(_ a: Sample, _ b: Sample) -> Sample {
        Sample(
            point: Point(x: (a.point.x + b.point.x) / 2, y: (a.point.y + b.point.y) / 2),
            pressure: (a.pressure + b.pressure) / 2)
    }

    /// The width at `pressure` (`StrokeStyle.width(pressure:)`).
    func width(_ pressure: Double) -> Double { style.width(pressure: pressure) }

    /// The coverage level at `pressure`: full, or scaled by the pressure (1 at least).
    func level(_ pressure: Double) -> UInt8 {
        guard style.dynamics.pressureOpacity else { return 255 }
        return UInt8(max(1, (255 * min(max(pressure, 0), 1)).rounded()))
    }

    /// Appends the piece from where the last one ended to `point`: a final piece extends the
    /// chain; provisional pieces start from the chain's end and leave it where it was.
    private mutating func appendPiece(to point: Point, pressure: Double, provisional isProvisional: Bool) {
        let w = width(pressure)
        let l = level(pressure)
        let last = isProvisional ? provisional.last : final.last
        let start = last.map { ($0.to, $0.width, $0.level) } ?? chainEnd ?? (point, w, l)
        let piece = StrokePiece(from: start.0, to: point, width: w, level: l, continues: w <= start.1 && l <= start.2)
        if isProvisional {
            provisional.append(piece)
        } else {
            final.append(piece)
            chainEnd = (point, w, l)
        }
    }

    /// A straight span, in as many pieces as the pressure's change needs (width steps of at
    /// most half a pixel, strength steps of at most 4 levels).
    private mutating func straight(from a: Sample, to b: Sample, provisional: Bool) {
        let n = steps(a.pressure, b.pressure)
        for i in 1...n {
            let t = Double(i) / Double(n)
            let point =
                i == n
                ? b.point
                : Point(x: a.point.x + (b.point.x - a.point.x) * t, y: a.point.y + (b.point.y - a.point.y) * t)
            appendPiece(
                to: point, pressure: i == n ? b.pressure : a.pressure + (b.pressure - a.pressure) * t,
                provisional: provisional)
        }
    }

    /// A quadratic curve, final, in pieces flat to `tolerance` and fine enough for the
    /// pressure's change.
    private mutating func curve(from a: Sample, via c: Sample, to b: Sample) {
        let ddx = a.point.x - 2 * c.point.x + b.point.x
        let ddy = a.point.y - 2 * c.point.y + b.point.y
        // A quadratic's chords of parameter step 1/n stray at most |a - 2c + b| / (4 n^2).
        let bend = (ddx * ddx + ddy * ddy).squareRoot()
        let flat = Int(clamping: (bend / (4 * Self.tolerance)).squareRoot(), .up)
        let n = min(1024, max(1, flat, steps(a.pressure, c.pressure), steps(c.pressure, b.pressure)))
        for i in 1...n {
            let t = Double(i) / Double(n)
            let u = 1 - t
            let point =
                i == n
                ? b.point
                : Point(
                    x: u * u * a.point.x + 2 * u * t * c.point.x + t * t * b.point.x,
                    y: u * u * a.point.y + 2 * u * t * c.point.y + t * t * b.point.y)
            let pressure = u * u * a.pressure + 2 * u * t * c.pressure + t * t * b.pressure
            appendPiece(to: point, pressure: i == n ? b.pressure : pressure, provisional: false)
        }
    }

    /// Pieces a span between two pressures needs so the width and strength change smoothly.
    private func steps(_ p0: Double, _ p1: Double) -> Int {
        guard p0 != p1 else { return 1 }
        var n = 1
        if style.dynamics.pressureWidth { n = max(n, Int(clamping: abs(width(p1) - width(p0)) / 0.5, .up)) }
        if style.dynamics.pressureOpacity {
            n = max(n, Int(clamping: abs(Double(level(p1)) - Double(level(p0))) / 4, .up))
        }
        return min(n, 1024)
    }
}

import TestSupport
import Testing

@testable import PaintCore

/// The provisional pieces an event draws are taken back by the next one: `SavedCoverage` keeps
/// the runs they raise and puts them back. After every event the stroke image must hold exactly
/// the final pieces so far and the newest provisional ones, as a canvas that stamped only those
/// holds them, byte for byte (several provisional pieces at once where the pressure changes).
@Suite struct SavedCoverageTests {
    /// The stroke image of the whole canvas, row by row.
    static func coverage(_ engine: StrokeEngine) -> [UInt8] {
        (0..<(engine.width * engine.height)).map {
            engine.strokeCoverage(x: $0 % engine.width, y: $0 / engine.width) ?? 0
        }
    }

    /// A canvas like `engine`'s with `pieces` stamped on it in order, nothing taken back.
    static func stampedOnly(_ pieces: [StrokePiece], like engine: StrokeEngine, _ style: StrokeStyle) -> [UInt8] {
        let fresh = StrokeEngine(width: engine.width, height: engine.height)
        fresh.begin(style, at: Point(x: -100, y: -100))
        for piece in pieces { _ = fresh.stamp(piece) }
        return coverage(fresh)
    }

    @Test func takingTheProvisionalPiecesBackLeavesTheFinalOnes() {
        var rng = SplitMix(seed: 57)
        let w = 96
        let h = 72
        var provisionalChecked = 0
        var severalChecked = 0
        for n in 0..<48 {
            let engine = StrokeEngine(width: w, height: h)
            if n % 2 == 0 { _ = engine.viewPixels }
            let dynamics = StrokeDynamics(
                curves: true, stabilizer: n % 8 == 7 ? 3 : 0, pressureWidth: n % 3 == 1, pressureOpacity: n % 3 == 2)
            let style = StrokeStyle(width: [1.0, 3, 8, 8, 13.5, 30][n % 6], dynamics: dynamics)
            var p = Point(x: 20 + rng.unit() * 56, y: 15 + rng.unit() * 42)
            engine.begin(style, at: p, pressure: rng.unit())
            var finals = engine.path.final
            var lastProvisional = engine.path.provisional
            for e in 0..<(6 + n % 17) {
                let step = e % 9 == 8 ? 25.0 : 0.5 + rng.unit() * 6
                p = Point(x: p.x + (rng.unit() - 0.5) * 2 * step, y: p.y + (rng.unit() - 0.5) * 2 * step)
                engine.move(to: p, pressure: rng.unit())
                // Pieces the path keeps stay where they were stamped, before this event's.
                if engine.path.keepsProvisional { finals += lastProvisional }
                finals += engine.path.final
                lastProvisional = engine.path.provisional
                let expected = Self.stampedOnly(finals + engine.path.provisional, like: engine, style)
                #expect(Self.coverage(engine) == expected, "stroke \(n), event \(e)")
                if !engine.path.provisional.isEmpty { provisionalChecked += 1 }
                if engine.path.provisional.count > 1 { severalChecked += 1 }
            }
            engine.end()
        }
        #expect(provisionalChecked > 300)
        #expect(severalChecked > 20)
    }
}

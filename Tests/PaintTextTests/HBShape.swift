import Foundation
import TestSupport

/// HarfBuzz's own command-line shaper (`hb-shape` from libharfbuzz-bin), run on a font file:
/// the reference the typesetter's shaping is compared with.
///
/// It shapes at the font's units-per-em scale, so its offsets and advances are font units; at
/// 32 px the typesetter's 26.6 positions for DejaVu Sans (2,048 units per em) are the same
/// numbers.
enum HBShape {
    struct Glyph: Equatable, CustomStringConvertible {
        var glyph: UInt32
        var cluster: Int
        var dx: Int
        var dy: Int
        var advance: Int
        var description: String { "\(glyph)=\(cluster)@\(dx),\(dy)+\(advance)" }
    }

    static let dejaVuSans = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    /// The glyphs `hb-shape` gives for `text` in the font at `path`, left to right on screen.
    static func shape(_ text: String, font path: String = dejaVuSans, extra: [String] = []) throws -> [Glyph] {
        let run = try ChildProcess.run("/usr/bin/hb-shape", ["--no-glyph-names"] + extra + [path, text])
        let line = run.stdoutText.trimmingCharacters(in: .whitespacesAndNewlines)
        guard run.succeeded, line.hasPrefix("["), line.hasSuffix("]") else {
            throw CocoaError(.fileReadCorruptFile, userInfo: ["output": line])
        }
        return try line.dropFirst().dropLast().split(separator: "|").map(parse)
    }

    /// One `gid=cluster@dx,dy+advance` item (the offset part only when not zero).
    private static func parse(_ item: Substring) throws -> Glyph {
        let bad = CocoaError(.fileReadCorruptFile, userInfo: ["item": String(item)])
        let eq = item.split(separator: "=", maxSplits: 1)
        guard eq.count == 2, let glyph = UInt32(eq[0]) else { throw bad }
        let plus = eq[1].split(separator: "+", maxSplits: 1)
        guard plus.count == 2, let advance = Int(plus[1]) else { throw bad }
        let at = plus[0].split(separator: "@", maxSplits: 1)
        guard let cluster = Int(at[0]) else { throw bad }
        var dx = 0
        var dy = 0
        if at.count == 2 {
            let parts = at[1].split(separator: ",")
            guard parts.count == 2, let x = Int(parts[0]), let y = Int(parts[1]) else { throw bad }
            dx = x
            dy = y
        }
        return Glyph(glyph: glyph, cluster: cluster, dx: dx, dy: dy, advance: advance)
    }
}

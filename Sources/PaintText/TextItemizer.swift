import CFriBidi
import CHarfBuzz

/// A stretch of one line in one direction, one script and one font: what HarfBuzz shapes in
/// one call.
struct TextRun: Equatable {
    /// The scalars it holds (offsets into the line).
    var range: Range<Int>
    /// The bidi embedding level: even left to right, odd right to left.
    var level: UInt8
    /// The script HarfBuzz shapes it as.
    var script: hb_script_t
    /// Which of the typesetter's faces draws it.
    var face: Int

    var isRightToLeft: Bool { level & 1 == 1 }
}

/// Cuts a line into runs: bidi levels from FriBidi (the Unicode bidirectional algorithm),
/// scripts from HarfBuzz's Unicode data, and the visual order of the runs (rule L2).
enum TextItemizer {
    /// The embedding level of every scalar of a line and whether the line reads right to left
    /// (decided by its first strong character; `rightToLeftByDefault` when it has none).
    static func bidiLevels(_ scalars: [UInt32], rightToLeftByDefault: Bool) -> (levels: [UInt8], rightToLeft: Bool) {
        let count = scalars.count
        guard count > 0 else { return ([], rightToLeftByDefault) }
        var types = [FriBidiCharType](repeating: FriBidiCharType(rawValue: 0), count: count)
        var brackets = [FriBidiBracketType](repeating: 0, count: count)
        var levels = [FriBidiLevel](repeating: 0, count: count)
        var direction = cfribidi_par_weak(rightToLeftByDefault ? 1 : 0)
        let ok = scalars.withUnsafeBufferPointer { text -> Bool in
            fribidi_get_bidi_types(text.baseAddress, FriBidiStrIndex(count), &types)
            fribidi_get_bracket_types(text.baseAddress, FriBidiStrIndex(count), types, &brackets)
            return fribidi_get_par_embedding_levels_ex(types, brackets, FriBidiStrIndex(count), &direction, &levels) > 0
        }
        // FriBidi fails only when out of memory: then everything reads left to right.
        guard ok else { return ([UInt8](repeating: 0, count: count), false) }
        return (levels.map { UInt8(bitPattern: $0) }, cfribidi_par_is_rtl(direction) != 0)
    }

    /// The script of every scalar; common and inherited ones (spaces, digits, punctuation,
    /// combining marks) take the script of the text before them, or after them at the start.
    static func scripts(_ scalars: [UInt32]) -> [hb_script_t] {
        let funcs = hb_unicode_funcs_get_default()
        var out = scalars.map { hb_unicode_script(funcs, $0) }
        let unresolved: Set<UInt32> = [
            HB_SCRIPT_COMMON.rawValue, HB_SCRIPT_INHERITED.rawValue, HB_SCRIPT_UNKNOWN.rawValue,
        ]
        var last: hb_script_t?
        for i in out.indices {
            if unresolved.contains(out[i].rawValue) {
                if let last { out[i] = last }
            } else {
                last = out[i]
            }
        }
        // The line started with common text: it takes the first real script.
        if let first = out.firstIndex(where: { !unresolved.contains($0.rawValue) }) {
            for i in 0..<first { out[i] = out[first] }
        }
        return out
    }

    /// Maximal runs of equal level, script and face, in logical order.
    static func runs(levels: [UInt8], scripts: [hb_script_t], faces: [Int]) -> [TextRun] {
        guard !levels.isEmpty else { return [] }
        var runs: [TextRun] = []
        var start = 0
        for i in 1...levels.count
        where i == levels.count || levels[i] != levels[start]
            || scripts[i] != scripts[start] || faces[i] != faces[start]
        {
            runs.append(TextRun(range: start..<i, level: levels[start], script: scripts[start], face: faces[start]))
            start = i
        }
        return runs
    }

    /// The runs' indices left to right on screen: from the highest level down to the lowest
    /// odd one, every stretch of runs at that level or above is reversed (rule L2).
    static func visualOrder(_ runs: [TextRun]) -> [Int] {
        var order = Array(runs.indices)
        guard let highest = runs.map(\.level).max(),
            let lowestOdd = runs.map(\.level).filter({ $0 & 1 == 1 }).min()
        else { return order }
        var level = highest
        while level >= lowestOdd {
            var i = 0
            while i < order.count {
                guard runs[order[i]].level >= level else {
                    i += 1
                    continue
                }
                var j = i
                while j < order.count && runs[order[j]].level >= level { j += 1 }
                order[i..<j].reverse()
                i = j
            }
            level -= 1
        }
        return order
    }
}

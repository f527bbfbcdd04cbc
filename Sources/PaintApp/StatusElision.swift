import PaintCore

/// How a message too long for the status bar is cut, as desktop programs cut a label: a file
/// name or path in it loses its middle, so "Saved to /home/ana/Pictures/2026/the-beach.jpg"
/// keeps "Saved to" and "the-beach.jpg" (GTK's middle ellipsizing, KDE's squeezed labels, a
/// file manager's long names); a message long besides its name gets the name in a third of
/// the room; without a name, or after that, it ends with "…" after its last whole word that
/// fits (by character where that would say much less). Before, it was cut after whatever character fitted
/// ("Saved to /home/ana/Pict…", "only the top 412 of 10…"), the name or a number lost. The whole
/// message is in the tooltip as before (`statusTip`).
extension Session {
    /// The fewest characters of a name worth showing with its middle left out; fewer, and the
    /// message is cut at a word instead.
    static let fewestMiddleCharacters = 8

    /// `message` as it fits in `width` pixels (see above); nil when not even its first
    /// character and "…" do.
    static func elidedMessage(_ message: String, width: Int, bold: Bool, _ measure: TextMeasuring) -> String? {
        if measure.width(of: message, bold: bold) <= width { return message }
        if let name = nameRange(in: message) {
            let before = String(message[..<name.lowerBound])
            let after = String(message[name.upperBound...])
            let room = width - measure.width(of: before + after, bold: bold)
            if let short = elidedMiddle(String(message[name]), width: room, bold: bold, measure) {
                return before + short + after
            }
            // The rest is long too ("“…” is damaged: only the top 380 of 500 rows could be
            // read …"): the name in at most a third of the room, then the words that fit, so
            // what happened to it shows rather than only the start of its path.
            if let short = elidedMiddle(String(message[name]), width: width / 3, bold: bold, measure) {
                return elidedAtWord(before + short + after, width: width, bold: bold, measure)
            }
        }
        return elidedAtWord(message, width: width, bold: bold, measure)
    }

    /// Where the name in `message` is: inside its first “quotes”, else its first word with a
    /// "/" in it (a path). Nil when it has neither.
    static func nameRange(in message: String) -> Range<String.Index>? {
        if let open = message.firstIndex(of: "“"),
            let close = message[message.index(after: open)...].firstIndex(of: "”")
        {
            let inside = message.index(after: open)..<close
            return inside.isEmpty ? nil : inside
        }
        var start = message.startIndex
        while start < message.endIndex {
            let end = message[start...].firstIndex(of: " ") ?? message.endIndex
            if message[start..<end].contains("/") { return start..<end }
            start = end < message.endIndex ? message.index(after: end) : end
        }
        return nil
    }

    /// `name` with its middle left out for "…" to fit `width` (whole when it fits): a path keeps its last
    /// component whole while that fits with at least three characters before it, else the
    /// beginning and the end are kept alike. Nil when fewer than `fewestMiddleCharacters`
    /// would show.
    static func elidedMiddle(_ name: String, width: Int, bold: Bool, _ measure: TextMeasuring) -> String? {
        let characters = Array(name)
        let last = characters.lastIndex(of: "/").map { characters.count - $0 } ?? 0
        /// The name cut to `kept` characters round "…".
        func cut(_ kept: Int) -> String {
            let tail = last > 0 && kept >= last + 3 ? last : kept / 2
            return String(characters[..<(kept - tail)]) + "…" + String(characters[(characters.count - tail)...])
        }
        if measure.width(of: name, bold: bold) <= width { return name }
        guard characters.count > Self.fewestMiddleCharacters else { return nil }
        // The most characters that fit, found by halving (the width grows with them).
        var fits = 0
        var tooMany = characters.count
        while tooMany - fits > 1 {
            let middle = (fits + tooMany) / 2
            if measure.width(of: cut(middle), bold: bold) <= width { fits = middle } else { tooMany = middle }
        }
        return fits >= Self.fewestMiddleCharacters ? cut(fits) : nil
    }

    /// `text` cut after its last whole word that fits with "…" (a comma, colon or semicolon
    /// before the cut dropped); by characters (`elided`) when that would leave more than a
    /// quarter of what characters show unsaid: at 420 px "Cannot sa…" says more than "Cannot…".
    static func elidedAtWord(_ text: String, width: Int, bold: Bool, _ measure: TextMeasuring) -> String? {
        guard let byCharacter = elided(text, width: width, bold: bold, measure) else { return nil }
        guard let atWord = cutAtWord(text, width: width, bold: bold, measure),
            4 * measure.width(of: atWord, bold: bold) >= 3 * measure.width(of: byCharacter, bold: bold)
        else { return byCharacter }
        return atWord
    }

    /// `text` cut after its last whole word that fits with "…"; nil when not even its first does.
    static func cutAtWord(_ text: String, width: Int, bold: Bool, _ measure: TextMeasuring) -> String? {
        let characters = Array(text)
        // The ends of its words: where a space follows.
        let ends = characters.indices.filter { $0 > 0 && characters[$0] == " " && characters[$0 - 1] != " " }
        /// The text up to word end `end`, with "…".
        func cut(_ end: Int) -> String {
            var kept = characters[..<end]
            while let c = kept.last, [",", ";", ":"].contains(c) { kept = kept.dropLast() }
            return String(kept) + "…"
        }
        guard let first = ends.first, measure.width(of: cut(first), bold: bold) <= width else { return nil }
        var fits = 0
        var tooMany = ends.count
        while tooMany - fits > 1 {
            let middle = (fits + tooMany) / 2
            if measure.width(of: cut(ends[middle]), bold: bold) <= width { fits = middle } else { tooMany = middle }
        }
        return cut(ends[fits])
    }
}

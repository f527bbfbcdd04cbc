import PaintCore
import PaintText
import Testing

@testable import PaintApp

/// A message too long for the status bar is cut as desktop programs cut a label: the file
/// name or path in it loses its middle (the name at its end still shows), and prose ends with
/// "…" after a whole word; the tooltip shows it whole, as before. Before, a 900 px window cut
/// "Saved to /home/someone/Pictures/…" after whatever character fitted, the file's name lost.
@Suite struct StatusMessageElisionTests {
    typealias T = SessionTests

    /// A session on an opened picture in a window `width` pixels wide, saying `message`: the
    /// message as the status bar draws it, and the whole text its tooltip shows there.
    static func shown(_ message: String, width: Int, _ measure: TextMeasuring) throws -> (
        text: String, tip: String?
    ) {
        let s = T.makeSession(
            path: "/nowhere/photo.png", width: 800, height: 600, windowWidth: width, windowHeight: 700)
        s.setMessage(message)
        let run = try #require(s.statusTail(measure).runs.last)
        #expect(run.x + measure.width(of: run.text, bold: run.bold) <= s.layout.statusBar.maxX)
        let bar = s.layout.statusBar
        let tip = s.statusTail(measure).cut.first { $0.anchor.contains(run.x + 2, bar.y + bar.height / 2) }?.whole
        return (run.text, tip)
    }

    static let path = "/home/someone/Pictures/holidays-2026/the-beach-at-dawn-from-the-cliff-path.jpg"

    @Test func aPathLosesItsMiddleAndKeepsItsFileName() throws {
        let measure = StatusMessageFitTests.DejaVuMeasurer(typesetter: try #require(Typesetter()))
        let message = "Saved to \(Self.path)"
        let (text, tip) = try Self.shown(message, width: 900, measure)
        #expect(text.hasPrefix("Saved to /home/") && text.contains("…"), "\(text)")
        #expect(text.hasSuffix("/the-beach-at-dawn-from-the-cliff-path.jpg"), "the file's name is lost: \(text)")
        #expect(tip == message)
        // In a 1920 px window it shows whole.
        #expect(try Self.shown(message, width: 1920, measure).text == message)
        // A quoted name loses its middle, the words round it stay.
        let quoted = "Cannot save “\(Self.path)”: the disk is full"
        let q = try Self.shown(quoted, width: 900, measure).text
        #expect(q.hasPrefix("Cannot save “/home/") && q.hasSuffix("cliff-path.jpg”: the disk is full"), "\(q)")
    }

    /// A message long besides its name (a damaged file's) keeps the name's ends in a third of
    /// the bar and then says what happened, cut after a word.
    @Test func aLongMessageAboutANameSaysWhatHappened() throws {
        let measure = StatusMessageFitTests.DejaVuMeasurer(typesetter: try #require(Typesetter()))
        let message =
            "“\(Self.path)” is damaged: only the top 380 of 500 rows could be read (it is cut short: it ends "
            + "before the picture does); Ctrl+S saves a copy, the file is left as it is"
        let (text, tip) = try Self.shown(message, width: 900, measure)
        #expect(text.hasPrefix("“/home/") && text.contains("path.jpg” is damaged: only the top"), "\(text)")
        // After the name, the words that fit, cut after a whole one.
        let close = try #require(text.firstIndex(of: "”"))
        let words = String(text[close...].dropLast())
        let at = try #require(message.range(of: words), "\(text)")
        #expect(text.hasSuffix("…") && [" ", ",", ";", ":"].contains(message[at.upperBound]), "\(text)")
        #expect(tip == message)
    }

    @Test func proseEndsAfterAWholeWord() throws {
        let measure = StatusMessageFitTests.DejaVuMeasurer(typesetter: try #require(Typesetter()))
        let message =
            "The picture was made smaller to fit the largest size this computer can keep in memory, "
            + "and every step before it can still be undone with Ctrl+Z"
        for width in [900, 1020] {
            let (text, tip) = try Self.shown(message, width: width, measure)
            #expect(text.hasSuffix("…"), "\(width) px: \(text)")
            let kept = String(text.dropLast())
            #expect(message.hasPrefix(kept), "\(width) px: \(text)")
            let next = message.dropFirst(kept.count).first
            #expect(next == " " || next == ",", "\(width) px: cut inside a word: \(text)")
            #expect(tip == message)
        }
        #expect(try Self.shown(message, width: 1920, measure).text == message)
    }
}

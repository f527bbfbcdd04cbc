import Foundation
import Glibc
import PaintCore
import PaintIO
import PaintText
import Testing

@testable import PaintApp

/// Every message can be read whole: the hints a user acts on fit the status bar of the default
/// window (1020 px, the toolbar's one row) beside an opened file's name, and any message or name
/// still cut short with "…" (a narrower window, a long path in an error) shows whole in a
/// tooltip while the pointer rests on it. Before, the hints were cut ("…Alt+K keeps the aspect
/// or…") and nothing showed the rest.
@Suite struct StatusMessageFitTests {
    typealias T = SessionTests

    /// Measures as the window draws the status bar: DejaVu Sans at 12 px (`TextRenderer`: 9 pt
    /// at 96 dpi), through the program's own typesetter (FreeType and HarfBuzz), each character's
    /// advance rounded to whole pixels and summed, as Xft places glyphs (no kerning, hinted
    /// advances). Measured whole, a message came out up to 2 % narrower than Xft draws it, so
    /// "Larger than the picture: … Esc drops" passed as fitting and showed cut ("Esc dro…").
    /// Against XftTextExtentsUtf8 on Debian's DejaVu: regular exactly, bold up to 1 % narrower.
    final class DejaVuMeasurer: TextMeasuring {
        let typesetter: Typesetter
        private var advances: [String: Int] = [:]
        init(typesetter: Typesetter) { self.typesetter = typesetter }
        func width(of text: String, bold: Bool) -> Int {
            text.reduce(0) { sum, c in
                let key = bold ? "b" + String(c) : "r" + String(c)
                if let known = advances[key] { return sum + known }
                let font = TextFont(family: "DejaVu Sans", size: 12, bold: bold)
                let advance = ((typesetter.layout(String(c), font: font).lines.first?.width ?? 0) + 32) / 64
                advances[key] = advance
                return sum + advance
            }
        }
    }

    /// The default window on an opened 800 x 600 picture, drawn on: the status bar ends with
    /// "photo.png (unsaved)" and the message.
    static func defaultWindow() -> Session {
        let s = T.makeSession(path: "/nowhere/photo.png", width: 800, height: 600, windowWidth: 1020, windowHeight: 718)
        T.drag(s, [(700, 500), (720, 520)])
        return s
    }

    /// The message as the status bar shows it: whole (nil), or what it is cut to.
    static func cut(_ s: Session, _ measure: TextMeasuring) -> String? {
        let texts = s.renderStatus(measure: measure).texts.map(\.text)
        #expect(texts.contains { $0.hasPrefix("photo.png") }, "the name shows")
        return texts.contains(s.shownMessage) ? nil : texts.last ?? ""
    }

    /// The measurer agrees with what XftTextExtentsUtf8 gave for these texts on Xvfb with
    /// Debian's DejaVu Sans at 12 px (a small C program, session 13).
    @Test func theMeasurerMeasuresAsXftDraws() throws {
        let measure = DejaVuMeasurer(typesetter: try #require(Typesetter()))
        let hint = "Larger than the picture: Ctrl+Shift+X grows it, Enter crops, Esc drops"
        #expect(measure.width(of: hint, bold: false) == 424)
        #expect(
            measure.width(of: "Type your text — Enter: new line, Esc: cancel, click outside: done", bold: false) == 396)
        #expect(measure.width(of: "photo.png (unsaved)", bold: false) == 128)
        #expect(measure.width(of: "photo.png (unsaved)", bold: true) == 144)
    }

    @Test func everyHintAUserActsOnFitsTheDefaultWindow() throws {
        let measure = DejaVuMeasurer(typesetter: try #require(Typesetter()))
        let s = Self.defaultWindow()
        #expect(s.isModified)
        var seen: [String] = []
        func check(_ what: String) {
            seen.append(s.shownMessage)
            #expect(!s.shownMessage.isEmpty, "\(what): no message")
            if let shown = Self.cut(s, measure) {
                Issue.record("\(what): “\(s.shownMessage)” is cut to “\(shown)”")
            }
        }
        func png(_ width: Int, _ height: Int) throws -> [UInt8] {
            try PNGCodec.encode(PixelImage(width: width, height: height, fill: Color.black.pixel), withAlpha: false)
        }
        // Pastes: one that fits, turned; one larger than the picture, cropped to.
        s.pasteNow(png: try png(300, 200))
        check("a paste")
        s.run(.flipHorizontal)
        check("a paste flipped")
        s.handle(.key(.escape, modifiers: []))
        check("a paste dropped")
        s.pasteNow(png: try png(1000, 700))
        check("a paste larger than the picture")
        s.run(.cropToSelection)
        check("cropped to the paste")
        s.undo()
        s.undo()
        // The selection: none to crop to, then moved and turned.
        s.run(.cropToSelection)
        check("a crop with nothing selected")
        T.key(s, "s")
        T.drag(s, [(100, 100), (300, 250)])
        check("a selection")
        T.drag(s, [(150, 150), (180, 170)])
        check("a selection moved")
        s.run(.rotateRight)
        check("a selection turned")
        s.handle(.key(.escape, modifiers: []))
        // The size dialogs and the limits.
        s.run(.scale)
        check("the scale dialog")
        s.handle(.key(.escape, modifiers: []))
        s.run(.canvasSize)
        check("the canvas size dialog")
        s.handle(.key(.escape, modifiers: []))
        s.changeCanvas(.resize(IntRect(x: 0, y: 0, width: 100_000, height: 100_000)), saying: "")
        check("a size too large")
        // The stabilizer, each step.
        for _ in 0..<3 {
            s.stepStabilizer()
            check("the stabilizer")
        }
        // Text: a box placed, put down, opened again.
        s.select(.text)
        TextToolTests.click(s, 100, 100)
        check("a text box")
        TextToolTests.type(s, "Hi")
        TextToolTests.click(s, 600, 500)
        TextToolTests.doubleClick(s, 103, 110)
        #expect(s.isEditingText)
        check("text opened again")
        s.handle(.key(.escape, modifiers: []))
        // Files: deleted, changed, pasted from a file manager.
        s.pasteFiles(["/nowhere/photo.png"])
        check("a file that is gone, pasted")
        #expect(seen.count >= 18, "\(seen)")
    }

    /// The messages about the opened file: changed by another program, then deleted.
    @Test func theFileMessagesFitTheDefaultWindow() throws {
        let measure = DejaVuMeasurer(typesetter: try #require(Typesetter()))
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/photo.png"
        func write(_ fill: Color) throws {
            try Data(try PNGCodec.encode(PixelImage(width: 800, height: 600, fill: fill.pixel), withAlpha: false))
                .write(to: URL(fileURLWithPath: file))
        }
        try write(.white)
        let s = DocumentLoaderTests.open(file, DocumentLoaderTests.options(dir))
        s.handle(.resize(width: 1020, height: 718))
        T.drag(s, [(700, 500), (720, 520)])
        try write(.black)
        ChangedOnDiskTests.lookAtFile(s)
        #expect(s.changedOnDisk)
        #expect(Self.cut(s, measure) == nil, "“\(s.shownMessage)” is cut")
        #expect(unlink(file) == 0)
        s.watch()
        #expect(s.deletedOnDisk)
        #expect(Self.cut(s, measure) == nil, "“\(s.shownMessage)” is cut")
    }

    /// A message too long for the window (a narrow one, an error naming a long path): resting
    /// the pointer on its cut run shows it whole, above the status bar, in lines no wider than a
    /// tooltip's; it does not go by itself meanwhile; off it, nothing shows. A name cut short
    /// shows whole the same way.
    @Test func aMessageCutShortShowsWholeWhereThePointerRests() throws {
        let measure = FixedWidthMeasurer()
        let long =
            "/home/someone/Pictures/holidays/2026/the-beach-at-dawn-from-the-cliff-path-after-the-storm-panorama.png"
        let s = T.makeSession(path: long, width: 300, height: 200, windowWidth: 640, windowHeight: 480)
        T.drag(s, [(10, 10), (40, 40)])
        let message = "Stroke removed (Ctrl+Z brings it back); the crash journal under \(long) was written again"
        s.show(message)
        _ = s.renderStatus(measure: measure)
        let name = "\(FileSystem.lastComponent(long)) (unsaved)"
        guard let cutMessage = s.statusTail(measure).cut.first(where: { $0.whole == message }) else {
            Issue.record("the message is not cut short at 640 px: \(s.statusTail(measure).cut)")
            return
        }
        #expect(!s.statusTail(measure).cut.contains { $0.whole == name }, "the message has the name's room")
        #expect(s.statusTip == nil && s.tooltip == nil, "the pointer is not there yet")
        let bar = s.layout.statusBar
        s.handle(.motion(x: cutMessage.anchor.x + 3, y: bar.y + bar.height / 2, modifiers: []))
        #expect(s.showsTooltip && s.tooltip == message)
        #expect(s.tooltipPlace?.anchor == cutMessage.anchor && s.tooltipPlace?.above == true)
        let lines = s.tooltipLines(measure)
        #expect(lines.count > 1 && lines.allSatisfy { measure.width(of: $0, bold: false) <= Int(Session.tooltipWidth) })
        #expect(
            lines.joined().filter { $0 != " " } == message.filter { $0 != " " }, "every character shows: \(lines)")
        // Resting there, the notice stays past its lifetime; off it, it goes.
        _ = s.runTimers(at: 1000)
        _ = s.runTimers(at: 1000 + Session.messageLifetime + 1)
        #expect(s.message == message, "the notice went while it was being read")
        s.handle(.motion(x: 300, y: 200, modifiers: []))
        #expect(s.statusTip == nil && s.tooltip == nil)
        _ = s.runTimers(at: 1000 + Session.messageLifetime + 2)
        #expect(s.message.isEmpty)
        // The message gone, the name has the room back, cut short: it shows whole the same way.
        let cutName = try #require(s.statusTail(measure).cut.first { $0.whole == name })
        s.handle(.motion(x: cutName.anchor.x + 3, y: bar.y + bar.height / 2, modifiers: []))
        #expect(s.tooltip == name && s.tooltipLines(measure) == [name])
        s.handle(.motion(x: 300, y: 200, modifiers: []))
        // A message that fits is not offered again in a tooltip.
        s.show("Canvas cleared")
        _ = s.renderStatus(measure: measure)
        #expect(!s.statusTail(measure).cut.contains { $0.whole == "Canvas cleared" })
    }

    /// A window narrower than the fields leave room for (no window manager holds it at the
    /// 640 x 480 it asks for) leaves out the picture's size, so the name and the message keep
    /// room: from 420 px up an error shows at least its start (in red), whole in the tooltip, and no text
    /// runs into a field. Before, below about 560 px the position, size, zoom and stabilizer
    /// took the whole bar: no name, no message, nothing to rest the pointer on.
    @Test func aNarrowWindowStillShowsTheMessage() throws {
        let measure = DejaVuMeasurer(typesetter: try #require(Typesetter()))
        let s = T.makeSession(path: "/tmp/photo.png", width: 800, height: 600, windowWidth: 1020, windowHeight: 480)
        T.drag(s, [(10, 10), (40, 40)])
        let message = "Cannot save “photo.png”: the folder is read-only"
        for width in stride(from: 420, through: 1100, by: 9) {
            s.handle(.resize(width: width, height: 480))
            s.show(message)
            let texts = s.renderStatus(measure: measure).texts
            let bar = s.layout.statusBar
            let stabilizer = s.stabilizerFieldRect(measure)
            #expect(stabilizer.maxX <= bar.maxX, "\(width) px: the fields leave the bar")
            let sizeShown = texts.contains { $0.text == "800 × 600" }
            #expect(sizeShown || width < 640, "\(width) px: the size is left out")
            #expect(!sizeShown || width > 560, "\(width) px: the size takes the message's room")
            for run in texts {
                let end = run.x + measure.width(of: run.text, bold: run.bold)
                #expect(end <= bar.maxX, "\(width) px: “\(run.text)” leaves the bar")
                #expect(
                    end <= s.zoomField.x || run.x >= stabilizer.maxX
                        || (run.x >= s.zoomField.x && end <= stabilizer.maxX), "\(width) px: “\(run.text)” over a field"
                )
            }
            let shown = texts.first { $0.bold && $0.color == Theme.errorText }
            let start = shown.map { String($0.text.prefix(3)) }
            #expect(start == "Can", "\(width) px: the error shows as \(String(describing: shown?.text))")
            if shown?.text != message {
                let cut = try #require(s.statusTail(measure).cut.first { $0.whole == message })
                s.handle(.motion(x: cut.anchor.x + 2, y: bar.y + bar.height / 2, modifiers: []))
                #expect(s.tooltip == message, "\(width) px")
                s.handle(.motion(x: 5, y: 5, modifiers: []))
            }
        }
    }

    /// The message wins the status bar's room from the file name (the window's title names the
    /// file; the message may say a save failed, and goes by itself): while the message is cut
    /// short, no name shows and the message has the whole room after the fields; while it is
    /// whole, the name shows in what is left when at least "phot…" fits. Before, the name kept a
    /// third of the room: at 420 px the error read "Can…" beside "ph…".
    @Test func theMessageWinsTheRoomFromTheName() throws {
        let measure = DejaVuMeasurer(typesetter: try #require(Typesetter()))
        let s = T.makeSession(path: "/tmp/photo.png", width: 800, height: 600, windowWidth: 1020, windowHeight: 480)
        T.drag(s, [(10, 10), (40, 40)])
        let message = "Cannot save “photo.png”: the folder is read-only"
        let widest = measure.width(of: "W…", bold: true)
        for width in stride(from: 420, through: 1100, by: 9) {
            s.handle(.resize(width: width, height: 480))
            s.show(message)
            let texts = s.renderStatus(measure: measure).texts
            let start = s.stabilizerFieldRect(measure).maxX + s.statusGap
            let end = s.layout.statusBar.width - s.layout.ui.px(10)
            let name = texts.first { $0.text.hasPrefix("ph") }
            let shown = try #require(texts.first { $0.color == Theme.errorText }, "\(width) px: no message")
            let shownWidth = measure.width(of: shown.text, bold: true)
            if shown.text != message {
                #expect(name == nil, "\(width) px: “\(name?.text ?? "")” beside “\(shown.text)”")
                // Cut after a whole word (`elidedAtWord`) it says at least three quarters of what
                // a cut by character would; else it fills the room to within a character.
                let kept = String(shown.text.dropLast())
                let next = message.hasPrefix(kept) ? message.dropFirst(kept.count).first : nil
                let room = end - start - s.statusGap
                #expect(
                    next == " " || next == ":" ? 4 * shownWidth + 4 * widest >= 3 * room : shownWidth + widest >= room,
                    "\(width) px: “\(shown.text)” in \(end - start) px")
            } else if end - start - shownWidth - s.statusGap >= measure.width(of: "phot…", bold: true) {
                #expect(name != nil, "\(width) px: the name has room but does not show")
            }
            if let name {
                #expect(name.text.count > Session.fewestNameCharacters, "\(width) px: “\(name.text)”")
            }
        }
        // At 420 px the error still reads as one, cut after its first word (the tooltip has the
        // rest), and a few pixels more show what failed.
        s.handle(.resize(width: 420, height: 480))
        s.show(message)
        let shown = s.renderStatus(measure: measure).texts.first { $0.color == Theme.errorText }
        #expect(shown?.text == "Cannot…", "\(String(describing: shown?.text))")
        s.handle(.resize(width: 480, height: 480))
        s.show(message)
        let wider = s.renderStatus(measure: measure).texts.first { $0.color == Theme.errorText }
        #expect(wider.map { $0.text.hasPrefix("Cannot save") } == true, "\(String(describing: wider?.text))")
    }

    /// The tooltip's lines: broken at spaces, a word wider than a line where it reaches the
    /// end; nothing left out.
    @Test func tooltipLinesKeepEveryCharacter() {
        let m = FixedWidthMeasurer()
        #expect(Session.brokenIntoLines("one two three", width: 70, m) == ["one two", "three"])
        #expect(Session.brokenIntoLines("abcdefghijklmnop xy", width: 35, m) == ["abcde", "fghij", "klmno", "p xy"])
        #expect(Session.brokenIntoLines("", width: 35, m) == [""])
        #expect(Session.brokenIntoLines("a", width: 1, m) == ["a"])
    }

    /// A long path breaks after a "/", its first folders on the line before, never inside a
    /// folder's name while a "/" allows a break; a path that fits a line stays whole on the next.
    /// Before, it broke where the line ended ("…/Pictu" "res/…").
    @Test func aLongPathBreaksAfterASlash() {
        let m = FixedWidthMeasurer()
        let path = "/home/someone/Pictures/holidays/2026/the-beach.png"
        let lines = Session.brokenIntoLines("Cannot save \(path): permission denied", width: 20 * 7, m)
        #expect(
            lines == [
                "Cannot save /home/", "someone/Pictures/", "holidays/2026/", "the-beach.png:", "permission denied",
            ])
        #expect(lines.joined(separator: " ").filter { $0 != " " } == "Cannotsave\(path):permissiondenied")
        #expect(lines.allSatisfy { m.width(of: $0, bold: false) <= 20 * 7 })
        // A part with no "/" wider than a line still breaks where the line ends.
        #expect(Session.brokenIntoLines("/ab/cdefghij", width: 5 * 7, m) == ["/ab/", "cdefg", "hij"])
        #expect(Session.brokenIntoLines("see /a/b.png", width: 20 * 7, m) == ["see /a/b.png"])
        #expect(Session.brokenIntoLines("see /abc/d.png", width: 10 * 7, m) == ["see", "/abc/d.png"])
    }

    /// The tooltip stays inside the window: its lines no wider than the window leaves room
    /// for, its box moved left from the cut text so it ends before the window's right edge, at
    /// every width. Before, its lines were 640 px wide whatever the window and it started at
    /// the cut text, so in a 420 px window it ran 200 px and more past the right edge.
    @Test func theTooltipStaysInsideTheWindow() throws {
        let measure = DejaVuMeasurer(typesetter: try #require(Typesetter()))
        let long = "/home/someone/Pictures/holidays/2026/the-beach-at-dawn-from-the-cliff-path-after-the-storm.png"
        let s = T.makeSession(path: long, width: 300, height: 200, windowWidth: 1020, windowHeight: 480)
        for width in stride(from: StatusQuestionFitTests.narrowest, through: 1100, by: 23) {
            s.handle(.resize(width: width, height: 480))
            s.show("Cannot save \(long): the folder is read-only, so the picture was not saved")
            _ = s.renderStatus(measure: measure)
            let bar = s.layout.statusBar
            for cut in s.statusTail(measure).cut {
                s.handle(.motion(x: cut.anchor.maxX - 1, y: bar.y + bar.height / 2, modifiers: []))
                let lines = s.tooltipLines(measure)
                let box = s.tooltipBoxWidth(lines, measure)
                let x = try #require(s.tooltipX(width: box))
                #expect(x >= 0 && x + box <= width, "\(width) px: the tooltip spans \(x)..<\(x + box)")
                #expect(x <= cut.anchor.x, "\(width) px: the tooltip starts right of what it shows")
                #expect(lines.joined().filter { $0 != " " } == cut.whole.filter { $0 != " " })
            }
            s.handle(.motion(x: 5, y: 5, modifiers: []))
        }
        // A toolbar button's tip near the right edge is moved in as well.
        s.handle(.resize(width: 1020, height: 480))
        let save = s.layout.rect(of: .save)
        s.handle(.motion(x: save.x + 4, y: save.y + 4, modifiers: []))
        let lines = s.tooltipLines(measure)
        let box = s.tooltipBoxWidth(lines, measure)
        let x = try #require(s.tooltipX(width: box))
        #expect(x + box <= 1020 && x < save.x)
    }
}

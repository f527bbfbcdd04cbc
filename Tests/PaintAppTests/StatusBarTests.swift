import PaintCore
import Testing

@testable import PaintApp

/// The status bar: fields that keep their place, and the stabilizer's field.
@Suite struct StatusBarTests {
    typealias T = SessionTests

    /// Where the run showing `text` starts.
    static func x(of text: String, in s: Session) -> Int? {
        s.renderStatus().texts.first { $0.text == text }?.x
    }

    @Test func fieldsDoNotJumpWhenThePositionOrZoomChanges() {
        let s = T.makeSession(width: 2000, height: 1000)
        var places: Set<Int> = []
        for (ix, iy) in [(1, 1), (1234, 987), (55, 4)] {
            let (x, y) = T.window(s, ix, iy)
            s.handle(.motion(x: x, y: y, modifiers: []))
            places.insert(Self.x(of: "2000 × 1000", in: s) ?? -1)
        }
        #expect(places.count == 1, "the size field moved: \(places)")
        let name = Self.x(of: s.displayName, in: s)
        s.zoom(by: -2)
        #expect(Self.x(of: s.displayName, in: s) == name, "the name moved with the zoom's text")
    }

    /// A picture whose size gains a digit (999 x 999 to 1000 x 1000, a crop undone): the zoom
    /// field, the stabilizer and the name stay where they are (they moved a digit's width).
    @Test func fieldsStayWhenTheSizeGainsADigit() {
        let s = T.makeSession(width: 1000, height: 1000, windowWidth: 900, windowHeight: 600)
        s.selection = IntRect(x: 0, y: 0, width: 999, height: 999)
        s.run(.cropToSelection)
        #expect(s.engine.width == 999)
        func places() -> [Int?] {
            let measure = FixedWidthMeasurer()
            let texts = s.renderStatus(measure: measure).texts
            // The name, bold ("Untitled (unsaved)" after the crop).
            let name = texts.first { $0.bold && $0.text.hasPrefix(s.displayName) }?.x
            return [s.zoomField.x, s.stabilizerField?.x, name]
        }
        let small = places()
        T.key(s, "z", .control)
        #expect(s.engine.width == 1000)
        #expect(places() == small, "at 999 x 999 \(small), at 1000 x 1000 \(places())")
        #expect(Self.x(of: "1000 × 1000", in: s) != nil)
    }

    @Test func aClickOnTheStabilizerFieldStepsIt() {
        let (s, sink) = T.recordingSession(width: 200, height: 100)
        _ = s.renderStatus()
        guard let field = s.stabilizerField else {
            Issue.record("no stabilizer field")
            return
        }
        #expect(s.renderStatus().texts.contains { $0.text == "Stabilizer off" })
        let click: [InputEvent] = [
            .press(x: field.x + 5, y: field.y + 5, button: .left, modifiers: []),
            .release(x: field.x + 5, y: field.y + 5, button: .left, modifiers: []),
        ]
        s.handle(click)
        #expect(s.settings.stabilizer == 4)
        s.handle(click)
        #expect(s.settings.stabilizer == 8 && s.renderStatus().texts.contains { $0.text == "Stabilizer 8" })
        T.drag(s, [(10, 10), (60, 10), (90, 40)])
        guard case .stroke(let style, _, _)? = sink.operations.last else {
            Issue.record("no stroke")
            return
        }
        #expect(style.dynamics.stabilizer == 8 && style.dynamics.curves)
        // Right click steps back; past off it wraps.
        s.handle(
            click.map {
                switch $0 {
                case .press(let x, let y, _, let m, _): return .press(x: x, y: y, button: .right, modifiers: m)
                case .release(let x, let y, _, let m, _): return .release(x: x, y: y, button: .right, modifiers: m)
                default: return $0
                }
            })
        #expect(s.settings.stabilizer == 4)
    }

    /// The position shown is of the pixel under the pointer now: a scroll, a zoom or a new
    /// canvas size under a pointer that stays put changes it (it used to show the pixel of the
    /// last motion until the pointer moved), and so does dragging out or moving a selection.
    @Test func thePositionIsOfThePixelUnderThePointerAfterTheViewMoves() {
        let s = T.makeSession(width: 3000, height: 2000, windowWidth: 1000, windowHeight: 700)
        let (x, y) = T.window(s, 300, 200)
        func expectShown(_ ix: Int, _ iy: Int, _ what: Comment) {
            #expect(s.pointerPixel?.x == ix && s.pointerPixel?.y == iy, what)
            #expect(s.renderStatus().texts.contains { $0.text == "\(ix), \(iy)" }, what)
        }
        /// The pixel the layout puts under window point (x, y).
        func under(_ x: Int, _ y: Int) -> (Int, Int) {
            let p = s.layout.imagePoint(windowX: x, windowY: y)
            return (Int(p.x.rounded(.down)), Int(p.y.rounded(.down)))
        }
        s.handle(.motion(x: x, y: y, modifiers: []))
        expectShown(300, 200, "after a motion")
        s.handle(.press(x: x, y: y, button: .wheelDown, modifiers: []))
        s.handle(.press(x: x, y: y, button: .wheelDown, modifiers: [.shift]))
        #expect(under(x, y) != (300, 200))
        expectShown(under(x, y).0, under(x, y).1, "after the wheel scrolled")
        T.key(s, "=", .control)
        T.key(s, "=", .control)
        expectShown(under(x, y).0, under(x, y).1, "after Ctrl+= zoomed in about the canvas's centre")
        T.key(s, "0", .control)
        T.key(s, "h", .control)
        #expect(s.engine.width == 2000)
        expectShown(under(x, y).0, under(x, y).1, "after the picture turned")
        // The select tool: the position follows the pointer while a selection is dragged out
        // and while it is moved.
        T.key(s, "s")
        let (ax, ay) = T.window(s, 10, 10)
        s.handle(.press(x: ax, y: ay, button: .left, modifiers: []))
        s.handle(.motion(x: ax + 40, y: ay + 30, modifiers: []))
        expectShown(50, 40, "while a selection is dragged out")
        s.handle(.release(x: ax + 40, y: ay + 30, button: .left, modifiers: []))
        s.handle(.press(x: ax + 20, y: ay + 20, button: .left, modifiers: []))
        s.handle(.motion(x: ax + 70, y: ay + 25, modifiers: []))
        expectShown(80, 35, "while the selection is moved")
    }
}

/// The pointer position drawn alone while the pointer moves: the same pixels and text the whole
/// status bar has in its slot.
@Suite struct PositionSlotTests {
    /// The whole bar, and the slot drawn alone, agree in the slot: the pixels there, and the one
    /// text that starts there (the position), which fits inside it.
    static func expectSlotMatchesWholeBar(_ s: Session, _ what: String) {
        let measure = FixedWidthMeasurer()
        let whole = s.renderStatus(measure: measure)
        guard let (alone, slot) = s.renderPosition() else {
            Issue.record("\(what): no slot in the plain status bar")
            return
        }
        let bar = s.layout.statusBar
        #expect(slot.x == bar.x && slot.y == bar.y && slot.height == bar.height && slot.width < bar.width, "\(what)")
        let local = IntRect(x: slot.x - bar.x, y: 0, width: slot.width, height: slot.height)
        #expect(alone.pixels == whole.pixels.cropped(to: local), "\(what): the slot's pixels differ from the bar's")
        let inSlot = whole.texts.filter { $0.x < slot.maxX }
        #expect(alone.texts == inSlot, "\(what): \(alone.texts) against \(inSlot)")
        let widest = measure.width(of: s.statusSlots.position, bold: false)
        #expect(alone.texts.allSatisfy { $0.x + max(widest, measure.width(of: $0.text, bold: false)) < slot.maxX })
        let next = whole.texts.filter { $0.x >= slot.maxX }.map(\.x).min() ?? bar.maxX
        #expect(next >= slot.maxX + s.statusGap / 2, "\(what): the field after the slot starts at \(next)")
    }

    @Test(arguments: [1.0, 1.5, 2.0])
    func theSlotDrawnAloneIsTheWholeBarThere(scale: Double) {
        for (w, h) in [(120, 80), (2000, 1000), (40000, 30)] {
            let ui = UIScale(scale)
            let s = SessionTests.makeSession(width: w, height: h, windowWidth: ui.px(900), windowHeight: ui.px(600))
            s.uiScale = ui
            Self.expectSlotMatchesWholeBar(s, "\(w) x \(h) at \(scale), no pointer")
            let v = s.layout.visibleImage
            for (x, y) in [(v.x, v.y), (v.maxX - 1, v.maxY - 1), (v.x + v.width / 2, v.y + 1)] {
                s.handle(.motion(x: x, y: y, modifiers: []))
                #expect(s.pointerPixel != nil)
                Self.expectSlotMatchesWholeBar(s, "\(w) x \(h) at \(scale), pointer at \(x), \(y)")
            }
            s.show("A message at the right end")
            Self.expectSlotMatchesWholeBar(s, "\(w) x \(h) at \(scale), with a message")
        }
    }

    /// The widest position's width is kept between redraws: it stays when a crop or its undo
    /// changes how many digits a position has (room is kept for the largest picture), and
    /// follows a new measurer.
    @Test func theSlotStaysWithThePictureSizeAndFollowsTheMeasurer() {
        let s = SessionTests.makeSession(width: 1000, height: 40)
        Self.expectSlotMatchesWholeBar(s, "1000 x 40")
        let wide = s.positionSlot.width
        s.selection = IntRect(x: 0, y: 0, width: 50, height: 40)
        s.run(.cropToSelection)
        #expect(s.engine.width == 50)
        Self.expectSlotMatchesWholeBar(s, "cropped to 50 x 40")
        #expect(s.positionSlot.width == wide, "two digits fewer in each coordinate, the same slot")
        s.handle(.key(.character("z"), modifiers: .control))
        #expect(s.engine.width == 1000)
        #expect(s.positionSlot.width == wide, "the undo keeps the slot")
        struct Wider: TextMeasuring {
            func width(of text: String, bold: Bool) -> Int { text.count * 9 }
        }
        _ = s.renderStatus(measure: Wider())
        #expect(s.positionSlot.width == wide + "88888, 88888".count * 2, "measured again with the new measurer")
    }

    /// The position's text is written digit by digit (no string interpolation per redraw): it
    /// spells every position as interpolation does, down to Int's ends.
    @Test func thePositionIsSpelledAsInterpolationSpellsIt() {
        let values = [0, 1, 9, 10, 99, 100, 1234, 8191, 65535, 100_000, -1, -10, -1234, Int.max, Int.min, Int.min + 1]
        for x in values {
            for y in values { #expect(Session.positionLabel(x, y) == "\(x), \(y)") }
        }
        let s = SessionTests.makeSession(width: 2000, height: 1000)
        let (x, y) = SessionTests.window(s, 123, 45)
        s.handle(.motion(x: x, y: y, modifiers: []))
        #expect(s.positionText()?.text.text == "123, 45")
    }

    @Test func aQuestionInTheBarIsRedrawnWhole() {
        let s = SessionTests.makeSession()
        let (x, y) = SessionTests.window(s, 10, 10)
        SessionTests.drag(s, [(10, 10), (50, 50)])
        s.handle(.closeRequest)
        #expect(s.mode == .confirmLeave(.quit))
        s.handle(.motion(x: x, y: y, modifiers: []))
        #expect(s.renderPosition() == nil, "the question owns the left end of the bar")
    }
}

/// The status bar in a narrow window: nothing drawn past its right edge.
@Suite struct NarrowStatusBarTests {
    @Test("at 640 px a long name and a long message are cut short with …, the fields keep their place")
    func longTextsAreCutShort() {
        let s = SessionTests.makeSession(width: 300, height: 200, windowWidth: 640, windowHeight: 480)
        let measure = FixedWidthMeasurer()
        s.show("Opened ~/Pictures/holidays/2026/a picture with a rather long name of its own.png")
        let texts = s.renderStatus(measure: measure).texts
        let bar = s.layout.statusBar
        for run in texts {
            #expect(run.x + measure.width(of: run.text, bold: run.bold) <= bar.maxX, "\(run.text) at \(run.x)")
        }
        let message = texts.last { $0.text.hasPrefix("Opened") }
        #expect(message?.text.hasSuffix("…") == true, "\(String(describing: message?.text))")
        // The fields before the name are where they are in a wide window.
        let wide = SessionTests.makeSession(width: 300, height: 200, windowWidth: 1600, windowHeight: 900)
        _ = wide.renderStatus(measure: measure)
        #expect(wide.zoomField.x == s.zoomField.x && wide.stabilizerField?.x == s.stabilizerField?.x)
    }

    @Test("a long file name gives the message its room: a failed save is not hidden behind the name")
    func aLongNameLeavesTheMessageItsRoom() {
        let name = String(repeating: "a picture of the summer holiday at the seaside ", count: 3) + "2026.png"
        let s = SessionTests.makeSession(
            path: "/tmp/\(name)", width: 300, height: 200, windowWidth: 1000, windowHeight: 600)
        let measure = FixedWidthMeasurer()
        let bar = s.layout.statusBar
        s.show("Cannot save “\(name)”: the disk is full")
        let texts = s.renderStatus(measure: measure).texts
        for run in texts {
            #expect(run.x + measure.width(of: run.text, bold: run.bold) <= bar.maxX, "\(run.text) at \(run.x)")
        }
        let shownName = texts.first { $0.bold && $0.text.hasPrefix("a picture of") }
        let message = texts.first { $0.text.hasPrefix("Cannot save") }
        // The message, too long itself, wins the whole room (the title names the file).
        #expect(shownName == nil, "\(String(describing: shownName?.text))")
        // Cut in the middle of the name (`elidedMessage`): what failed and why both show.
        #expect(
            message?.text.contains("…") == true && message?.text.hasSuffix("2026.png”: the disk is full") == true,
            "the message shows: \(texts.map(\.text))")
        // Without a message the name has the room again, cut short.
        s.show("")
        let alone = s.renderStatus(measure: measure).texts.first { $0.bold && $0.text.hasPrefix("a picture of") }
        #expect(alone?.text.hasSuffix("…") == true, "\(String(describing: alone?.text))")
    }

    @Test func elidedKeepsTheLongestBeginningThatFits() {
        let m = FixedWidthMeasurer()  // 7 px a character
        #expect(Session.elided("abcdef", width: 42, bold: false, m) == "abcdef")
        #expect(Session.elided("abcdef", width: 41, bold: false, m) == "abcd…")
        #expect(Session.elided("ab  cdef", width: 35, bold: false, m) == "ab…", "no space before the …")
        #expect(Session.elided("abcdef", width: 13, bold: false, m) == nil)
    }

    @Test func wrappedBreaksAtSpacesAndElidesWhatTheLinesCannotHold() {
        let m = FixedWidthMeasurer()  // 7 px a character
        #expect(Session.wrapped("ab cd ef", width: 56, lines: 2, bold: false, m) == ["ab cd ef"])
        #expect(Session.wrapped("ab cd ef", width: 35, lines: 2, bold: false, m) == ["ab cd", "ef"])
        #expect(Session.wrapped("ab cd ef gh", width: 35, lines: 2, bold: false, m) == ["ab cd", "ef gh"])
        #expect(Session.wrapped("ab cd ef gh ij", width: 35, lines: 2, bold: false, m) == ["ab cd", "ef g…"])
        #expect(Session.wrapped("ab cd ef", width: 35, lines: 1, bold: false, m) == ["ab c…"])
        #expect(Session.wrapped("abcdefgh ij", width: 35, lines: 3, bold: false, m) == ["abcd…", "ij"])
    }
}

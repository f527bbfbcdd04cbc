import PaintCore
import Testing

@testable import PaintApp

/// The picture size dialog: typed, stepped and dragged numbers, keep aspect, the percent, the
/// anchor, the limits checked before anything is made, Enter and Escape; and in the session,
/// Ctrl+R and Ctrl+Shift+R carrying out its change as one step.
@Suite struct SizeDialogTests {
    typealias T = SessionTests

    static func type(_ dialog: inout SizeDialog, _ text: String) {
        for c in text { _ = dialog.key(.character(c)) }
    }

    @Test func typingTheWidthCarriesTheHeightAndPercentAlong() {
        var d = SizeDialog(kind: .scale, width: 300, height: 200)
        #expect(d.fields.map(\.text) == ["300", "200", "100"])
        Self.type(&d, "150")  // the width field is focused with its text selected
        #expect(d.fields.map(\.text) == ["150", "100", "50"])
        #expect(d.change == .scale(width: 150, height: 100))
        _ = d.key(.tab)
        Self.type(&d, "7")
        #expect(d.fields.map(\.text) == ["11", "7", "3.5"], "height 7 of 200 is 3.5 %")
        _ = d.key(.tab)
        Self.type(&d, "33.3")
        #expect(d.fields.map(\.text) == ["100", "67", "33.3"])
    }

    @Test func withoutKeepAspectTheSidesAreFree() {
        var d = SizeDialog(kind: .scale, width: 300, height: 200)
        let box = d.keepAspectBox
        _ = d.press(x: box.x + 2, y: box.y + 5)
        #expect(!d.keepsAspect)
        _ = d.press(x: d.box(.width).x + 3, y: d.box(.width).y + 3)
        Self.type(&d, "600")
        #expect(d.fields.map(\.text) == ["600", "200", ""], "no one percent fits both sides")
        #expect(d.change == .scale(width: 600, height: 200))
    }

    @Test func altKTurnsKeepAspectOffAndOnFromTheKeyboard() {
        var d = SizeDialog(kind: .scale, width: 300, height: 200)
        #expect(d.key(.character("k"), [.alt]) == nil && !d.keepsAspect)
        Self.type(&d, "400")
        #expect(d.fields.map(\.text) == ["400", "200", ""], "the height stays")
        #expect(d.fields[0].text.contains("k") == false)
        _ = d.key(.character("K"), [.alt])
        #expect(d.keepsAspect && d.fields.map(\.text) == ["400", "267", "133.3"], "back on: the height follows")
    }

    /// Scale starts with keep aspect on, Canvas size with it off (as GIMP's Scale Image and
    /// Canvas Size dialogs do): room added on one side leaves the other as it was. Each tab
    /// keeps its own choice.
    @Test func theCanvasStartsWithItsSidesFree() {
        var d = SizeDialog(kind: .canvas, width: 300, height: 200)
        #expect(!d.keepsAspect)
        Self.type(&d, "400")
        #expect(d.fields.map(\.text) == ["400", "200", ""], "only the width grows")
        #expect(d.change == .resize(IntRect(x: -50, y: 0, width: 400, height: 200)))
        let scaleTab = d.tab(.scale)
        _ = d.press(x: scaleTab.x + 4, y: scaleTab.y + 4)
        #expect(d.kind == .scale && d.keepsAspect)
        #expect(d.fields.map(\.text) == ["400", "267", "133.3"], "on the Scale tab the height follows the width")
        let canvasTab = d.tab(.canvas)
        _ = d.press(x: canvasTab.x + 4, y: canvasTab.y + 4)
        #expect(d.kind == .canvas && !d.keepsAspect, "the canvas tab's own choice")
        _ = d.key(.character("k"), [.alt])
        #expect(d.keepsAspect)
        _ = d.press(x: scaleTab.x + 4, y: scaleTab.y + 4)
        _ = d.key(.character("k"), [.alt])
        #expect(d.kind == .scale && !d.keepsAspect)
        _ = d.press(x: canvasTab.x + 4, y: canvasTab.y + 4)
        #expect(d.keepsAspect, "turning Scale's off left the canvas's on")
    }

    @Test func arrowsStepAndALabelDragsTheNumber() {
        var d = SizeDialog(kind: .scale, width: 40, height: 30)
        _ = d.key(.up)
        _ = d.key(.up, [.shift])
        #expect(d.fields[0].text == "51" && d.fields[1].text == "38")
        let label = d.label(.height)
        _ = d.press(x: label.x + 5, y: label.y + 5)
        #expect(d.isDragging && d.focus == .height)
        d.drag(x: label.x + 5 + 12)
        #expect(d.fields[1].text == "50")
        d.drag(x: label.x + 5 - 100)
        #expect(d.fields[1].text == "1", "never below 1")
        d.release()
        #expect(!d.isDragging)
    }

    @Test func theAnchorSaysWhereThePictureStays() {
        var d = SizeDialog(kind: .canvas, width: 100, height: 60)
        _ = d.key(.character("k"), [.alt])  // keep aspect on
        Self.type(&d, "150")  // 150 x 90, centred
        #expect(d.change == .resize(IntRect(x: -25, y: -15, width: 150, height: 90)))
        for (cell, x, y) in [(0, 0, 0), (2, -50, 0), (6, 0, -30), (8, -50, -30), (5, -50, -15)] {
            let r = d.anchorCell(cell)
            _ = d.press(x: r.x + 3, y: r.y + 3)
            #expect(d.anchor == cell)
            #expect(d.change == .resize(IntRect(x: x, y: y, width: 150, height: 90)), "cell \(cell)")
        }
        // Smaller: the anchor says which part is kept.
        _ = d.press(x: d.box(.width).x + 3, y: d.box(.width).y + 3)
        Self.type(&d, "51")
        #expect(d.change == .resize(IntRect(x: 49, y: 14, width: 51, height: 31)), "right middle")
    }

    @Test func sizesBeyondTheLimitsAreRefusedBeforeAnythingIsMade() {
        var d = SizeDialog(
            kind: .scale, width: 640, height: 480, limits: ImageLimits(maxSide: 2000, maxPixels: 1_000_000))
        Self.type(&d, "1500")
        #expect(d.problem?.hasPrefix("Too large") == true && d.change == nil)
        #expect(d.key(.enter) == nil, "Enter does nothing while the size is wrong")
        Self.type(&d, "x")
        #expect(d.problem == "The width must be a whole number of pixels, 1 or more")
        var tiny = SizeDialog(kind: .scale, width: 30000, height: 10)
        Self.type(&tiny, "10")
        #expect(tiny.problem?.hasPrefix("Too small") == true)
        #expect(tiny.key(.escape) == .cancel)
        var same = SizeDialog(kind: .canvas, width: 10, height: 10)
        #expect(same.key(.enter) == .cancel, "nothing to change: Enter just closes")
    }

    /// What is wrong with a size is said inside the panel: a reason longer than the panel is
    /// wide goes on two lines (it ran past the panel's right edge, cut mid-word), and every
    /// word of it is shown.
    @Test func aLongReasonIsWrappedInsideThePanel() {
        let measure = FixedWidthMeasurer()  // 7 px a character, wider than the real font
        var d = SizeDialog(
            kind: .scale, width: 640, height: 480, limits: ImageLimits(maxSide: 20000, maxPixels: 100_000_000))
        for typed in ["0", "30000"] {
            Self.type(&d, typed)
            let problem = d.problem ?? ""
            #expect(measure.width(of: problem, bold: false) > d.width, "\(typed): a reason wider than the panel")
            let strip = d.render(measure: measure)
            let lines = strip.texts.filter { $0.color == Theme.errorText }
            #expect(lines.count == 2, "\(typed): \(lines.map(\.text))")
            #expect(lines.map(\.text).joined(separator: " ") == problem)
            for line in lines {
                #expect(line.x + measure.width(of: line.text, bold: false) <= d.width - d.scale.px(16), "\(line.text)")
            }
            // Between the check box and the buttons.
            let top = lines.map(\.baseline).min() ?? 0
            let bottom = lines.map(\.baseline).max() ?? 0
            #expect(top - d.scale.px(13) >= d.keepAspectBox.maxY && bottom + d.scale.px(4) <= d.acceptButton.y)
        }
    }

    /// A percent of 0 or an empty percent left the last good width and height in place, and
    /// Enter applied them while the field showed 0. Every field now refuses what is no size:
    /// its box framed in red, OK dimmed, the reason said, Enter and OK do nothing.
    @Test func aPercentOfZeroOrNothingCannotBeApplied() {
        let measure = FixedWidthMeasurer()
        for kind in SizeDialog.Kind.allCases {
            for typed in ["0", "", "0.0", "-5", "abc", "5%"] {
                var d = SizeDialog(kind: kind, width: 300, height: 200)
                Self.type(&d, "150")  // 150 x 100, a size that could be applied
                _ = d.key(.tab)
                _ = d.key(.tab)
                #expect(d.focus == .percent)
                Self.type(&d, typed)
                if typed.isEmpty { _ = d.key(.backspace) }
                #expect(d.fields[2].text == typed, "\(kind) \(typed)")
                #expect(d.problemField == .percent, "\(kind) \(typed)")
                #expect(d.problem == "The percent must be a number above 0, as 50 or 12.5")
                #expect(d.change == nil && d.key(.enter) == nil, "\(kind) \(typed): Enter does nothing")
                #expect(d.press(x: d.acceptButton.x + 3, y: d.acceptButton.y + 3) == nil, "nor does OK")
                let strip = d.render(measure: measure)
                let ok = strip.texts.first { $0.text == "OK" }
                #expect(ok?.color == Theme.disabledText, "OK is dimmed")
                let box = d.box(.percent)
                #expect(
                    strip.pixels[box.x, box.y + box.height / 2] == Theme.errorText.pixel, "the field is framed in red")
                #expect(strip.texts.contains { $0.color == Theme.errorText && $0.text.hasPrefix("The percent") })
                // A good percent again: usable, the frame and the dimming gone.
                _ = d.key(.character("a"), [.control])
                Self.type(&d, "50")
                #expect(d.problem == nil && d.change != nil && d.problemField == nil)
                #expect(d.render(measure: measure).texts.first { $0.text == "OK" }?.color == Theme.text)
            }
        }
    }

    /// Widths and heights: 0, empty, a fraction, huge, and text pasted that `Double` would have
    /// read as a number (`0x10` is 16 to it, `1e3` a thousand).
    @Test func everySizeFieldRefusesWhatIsNoSize() {
        for field in [SizeDialog.Field.width, .height] {
            for (text, reason) in [
                ("0", "whole"), ("", "whole"), ("12.5", "whole"), ("0x10", "whole"), ("1e3", "whole"),
                ("-4", "whole"), ("inf", "whole"), ("12 px", "whole"), ("99999999999999999999", "Too large"),
                ("40000", "Too large"),
            ] {
                for kind in SizeDialog.Kind.allCases {
                    var d = SizeDialog(kind: kind, width: 300, height: 200)
                    if field == .height { _ = d.key(.tab) }
                    _ = d.key(.character("a"), [.control])
                    d.paste(text)
                    if text.isEmpty { _ = d.key(.backspace) }
                    #expect(d.fields[field.rawValue].text == text)
                    #expect(d.problemField == field || reason == "Too large", "\(kind) \(field) \(text)")
                    #expect(d.problem?.contains(reason) == true, "\(kind) \(field) \(text): \(d.problem ?? "none")")
                    #expect(d.change == nil && d.key(.enter) == nil, "\(kind) \(field) \(text)")
                }
            }
        }
    }

    /// A blank percent is right when the sides are not one percent apart: it does not stop OK.
    @Test func aBlankPercentLeftByFreeSidesIsNoProblem() {
        var d = SizeDialog(kind: .canvas, width: 300, height: 200)  // sides free
        Self.type(&d, "600")
        _ = d.key(.tab)
        _ = d.key(.tab)
        #expect(d.focus == .percent && d.fields[2].text == "" && d.problem == nil)
        #expect(d.key(.enter) == .accept(.resize(IntRect(x: -150, y: 0, width: 600, height: 200))))
    }

    @Test func theTabsSwitchBetweenScaleAndCanvas() {
        var d = SizeDialog(kind: .scale, width: 20, height: 10)
        Self.type(&d, "40")
        let tab = d.tab(.canvas)
        _ = d.press(x: tab.x + 4, y: tab.y + 4)
        #expect(d.kind == .canvas && d.change == .resize(IntRect(x: -10, y: -5, width: 40, height: 20)))
        #expect(d.press(x: d.acceptButton.x + 3, y: d.acceptButton.y + 3) == .accept(d.change!))
        #expect(d.press(x: d.cancelButton.x + 3, y: d.cancelButton.y + 3) == .cancel)
    }

    // MARK: In the session

    @Test func ctrlRScalesThePictureAsOneStep() {
        let (s, sink) = ImageCommandTests.session()
        ImageCommandTests.ctrl(s, "r")
        #expect(s.sizeDialog?.kind == .scale && s.acceptsText)
        for c in "\t\t50" { s.handle(.key(c == "\t" ? .tab : .character(c), modifiers: [])) }
        s.handle(.key(.enter, modifiers: []))
        #expect(s.sizeDialog == nil)
        #expect(sink.operations == [.canvas(.scale(width: 60, height: 40))])
        #expect(s.engine.width == 60 && s.layout.imageWidth == 60 && s.message.hasPrefix("Scaled to 60 × 40"))
        T.key(s, "z", .control)
        #expect(s.engine.width == 120 && s.engine.height == 80)
    }

    @Test func ctrlShiftRGivesTheCanvasANewSizeFilledWithTheBackground() {
        let (s, sink) = ImageCommandTests.session()
        let before = s.engine.paintImage()
        ImageCommandTests.ctrl(s, "r", shift: true)
        #expect(s.sizeDialog?.kind == .canvas)
        // Top-left anchor, 200 wide (the height stays 80: the canvas starts with its sides free).
        let frame = s.sizeDialogFrame
        let cell = s.sizeDialog!.anchorCell(0)
        s.handle([
            .press(x: frame.x + cell.x + 3, y: frame.y + cell.y + 3, button: .left, modifiers: []),
            .release(x: frame.x + cell.x + 3, y: frame.y + cell.y + 3, button: .left, modifiers: []),
        ])
        for c in "200" { s.handle(.key(.character(c), modifiers: [])) }
        // A click outside the modal dialog does nothing.
        T.drag(s, [(5, 5), (30, 30)])
        #expect(s.sizeDialog != nil && sink.operations.isEmpty)
        let ok = s.sizeDialog!.acceptButton
        s.handle([
            .press(x: frame.x + ok.x + 3, y: frame.y + ok.y + 3, button: .left, modifiers: []),
            .release(x: frame.x + ok.x + 3, y: frame.y + ok.y + 3, button: .left, modifiers: []),
        ])
        #expect(sink.operations == [.canvas(.resize(IntRect(x: 0, y: 0, width: 200, height: 80)))])
        #expect(s.engine.paintImage().cropped(to: IntRect(x: 0, y: 0, width: 120, height: 80)) == before)
        #expect(s.engine.viewPixel(x: 199, y: 79) == Color.white.pixel, "the new area shows the background")
        #expect(s.engine.paintPixel(x: 199, y: 79) == 0, "and holds no paint")
    }

    @Test func enterWithAPercentOfZeroChangesNothingInTheSession() {
        let (s, sink) = ImageCommandTests.session()
        ImageCommandTests.ctrl(s, "r")
        for c in "\t\t50\u{8}\u{8}0" {
            s.handle(.key(c == "\t" ? .tab : c == "\u{8}" ? .backspace : .character(c), modifiers: []))
        }
        #expect(s.sizeDialog?.fields[2].text == "0")
        s.handle(.key(.enter, modifiers: []))
        #expect(s.sizeDialog != nil && sink.operations.isEmpty && s.engine.width == 120, "still open, nothing done")
    }

    @Test func escapeClosesTheDialogAndChangesNothing() {
        let (s, sink) = ImageCommandTests.session()
        ImageCommandTests.ctrl(s, "r")
        for c in "999" { s.handle(.key(.character(c), modifiers: [])) }
        s.handle(.key(.escape, modifiers: []))
        #expect(s.sizeDialog == nil && sink.operations.isEmpty && s.engine.width == 120)
        #expect(s.message == "Scale cancelled")
    }
}

import PaintCore
import PaintText
import Testing

@testable import PaintApp

/// A question in the status bar is never drawn under its answer buttons: at every window width
/// down to the narrowest the toolbar lays out, it ends before the first button, cut short with
/// "…" where it must be, and resting the pointer on it shows it whole in the tooltip. The buttons
/// stay inside the window and their labels inside them. Before, "Restore the drawing “/tmp/qa/
/// photo.png” from …" ran on under Restore and Discard in a 420 px window, and the tooltip of a
/// text cut short covered only the plain bar.
@Suite struct StatusQuestionFitTests {
    typealias T = SessionTests

    /// The narrowest window the toolbar lays out: its widest group in a row of its own.
    static let narrowest: Int = {
        let s = UIScale.one
        return (ToolbarLayout.allGroups.map { ToolbarLayout.width(of: $0, s) }.max() ?? 0) + 2
            * s.px(ToolbarLayout.margin)
    }()

    static let modes: [SessionMode] = [
        .offerRestore("Restore the drawing “/tmp/qa/photo.png” from today 09:12 (3 steps)?"),
        .confirmLeave(.quit),
        .confirmLeave(.newDocument),
        .confirmReplace("/home/someone/Pictures/a-rather-long-name-for-a-picture.png", then: nil),
        .chooseFormat("/home/someone/Pictures/holiday.gif", then: nil),
        .confirmOverwrite("/home/someone/Pictures/holiday.png", then: nil),
    ]

    @Test func aQuestionEndsBeforeItsButtonsAtEveryWidth() throws {
        let measure = StatusMessageFitTests.DejaVuMeasurer(typesetter: try #require(Typesetter()))
        let s = T.makeSession(path: "/tmp/qa/photo.png", width: 300, height: 200, windowWidth: 1020, windowHeight: 600)
        T.drag(s, [(10, 10), (40, 40)])
        #expect(Self.narrowest < 420, "the toolbar lays out \(Self.narrowest) px and wider")
        for mode in Self.modes {
            s.mode = mode
            let question = try #require(s.statusQuestion)
            var cutSeen = false
            for width in stride(from: Self.narrowest, through: 1100, by: 11) {
                s.handle(.resize(width: width, height: 600))
                let texts = s.renderStatus(measure: measure).texts
                let buttons = s.answerButtons()
                let bar = s.layout.statusBar
                let first = try #require(buttons.first).1
                #expect(first.x >= 0 && buttons.allSatisfy { $0.1.maxX <= bar.maxX }, "\(width) px: \(buttons)")
                for (answer, r) in buttons {
                    let label = try #require(texts.first { $0.text == answer.rawValue })
                    #expect(
                        label.x >= r.x && label.x + measure.width(of: label.text, bold: label.bold) <= r.maxX,
                        "\(width) px: “\(answer.rawValue)” leaves its button")
                }
                let asked = texts.filter { !Answer.allCases.map(\.rawValue).contains($0.text) }
                for run in asked {
                    #expect(
                        run.x + measure.width(of: run.text, bold: run.bold) <= first.x,
                        "\(width) px: “\(run.text)” runs under the buttons")
                }
                if asked.map(\.text) == [question] { continue }
                // Cut short: resting the pointer on what shows of it (or on its room when
                // nothing does) shows it whole.
                cutSeen = true
                let tip = try #require(s.questionTail(measure).cut.first, "\(width) px: cut but no tip")
                s.handle(.motion(x: tip.anchor.x + tip.anchor.width / 2, y: bar.y + bar.height / 2, modifiers: []))
                #expect(s.tooltip == question, "\(width) px: \(String(describing: s.tooltip))")
                #expect(s.tooltipPlace?.anchor == tip.anchor && s.tooltipPlace?.above == true)
                s.handle(.motion(x: 5, y: 5, modifiers: []))
            }
            #expect(cutSeen, "“\(question)” is never cut")
        }
    }

    /// The quality prompt keeps its field in the window, its label cut short before it, and its
    /// keys cut at the bar's end; each shows whole where the pointer rests.
    @Test func theQualityPromptKeepsItsFieldAndShowsItsTextWhole() throws {
        let measure = StatusMessageFitTests.DejaVuMeasurer(typesetter: try #require(Typesetter()))
        let s = T.makeSession(width: 300, height: 200, windowWidth: 1020, windowHeight: 600)
        let target = "/home/someone/Pictures/the-beach-at-dawn-from-the-cliff-path.jpg"
        s.mode = .qualityPrompt(TextField("90"), target: target, then: nil)
        for width in stride(from: Self.narrowest, through: 1100, by: 11) {
            s.handle(.resize(width: width, height: 600))
            let texts = s.renderStatus(measure: measure).texts
            let bar = s.layout.statusBar
            let field = try #require(s.promptView).frame
            #expect(field.x >= 0 && field.maxX <= bar.maxX, "\(width) px: the field \(field) leaves the bar")
            #expect(texts.contains { $0.text == "90" }, "\(width) px: the field's text is not drawn")
            let (tail, _) = s.qualityPromptTail(measure)
            for run in tail.runs {
                let end = run.x + measure.width(of: run.text, bold: run.bold)
                #expect(end <= field.x || run.x >= field.maxX, "\(width) px: “\(run.text)” under the field")
                #expect(end <= bar.maxX, "\(width) px: “\(run.text)” past the window's edge")
            }
            for cut in tail.cut {
                s.handle(.motion(x: cut.anchor.x + cut.anchor.width / 2, y: bar.y + bar.height / 2, modifiers: []))
                #expect(s.tooltip == cut.whole, "\(width) px")
            }
            // Whatever does not show whole is in a tip: the label and the keys, the keys in the
            // label's when none of them shows.
            let keys = "Enter: save   Esc: cancel   (higher: finer, larger file)"
            let tips = tail.cut.map(\.whole).joined(separator: " ")
            #expect(texts.contains { $0.text == keys } || tips.contains(keys), "\(width) px: the keys cannot be read")
            #expect(
                texts.contains { $0.text.contains("the-beach-at-dawn-from-the-cliff-path.jpg") }
                    || tips.contains("the-beach-at-dawn-from-the-cliff-path.jpg"),
                "\(width) px: the name cannot be read")
            if width == Self.narrowest { #expect(!tail.cut.isEmpty) }
            s.handle(.motion(x: 5, y: 5, modifiers: []))
        }
    }
}

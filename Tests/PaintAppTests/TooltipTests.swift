import PaintCore
import Testing

@testable import PaintApp

/// No tooltip while a panel, a dialog or a menu is open, however it opened: from the keyboard
/// as by a click.
@Suite struct TooltipTests {
    typealias T = SessionTests

    @Test func noTooltipWhileAPanelOpenedByKeyIsOpen() {
        let s = T.makeSession()
        let r = s.layout.rect(of: .tool(.brush))
        s.handle(.motion(x: r.x + 4, y: r.y + 4, modifiers: []))
        for (key, modifiers, what) in [
            (Key.function(1), Modifiers(), "the keys panel"), (.character("r"), .control, "the scale dialog"),
            (.character("o"), .control, "the file dialog"), (.function(10), [], "the File menu"),
        ] {
            #expect(s.showsTooltip && s.tooltip == "Brush (B)", "before \(what)")
            s.handle(.key(key, modifiers: modifiers))
            #expect(s.hovered == .tool(.brush), "the pointer stays on the brush")
            #expect(!s.showsTooltip && s.tooltip == nil, "while \(what) is open")
            s.handle(.key(.escape, modifiers: []))
        }
        #expect(s.showsTooltip, "everything closed")
    }
}

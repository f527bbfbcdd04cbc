import PaintApp
import PaintCore
import Testing

@testable import PaintApp

/// The menus in a session: built from the command table, run by keys and the pointer; the zoom
/// presets; the keys and About panels.
@Suite struct CommandMenuTests {
    static func session(width: Int = 200, height: Int = 100) -> Session {
        SessionTests.makeSession(width: width, height: height, windowWidth: 1100, windowHeight: 700)
    }

    static func key(_ s: Session, _ key: Key, _ modifiers: Modifiers = []) {
        s.handle(.key(key, modifiers: modifiers))
    }

    static func click(_ s: Session, _ r: IntRect) {
        let (x, y) = (r.x + r.width / 2, r.y + r.height / 2)
        s.handle(.press(x: x, y: y, button: .left, modifiers: []))
        s.handle(.release(x: x, y: y, button: .left, modifiers: []))
    }

    @Test("File, Edit, Image, View, Help, each item with the key that also runs it; no key runs two commands")
    func table() {
        let s = Self.session()
        let menus = Command.menus(for: s)
        #expect(menus.map(\.title.text) == ["File", "Edit", "Image", "View", "Help"])
        #expect(
            menus[0].items.map(\.label.text) == [
                "New", "Open…", "Open Recent…", "Save", "Save As…", "Save with History", "Quit",
            ])
        for command in Command.all {
            let item = menus.flatMap(\.items).first { $0.command == command.name }
            #expect(item?.shortcut == (command.keys.first?.label ?? ""), "\(command.name)")
            for chord in command.keys {
                let others = Command.all.filter { $0.name != command.name && $0.keys.contains(chord) }
                #expect(others.isEmpty, "\(chord.label) runs \(command.name) and \(others.map(\.name))")
            }
        }
        #expect(menus[1].items.first { $0.command == "undo" }?.enabled == false, "nothing to undo yet")
        // Crop to Selection is gray until something is selected (it was always enabled).
        func cropEnabled() -> Bool? {
            Command.menus(for: s).flatMap(\.items).first { $0.command == "image.cropToSelection" }?.enabled
        }
        #expect(cropEnabled() == false, "nothing selected")
        s.selectAll()
        #expect(cropEnabled() == true, "everything selected")
        let letters = menus.map { $0.title.key }
        #expect(Set(letters).count == letters.count, "each menu its own access letter")
        for menu in menus {
            let keys = menu.items.compactMap(\.label.key)
            #expect(Set(keys).count == keys.count && keys.count == menu.items.count, "\(menu.title.text): \(keys)")
        }
    }

    @Test("F10 opens File; arrows and Enter run Open; Escape closes without running")
    func keyboard() throws {
        let s = Self.session()
        Self.key(s, .function(10))
        #expect(s.menuBar.open == 0 && s.popups.contains { $0.popup == .menu })
        Self.key(s, .down)
        Self.key(s, .enter)
        #expect(!s.menuBar.isOpen)
        guard s.fileDialog?.purpose == .open else { throw Expectation("Open… asks for a file, the mode is \(s.mode)") }
        Self.key(s, .escape)
        Self.key(s, .character("v"), .alt)
        #expect(s.menuBar.open == 3, "Alt+V opens View")
        Self.key(s, .character("i"))
        #expect(s.layout.zoom == Zoom(3, 2) && !s.menuBar.isOpen, "I in View: Zoom In")
        Self.key(s, .function(10))
        Self.key(s, .escape)
        #expect(!s.menuBar.isOpen && s.layout.zoom == Zoom(3, 2))
    }

    @Test("a click on a title opens its menu, a click on an item runs it, a click outside closes and paints nothing")
    func pointer() {
        let s = Self.session()
        let blank = Array(s.engine.viewPixels)
        _ = s.renderMenuBar(measure: FixedWidthMeasurer())
        let view = s.menuGeometry.titles[3]
        Self.click(s, view)
        #expect(s.menuBar.open == 3)
        let fit = s.menuGeometry.items[3][3]
        Self.click(s, fit)
        #expect(!s.menuBar.isOpen)
        #expect(s.layout.zoom > .actualSize, "a 200 x 100 picture fitted to the window is enlarged")
        Self.click(s, s.menuGeometry.titles[0])
        #expect(s.menuBar.isOpen)
        // On the canvas, right of the open menu.
        let o = s.layout.imageOrigin
        let x = max(o.x, s.menuGeometry.dropDown(0).maxX) + 5
        s.handle(.press(x: x, y: o.y + 5, button: .left, modifiers: []))
        s.handle(.release(x: x, y: o.y + 5, button: .left, modifiers: []))
        #expect(!s.menuBar.isOpen)
        #expect(Array(s.engine.viewPixels) == blank, "the click that closed the menu did not paint")
    }

    @Test("the zoom field opens the presets above it; a preset is the new zoom; the check follows it")
    func zoomPresets() {
        let s = Self.session(width: 3000, height: 2000)
        _ = s.renderStatus(measure: FixedWidthMeasurer())
        let field = s.zoomField
        #expect(field.y >= s.layout.statusBar.y && field.maxY <= s.layout.statusBar.maxY)
        Self.click(s, field)
        #expect(s.zoomMenu.isOpen)
        let presets = s.popups.first { $0.popup == .zoomMenu }?.frame ?? .empty
        #expect(presets.maxY <= field.y && presets.y >= 0, "above the field, inside the window: \(presets)")
        #expect(s.zoomMenu.menus[0].items.first { $0.checked == true }?.label.text == "100%")
        let half = s.zoomMenu.menus[0].items.firstIndex { $0.label.text == "50%" } ?? 0
        let geometry = MenuGeometry(
            popup: s.zoomMenu.menus[0], anchor: field, above: true, windowWidth: s.layout.windowWidth, scale: .one,
            measure: FixedWidthMeasurer())
        Self.click(s, geometry.items[0][half])
        #expect(s.layout.zoom == Zoom(1, 2) && !s.zoomMenu.isOpen)
        _ = s.renderStatus(measure: FixedWidthMeasurer())
        Self.click(s, field)
        Self.key(s, .end)
        Self.key(s, .enter)
        #expect(s.layout.horizontalScrollbar == nil && s.layout.verticalScrollbar == nil, "fitted to the window")
    }

    @Test("F1 shows the keys, Escape closes them; Help, About shows the version; a click outside closes it")
    func panels() {
        let s = Self.session()
        Self.key(s, .function(1))
        #expect(s.infoPanel?.kind == .keys)
        let keys = s.renderPopup(.info, measure: FixedWidthMeasurer())
        #expect(keys?.texts.contains { $0.text == "Ctrl+Shift+S" } == true)
        #expect(keys?.texts.contains { $0.text == "Save As…" } == true)
        Self.key(s, .character("b"))
        #expect(s.infoPanel != nil && s.settings.tool == .brush, "keys do nothing else while it is shown")
        Self.key(s, .escape)
        #expect(s.infoPanel == nil)
        Self.key(s, .character("h"), .alt)
        Self.key(s, .character("a"))
        #expect(s.infoPanel?.kind == .about)
        let about = s.renderPopup(.info, measure: FixedWidthMeasurer())
        #expect(about?.texts.contains { $0.text.contains(CommandLineOptions.version) } == true)
        s.handle(.press(x: 2, y: s.layout.windowHeight - 40, button: .left, modifiers: []))
        #expect(s.infoPanel == nil)
    }

    @Test("the option to open large pictures fitted is a checked menu item that stays")
    func fitOption() {
        let s = Self.session()
        Self.key(s, .character("v"), .alt)
        let item = s.menuBar.menus[3].items.first { $0.command == "fit-on-open" }
        #expect(item?.checked == false, "off by default")
        Self.key(s, .character("l"))
        #expect(s.fitLargePictures && s.stored.fitLargePictures)
        Self.key(s, .character("v"), .alt)
        #expect(s.menuBar.menus[3].items.first { $0.command == "fit-on-open" }?.checked == true)
    }
}

struct Expectation: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

import PaintApp
import PaintCore
import Testing

/// The menu bar: keys, access letters, disabled items, the pointer, and where things sit.
@Suite struct MenuTests {
    static let menus = [
        Menu(
            "&File",
            [
                MenuItem(command: "new", label: "&New", shortcut: "Ctrl+N"),
                MenuItem(command: "open", label: "&Open…", shortcut: "Ctrl+O"),
                MenuItem(command: "save", label: "&Save", shortcut: "Ctrl+S", startsGroup: true),
                MenuItem(command: "quit", label: "&Quit", shortcut: "Ctrl+Q", startsGroup: true),
            ]),
        Menu(
            "&Edit",
            [
                MenuItem(command: "undo", label: "&Undo", shortcut: "Ctrl+Z", enabled: false),
                MenuItem(command: "redo", label: "&Redo", shortcut: "Ctrl+Y"),
            ]),
        Menu("&Help", [MenuItem(command: "keys", label: "&Keys", shortcut: "F1")]),
    ]

    @Test("labels: & marks the access key, && is an ampersand")
    func labels() {
        #expect(MnemonicLabel("Save &as…").text == "Save as…" && MnemonicLabel("Save &as…").key == "a")
        #expect(MnemonicLabel("&File").index == 0)
        #expect(MnemonicLabel("Black && white").text == "Black & white" && MnemonicLabel("Black && white").key == nil)
    }

    @Test("F10 opens File; arrows move over menus and enabled items; Enter runs; Escape closes")
    func keyboard() {
        var bar = MenuBar(menus: Self.menus)
        #expect(bar.key(.down, []) == .ignored, "a closed menu bar leaves keys alone")
        #expect(bar.key(.function(10), []) == .changed)
        #expect(bar.open == 0 && bar.highlighted == 0)
        _ = bar.key(.down, [])
        _ = bar.key(.down, [])
        #expect(bar.highlighted == 2)
        _ = bar.key(.up, [])
        _ = bar.key(.up, [])
        _ = bar.key(.up, [])
        #expect(bar.highlighted == 3, "Up from the first item wraps to the last")
        _ = bar.key(.right, [])
        #expect(bar.open == 1 && bar.highlighted == 1, "Undo is disabled: Redo is highlighted")
        _ = bar.key(.down, [])
        #expect(bar.highlighted == 1, "the only enabled item")
        _ = bar.key(.left, [])
        _ = bar.key(.left, [])
        #expect(bar.open == 2, "Left from File wraps to Help")
        #expect(bar.key(.enter, []) == .run("keys"))
        #expect(!bar.isOpen)
        _ = bar.key(.function(10), [])
        #expect(bar.key(.escape, []) == .changed && !bar.isOpen)
    }

    @Test("Alt and a title's letter open that menu; in an open menu an item's letter runs it; disabled items do not")
    func accessKeys() {
        var bar = MenuBar(menus: Self.menus)
        #expect(bar.key(.character("e"), .alt) == .changed && bar.open == 1)
        #expect(bar.key(.character("u"), []) == .consumed && bar.isOpen, "Undo is disabled")
        #expect(bar.key(.character("R"), []) == .run("redo"))
        #expect(bar.key(.character("f"), []) == .ignored, "a letter alone does not open a menu")
        _ = bar.key(.character("f"), .alt)
        #expect(bar.key(.character("s"), []) == .run("save"))
    }

    @Test("titles side by side; drop-downs below, inside the window, items not overlapping")
    func geometry() {
        for scale in [1.0, 1.5, 2.0] {
            let s = UIScale(scale)
            let g = MenuGeometry(
                menus: Self.menus, bar: IntRect(x: 0, y: 0, width: Int(200 * scale), height: s.px(26)), scale: s,
                measure: FixedWidthMeasurer())
            for (a, b) in zip(g.titles, g.titles.dropFirst()) { #expect(a.maxX <= b.x) }
            for (index, menu) in Self.menus.enumerated() {
                let d = g.dropDown(index)
                #expect(d.y == g.bar.maxY && d.x >= 0 && d.maxX <= Int(200 * scale), "\(d)")
                #expect(g.items[index].count == menu.items.count)
                for (a, b) in zip(g.items[index], g.items[index].dropFirst()) { #expect(a.maxY <= b.y) }
                #expect(g.items[index].allSatisfy { d.intersection($0) == $0 })
            }
        }
    }

    @Test(
        "clicking a title opens it, moving over another switches, releasing on an item runs it, clicking outside closes"
    )
    func pointer() {
        let g = MenuGeometry(
            menus: Self.menus, bar: IntRect(x: 0, y: 0, width: 800, height: 26), scale: .one,
            measure: FixedWidthMeasurer())
        var bar = MenuBar(menus: Self.menus)
        let file = g.titles[0]
        let edit = g.titles[1]
        #expect(bar.press(x: file.x + 2, y: file.y + 2, geometry: g) == .changed && bar.open == 0)
        #expect(bar.highlighted == nil, "opened by the pointer: nothing highlighted yet")
        #expect(bar.motion(x: edit.x + 2, y: edit.y + 2, geometry: g) == .changed && bar.open == 1)
        let undo = g.items[1][0]
        #expect(bar.release(x: undo.x + 5, y: undo.y + 5, geometry: g) == .consumed && bar.isOpen)
        let redo = g.items[1][1]
        _ = bar.motion(x: redo.x + 5, y: redo.y + 5, geometry: g)
        #expect(bar.highlighted == 1)
        #expect(bar.release(x: redo.x + 5, y: redo.y + 5, geometry: g) == .run("redo") && !bar.isOpen)
        _ = bar.press(x: file.x + 2, y: file.y + 2, geometry: g)
        #expect(bar.press(x: 700, y: 400, geometry: g) == .changed && !bar.isOpen)
        #expect(bar.press(x: 700, y: 400, geometry: g) == .ignored)
    }

    @Test("the drop-down draws its items' names and shortcuts, the disabled one gray")
    func drawing() {
        let g = MenuGeometry(
            menus: Self.menus, bar: IntRect(x: 0, y: 0, width: 800, height: 26), scale: .one,
            measure: FixedWidthMeasurer())
        var bar = MenuBar(menus: Self.menus)
        bar.openMenu(1)
        let strip = MenuView.renderDropDown(bar, 1, g, measure: FixedWidthMeasurer())
        #expect(strip.pixels.width == g.dropDown(1).width && strip.pixels.height == g.dropDown(1).height)
        let undo = strip.texts.first { $0.text == "Undo" }
        let redo = strip.texts.first { $0.text == "Redo" }
        #expect(undo != nil && redo != nil && undo?.color != redo?.color)
        #expect(strip.texts.contains { $0.text == "Ctrl+Y" })
        let barStrip = MenuView.renderBar(bar, g, measure: FixedWidthMeasurer())
        #expect(barStrip.texts.map(\.text) == ["File", "Edit", "Help"])
    }
}

import PaintCore

/// Something drawn over the canvas in a window of its own.
public enum Popup: Sendable, Hashable, CaseIterable {
    /// The window's panel (the size dialog, the color editor or the font list), an open menu, the
    /// zoom presets, the keys or About panel.
    case panel, menu, zoomMenu, info
}

/// The menus, the zoom presets and the keys and About panels: opened by the pointer or the
/// keyboard, running commands from `Command.all`.
extension Session {
    // MARK: Geometry

    /// Where the menu bar's titles and menus sit.
    public var menuGeometry: MenuGeometry {
        MenuGeometry(menus: menuBar.menus, bar: layout.menuBar, scale: layout.ui, measure: textMeasure)
    }

    /// The status bar's zoom field: the zoom shown in a box that opens the presets. It stands
    /// after the pointer position and the picture's size, each in a slot as wide as the widest
    /// it can show, so it does not move while the pointer does.
    public var zoomField: IntRect {
        let s = layout.ui
        let bar = layout.statusBar
        let gap = statusGap
        let sizeSlot = statusShowsSize ? textMeasure.width(of: statusSlots.size, bold: false) + gap : 0
        let x = positionX + widestPositionWidth + gap + sizeSlot - s.px(8)
        return IntRect(x: x, y: bar.y + s.px(3), width: zoomFieldWidth, height: bar.height - s.px(5))
    }

    /// The zoom field's width: room for its widest zoom and its arrow.
    var zoomFieldWidth: Int { textMeasure.width(of: "1600%", bold: false) + layout.ui.px(30) }

    /// The least room the name and the message keep after the fields, at 96 dpi.
    static let statusTailRoom = 160.0

    /// Whether the status bar shows the picture's size: not in a window so narrow that it would
    /// leave the name and the message less than `statusTailRoom` after the fields (below about
    /// 600 px at 1x). There they had no room at all: a failed save said nothing, and nothing
    /// could be rested on for a tooltip. The size is also in Image > Canvas Size.
    var statusShowsSize: Bool {
        let s = layout.ui
        let gap = statusGap
        let fields =
            positionX + widestPositionWidth + gap + textMeasure.width(of: statusSlots.size, bold: false) + gap
            + zoomFieldWidth + textMeasure.width(of: "Stabilizer 16", bold: false) + s.px(16) + gap
        return layout.statusBar.maxX - s.px(10) - fields >= s.px(Self.statusTailRoom)
    }

    /// The widest pointer position and size the status bar shows ("88888, 88888"): the slots it
    /// keeps for them, as wide as for the largest picture SwiftPaint opens
    /// (`ImageLimits.default.maxSide`), so the fields after them stay put when the picture's size
    /// changes (sized for this picture, 999 x 999 to 1000 x 1000 moved them right).
    var statusSlots: (position: String, size: String) {
        let side = max(ImageLimits.default.maxSide, engine.width, engine.height)
        let digits = String(repeating: "8", count: String(side).count)
        return ("\(digits), \(digits)", "\(digits) × \(digits)")
    }

    /// Where the zoom presets sit: above the zoom field.
    var zoomMenuGeometry: MenuGeometry {
        MenuGeometry(
            popup: zoomMenu.menus.first ?? Menu("", []), anchor: zoomField, above: true,
            windowWidth: layout.windowWidth,
            scale: layout.ui, measure: textMeasure)
    }

    /// The zoom presets as a menu: every step, and fit to window; the current one checked.
    var zoomPresets: Menu {
        Menu(
            "",
            Zoom.steps.reversed().enumerated().map { index, zoom in
                MenuItem(
                    command: "zoom:\(Zoom.steps.count - 1 - index)", label: zoom.description,
                    checked: zoom == layout.zoom)
            } + [MenuItem(command: "fit", label: "&Fit to Window", shortcut: "Ctrl+Shift+J", startsGroup: true)])
    }

    /// Where the keys or About panel sits: in the middle of the window.
    var infoGeometry: InfoPanel.Geometry? {
        infoPanel?.geometry(
            windowWidth: layout.windowWidth, windowHeight: layout.windowHeight, scale: layout.ui, measure: textMeasure)
    }

    /// The keys or About panel's frame in the window.
    var infoFrame: IntRect {
        guard let g = infoGeometry else { return .empty }
        return IntRect(
            x: (layout.windowWidth - g.width) / 2, y: max(0, (layout.windowHeight - g.height) / 2), width: g.width,
            height: g.height)
    }

    /// The popups shown and where, in the order they stack.
    public var popups: [(popup: Popup, frame: IntRect)] {
        var shown: [(Popup, IntRect)] = []
        if let frame = panelFrame { shown.append((.panel, frame)) }
        if let open = menuBar.open { shown.append((.menu, menuGeometry.dropDown(open))) }
        if zoomMenu.isOpen { shown.append((.zoomMenu, zoomMenuGeometry.dropDown(0))) }
        if infoPanel != nil { shown.append((.info, infoFrame)) }
        return shown
    }

    /// A popup drawn, in its own coordinates.
    public func renderPopup(_ popup: Popup, measure: TextMeasuring) -> ChromeStrip? {
        textMeasure = measure
        switch popup {
        case .panel: return renderPanel(measure: measure)
        case .menu:
            guard let open = menuBar.open else { return nil }
            return MenuView.renderDropDown(menuBar, open, menuGeometry, measure: measure)
        case .zoomMenu:
            guard zoomMenu.isOpen else { return nil }
            return MenuView.renderDropDown(zoomMenu, 0, zoomMenuGeometry, measure: measure)
        case .info:
            guard let infoPanel, let g = infoGeometry else { return nil }
            return infoPanel.render(g, scale: layout.ui, measure: measure)
        }
    }

    /// The menu bar drawn (texts in window coordinates).
    public func renderMenuBar(measure: TextMeasuring) -> ChromeStrip {
        textMeasure = measure
        if menuBar.menus.isEmpty { menuBar.menus = Command.menus(for: self) }
        return MenuView.renderBar(menuBar, menuGeometry, measure: measure)
    }

    // MARK: Opening, closing, running

    /// Whether a menu, the zoom presets or a panel has the input.
    var popupOpen: Bool { menuBar.isOpen || zoomMenu.isOpen || infoPanel != nil }

    /// Redraws after the menus changed.
    private func menusChanged() {
        effects.toolbar = true
        effects.status = true
        effects.editor = true
    }

    /// Runs the command called `name` (a menu item chosen).
    func runCommand(_ name: String) {
        // Chosen in a menu the pointer is on the menu, not on the picture: a zoom keeps the
        // work in view instead (`zoomFocus`).
        runningMenuCommand = true
        defer { runningMenuCommand = false }
        if name.hasPrefix("zoom:"), let index = Int(name.dropFirst(5)), Zoom.steps.indices.contains(index) {
            zoom(to: Zoom.steps[index])
        } else if let command = Command.named(name), command.isEnabled(self) {
            command.run(self)
        }
    }

    /// What a menu's answer to an input asks: redraw, or run a command. Returns whether the
    /// input was the menu's.
    @discardableResult
    private func follow(_ outcome: MenuBar.Outcome) -> Bool {
        switch outcome {
        case .ignored: return false
        case .consumed: return true
        case .changed: menusChanged()
        case .run(let name):
            menusChanged()
            runCommand(name)
        }
        return true
    }

    /// Shows the keys or About panel.
    public func showInfo(_ kind: InfoPanel.Kind) {
        commitStroke()
        infoPanel = InfoPanel(kind)
        effects.editor = true
    }

    /// Closes the keys or About panel.
    func closeInfo() {
        infoPanel = nil
        effects.editor = true
    }

    // MARK: Input

    /// A key while a menu or panel is open, or one that opens a menu (F10, Alt+letter); nil
    /// when the key is not the menus'.
    func menuShortcut(_ key: Key, _ modifiers: Modifiers) -> (() -> Void)? {
        if infoPanel != nil {
            return key == .escape || key == .enter || key == .function(1) ? closeInfo : {}
        }
        if zoomMenu.isOpen { return { self.follow(self.zoomMenu.key(key, modifiers)) } }
        if !menuBar.isOpen { menuBar.menus = Command.menus(for: self) }
        var probe = menuBar
        guard probe.key(key, modifiers) != .ignored else { return nil }
        return {
            self.commitStroke()
            self.follow(self.menuBar.key(key, modifiers))
        }
    }

    /// A button press while a menu or panel is open, on the menu bar or on the zoom field.
    /// Returns whether it was theirs.
    func pressMenus(_ x: Int, _ y: Int, _ button: PointerButton) -> Bool {
        if infoPanel != nil {
            let frame = infoFrame
            let ok = infoGeometry?.okButton ?? .empty
            // The OK button, or anywhere outside, closes it.
            if !frame.contains(x, y) || ok.contains(x - frame.x, y - frame.y) { closeInfo() }
            return true
        }
        if zoomMenu.isOpen { return follow(zoomMenu.press(x: x, y: y, geometry: zoomMenuGeometry)) }
        // The menu bar, like the keys, waits while a question or a prompt is up.
        if menuBar.isOpen || (mode == .normal && layout.menuBar.contains(x, y)) {
            if !menuBar.isOpen { menuBar.menus = Command.menus(for: self) }
            commitStroke()
            return follow(menuBar.press(x: x, y: y, geometry: menuGeometry)) || layout.menuBar.contains(x, y)
        }
        if button == .left, case .normal = mode, zoomField.contains(x, y) {
            zoomMenu = MenuBar(menus: [zoomPresets])
            zoomMenu.openMenu(0, highlightFirst: false)
            menusChanged()
            return true
        }
        return false
    }

    /// Pointer motion while a menu is open. Returns whether it was the menu's.
    func moveInMenus(_ x: Int, _ y: Int) -> Bool {
        if zoomMenu.isOpen { return follow(zoomMenu.motion(x: x, y: y, geometry: zoomMenuGeometry)) }
        if menuBar.isOpen { return follow(menuBar.motion(x: x, y: y, geometry: menuGeometry)) }
        return infoPanel != nil
    }

    /// A button release while a menu is open. Returns whether it was the menu's.
    func releaseInMenus(_ x: Int, _ y: Int) -> Bool {
        if zoomMenu.isOpen { return follow(zoomMenu.release(x: x, y: y, geometry: zoomMenuGeometry)) }
        if menuBar.isOpen { return follow(menuBar.release(x: x, y: y, geometry: menuGeometry)) }
        return infoPanel != nil
    }
}

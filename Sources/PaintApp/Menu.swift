import PaintCore

/// A label with an access key: written with `&` before the letter ("Save &as…"), shown with
/// that letter underlined; Alt and the letter (or the letter alone in an open menu) choose it.
public struct MnemonicLabel: Sendable, Equatable {
    /// The label without the `&`.
    public let text: String
    /// The underlined letter's index in `text`, if any.
    public let index: Int?

    public init(_ marked: String) {
        var text = ""
        var index: Int?
        var escaping = false
        for c in marked {
            if c == "&" && !escaping {
                escaping = true
                continue
            }
            if escaping && c != "&" && index == nil { index = text.count }
            escaping = false
            text.append(c)
        }
        self.text = text
        self.index = index
    }

    /// The access key, lower-cased.
    public var key: Character? {
        index.map { Character(Array(text)[$0].lowercased()) }
    }
}

/// One entry of a drop-down menu: a command, with the key that also runs it.
public struct MenuItem: Sendable, Equatable {
    /// The command it runs (a name from the session's command table).
    public let command: String
    public let label: MnemonicLabel
    /// The shortcut shown at the right ("Ctrl+S"), empty for none.
    public let shortcut: String
    /// Whether it can run now; a disabled item is gray and cannot be chosen.
    public var enabled: Bool
    /// A check mark for an option that is on (nil: not an option).
    public var checked: Bool?
    /// A line above it, starting a group.
    public let startsGroup: Bool

    public init(
        command: String, label: String, shortcut: String = "", enabled: Bool = true, checked: Bool? = nil,
        startsGroup: Bool = false
    ) {
        self.command = command
        self.label = MnemonicLabel(label)
        self.shortcut = shortcut
        self.enabled = enabled
        self.checked = checked
        self.startsGroup = startsGroup
    }
}

/// One menu of the menu bar.
public struct Menu: Sendable, Equatable {
    public let title: MnemonicLabel
    public var items: [MenuItem]

    public init(_ title: String, _ items: [MenuItem]) {
        self.title = MnemonicLabel(title)
        self.items = items
    }
}

/// The menu bar and its open menu: which menu is open, which item is highlighted, and what a
/// key or a click does to them. A value the session keeps; geometry comes from `MenuGeometry`.
public struct MenuBar: Sendable, Equatable {
    public var menus: [Menu]
    /// The menu whose drop-down is shown.
    public private(set) var open: Int?
    /// The highlighted item of the open menu.
    public private(set) var highlighted: Int?

    /// What an input did.
    public enum Outcome: Sendable, Equatable {
        /// Not for the menu (it is closed and the key is no menu key).
        case ignored
        /// The menu changed (opened, closed, moved): draw it again.
        case changed
        /// Nothing to see, but the input is used up.
        case consumed
        /// Run this command; the menu has closed.
        case run(String)
    }

    public init(menus: [Menu]) { self.menus = menus }

    /// Whether a drop-down is shown.
    public var isOpen: Bool { open != nil }

    /// Opens menu `index` with its first enabled item highlighted when `highlightFirst`.
    public mutating func openMenu(_ index: Int, highlightFirst: Bool = true) {
        guard menus.indices.contains(index) else { return }
        open = index
        highlighted = highlightFirst ? nextEnabled(in: index, after: nil, step: 1) : nil
    }

    /// Closes the open menu.
    public mutating func close() {
        open = nil
        highlighted = nil
    }

    /// The next enabled item of menu `menu` after `index` (or the first / last), wrapping.
    private func nextEnabled(in menu: Int, after index: Int?, step: Int) -> Int? {
        let items = menus[menu].items
        guard !items.isEmpty else { return nil }
        var i = index ?? (step > 0 ? -1 : items.count)
        for _ in 0..<items.count {
            i = (i + step + items.count) % items.count
            if items[i].enabled { return i }
        }
        return nil
    }

    // MARK: Keys

    /// A key press. F10 opens the first menu, Alt and a title's letter that menu; with a menu
    /// open, arrows move, Enter runs, Escape closes, a letter runs the item it underlines.
    public mutating func key(_ key: Key, _ modifiers: Modifiers) -> Outcome {
        guard let menu = open else {
            if key == .function(10) && modifiers.isEmpty {
                openMenu(0)
                return .changed
            }
            if modifiers == .alt, case .character(let c) = key,
                let index = menus.firstIndex(where: { $0.title.key == Character(c.lowercased()) })
            {
                openMenu(index)
                return .changed
            }
            return .ignored
        }
        let count = menus.count
        switch key {
        case .escape, .function(10):
            close()
        case .left:
            openMenu((menu + count - 1) % count)
        case .right:
            openMenu((menu + 1) % count)
        case .down:
            highlighted = nextEnabled(in: menu, after: highlighted, step: 1)
        case .up:
            highlighted = nextEnabled(in: menu, after: highlighted, step: -1)
        case .home:
            highlighted = nextEnabled(in: menu, after: nil, step: 1)
        case .end:
            highlighted = nextEnabled(in: menu, after: nil, step: -1)
        case .enter:
            return runHighlighted()
        case .character(let c):
            let letter = Character(c.lowercased())
            if modifiers == .alt, let index = menus.firstIndex(where: { $0.title.key == letter }) {
                openMenu(index)
                return .changed
            }
            guard let index = menus[menu].items.firstIndex(where: { $0.enabled && $0.label.key == letter }) else {
                return .consumed
            }
            highlighted = index
            return runHighlighted()
        default:
            return .consumed
        }
        return .changed
    }

    /// Runs the highlighted item (closing the menu), if it is enabled.
    private mutating func runHighlighted() -> Outcome {
        guard let menu = open, let index = highlighted, menus[menu].items[index].enabled else { return .consumed }
        let command = menus[menu].items[index].command
        close()
        return .run(command)
    }

    // MARK: Pointer

    /// A button press at a window position, with the bar's and the open menu's geometry.
    public mutating func press(x: Int, y: Int, geometry: MenuGeometry) -> Outcome {
        if let title = geometry.titles.firstIndex(where: { $0.contains(x, y) }) {
            if open == title {
                close()
            } else {
                openMenu(title, highlightFirst: false)
            }
            return .changed
        }
        guard let menu = open else { return geometry.bar.contains(x, y) ? .consumed : .ignored }
        if geometry.dropDown(menu).contains(x, y) { return .consumed }
        // A press anywhere else closes the menu and does nothing more.
        close()
        return .changed
    }

    /// Pointer motion: over another title it opens that menu, over an item it highlights it.
    public mutating func motion(x: Int, y: Int, geometry: MenuGeometry) -> Outcome {
        guard let menu = open else { return .ignored }
        if let title = geometry.titles.firstIndex(where: { $0.contains(x, y) }), title != menu {
            openMenu(title, highlightFirst: false)
            return .changed
        }
        let item = geometry.item(in: menu, atX: x, y: y).flatMap { menus[menu].items[$0].enabled ? $0 : nil }
        guard item != highlighted, geometry.dropDown(menu).contains(x, y) else { return .consumed }
        highlighted = item
        return .changed
    }

    /// A button release: over an enabled item it runs it.
    public mutating func release(x: Int, y: Int, geometry: MenuGeometry) -> Outcome {
        guard let menu = open, let index = geometry.item(in: menu, atX: x, y: y), menus[menu].items[index].enabled
        else { return open == nil ? .ignored : .consumed }
        highlighted = index
        return runHighlighted()
    }
}

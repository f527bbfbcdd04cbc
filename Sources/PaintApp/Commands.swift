import PaintCore

/// A key with its modifiers, as a shortcut: what it matches and how a menu shows it.
public struct KeyChord: Sendable, Equatable {
    public let key: Key
    public let modifiers: Modifiers

    /// Ctrl and a character ("Ctrl+S").
    static func ctrl(_ c: Character) -> KeyChord { KeyChord(key: .character(c), modifiers: .control) }
    /// Ctrl+Shift and a character ("Ctrl+Shift+S").
    static func ctrlShift(_ c: Character) -> KeyChord { KeyChord(key: .character(c), modifiers: [.control, .shift]) }
    /// A key alone.
    static func plain(_ key: Key) -> KeyChord { KeyChord(key: key, modifiers: []) }

    /// Whether a press of `key` with `modifiers` is this chord: letters in either case, and a
    /// symbol also with the Shift its key needs ("+" is Shift+= on most layouts).
    func matches(_ key: Key, _ modifiers: Modifiers) -> Bool {
        if case .character(let a) = key, case .character(let b) = self.key {
            guard a.lowercased() == b.lowercased() else { return false }
            return modifiers == self.modifiers || (!b.isLetter && modifiers == self.modifiers.union(.shift))
        }
        return key == self.key && modifiers == self.modifiers
    }

    /// As a menu shows it: "Ctrl+Shift+S", "F1", "Delete".
    public var label: String {
        var parts: [String] = []
        if modifiers.contains(.control) { parts.append("Ctrl") }
        if modifiers.contains(.alt) { parts.append("Alt") }
        if modifiers.contains(.shift) { parts.append("Shift") }
        switch key {
        case .character(let c): parts.append(c == " " ? "Space" : String(c).uppercased())
        case .function(let n): parts.append("F\(n)")
        case .delete: parts.append("Delete")
        case .backspace: parts.append("Backspace")
        case .escape: parts.append("Escape")
        case .enter: parts.append("Enter")
        default: parts.append("\(key)")
        }
        return parts.joined(separator: "+")
    }
}

/// The menus of the menu bar, in order.
public enum MenuName: Int, CaseIterable, Sendable {
    case file, edit, image, view, help

    /// The title with its access key.
    var title: String { ["&File", "&Edit", "&Image", "&View", "&Help"][rawValue] }
}

/// Something the user can ask for by name: a menu item, and the keys that also run it. The table
/// `Command.all` is the one list the menus are built from and the keyboard shortcuts (beyond the
/// tool letters and the keys of a floating picture) are matched against: a new command is one
/// line there.
struct Command: Sendable {
    let name: String
    /// The label with its access key ("Save &As…").
    let label: String
    let menu: MenuName
    /// A line above it in its menu.
    let startsGroup: Bool
    /// The keys that run it; the menu shows the first.
    let keys: [KeyChord]
    /// Whether it can run now (a disabled menu item is gray).
    let isEnabled: @Sendable (Session) -> Bool
    /// For an option: whether it is on (a check mark).
    let isChecked: (@Sendable (Session) -> Bool)?
    let run: @Sendable (Session) -> Void

    init(
        _ name: String, _ label: String, _ menu: MenuName, group: Bool = false, keys: [KeyChord] = [],
        enabled: @escaping @Sendable (Session) -> Bool = { _ in true },
        checked: (@Sendable (Session) -> Bool)? = nil, run: @escaping @Sendable (Session) -> Void
    ) {
        self.name = name
        self.label = label
        self.menu = menu
        startsGroup = group
        self.keys = keys
        isEnabled = enabled
        isChecked = checked
        self.run = run
    }

    /// A command on the picture (`ImageCommand`: its title and key), in the Image menu with
    /// `access` underlined.
    init(image command: ImageCommand, access: Character, group: Bool = false) {
        var label = command.title
        if let index = label.firstIndex(of: access) { label.insert("&", at: index) }
        // Crop to Selection is gray with nothing selected, as Cut and Delete Selection are.
        let enabled: @Sendable (Session) -> Bool = { session in
            command != .cropToSelection || session.selection != nil || session.placing != nil
        }
        self.init(
            "image.\(command)", label, .image, group: group, keys: [command.chord], enabled: enabled,
            run: { $0.run(command) })
    }

    /// Every command, menu by menu, in menu order.
    static let all: [Command] = [
        Command("new", "&New", .file, keys: [.ctrl("n")]) { $0.requestLeave(to: .newDocument) },
        Command("open", "&Open…", .file, keys: [.ctrl("o")]) { $0.promptOpen() },
        Command(
            "open-recent", "Open &Recent…", .file, enabled: { !$0.recentPictures.isEmpty },
            run: { $0.promptOpenRecent() }),
        Command("save", "&Save", .file, group: true, keys: [.ctrl("s")]) { $0.save() },
        Command("save-as", "Save &As…", .file, keys: [.ctrlShift("s")]) {
            $0.historyInsideNextSave = false
            $0.promptSaveAs(then: nil)
        },
        Command(
            "save-with-history", "Save with &History", .file,
            keys: [KeyChord(key: .character("s"), modifiers: [.control, .alt])]
        ) { $0.save(historyInside: true) },
        Command("quit", "&Quit", .file, group: true, keys: [.ctrl("q"), .ctrl("w")]) { $0.requestClose() },

        Command("undo", "&Undo", .edit, keys: [.ctrl("z")], enabled: { $0.canUndoNow }, run: { $0.undo() }),
        Command(
            "redo", "&Redo", .edit, keys: [.ctrlShift("z"), .ctrl("y")], enabled: { $0.canRedoNow },
            run: { $0.redo() }),
        Command(
            "cut", "Cu&t", .edit, group: true, keys: [.ctrl("x")],
            enabled: { $0.selection != nil || $0.placing != nil || $0.selectedText != nil },
            // With a text box open: its selected text (Session+TextSelection).
            run: { $0.liveText != nil ? $0.cutText() : $0.cutSelection() }),
        Command("copy", "&Copy", .edit, keys: [.ctrl("c")]) {
            if $0.liveText != nil { return $0.copyText() }
            if !$0.copySelection() { $0.copy() }
        },
        Command("paste", "&Paste", .edit, keys: [.ctrl("v")]) {
            $0.liveText != nil ? $0.requestTextPaste() : $0.requestPaste()
        },
        Command("paste-new", "Paste as &New Picture", .edit, keys: [.ctrlShift("v")]) {
            $0.liveText != nil ? $0.requestTextPaste() : $0.requestPaste(asNewPicture: true)
        },
        Command(
            "delete", "&Delete Selection", .edit, keys: [.plain(.delete), .plain(.backspace)],
            enabled: { $0.selection != nil || $0.placing != nil }, run: { $0.clearSelection() }),
        Command("select-all", "Select &All", .edit, group: true, keys: [.ctrl("a")]) {
            $0.liveText != nil ? $0.selectAllText() : $0.selectAll()
        },

        Command("background", "&Background…", .image, keys: [.ctrl("b")]) { $0.promptBackground() },
        Command(
            "swap-colors", "&Swap Colors", .image,
            keys: [.plain(.character("x")), KeyChord(key: .character("X"), modifiers: .shift)]
        ) { $0.swapColors() },
        Command("clear", "C&lear Canvas", .image) { $0.clear() },
        Command(image: .cropToSelection, access: "C", group: true),
        Command(image: .autocrop, access: "u"),
        Command(image: .scale, access: "P"),
        Command(image: .canvasSize, access: "z"),
        Command(image: .rotateRight, access: "R", group: true),
        Command(image: .rotateLeft, access: "e"),
        Command(image: .rotate180, access: "1"),
        Command(image: .flipHorizontal, access: "H", group: true),
        Command(image: .flipVertical, access: "V"),

        Command("zoom-in", "Zoom &In", .view, keys: [.ctrl("="), .ctrl("+")]) { $0.zoom(by: 1) },
        Command("zoom-out", "Zoom &Out", .view, keys: [.ctrl("-")]) { $0.zoom(by: -1) },
        Command("actual-size", "&Actual Size", .view, keys: [.ctrl("0")]) { $0.resetZoom() },
        Command("fit", "&Fit to Window", .view, keys: [.ctrlShift("j")]) { $0.fitToWindow() },
        Command(
            "fit-on-open", "Open &Large Pictures Fitted", .view, group: true, checked: { $0.fitLargePictures },
            run: { $0.fitLargePictures.toggle() }),

        Command("keys", "&Keys", .help, keys: [.plain(.function(1))]) { $0.showInfo(.keys) },
        Command("about", "&About SwiftPaint", .help) { $0.showInfo(.about) },
    ]

    /// The command `key` with `modifiers` runs, if any. Its key works even while its menu item is
    /// gray: each command says itself when there is nothing to do ("Nothing to undo").
    static func bound(to key: Key, _ modifiers: Modifiers) -> Command? {
        all.first { command in command.keys.contains { $0.matches(key, modifiers) } }
    }

    /// The command called `name`.
    static func named(_ name: String) -> Command? { all.first { $0.name == name } }

    /// The menus as they stand in `session`: items enabled and checked as it is now.
    static func menus(for session: Session) -> [Menu] {
        MenuName.allCases.map { name in
            Menu(
                name.title,
                all.filter { $0.menu == name }.map { command in
                    MenuItem(
                        command: command.name, label: command.label, shortcut: command.keys.first?.label ?? "",
                        enabled: command.isEnabled(session), checked: command.isChecked.map { $0(session) },
                        startsGroup: command.startsGroup)
                })
        }
    }
}

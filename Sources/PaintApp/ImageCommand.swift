import PaintCore

/// The commands on the picture itself (an Image menu lists them; `Session.run` carries one
/// out): crop, autocrop, the size dialogs, quarter turns and mirrors.
///
/// The keys follow Paint.NET where it has one (crop to selection, resize, canvas size, the
/// rotations) and KolourPaint otherwise (autocrop, mirror). A turn or a mirror acts on what is
/// selected when something is: the floating picture, else the selection (lifted, to float until
/// put down), else the whole picture.
public enum ImageCommand: CaseIterable, Sendable {
    case cropToSelection
    case autocrop
    case scale
    case canvasSize
    case rotateRight
    case rotateLeft
    case rotate180
    case flipHorizontal
    case flipVertical

    /// The menu item's words.
    public var title: String {
        switch self {
        case .cropToSelection: return "Crop to Selection"
        case .autocrop: return "Autocrop"
        case .scale: return "Scale Picture…"
        case .canvasSize: return "Canvas Size…"
        case .rotateRight: return "Rotate 90° Right"
        case .rotateLeft: return "Rotate 90° Left"
        case .rotate180: return "Rotate 180°"
        case .flipHorizontal: return "Flip Horizontal"
        case .flipVertical: return "Flip Vertical"
        }
    }

    /// The key, as a menu shows it.
    public var keys: String {
        switch self {
        case .cropToSelection: return "Ctrl+Shift+X"
        case .autocrop: return "Ctrl+U"
        case .scale: return "Ctrl+R"
        case .canvasSize: return "Ctrl+Shift+R"
        case .rotateRight: return "Ctrl+H"
        case .rotateLeft: return "Ctrl+G"
        case .rotate180: return "Ctrl+J"
        case .flipHorizontal: return "Ctrl+M"
        case .flipVertical: return "Ctrl+Shift+M"
        }
    }

    /// The command a Ctrl key runs (the letter in lower case; `shift` held or not), or nil.
    static func bound(to letter: Character, shift: Bool) -> ImageCommand? {
        switch (letter, shift) {
        case ("x", true): return .cropToSelection
        case ("u", false): return .autocrop
        case ("r", false): return .scale
        case ("r", true): return .canvasSize
        case ("h", false): return .rotateRight
        case ("g", false): return .rotateLeft
        case ("j", false): return .rotate180
        case ("m", false): return .flipHorizontal
        case ("m", true): return .flipVertical
        default: return nil
        }
    }

    /// The turn or mirror it stands for, if it is one.
    var orientation: Orientation? {
        switch self {
        case .rotateRight: return .rotateRight
        case .rotateLeft: return .rotateLeft
        case .rotate180: return .rotate180
        case .flipHorizontal: return .flipHorizontal
        case .flipVertical: return .flipVertical
        default: return nil
        }
    }
}

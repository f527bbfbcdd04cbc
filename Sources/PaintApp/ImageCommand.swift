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

    /// The key that runs it (the menu shows it; `Command.all` matches it).
    var chord: KeyChord {
        switch self {
        case .cropToSelection: return .ctrlShift("x")
        case .autocrop: return .ctrl("u")
        case .scale: return .ctrl("r")
        case .canvasSize: return .ctrlShift("r")
        case .rotateRight: return .ctrl("h")
        case .rotateLeft: return .ctrl("g")
        case .rotate180: return .ctrl("j")
        case .flipHorizontal: return .ctrl("m")
        case .flipVertical: return .ctrlShift("m")
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

import PaintCore

/// The chrome's colors: a light, quiet toolbar so the picture stays the brightest thing.
public enum Theme {
    static let toolbarTop = Color(r: 0xF7, g: 0xF7, b: 0xF8)
    static let toolbarBottom = Color(r: 0xE9, g: 0xEA, b: 0xEC)
    static let border = Color(r: 0xC4, g: 0xC6, b: 0xCA)
    static let separator = Color(r: 0xD0, g: 0xD2, b: 0xD6)
    static let hoverFill = Color(r: 0xE3, g: 0xEC, b: 0xF8)
    static let hoverBorder = Color(r: 0xA9, g: 0xC2, b: 0xE6)
    static let activeFill = Color(r: 0xCC, g: 0xDE, b: 0xF6)
    static let activeBorder = Color(r: 0x4A, g: 0x7F, b: 0xD0)
    static let icon = Color(r: 0x3A, g: 0x3D, b: 0x42)
    static let iconAccent = Color(r: 0xE0, g: 0x5A, b: 0x47)
    static let track = Color(r: 0xC9, g: 0xCC, b: 0xD1)
    static let trackFill = Color(r: 0x4A, g: 0x7F, b: 0xD0)
    static let knob = Color.white
    static let statusFill = Color(r: 0xEE, g: 0xEF, b: 0xF1)
    static let askFill = Color(r: 0xFF, g: 0xF4, b: 0xC8)
    static let askBorder = Color(r: 0xE0, g: 0xC0, b: 0x60)
    /// Behind selected text in a field.
    static let textSelection = Color(r: 0xB4, g: 0xD0, b: 0xF4)
    /// Scrollbars: the track, the thumb, the thumb while dragged.
    static let scrollTrack = Color(r: 0xEE, g: 0xEF, b: 0xF1)
    static let scrollThumb = Color(r: 0xB4, g: 0xB8, b: 0xBE)
    static let scrollThumbActive = Color(r: 0x7E, g: 0x84, b: 0x8C)
    /// The neutral gray around the canvas when the window is larger than the image.
    public static let surround = Color(r: 0x8E, g: 0x90, b: 0x94)
    /// Text colors.
    public static let text = Color(r: 0x24, g: 0x26, b: 0x2A)
    public static let dimText = Color(r: 0x5E, g: 0x62, b: 0x68)
    /// A menu item that cannot be chosen now.
    static let disabledText = Color(r: 0xA4, g: 0xA8, b: 0xAE)
    public static let errorText = Color(r: 0xB0, g: 0x20, b: 0x20)
    /// "with history" next to the name of a file that carries its editing history inside.
    public static let cautionText = Color(r: 0x9A, g: 0x5B, b: 0x00)
}

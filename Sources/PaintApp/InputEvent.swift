/// A pointer button, including the wheel's virtual buttons.
public enum PointerButton: Sendable, Equatable {
    case left, middle, right
    case wheelUp, wheelDown, wheelLeft, wheelRight
}

/// Keyboard modifiers held during an event.
public struct Modifiers: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    public static let shift = Modifiers(rawValue: 1)
    public static let control = Modifiers(rawValue: 2)
    public static let alt = Modifiers(rawValue: 4)
}

/// A key, as the platform layer translated it.
public enum Key: Sendable, Equatable {
    /// A printable character, with shift already applied (`"S"`, `"["`, `"5"`).
    case character(Character)
    case enter, escape, tab, backspace, delete, left, right, up, down, home, end, pageUp, pageDown
    /// F1 … F12.
    case function(Int)
}

/// Where a precise pointer is between pixels (XInput 2: a tablet's pen, a high-resolution mouse).
public struct PointerSample: Sendable, Equatable {
    /// Window position, on the same scale as the whole pixels of the event: the centre of
    /// pixel (x, y) is (x + 0.5, y + 0.5), which is where a pointer without sub-pixel
    /// positions is taken to be.
    public var x: Double
    public var y: Double
    /// How hard a pen presses, 0...1; nil for a device without pressure (a mouse).
    public var pressure: Double?
    /// The stylus's eraser end (it selects the eraser while it is used).
    public var eraser: Bool

    /// Makes a sample.
    public init(x: Double, y: Double, pressure: Double? = nil, eraser: Bool = false) {
        self.x = x
        self.y = y
        self.pressure = pressure
        self.eraser = eraser
    }

    /// The pressure as strokes store it, 0...65535; nil without one.
    public var storedPressure: UInt16? {
        pressure.map { UInt16((min(max($0.isFinite ? $0 : 1, 0), 1) * 65535).rounded()) }
    }
}

/// One platform-free input event; window coordinates are in pixels from the top-left corner.
/// A pointer event carries a `PointerSample` when the device reports more than whole pixels.
public enum InputEvent: Sendable, Equatable {
    case press(x: Int, y: Int, button: PointerButton, modifiers: Modifiers, sample: PointerSample? = nil)
    case motion(x: Int, y: Int, modifiers: Modifiers, sample: PointerSample? = nil)
    case release(x: Int, y: Int, button: PointerButton, modifiers: Modifiers, sample: PointerSample? = nil)
    /// A high-resolution wheel or a touchpad turned by `dx`, `dy` clicks of a classic wheel
    /// (fractions too; right and down positive) with the pointer at (x, y).
    case scroll(x: Int, y: Int, dx: Double, dy: Double, modifiers: Modifiers)
    /// The left button went down a second time, quickly and close to the first (sent after
    /// that second `press`).
    case doubleClick(x: Int, y: Int)
    /// The left button went down a third time, quickly and close to a double click (sent after
    /// that third `press`).
    case tripleClick(x: Int, y: Int)
    /// The pointer left the window.
    case leave
    case key(Key, modifiers: Modifiers)
    /// The window now has this size.
    case resize(width: Int, height: Int)
    /// The window manager asks the window to close.
    case closeRequest
    /// The clipboard's picture (PNG, JPEG, BMP, WebP or GIF bytes: decoded by their content),
    /// the answer to `ClipboardRequest.fetch`.
    case pasted(picture: [UInt8])
    /// Files copied in a file manager, the answer to `ClipboardRequest.fetch` when the
    /// clipboard holds no picture but files (absolute paths): the first picture is pasted.
    case pastedFiles([String])
    /// The clipboard's text, the answer to `ClipboardRequest.fetchText`.
    case pastedText(String)
    /// The clipboard could not do what was asked; the sentence says why.
    case clipboardFailed(String)
    /// Files dropped on the window (drag and drop, absolute paths); with Ctrl held (`paste`) the
    /// picture is pasted instead of opened. `namesNotUTF8` counts dropped files left out of
    /// `paths` because their names are not UTF-8.
    case dropped(paths: [String], paste: Bool, namesNotUTF8: Int = 0)
    /// A drop whose files never arrived: the window gave it up (`DropFailure` says why).
    case dropFailed(DropFailure)
}

/// The pointer shapes the window shows.
public enum PointerShape: Sendable, Equatable {
    case arrow
    /// Over the picture, where a click paints.
    case crosshair
    /// While the picture is dragged with the middle button.
    case move
    /// Over the text being typed: an I-beam.
    case text
    /// Over a canvas that waits for a question's answer.
    case notAllowed
    /// The brush's outline, this many window pixels across (brush and eraser over the picture).
    case brush(diameter: Int)
}

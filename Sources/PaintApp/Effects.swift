import PaintCore

/// What the window layer is asked to do with the desktop clipboard.
public enum ClipboardRequest: Equatable, Sendable {
    /// Offer this PNG as the clipboard's content (Ctrl+C on a small picture).
    case offer([UInt8])
    /// Take the clipboard now for a picture of this size whose PNG is still being encoded
    /// (`ClipboardEncoding`): requests for it wait for `fulfil`.
    case claim(width: Int, height: Int)
    /// The PNG of the picture claimed for (nil: it could not be encoded, and the requests
    /// waiting for it are refused). Nothing when the clipboard was taken since.
    case fulfil([UInt8]?)
    /// The BMP asked for by another program (`Session.makeClipboardBMP`), made from the PNG
    /// offered (nil: it could not be, and the requests waiting for it are refused). Nothing
    /// when the clipboard was taken since.
    case fulfilBMP([UInt8]?)
    /// Offer this text as the clipboard's content (Ctrl+C on text selected in the text box).
    case offerText(String)
    /// Fetch the clipboard's picture; it comes back as `InputEvent.pasted` (Ctrl+V).
    case fetch
    /// Fetch the clipboard's text; it comes back as `InputEvent.pastedText` (Ctrl+V in a field).
    case fetchText
    /// Own the PRIMARY selection with this text (text selected in the text box), so a middle
    /// click in another program pastes it, as every X text widget offers its selection.
    case offerPrimary(String)
    /// Nothing is selected any more: give up the PRIMARY selection if this window still owns
    /// it (another program that took it since keeps it).
    case releasePrimary
    /// Fetch the PRIMARY selection's text (a middle click in the text box); it comes back as
    /// `InputEvent.pastedText`, and nothing comes back when no program offers text there.
    case fetchPrimaryText
}

/// What the session asks of the window after a batch of input: what to redraw, what to do with
/// the clipboard, whether to exit. The session only describes; the window layer carries it out.
///
/// Each request is a field of its own that `merge` combines: a new kind of request (a window
/// icon, a clipboard text, …) is a new field, a line in `merge`, and the code in
/// the window layer that serves it.
public struct Effects: Equatable, Sendable {
    /// Image pixels whose view changed.
    public var canvas = IntRect.empty
    /// The toolbar must be redrawn (a setting, hover or press changed).
    public var toolbar = false
    /// The status bar must be redrawn (message, file name, a question, a prompt's text).
    public var status = false
    /// The pointer position in the status bar changed: a redraw that can wait a little (the
    /// window draws these at most about 30 times a second).
    public var pointerPosition = false
    /// The whole window must be redrawn: its size, the zoom, the scroll offset or the picture
    /// changed.
    public var layout = false
    /// A popup over the canvas opened, changed or closed: the panel (the color editor, the font
    /// list, the size dialog), a menu, the zoom presets, the keys or About panel.
    public var editor = false
    /// The window title to show, when it changed.
    public var title: String?
    /// The pointer shape to show, when it changed.
    public var pointer: PointerShape?
    /// What to do with the desktop clipboard, in order.
    public var clipboard: [ClipboardRequest] = []
    /// The program should exit, with this code.
    public var exit: Int32?

    /// Nothing asked.
    public init() {}

    /// Adds what `later` asks: redraws add up, the later title, pointer and exit win, clipboard
    /// requests queue.
    public mutating func merge(_ later: Effects) {
        canvas = canvas.union(later.canvas)
        toolbar = toolbar || later.toolbar
        status = status || later.status
        pointerPosition = pointerPosition || later.pointerPosition
        layout = layout || later.layout
        editor = editor || later.editor
        // Assigned only when asked: the window merges once per turn of its loop, and most
        // turns ask none of these (no string or array is copied or released for nothing).
        if let title = later.title { self.title = title }
        if let pointer = later.pointer { self.pointer = pointer }
        if !later.clipboard.isEmpty { clipboard += later.clipboard }
        if let exit = later.exit { self.exit = exit }
    }
}

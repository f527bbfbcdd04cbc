import CX11
import PaintApp
import PaintCore

/// A small override-redirect window under a toolbar button that names it and its key, or over
/// the status bar's text cut short, with the whole of it.
struct Tooltip {
    /// Seconds the pointer rests on a button before the tooltip shows.
    static let delay = 0.6

    private let display: OpaquePointer
    private let window: Window
    private let visual: UnsafeMutablePointer<Visual>
    private let depth: Int32
    private(set) var isShown = false

    init(display: OpaquePointer, parent: Window, visual: UnsafeMutablePointer<Visual>, depth: Int32, colormap: Colormap)
    {
        self.display = display
        self.visual = visual
        self.depth = depth
        var attributes = XSetWindowAttributes()
        attributes.override_redirect = 1
        attributes.background_pixmap = 0
        attributes.colormap = colormap
        attributes.border_pixel = 0
        window = XCreateWindow(
            display, parent, 0, 0, 10, 10, 0, depth, UInt32(InputOutput), visual,
            UInt(CWOverrideRedirect | CWBackPixmap | CWColormap | CWBorderPixel), &attributes)
    }

    /// Shows `lines` in a box `width` wide (`Session.tooltipBoxWidth`) from the left of the
    /// root-window rectangle `anchor` (placed by `Session.tooltipX`), below it (a toolbar button),
    /// or above it when `above` (the status bar's cut text), moved left, above or below where it
    /// would leave a screen `screenWidth` x `screenHeight`.
    mutating func show(
        _ lines: [String], width: Int, at anchor: IntRect, above: Bool, screenWidth: Int, screenHeight: Int,
        scale: UIScale, text: TextRenderer, format: PixelFormat
    ) {
        guard !lines.isEmpty else { return }
        let lineHeight = scale.px(16)
        let height = scale.px(24) + (lines.count - 1) * lineHeight
        let gap = scale.px(6)
        let x = max(0, min(anchor.x, screenWidth - width))
        let below = anchor.maxY + gap
        let over = anchor.y - gap - height
        let fitsBelow = below + height <= screenHeight
        let y = above ? (over >= 0 || !fitsBelow ? max(0, over) : below) : (fitsBelow ? below : max(0, over))
        XMoveResizeWindow(display, window, Int32(x), Int32(y), UInt32(width), UInt32(height))
        XMapRaised(display, window)
        var painter = ChromePainter(width: width, height: height, background: Color(r: 0xFF, g: 0xFF, b: 0xF2))
        painter.strokeRoundedRect(
            0.5, 0.5, Double(width) - 1, Double(height) - 1, radius: 0, lineWidth: 1, Color(r: 0x8A, g: 0x8C, b: 0x90))
        guard let gc = XCreateGC(display, window, 0, nil) else { return }
        XSetGraphicsExposures(display, gc, 0)
        let pixmap = XCreatePixmap(display, window, UInt32(width), UInt32(height), UInt32(depth))
        SmallImage.put(
            painter.image, display: display, drawable: pixmap, gc: gc, visual: visual, depth: depth, format: format)
        text.draw(
            lines.enumerated().map {
                TextRun(
                    text: $0.element, x: scale.px(8), baseline: scale.px(16) + $0.offset * lineHeight,
                    color: Theme.text, bold: false)
            }, on: pixmap, gc: gc)
        XCopyArea(display, pixmap, window, gc, 0, 0, UInt32(width), UInt32(height), 0, 0)
        XFreePixmap(display, pixmap)
        XFreeGC(display, gc)
        isShown = true
    }

    mutating func hide() {
        guard isShown else { return }
        XUnmapWindow(display, window)
        isShown = false
    }
}

/// What a tooltip is about: the rectangle it belongs to and its words.
struct TipKey: Equatable {
    var anchor: IntRect
    var text: String?
}

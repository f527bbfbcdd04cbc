import CX11
import PaintApp

/// The window's pointer shapes: font cursors for the arrow, crosshair, hand and I-beam, ARGB cursors
/// (libXcursor) for the brush outline and the not-allowed sign. Brush outlines are made once
/// per size.
final class Cursors {
    private let display: OpaquePointer
    private let arrow: Cursor
    private let crosshair: Cursor
    private let move: Cursor
    private let text: Cursor
    private lazy var notAllowed: Cursor = load(CursorImages.notAllowed()) ?? XCreateFontCursor(display, 0)
    private var outlines: [Int: Cursor] = [:]
    /// Whether the server takes ARGB cursors (RENDER 0.5); without, a brush is the crosshair.
    private let argb: Bool
    /// The largest cursor the server shows.
    private let largest: Int

    init(display: OpaquePointer, window: Window) {
        self.display = display
        arrow = XCreateFontCursor(display, 68)
        crosshair = XCreateFontCursor(display, 34)
        move = XCreateFontCursor(display, 52)
        text = XCreateFontCursor(display, 152)
        argb = XcursorSupportsARGB(display) != 0
        var width: UInt32 = 0
        var height: UInt32 = 0
        XQueryBestCursor(display, window, 1024, 1024, &width, &height)
        largest = Int(min(width, height))
    }

    /// The cursor for `shape`.
    func cursor(for shape: PointerShape) -> Cursor {
        switch shape {
        case .arrow: return arrow
        case .crosshair: return crosshair
        case .move: return move
        case .text: return text
        case .notAllowed: return argb ? notAllowed : XCreateFontCursor(display, 0)
        case .brush(let diameter):
            guard argb, CursorImages.outlineRange.contains(diameter), diameter + 4 <= largest else { return crosshair }
            if let made = outlines[diameter] { return made }
            // A handful of sizes are in use at a time; forget them when there are many.
            if outlines.count > 32 {
                for cursor in outlines.values { XFreeCursor(display, cursor) }
                outlines = [:]
            }
            let made = load(CursorImages.brushOutline(diameter: diameter)) ?? crosshair
            outlines[diameter] = made
            return made
        }
    }

    private func load(_ image: CursorImages.Image) -> Cursor? {
        guard let xc = XcursorImageCreate(Int32(image.size), Int32(image.size)) else { return nil }
        defer { XcursorImageDestroy(xc) }
        xc.pointee.xhot = UInt32(image.hotX)
        xc.pointee.yhot = UInt32(image.hotY)
        image.pixels.withUnsafeBufferPointer { src in
            xc.pointee.pixels.update(from: src.baseAddress!, count: image.pixels.count)
        }
        let cursor = XcursorImageLoadCursor(display, xc)
        return cursor == 0 ? nil : cursor
    }
}

import CX11
import Glibc
import PaintApp
import PaintCore

/// Anti-aliased text through Xft (DejaVu Sans), with the core "fixed" font as the fallback when
/// Xft finds no font.
final class TextRenderer: TextMeasuring {
    private let display: OpaquePointer
    private let visual: UnsafeMutablePointer<Visual>
    private let colormap: Colormap
    private let regular: UnsafeMutablePointer<XftFont>?
    private let bold: UnsafeMutablePointer<XftFont>?
    private let coreFont: UnsafeMutablePointer<XFontStruct>?

    /// The thread started by `prepare`, joined before the first font is opened.
    nonisolated(unsafe) private static var preparing: pthread_t?

    /// Starts fontconfig (its configuration files and font caches, the slowest part of opening
    /// the first font: about ten milliseconds of CPU) on a thread of its own, so it overlaps the
    /// decoding of the picture. Called once, first thing, from the main thread.
    static func prepare() {
        guard preparing == nil else { return }
        preparing = BackgroundThread.start {
            guard FcInit() != 0 else { return }
            // The interface's two faces, matched once: what Xft asks for the first time.
            for name in ["DejaVu Sans", "DejaVu Sans:bold"] {
                guard let pattern = FcNameParse(name) else { continue }
                FcConfigSubstitute(nil, pattern, FcMatchPattern)
                FcDefaultSubstitute(pattern)
                var result = FcResultNoMatch
                if let match = FcFontMatch(nil, pattern, &result) { FcPatternDestroy(match) }
                FcPatternDestroy(pattern)
            }
        }
    }

    /// Fonts for interface scale `scale`: 9 pt at 96 dpi is 12 pixels, times the scale. The size
    /// is given in pixels so that Xft's own dpi does not scale it a second time.
    init(
        display: OpaquePointer, screen: Int32, visual: UnsafeMutablePointer<Visual>, colormap: Colormap,
        scale: UIScale
    ) {
        self.display = display
        self.visual = visual
        self.colormap = colormap
        if let thread = Self.preparing {
            pthread_join(thread, nil)
            Self.preparing = nil
        }
        let pixels = scale.d(12)
        regular = XftFontOpenName(display, screen, "DejaVu Sans:pixelsize=\(pixels):antialias=true")
        bold = XftFontOpenName(display, screen, "DejaVu Sans:bold:pixelsize=\(pixels):antialias=true") ?? regular
        coreFont = regular == nil ? XLoadQueryFont(display, "fixed") : nil
    }

    deinit {
        if var color = keptColor?.xft { XftColorFree(display, visual, colormap, &color) }
        if let bold, bold != regular { XftFontClose(display, bold) }
        if let regular { XftFontClose(display, regular) }
        if let coreFont { XFreeFont(display, coreFont) }
    }

    /// Width of `text` in pixels.
    func width(of text: String, bold isBold: Bool) -> Int {
        let bytes = Array(text.utf8)
        if let font = isBold ? bold : regular {
            var extents = XGlyphInfo()
            bytes.withUnsafeBufferPointer {
                XftTextExtentsUtf8(display, font, $0.baseAddress, Int32($0.count), &extents)
            }
            return Int(extents.xOff)
        }
        if let coreFont {
            return Int(XTextWidth(coreFont, text, Int32(text.utf8.count)))
        }
        return text.count * 7
    }

    /// Draws runs onto a drawable (a pixmap or window), offset by (dx, dy).
    func draw(_ runs: [TextRun], on drawable: Drawable, dx: Int = 0, dy: Int = 0, gc: GC) {
        if let made = makeDraw(on: drawable) {
            defer { XftDrawDestroy(made) }
            draw(runs, with: made, dx: dx, dy: dy)
            return
        }
        if let coreFont { XSetFont(display, gc, coreFont.pointee.fid) }
        for run in runs {
            XSetForeground(display, gc, UInt(run.color.r) << 16 | UInt(run.color.g) << 8 | UInt(run.color.b))
            XDrawString(
                display, drawable, gc, Int32(run.x + dx), Int32(run.baseline + dy), run.text, Int32(run.text.utf8.count)
            )
        }
    }

    /// An Xft drawing on `drawable` for `draw(_:with:dx:dy:)`, for a caller that draws on the
    /// same pixmap often and keeps it (freed with `XftDrawDestroy` before the pixmap): one made
    /// per draw makes and frees a picture on the server each time. Nil without an Xft font.
    func makeDraw(on drawable: Drawable) -> OpaquePointer? {
        guard regular != nil else { return nil }
        return XftDrawCreate(display, drawable, visual, colormap)
    }

    /// Draws runs with an Xft drawing from `makeDraw`, offset by (dx, dy).
    func draw(_ runs: [TextRun], with draw: OpaquePointer, dx: Int = 0, dy: Int = 0) {
        for run in runs { self.draw(run, with: draw, dx: dx, dy: dy) }
    }

    /// Draws one run with an Xft drawing from `makeDraw`, offset by (dx, dy): the pointer
    /// position's redraw, 30 times a second while the pointer moves, with no array, byte copy
    /// or color allocation of its own.
    func draw(_ run: TextRun, with draw: OpaquePointer, dx: Int = 0, dy: Int = 0) {
        guard let font = run.bold ? bold : regular else { return }
        var color = xftColor(run.color)
        let (x, y) = (Int32(run.x + dx), Int32(run.baseline + dy))
        let face = run.bold ? 128 : 0
        // A short string's bytes are read from a copy on the stack, a long one's in place.
        var text = run.text
        text.withUTF8 { bytes in
            guard !bytes.isEmpty else { return }
            guard bytes.count <= 64, bytes.allSatisfy({ $0 < 0x80 }) else {
                XftDrawStringUtf8(draw, &color, font, x, y, bytes.baseAddress, Int32(bytes.count))
                return
            }
            // ASCII (the pointer position's digits): each character's glyph from the table, then
            // the glyphs drawn, as XftDrawStringUtf8 does after decoding and looking up each
            // character again at every redraw.
            withUnsafeTemporaryAllocation(of: FT_UInt.self, capacity: bytes.count) { glyphs in
                for (i, byte) in bytes.enumerated() {
                    var glyph = asciiGlyphs[face + Int(byte)]
                    if glyph == .max {
                        glyph = XftCharIndex(display, font, FcChar32(byte))
                        asciiGlyphs[face + Int(byte)] = glyph
                    }
                    glyphs[i] = glyph
                }
                XftDrawGlyphs(draw, &color, font, x, y, glyphs.baseAddress, Int32(bytes.count))
            }
        }
    }

    /// Each face's glyphs for the 128 ASCII characters (regular, then bold), looked up
    /// (`XftCharIndex`) the first time each is drawn; `FT_UInt.max` until then.
    private var asciiGlyphs = [FT_UInt](repeating: .max, count: 256)

    /// The last color text was drawn in, as Xft holds it: kept until another color is drawn
    /// (on a visual that is not TrueColor each allocation is a colormap entry and a round trip).
    private var keptColor: (color: Color, xft: XftColor)?

    private func xftColor(_ wanted: Color) -> XftColor {
        if let keptColor, keptColor.color == wanted { return keptColor.xft }
        if var old = keptColor?.xft { XftColorFree(display, visual, colormap, &old) }
        var render = XRenderColor(
            red: UInt16(wanted.r) * 257, green: UInt16(wanted.g) * 257, blue: UInt16(wanted.b) * 257, alpha: 0xFFFF)
        var color = XftColor()
        XftColorAllocValue(display, visual, colormap, &render, &color)
        keptColor = (wanted, color)
        return color
    }
}

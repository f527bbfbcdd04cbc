import CFreeType
import PaintCore

/// Glyphs FreeType has rendered, kept for the next keystroke: every keystroke draws the whole
/// box again, and most of its glyphs are the same glyphs at the same quarter-pixel phase.
struct GlyphCache {
    struct Key: Hashable {
        var file: FontFile
        var size: Int
        var glyph: UInt32
        /// The pen's fraction of a pixel, 26.6 (x in quarter pixels, y as laid out).
        var fracX: Int
        var fracY: Int
    }

    /// A rendered glyph: its coverage and where its top-left lies from the pen's whole pixel
    /// (y down). Empty (width 0) for a glyph with no outline, such as a space.
    struct Bitmap {
        var left: Int
        var top: Int
        var width: Int
        var height: Int
        var bytes: [UInt8]
    }

    private var entries: [Key: Bitmap] = [:]
    private var byteCount = 0
    /// Past this many bytes of coverage the cache starts over (a user trying huge sizes).
    static let budget = 32 << 20

    subscript(key: Key) -> Bitmap? { entries[key] }

    mutating func insert(_ bitmap: Bitmap, for key: Key) {
        if byteCount + bitmap.bytes.count > Self.budget {
            entries.removeAll(keepingCapacity: true)
            byteCount = 0
        }
        entries[key] = bitmap
        byteCount += bitmap.bytes.count
    }
}

extension Typesetter {
    /// Draws `layout` with its box's top-left at canvas pixel (x, y) into a coverage mask: the
    /// pixels inside `clip` that any glyph covers, trimmed to them.
    ///
    /// Each glyph is loaded with `cft_load_flags()` (FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP |
    /// FT_LOAD_TARGET_NORMAL: the outline as designed, never grid-fitted, never an embedded
    /// bitmap), moved by the fraction of a pixel its pen position has, and rendered by
    /// FreeType's anti-aliasing rasterizer (FT_RENDER_MODE_NORMAL: 256 levels of gray, no
    /// gamma). Horizontal positions are kept to a quarter pixel (HarfBuzz's 1/64 rounded to
    /// the nearest 16), as cairo and Skia do: a glyph then has four renderings, drawn once and
    /// reused (see `GlyphCache`). Overlapping glyphs combine by max, like a stroke crossing
    /// itself. Glyphs wholly outside `clip` are not rendered, so the work is bounded by what
    /// shows.
    public func rasterize(_ layout: TextLayout, atX x: Int, y: Int, clip: IntRect) -> CoverageMask {
        var pieces: [(bitmap: GlyphCache.Bitmap, x: Int, y: Int, rect: IntRect)] = []
        var bounds = IntRect.empty
        for line in layout.lines {
            for g in line.glyphs {
                guard g.face < layout.faces.count else { continue }
                let penX = (x * 64 + g.x + 8) & ~15
                let penY = y * 64 + g.y
                let originX = penX >> 6
                let originY = penY >> 6
                guard
                    let bitmap = glyphBitmap(
                        g.glyph, face: layout.faces[g.face], fracX: penX & 63, fracY: penY & 63, originX: originX,
                        originY: originY, clip: clip), bitmap.width > 0
                else { continue }
                let full = IntRect(
                    x: originX + bitmap.left, y: originY + bitmap.top, width: bitmap.width, height: bitmap.height)
                let rect = full.intersection(clip)
                guard !rect.isEmpty else { continue }
                bounds = bounds.union(rect)
                pieces.append((bitmap, full.x, full.y, rect))
            }
        }
        guard !bounds.isEmpty else { return CoverageMask(x: x, y: y, width: 0, height: 0) }
        var mask = CoverageMask(x: bounds.x, y: bounds.y, width: bounds.width, height: bounds.height)
        let maskWidth = mask.width
        mask.withUnsafeMutableBytes { out in
            for piece in pieces {
                piece.bitmap.bytes.withUnsafeBufferPointer { src in
                    let r = piece.rect
                    for row in 0..<r.height {
                        let s = (r.y - piece.y + row) * piece.bitmap.width + (r.x - piece.x)
                        let d = (r.y - bounds.y + row) * maskWidth + (r.x - bounds.x)
                        for col in 0..<r.width where src[s + col] > out[d + col] {
                            out[d + col] = src[s + col]
                        }
                    }
                }
            }
        }
        return mask
    }

    /// The glyph rendered at a pen phase: from the cache, or loaded, styled, moved by the phase
    /// and rendered by FreeType. Nil (and not rendered) when its outline cannot reach `clip`
    /// from the pen's whole pixel (originX, originY), or FreeType fails on it.
    private func glyphBitmap(
        _ glyph: UInt32, face: FontFace, fracX: Int, fracY: Int, originX: Int, originY: Int, clip: IntRect
    ) -> GlyphCache.Bitmap? {
        let key = GlyphCache.Key(file: face.file, size: face.size, glyph: glyph, fracX: fracX, fracY: fracY)
        if let known = glyphCache[key] { return known }
        let ftFace = face.ftFace
        guard FT_Load_Glyph(ftFace, glyph, cft_load_flags()) == 0, let slot = ftFace.pointee.glyph,
            slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE
        else { return nil }
        var box = FT_BBox()
        withUnsafeMutablePointer(to: &slot.pointee.outline) { outline in
            if face.emboldenStrength > 0 {
                FT_Outline_EmboldenXY(outline, FT_Pos(face.emboldenStrength), FT_Pos(face.emboldenStrength))
            }
            if face.file.shear != 0 {
                var shear = FT_Matrix(xx: 0x10000, xy: FT_Fixed(face.file.shear * 65536), yx: 0, yy: 0x10000)
                FT_Outline_Transform(outline, &shear)
            }
            // FreeType's y axis points up: a pen lower on the canvas is a smaller y.
            FT_Outline_Translate(outline, FT_Pos(fracX), -FT_Pos(fracY))
            FT_Outline_Get_CBox(outline, &box)
        }
        // The outline's pixel box on the canvas, before spending a render on it.
        let reach = IntRect(
            x0: originX + Int(box.xMin >> 6), y0: originY - Int((box.yMax + 63) >> 6),
            x1: originX + Int((box.xMax + 63) >> 6), y1: originY - Int(box.yMin >> 6))
        guard !reach.intersection(clip).isEmpty, FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return nil }
        let ftBitmap = slot.pointee.bitmap
        var bitmap = GlyphCache.Bitmap(
            left: Int(slot.pointee.bitmap_left), top: -Int(slot.pointee.bitmap_top), width: 0, height: 0, bytes: [])
        if ftBitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue), ftBitmap.rows > 0, ftBitmap.width > 0,
            let buffer = ftBitmap.buffer
        {
            let width = Int(ftBitmap.width)
            let height = Int(ftBitmap.rows)
            let pitch = Int(ftBitmap.pitch)
            var bytes = [UInt8](repeating: 0, count: width * height)
            for row in 0..<height {
                // A negative pitch means the rows run bottom-up from the buffer's start.
                let start = pitch >= 0 ? row * pitch : (height - 1 - row) * -pitch
                for col in 0..<width { bytes[row * width + col] = buffer[start + col] }
            }
            bitmap.width = width
            bitmap.height = height
            bitmap.bytes = bytes
        }
        glyphCache.insert(bitmap, for: key)
        return bitmap
    }
}

import CFreeType
import PaintCore

extension Typesetter {
    /// Draws `layout` with its box's top-left at canvas pixel (x, y) into a coverage mask: the
    /// pixels inside `clip` that any glyph covers, trimmed to them.
    ///
    /// Each glyph is loaded with `cft_load_flags()` (FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP |
    /// FT_LOAD_TARGET_NORMAL: the outline as designed, never grid-fitted, never an embedded
    /// bitmap), moved by the fraction of a pixel its position has (positions keep 1/64 pixel),
    /// and rendered by FreeType's anti-aliasing rasterizer (FT_RENDER_MODE_NORMAL: 256 levels
    /// of gray, no gamma). Overlapping glyphs combine by max, like a stroke crossing itself.
    /// Glyphs wholly outside `clip` are not rendered, so the work is bounded by what shows.
    public func rasterize(_ layout: TextLayout, atX x: Int, y: Int, clip: IntRect) -> CoverageMask {
        var pieces: [GlyphBitmap] = []
        var bounds = IntRect.empty
        for line in layout.lines {
            for g in line.glyphs {
                guard g.face < layout.faces.count,
                    let piece = render(
                        g, face: layout.faces[g.face], penX: x * 64 + g.x, penY: y * 64 + g.y, clip: clip)
                else { continue }
                bounds = bounds.union(piece.rect)
                pieces.append(piece)
            }
        }
        guard !bounds.isEmpty else { return CoverageMask(x: x, y: y, width: 0, height: 0) }
        var mask = CoverageMask(x: bounds.x, y: bounds.y, width: bounds.width, height: bounds.height)
        let maskWidth = mask.width
        mask.withUnsafeMutableBytes { out in
            for piece in pieces {
                piece.bytes.withUnsafeBufferPointer { src in
                    for row in 0..<piece.rect.height {
                        let s = row * piece.rect.width
                        let d = (piece.rect.y - bounds.y + row) * maskWidth + (piece.rect.x - bounds.x)
                        for col in 0..<piece.rect.width where src[s + col] > out[d + col] {
                            out[d + col] = src[s + col]
                        }
                    }
                }
            }
        }
        return mask
    }

    /// One rendered glyph's coverage, clipped, at its canvas rectangle.
    private struct GlyphBitmap {
        var rect: IntRect
        var bytes: [UInt8]
    }

    /// Loads, styles, places and renders one glyph with its origin at the 26.6 canvas position
    /// (penX, penY); nil when it draws nothing inside `clip`.
    private func render(_ g: PlacedGlyph, face: FontFace, penX: Int, penY: Int, clip: IntRect) -> GlyphBitmap? {
        let ftFace = face.ftFace
        guard FT_Load_Glyph(ftFace, g.glyph, cft_load_flags()) == 0, let slot = ftFace.pointee.glyph,
            slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE
        else { return nil }
        let fracX = penX & 63
        let fracY = penY & 63
        let originX = penX >> 6
        let originY = penY >> 6
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
        let bitmap = slot.pointee.bitmap
        guard bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue), bitmap.rows > 0, bitmap.width > 0,
            let buffer = bitmap.buffer
        else { return nil }
        let full = IntRect(
            x: originX + Int(slot.pointee.bitmap_left), y: originY - Int(slot.pointee.bitmap_top),
            width: Int(bitmap.width), height: Int(bitmap.rows))
        let rect = full.intersection(clip)
        guard !rect.isEmpty else { return nil }
        var bytes = [UInt8](repeating: 0, count: rect.width * rect.height)
        let pitch = Int(bitmap.pitch)
        for row in 0..<rect.height {
            // A negative pitch means the rows run bottom-up from the buffer's start.
            let sourceRow = rect.y - full.y + row
            let start = pitch >= 0 ? sourceRow * pitch : (Int(bitmap.rows) - 1 - sourceRow) * -pitch
            for col in 0..<rect.width {
                bytes[row * rect.width + col] = buffer[start + rect.x - full.x + col]
            }
        }
        return GlyphBitmap(rect: rect, bytes: bytes)
    }
}

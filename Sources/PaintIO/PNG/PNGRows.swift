import CRGBRow
import PaintCore

/// The seven passes of Adam7 interlacing, or the one pass of a plain image.
struct Adam7 {
    let firstRow: Int
    let firstColumn: Int
    let rowStep: Int
    let columnStep: Int

    static let all = [
        Adam7(firstRow: 0, firstColumn: 0, rowStep: 8, columnStep: 8),
        Adam7(firstRow: 0, firstColumn: 4, rowStep: 8, columnStep: 8),
        Adam7(firstRow: 4, firstColumn: 0, rowStep: 8, columnStep: 4),
        Adam7(firstRow: 0, firstColumn: 2, rowStep: 4, columnStep: 4),
        Adam7(firstRow: 2, firstColumn: 0, rowStep: 4, columnStep: 2),
        Adam7(firstRow: 0, firstColumn: 1, rowStep: 2, columnStep: 2),
        Adam7(firstRow: 1, firstColumn: 0, rowStep: 2, columnStep: 1),
    ]
    static let whole = Adam7(firstRow: 0, firstColumn: 0, rowStep: 1, columnStep: 1)

    static func passes(interlaced: Bool) -> [Adam7] { interlaced ? all : [whole] }

    /// The pass (0 to 6) that holds the pixel at (`x`, `y`) of an interlaced image.
    static func pass(x: Int, y: Int) -> Int {
        all.firstIndex { y % $0.rowStep == $0.firstRow && x % $0.columnStep == $0.firstColumn } ?? 6
    }

    /// Columns and rows of this pass in a width x height image (0 when it is empty).
    func size(width: Int, height: Int) -> (columns: Int, rows: Int) {
        (
            width > firstColumn ? (width - firstColumn + columnStep - 1) / columnStep : 0,
            height > firstRow ? (height - firstRow + rowStep - 1) / rowStep : 0
        )
    }
}

/// One decoded row at a time, from libspng's RGBA8 or RGBA16 output to packed premultiplied
/// sRGB pixels.
///
/// For an interlaced image libspng writes each pass's pixels at their places in a full-width
/// row, so only the pass's columns are taken from it.
struct RowStore {
    let width: Int
    let wide: Bool
    /// Rows of 3 bytes a pixel (R, G, B: opaque 8-bit color with no transform), not 4.
    let rgb: Bool
    let interlaced: Bool
    let transform: ColorTransform?
    /// libspng's output row: width x 4 samples of 8 or 16 bits, or width x 3 bytes (`rgb`).
    let row: UnsafeMutableRawBufferPointer
    /// 16-bit straight RGBA of one row's pixels, for the color transform.
    let scratch: UnsafeMutableBufferPointer<UInt16>

    init(width: Int, wide: Bool, rgb: Bool, interlaced: Bool, transform: ColorTransform?) {
        self.width = width
        self.wide = wide
        self.rgb = rgb && !wide && transform == nil
        self.interlaced = interlaced
        self.transform = transform
        row = .allocate(byteCount: max(1, self.rgb ? width * 3 + 1 : width * (wide ? 8 : 4)), alignment: 8)
        row.initializeMemory(as: UInt8.self, repeating: 0)
        scratch = .allocate(capacity: transform == nil ? 0 : width * 4)
    }

    func deallocate() {
        row.deallocate()
        scratch.deallocate()
    }

    /// Sets every pixel of `out` that the rows decoded up to row `last.y` of pass `last.pass`
    /// did not write to `fill` (a damaged file's rest); returns how many rows from the top are
    /// whole. Only run for a damaged file, so a plain loop is enough.
    static func fillUnread(
        _ out: UnsafeMutableBufferPointer<UInt32>, width: Int, interlaced: Bool, after last: (y: Int, pass: Int),
        with fill: UInt32
    ) -> Int {
        guard width > 0, let base = out.baseAddress else { return 0 }
        let height = out.count / width
        guard interlaced else {
            let read = min(last.y + 1, height)
            (base + read * width).update(repeating: fill, count: (height - read) * width)
            return read
        }
        for y in 0..<height {
            for x in 0..<width {
                let pass = Adam7.pass(x: x, y: y)
                if pass > last.pass || (pass == last.pass && y > last.y) { base[y * width + x] = fill }
            }
        }
        // Rows are whole once the last pass (odd rows, after the sixth gave the even ones) has
        // passed them.
        return last.pass == 6 ? min(last.y + 1, height) : 0
    }

    /// Stores the pixels of row `y` of `pass` (ignored when not interlaced) into `out`;
    /// returns how many.
    func store(into out: UnsafeMutableBufferPointer<UInt32>, y: Int, pass: Int) -> Int {
        let geometry = interlaced ? Adam7.all[min(max(pass, 0), 6)] : Adam7.whole
        let first = geometry.firstColumn
        let step = geometry.columnStep
        guard first < width, y >= 0, (y + 1) * width <= out.count else { return 0 }
        let base = y * width
        if let transform {
            var n = 0
            for x in stride(from: first, to: width, by: step) {
                for c in 0..<4 {
                    scratch[n * 4 + c] =
                        wide
                        ? row.load(fromByteOffset: x * 8 + c * 2, as: UInt16.self)
                        : UInt16(row[x * 4 + c]) &* 257
                }
                n += 1
            }
            scratch.baseAddress.map { transform.apply($0, count: n) }
            n = 0
            for x in stride(from: first, to: width, by: step) {
                let s = n * 4
                out[base + x] = PixelBuffer.pack16(scratch[s], scratch[s + 1], scratch[s + 2], scratch[s + 3])
                n += 1
            }
        } else if wide {
            var x = first
            while x < width {
                let o = x * 8
                out[base + x] = PixelBuffer.pack16(
                    row.load(fromByteOffset: o, as: UInt16.self), row.load(fromByteOffset: o + 2, as: UInt16.self),
                    row.load(fromByteOffset: o + 4, as: UInt16.self), row.load(fromByteOffset: o + 6, as: UInt16.self))
                x += step
            }
        } else if rgb, let source = row.baseAddress, let target = out.baseAddress {
            // Opaque 8-bit color: each pixel's three bytes straight into an opaque pixel (what
            // `PixelBuffer.packRGBA` makes of them with an alpha of 255). A whole row goes to C,
            // four pixels a step where the CPU has SSSE3 (`CRGBRow`).
            let target = target + base
            if step == 1 && first == 0 {
                swiftpaint_rgb_row(source.assumingMemoryBound(to: UInt8.self), target, width)
                return width
            }
            // An interlaced pass's pixels, each read as one word (the row has a byte to spare
            // after its last pixel): R, G, B, next byte, byte-swapped, is R, G, B from the top,
            // shifted down a byte.
            var x = first
            while x < width {
                let word = UInt32(littleEndian: source.loadUnaligned(fromByteOffset: x * 3, as: UInt32.self))
                target[x] = word.byteSwapped >> 8 | 0xFF00_0000
                x += step
            }
        } else if let source = row.baseAddress?.assumingMemoryBound(to: UInt32.self), let target = out.baseAddress {
            // The common case, every pixel of every row: a plain loop over the words (stride's
            // generic iteration was a third of this function's time).
            let target = target + base
            var x = first
            while x < width {
                target[x] = PixelBuffer.packRGBA(UInt32(littleEndian: source[x]))
                x += step
            }
        }
        return (width - first + step - 1) / step
    }
}

/// An 8-bit coverage mask placed on the canvas: how much of each pixel a piece of text covers
/// (0 none, 255 all), the way the stroke image holds a stroke.
///
/// A text operation keeps its rendered mask rather than the font, so it replays to the same
/// pixels on a machine with other fonts or another FreeType.
public struct CoverageMask: Hashable, Sendable {
    /// Left edge on the canvas (may be negative: text can hang off the picture).
    public var x: Int
    /// Top edge on the canvas.
    public var y: Int
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height` coverage values, top row first.
    public private(set) var bytes: [UInt8]

    /// An empty (all zero) mask of the given size at (x, y); negative sizes count as zero.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
        bytes = [UInt8](repeating: 0, count: self.width * self.height)
    }

    /// Wraps existing coverage; nil when the count does not match the size.
    public init?(x: Int, y: Int, width: Int, height: Int, bytes: [UInt8]) {
        guard width >= 0, height >= 0, bytes.count == width * height else { return nil }
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.bytes = bytes
    }

    /// The canvas rectangle the mask spans.
    public var bounds: IntRect { IntRect(x: x, y: y, width: width, height: height) }

    /// The coverage at canvas pixel (px, py); 0 outside the mask.
    public func coverage(atX px: Int, y py: Int) -> UInt8 {
        let cx = px - x
        let cy = py - y
        guard cx >= 0, cy >= 0, cx < width, cy < height else { return 0 }
        return bytes[cy * width + cx]
    }

    /// Runs `body` on the coverage bytes for writing (the rasterizer's hot loop).
    public mutating func withUnsafeMutableBytes<R>(_ body: (UnsafeMutableBufferPointer<UInt8>) -> R) -> R {
        bytes.withUnsafeMutableBufferPointer { body($0) }
    }

    /// The same mask shifted by (dx, dy).
    public func moved(byX dx: Int, y dy: Int) -> CoverageMask {
        var out = self
        out.x += dx
        out.y += dy
        return out
    }

    /// The part inside `rect` (canvas coordinates), shrunk further to the rows and columns that
    /// hold coverage; an empty mask when nothing is covered there.
    public func trimmed(to rect: IntRect) -> CoverageMask {
        let r = bounds.intersection(rect)
        guard !r.isEmpty else { return CoverageMask(x: x, y: y, width: 0, height: 0) }
        var x0 = Int.max
        var x1 = Int.min
        var y0 = Int.max
        var y1 = Int.min
        for py in r.y..<r.maxY {
            let row = (py - y) * width - x
            for px in r.x..<r.maxX where bytes[row + px] != 0 {
                x0 = min(x0, px)
                x1 = max(x1, px)
                y0 = min(y0, py)
                y1 = py
            }
        }
        guard x0 <= x1 else { return CoverageMask(x: x, y: y, width: 0, height: 0) }
        if x0 == x && y0 == y && x1 == x + width - 1 && y1 == y + height - 1 { return self }
        var out = CoverageMask(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
        for py in y0...y1 {
            let from = (py - y) * width + (x0 - x)
            let to = (py - y0) * out.width
            out.bytes.replaceSubrange(to..<(to + out.width), with: bytes[from..<(from + out.width)])
        }
        return out
    }

    /// Whether no pixel is covered.
    public var isBlank: Bool { !bytes.contains { $0 != 0 } }
}

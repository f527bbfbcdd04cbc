/// One of the eight ways a picture can lie on the pixel grid: as it is, turned a quarter, half
/// or three quarters, or mirrored along one of four axes (the eight EXIF orientations).
///
/// An orientation takes a width x height picture to a height x width one when it swaps the
/// axes, else to one of the same size. It is applied in two stages: the axes are swapped
/// first, `(x, y) → (y, x)`, when `swapsAxes`; then the result is mirrored left to right when
/// `mirrorsX` and top to bottom when `mirrorsY`. Any two orientations in a row are again one
/// (`then`), and each has an inverse, so a floating selection turned and flipped any number of
/// times is still recorded as one step, and a turn is undone without a snapshot.
public struct Orientation: Hashable, Sendable, CustomStringConvertible {
    /// Whether x and y trade places (a quarter turn, or a mirror along a diagonal).
    public let swapsAxes: Bool
    /// Whether the picture is mirrored left to right (after the swap).
    public let mirrorsX: Bool
    /// Whether the picture is mirrored top to bottom (after the swap).
    public let mirrorsY: Bool

    /// The orientation from its three parts.
    public init(swapsAxes: Bool, mirrorsX: Bool, mirrorsY: Bool) {
        self.swapsAxes = swapsAxes
        self.mirrorsX = mirrorsX
        self.mirrorsY = mirrorsY
    }

    /// Unchanged.
    public static let identity = Orientation(swapsAxes: false, mirrorsX: false, mirrorsY: false)
    /// A quarter turn clockwise: the top-left corner goes to the top right.
    public static let rotateRight = Orientation(swapsAxes: true, mirrorsX: true, mirrorsY: false)
    /// A quarter turn counter-clockwise: the top-left corner goes to the bottom left.
    public static let rotateLeft = Orientation(swapsAxes: true, mirrorsX: false, mirrorsY: true)
    /// A half turn.
    public static let rotate180 = Orientation(swapsAxes: false, mirrorsX: true, mirrorsY: true)
    /// Mirrored left to right.
    public static let flipHorizontal = Orientation(swapsAxes: false, mirrorsX: true, mirrorsY: false)
    /// Mirrored top to bottom.
    public static let flipVertical = Orientation(swapsAxes: false, mirrorsX: false, mirrorsY: true)
    /// Mirrored along the diagonal from the top-left corner.
    public static let transpose = Orientation(swapsAxes: true, mirrorsX: false, mirrorsY: false)
    /// Mirrored along the diagonal from the top-right corner.
    public static let transverse = Orientation(swapsAxes: true, mirrorsX: true, mirrorsY: true)

    /// All eight.
    public static let all: [Orientation] = (0..<8).compactMap { Orientation(code: UInt8($0)) }

    /// The three parts as bits (swap 1, mirror x 2, mirror y 4), for the binary form.
    public var code: UInt8 { (swapsAxes ? 1 : 0) | (mirrorsX ? 2 : 0) | (mirrorsY ? 4 : 0) }

    /// The orientation with this `code`; nil past 7.
    public init?(code: UInt8) {
        guard code < 8 else { return nil }
        self.init(swapsAxes: code & 1 != 0, mirrorsX: code & 2 != 0, mirrorsY: code & 4 != 0)
    }

    /// This orientation followed by `next`, as one.
    ///
    /// A swap after a mirror is the other mirror before the swap, so `next`'s swap moves in
    /// front of this one's mirrors by exchanging them; mirrors then combine by exclusive or.
    public func then(_ next: Orientation) -> Orientation {
        let mx = next.swapsAxes ? mirrorsY : mirrorsX
        let my = next.swapsAxes ? mirrorsX : mirrorsY
        return Orientation(
            swapsAxes: swapsAxes != next.swapsAxes, mirrorsX: mx != next.mirrorsX, mirrorsY: my != next.mirrorsY)
    }

    /// The orientation that undoes this one.
    public var inverse: Orientation {
        swapsAxes ? Orientation(swapsAxes: true, mirrorsX: mirrorsY, mirrorsY: mirrorsX) : self
    }

    /// The size of a width x height picture after this orientation.
    public func size(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsAxes ? (height, width) : (width, height)
    }

    /// Where a point of a width x height picture lands (image coordinates, pixel centres at
    /// +0.5): for the stroke eraser's outline and hit test across a turn.
    public func map(_ p: Point, width: Int, height: Int) -> Point {
        let (w, h) = size(width: width, height: height)
        let q = swapsAxes ? Point(x: p.y, y: p.x) : p
        return Point(x: mirrorsX ? Double(w) - q.x : q.x, y: mirrorsY ? Double(h) - q.y : q.y)
    }

    /// Where a rectangle of pixels of a width x height picture lands.
    public func map(_ r: IntRect, width: Int, height: Int) -> IntRect {
        let (w, h) = size(width: width, height: height)
        var q = swapsAxes ? IntRect(x: r.y, y: r.x, width: r.height, height: r.width) : r
        if mirrorsX { q.x = w - q.maxX }
        if mirrorsY { q.y = h - q.maxY }
        return q
    }

    /// A name for messages and tests.
    public var description: String {
        switch code {
        case 0: return "unchanged"
        case Self.rotateRight.code: return "rotated right"
        case Self.rotateLeft.code: return "rotated left"
        case Self.rotate180.code: return "rotated 180°"
        case Self.flipHorizontal.code: return "flipped horizontally"
        case Self.flipVertical.code: return "flipped vertically"
        case Self.transpose.code: return "transposed"
        default: return "transversed"
        }
    }

    // MARK: Pixels

    /// Writes the width x height pixels at `source` into `destination`, oriented: the
    /// destination is `size(width:height:)`, row-major, no padding.
    ///
    /// A quarter turn reads the source down its columns; in blocks of 64 x 64 each cache line
    /// read serves sixteen destination rows, instead of being read again for every one (a 4K
    /// turn is several times faster than the plain loop).
    public func apply(
        _ source: UnsafePointer<UInt32>, width: Int, height: Int, into destination: UnsafeMutablePointer<UInt32>
    ) {
        let (w, h) = size(width: width, height: height)
        guard w > 0, h > 0 else { return }
        // The source index of destination pixel (0, 0), and how it moves per destination x and
        // per destination y: undo the mirrors (in destination space), then the swap.
        let ux0 = mirrorsX ? w - 1 : 0
        let uy0 = mirrorsY ? h - 1 : 0
        let dirX = mirrorsX ? -1 : 1
        let dirY = mirrorsY ? -1 : 1
        let origin: Int
        let stepX: Int
        let stepY: Int
        if swapsAxes {
            origin = ux0 * width + uy0
            stepX = dirX * width
            stepY = dirY
        } else {
            origin = uy0 * width + ux0
            stepX = dirX
            stepY = dirY * width
        }
        let block = swapsAxes ? 64 : w
        var by = 0
        while by < h {
            let rows = min(block, h - by)
            var bx = 0
            while bx < w {
                let columns = min(block, w - bx)
                for y in by..<(by + rows) {
                    var s = origin + y * stepY + bx * stepX
                    let d = destination + y * w + bx
                    for x in 0..<columns {
                        d[x] = source[s]
                        s += stepX
                    }
                }
                bx += columns
            }
            by += rows
        }
    }
}

extension PixelImage {
    /// The image turned or mirrored.
    public func oriented(_ orientation: Orientation) -> PixelImage {
        guard orientation != .identity else { return self }
        let (w, h) = orientation.size(width: width, height: height)
        let out = [UInt32](unsafeUninitializedCapacity: w * h) { buffer, count in
            pixels.withUnsafeBufferPointer { source in
                if let from = source.baseAddress, let to = buffer.baseAddress {
                    orientation.apply(from, width: width, height: height, into: to)
                }
            }
            count = w * h
        }
        return PixelImage(width: w, height: h, pixels: out) ?? self
    }
}

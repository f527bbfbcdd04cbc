import Glibc

/// One committed change to a document: a value that serializes, and replays through the engine
/// to the same pixels, bit for bit, in the same build.
///
/// The journal appends these as they are committed; the history work builds on the same log.
public enum Operation: Equatable, Sendable {
    /// A brush or eraser stroke: its style and every pointer sample the engine received.
    case stroke(StrokeStyle, points: [Point])
    /// A line, dashed line, rectangle or ellipse, drawn with the style's width and opacity.
    case shape(StrokeStyle, ShapeSpec)
    /// A flood fill of the region under `at` (colors within `tolerance`), in the style's color.
    case fill(StrokeStyle, at: Point, tolerance: Int)
    /// The background replaced (the paint stays).
    case background(Background)
    /// All paint removed.
    case clear
    /// The paint inside a rectangle removed (a selection deleted or cut).
    case clearRect(IntRect)
    /// The paint inside a rectangle moved by (dx, dy): lifted, the rectangle cleared, and laid
    /// over the paint at the new place (a selection dragged).
    case moveRect(IntRect, dx: Int, dy: Int)
    /// A picture (premultiplied) laid over the paint with its top-left corner at (x, y): a
    /// paste from the clipboard.
    case paste(PixelImage, x: Int, y: Int)
    /// A step back in the history (the journal records history moves so a restore lands on the
    /// same step); `History` carries them out, `apply(to:)` ignores them.
    case undo
    /// A step forward again.
    case redo
    /// The stroke recorded at history step `step` is taken out of the picture (the stroke
    /// eraser); what lies above and beneath it is re-rendered in its region.
    case removeStroke(step: Int)
    /// Not a change: the document was saved here, to this path. A journal whose last record
    /// this is holds nothing unsaved; replay and history skip it.
    case saved(path: String)

    /// Applies the operation to `engine` exactly as the live session did; returns the changed
    /// view rectangle.
    @discardableResult
    public func apply(to engine: StrokeEngine) -> IntRect {
        switch self {
        case .stroke(let style, let points):
            guard let first = points.first else { return .empty }
            var dirty = engine.begin(style, at: first)
            for p in points.dropFirst() { dirty = dirty.union(engine.move(to: p)) }
            engine.end()
            return dirty
        case .shape(let style, let spec):
            engine.beginShape(style)
            let dirty = engine.updateShape(spec)
            engine.end()
            return dirty
        case .fill(let style, let point, let tolerance):
            let dirty = engine.beginFill(style, at: point, tolerance: tolerance)
            engine.end()
            return dirty
        case .background(let background):
            return engine.setBackground(background)
        case .clear:
            return engine.clearPaint()
        case .clearRect(let rect):
            return engine.clearPaint(in: rect)
        case .moveRect(let rect, let dx, let dy):
            return engine.movePaint(rect, byX: dx, y: dy)
        case .paste(let image, let x, let y):
            return engine.pastePaint(image, atX: x, y: y)
        case .undo, .redo, .saved, .removeStroke:
            return .empty
        }
    }

    /// Draws the operation into the stroke image and leaves it unmerged, as the live session
    /// does before the button is released; false for operations that are not drawn this way.
    func drawLive(into engine: StrokeEngine) -> Bool {
        switch self {
        case .stroke(let style, let points):
            guard let first = points.first else { return false }
            engine.begin(style, at: first)
            for p in points.dropFirst() { engine.move(to: p) }
        case .shape(let style, let spec):
            engine.beginShape(style)
            engine.updateShape(spec)
        case .fill(let style, let point, let tolerance):
            engine.beginFill(style, at: point, tolerance: tolerance)
        default:
            return false
        }
        return true
    }

    /// Whether this is a change to the picture (not a save marker).
    public var isChange: Bool {
        if case .saved = self { return false }
        return true
    }

    /// The canvas region the operation can change, known before it runs (for the history's
    /// before-snapshot): a stroke's samples grown by its radius and the anti-aliasing pixel.
    public func region(in engine: StrokeEngine) -> IntRect {
        switch self {
        case .stroke(let style, let points):
            guard let first = points.first else { return .empty }
            var minX = first.x
            var maxX = first.x
            var minY = first.y
            var maxY = first.y
            for p in points where p.isFinite {
                minX = min(minX, p.x)
                maxX = max(maxX, p.x)
                minY = min(minY, p.y)
                maxY = max(maxY, p.y)
            }
            let r = style.width / 2 + 1
            guard (minX - r).isFinite, (maxX + r).isFinite, (minY - r).isFinite, (maxY + r).isFinite else {
                return engine.bounds
            }
            let x0 = Int(clamping: minX - r, .down)
            let y0 = Int(clamping: minY - r, .down)
            let x1 = Int(clamping: maxX + r, .up)
            let y1 = Int(clamping: maxY + r, .up)
            return IntRect(x0: x0, y0: y0, x1: x1, y1: y1).intersection(engine.bounds)
        case .shape(let style, let spec):
            let r = style.width / 2 + 2
            let x0 = Int(clamping: min(spec.from.x, spec.to.x) - r, .down)
            let y0 = Int(clamping: min(spec.from.y, spec.to.y) - r, .down)
            let x1 = Int(clamping: max(spec.from.x, spec.to.x) + r, .up)
            let y1 = Int(clamping: max(spec.from.y, spec.to.y) + r, .up)
            return IntRect(x0: x0, y0: y0, x1: x1, y1: y1).intersection(engine.bounds)
        case .clear, .fill, .background:
            return engine.bounds
        case .paste(let image, let x, let y):
            return IntRect(x: x, y: y, width: image.width, height: image.height).intersection(engine.bounds)
        case .clearRect(let rect):
            return rect.intersection(engine.bounds)
        case .moveRect(let rect, let dx, let dy):
            return rect.union(IntRect(x: rect.x + dx, y: rect.y + dy, width: rect.width, height: rect.height))
                .intersection(engine.bounds)
        case .undo, .redo, .saved, .removeStroke:
            return .empty
        }
    }

    // MARK: Binary form

    private enum Tag: UInt8 {
        case stroke = 1
        case clear = 2
        case undo = 3
        case redo = 4
        case saved = 5
        case removeStroke = 6
        case shape = 7
        case fill = 8
        case background = 9
        case paste = 10
        /// A stroke whose samples all lie on a grid of 1/2 to 1/64 pixel (pointer input always
        /// does: pixel centres at 100 %, finer at higher zooms).
        case gridStroke = 11
        case clearRect = 12
        case moveRect = 13
    }

    /// A compact little-endian encoding: a tag byte, then for a stroke the tool, the color,
    /// opacity and width as IEEE doubles, the point count and the points. Points from the
    /// pointer are window pixel centres mapped to the image: whole multiples of half a pixel at
    /// 100 %, of 1/32 pixel at 1600 %. Those go as the grid (a power of two, one byte) and the
    /// differences between successive points in grid units, zigzag varints of one or two bytes
    /// each instead of sixteen; any other stroke keeps its points as doubles. Either way replay
    /// sees exactly the values the live stroke saw.
    public func encoded() -> [UInt8] {
        var out = ByteWriter()
        switch self {
        case .stroke(let style, let points):
            if let grid = Self.grid(points) {
                out.byte(Tag.gridStroke.rawValue)
                Self.encode(style, into: &out)
                out.byte(UInt8(grid.shift))
                out.uint32(UInt32(points.count))
                var previous = (x: Int64(0), y: Int64(0))
                for h in grid.units {
                    out.zigzag(h.x - previous.x)
                    out.zigzag(h.y - previous.y)
                    previous = h
                }
            } else {
                out.byte(Tag.stroke.rawValue)
                Self.encode(style, into: &out)
                out.uint32(UInt32(points.count))
                for p in points {
                    out.double(p.x)
                    out.double(p.y)
                }
            }
        case .shape(let style, let spec):
            out.byte(Tag.shape.rawValue)
            Self.encode(style, into: &out)
            out.byte(spec.kind.rawValue)
            out.byte(spec.filled ? 1 : 0)
            for v in [spec.from.x, spec.from.y, spec.to.x, spec.to.y] { out.double(v) }
        case .fill(let style, let point, let tolerance):
            out.byte(Tag.fill.rawValue)
            Self.encode(style, into: &out)
            out.double(point.x)
            out.double(point.y)
            out.byte(UInt8(clamping: tolerance))
        case .background(let background):
            out.byte(Tag.background.rawValue)
            switch background {
            case .transparent:
                out.backgroundColor(nil)
            case .color(let c):
                out.backgroundColor(c)
            case .image(let image):
                out.byte(2)
                out.image(image)
            }
        case .clear:
            out.byte(Tag.clear.rawValue)
        case .clearRect(let rect):
            out.byte(Tag.clearRect.rawValue)
            for v in [rect.x, rect.y, rect.width, rect.height] { out.uint32(UInt32(bitPattern: Int32(clamping: v))) }
        case .moveRect(let rect, let dx, let dy):
            out.byte(Tag.moveRect.rawValue)
            for v in [rect.x, rect.y, rect.width, rect.height, dx, dy] {
                out.uint32(UInt32(bitPattern: Int32(clamping: v)))
            }
        case .paste(let image, let x, let y):
            out.byte(Tag.paste.rawValue)
            out.uint32(UInt32(bitPattern: Int32(clamping: x)))
            out.uint32(UInt32(bitPattern: Int32(clamping: y)))
            out.image(image)
        case .undo:
            out.byte(Tag.undo.rawValue)
        case .redo:
            out.byte(Tag.redo.rawValue)
        case .removeStroke(let step):
            out.byte(Tag.removeStroke.rawValue)
            out.uint32(UInt32(clamping: step))
        case .saved(let path):
            out.byte(Tag.saved.rawValue)
            let utf8 = Array(path.utf8)
            out.uint32(UInt32(utf8.count))
            out.append(utf8)
        }
        return out.bytes
    }

    /// Decodes `encoded()`; nil for anything malformed (unknown tag, wrong length, a count that
    /// does not fit the bytes, values out of range).
    public init?(decoding bytes: [UInt8]) {
        var input = ByteReader(bytes)
        guard let raw = input.byte(), let tag = Tag(rawValue: raw) else { return nil }
        switch tag {
        case .removeStroke:
            guard let step = input.uint32(), input.isAtEnd else { return nil }
            self = .removeStroke(step: Int(step))
        case .saved:
            guard let count = input.uint32(), Int(count) == input.remaining, let bytes = input.take(Int(count)) else {
                return nil
            }
            self = .saved(path: String(decoding: bytes, as: UTF8.self))
        case .clear, .undo, .redo:
            guard input.isAtEnd else { return nil }
            self = tag == .clear ? .clear : tag == .undo ? .undo : .redo
        case .shape:
            guard let style = Self.decodeStyle(&input), let raw = input.byte(), let kind = ShapeKind(rawValue: raw),
                let filled = input.byte(), filled <= 1, let fx = input.double(), let fy = input.double(),
                let tx = input.double(), let ty = input.double(), input.isAtEnd
            else { return nil }
            self = .shape(
                style, ShapeSpec(kind: kind, from: Point(x: fx, y: fy), to: Point(x: tx, y: ty), filled: filled == 1))
        case .background:
            switch input.byte() {
            case 0:
                guard input.isAtEnd else { return nil }
                self = .background(.transparent)
            case 1:
                guard let color = input.rgb(), input.isAtEnd else { return nil }
                self = .background(.color(color))
            case 2:
                guard var image = input.image() else { return nil }
                for i in image.pixels.indices { image.pixels[i] |= 0xFF00_0000 }
                self = .background(.image(image))
            default:
                return nil
            }
        case .clearRect, .moveRect:
            var v: [Int] = []
            for _ in 0..<(tag == .clearRect ? 4 : 6) {
                guard let u = input.uint32() else { return nil }
                v.append(Int(Int32(bitPattern: u)))
            }
            guard input.isAtEnd else { return nil }
            let rect = IntRect(x: v[0], y: v[1], width: v[2], height: v[3])
            self = tag == .clearRect ? .clearRect(rect) : .moveRect(rect, dx: v[4], dy: v[5])
        case .paste:
            guard let x = input.uint32(), let y = input.uint32(), var image = input.image() else { return nil }
            // No channel above its alpha: a premultiplied pixel, whatever the bytes said.
            for i in image.pixels.indices { image.pixels[i] = Pixel.clampedPremultiplied(image.pixels[i]) }
            self = .paste(image, x: Int(Int32(bitPattern: x)), y: Int(Int32(bitPattern: y)))
        case .fill:
            guard let style = Self.decodeStyle(&input), let x = input.double(), let y = input.double(),
                let tolerance = input.byte(), input.isAtEnd
            else { return nil }
            self = .fill(style, at: Point(x: x, y: y), tolerance: Int(tolerance))
        case .gridStroke:
            // Each point takes at least two bytes: the count cannot ask for more than that.
            guard let style = Self.decodeStyle(&input), let shift = input.byte(), (1...6).contains(shift),
                let count = input.uint32(), Int(count) * 2 <= input.remaining
            else { return nil }
            let unit = Double(1 << shift)
            var points: [Point] = []
            points.reserveCapacity(Int(count))
            var x: Int64 = 0
            var y: Int64 = 0
            for _ in 0..<count {
                // Bounded before adding: a hostile varint can decode to Int64.min.
                let step: ClosedRange<Int64> = -0x8000_0000...0x8000_0000
                guard let dx = input.zigzag(), let dy = input.zigzag(), step.contains(dx), step.contains(dy)
                else { return nil }
                x += dx
                y += dy
                guard abs(x) <= 0x4000_0000, abs(y) <= 0x4000_0000 else { return nil }
                points.append(Point(x: Double(x) / unit, y: Double(y) / unit))
            }
            guard input.isAtEnd else { return nil }
            self = .stroke(style, points: points)
        case .stroke:
            guard let style = Self.decodeStyle(&input), let count = input.uint32(), Int(count) * 16 == input.remaining
            else { return nil }
            var points: [Point] = []
            points.reserveCapacity(Int(count))
            for _ in 0..<count {
                guard let x = input.double(), let y = input.double() else { return nil }
                points.append(Point(x: x, y: y))
            }
            self = .stroke(style, points: points)
        }
    }

    /// The coarsest grid of 1/2^shift pixel (shift 1...6) that holds every coordinate exactly
    /// within ±2^30 units, and the points in its units; nil when none does.
    private static func grid(_ points: [Point]) -> (shift: Int, units: [(x: Int64, y: Int64)])? {
        var shift = 1
        for p in points {
            while shift <= 6 {
                let unit = Double(1 << shift)
                let ux = p.x * unit
                let uy = p.y * unit
                if ux == ux.rounded() && uy == uy.rounded() { break }
                shift += 1
            }
            guard shift <= 6 else { return nil }
        }
        let unit = Double(1 << shift)
        var units: [(x: Int64, y: Int64)] = []
        units.reserveCapacity(points.count)
        for p in points {
            let ux = p.x * unit
            let uy = p.y * unit
            guard abs(ux) <= 0x4000_0000, abs(uy) <= 0x4000_0000 else { return nil }
            units.append((Int64(ux), Int64(uy)))
        }
        return (shift, units)
    }

    /// Tool, color, opacity and width: the part every drawn operation starts with.
    private static func encode(_ style: StrokeStyle, into out: inout ByteWriter) {
        out.byte(style.tool == .eraser ? 1 : 0)
        out.byte(style.color.r)
        out.byte(style.color.g)
        out.byte(style.color.b)
        out.double(style.opacity)
        out.double(style.width)
    }

    private static func decodeStyle(_ input: inout ByteReader) -> StrokeStyle? {
        guard let tool = input.byte(), tool <= 1, let r = input.byte(), let g = input.byte(), let b = input.byte(),
            let opacity = input.double(), let width = input.double(), opacity.isFinite, width.isFinite
        else { return nil }
        return StrokeStyle(
            tool: tool == 1 ? .eraser : .brush, color: Color(r: r, g: g, b: b), opacity: opacity, width: width)
    }
}

/// Appends little-endian values to a byte array.
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    public init() {}
    public mutating func byte(_ v: UInt8) { bytes.append(v) }
    public mutating func uint32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    public mutating func uint64(_ v: UInt64) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    public mutating func double(_ v: Double) { uint64(v.bitPattern) }
    public mutating func append(_ other: [UInt8]) { bytes.append(contentsOf: other) }
    /// A signed value as a zigzag varint: seven bits a byte, small magnitudes first.
    public mutating func zigzag(_ v: Int64) {
        var u = UInt64(bitPattern: (v << 1) ^ (v >> 63))
        while u >= 0x80 {
            bytes.append(UInt8(u & 0x7F) | 0x80)
            u >>= 7
        }
        bytes.append(UInt8(u))
    }
    /// An image: width, height, then every pixel.
    public mutating func image(_ image: PixelImage) {
        uint32(UInt32(image.width))
        uint32(UInt32(image.height))
        bytes.reserveCapacity(bytes.count + image.pixels.count * 4)
        for p in image.pixels { uint32(p) }
    }
    /// A background that has no pixels: tag 0 (transparent), or tag 1 and r, g, b.
    public mutating func backgroundColor(_ color: Color?) {
        guard let color else { return byte(0) }
        byte(1)
        byte(color.r)
        byte(color.g)
        byte(color.b)
    }
}

/// Reads little-endian values from a byte array; every read is bounds-checked and returns nil
/// past the end.
public struct ByteReader: Sendable {
    private let bytes: [UInt8]
    public private(set) var offset = 0
    public init(_ bytes: [UInt8]) { self.bytes = bytes }
    public var remaining: Int { bytes.count - offset }
    public var isAtEnd: Bool { offset == bytes.count }

    public mutating func byte() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func uint32() -> UInt32? { littleEndian(UInt32.self) }

    public mutating func uint64() -> UInt64? { littleEndian(UInt64.self) }

    private mutating func littleEndian<T: FixedWidthInteger & UnsignedInteger>(_: T.Type) -> T? {
        let size = MemoryLayout<T>.size
        guard remaining >= size else { return nil }
        var v: T = 0
        for i in 0..<size { v |= T(bytes[offset + i]) << (8 * i) }
        offset += size
        return v
    }

    public mutating func double() -> Double? { uint64().map(Double.init(bitPattern:)) }

    /// A zigzag varint as `ByteWriter.zigzag` writes it; nil when cut short or longer than
    /// ten bytes.
    public mutating func zigzag() -> Int64? {
        var u: UInt64 = 0
        for shift in stride(from: UInt64(0), to: 70, by: 7) {
            guard let b = byte() else { return nil }
            u |= UInt64(b & 0x7F) << shift
            if b < 0x80 { return Int64(bitPattern: u >> 1) ^ -Int64(bitPattern: u & 1) }
        }
        return nil
    }

    /// Three bytes r, g, b (what follows tag 1 of `ByteWriter.backgroundColor`).
    public mutating func rgb() -> Color? {
        guard let r = byte(), let g = byte(), let b = byte() else { return nil }
        return Color(r: r, g: g, b: b)
    }

    /// An image as `ByteWriter.image` writes it, which must fill the rest of the input; at most
    /// 65,536 pixels a side.
    public mutating func image() -> PixelImage? {
        guard let w = uint32(), let h = uint32(), w > 0, h > 0, w <= 1 << 16, h <= 1 << 16,
            Int(w) * Int(h) * 4 == remaining
        else { return nil }
        var pixels = [UInt32]()
        pixels.reserveCapacity(Int(w) * Int(h))
        for _ in 0..<(Int(w) * Int(h)) {
            guard let p = uint32() else { return nil }
            pixels.append(p)
        }
        return PixelImage(width: Int(w), height: Int(h), pixels: pixels)
    }

    /// The next `count` bytes.
    public mutating func take(_ count: Int) -> [UInt8]? {
        guard count >= 0, remaining >= count else { return nil }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }
}

extension Operation {
    /// Whether the stroke eraser can take it out: strokes and shapes.
    var isRemovable: Bool {
        switch self {
        case .stroke, .shape: return true
        default: return false
        }
    }
}

extension ShapeSpec {
    /// A polyline along the shape, for a hover outline.
    var outline: [Point] {
        let x0 = min(from.x, to.x)
        let x1 = max(from.x, to.x)
        let y0 = min(from.y, to.y)
        let y1 = max(from.y, to.y)
        switch kind {
        case .line, .dashedLine:
            return [from, to]
        case .rectangle:
            return [
                Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1), Point(x: x0, y: y0),
            ]
        case .ellipse:
            let cx = (x0 + x1) / 2
            let cy = (y0 + y1) / 2
            return (0...48).map { k in
                let t = Double(k) / 48 * 2 * Double.pi
                return Point(x: cx + (x1 - x0) / 2 * cos(t), y: cy + (y1 - y0) / 2 * sin(t))
            }
        }
    }

    /// Whether `point` lies within `reach` of the shape's outline (or inside a filled one): the
    /// stroke eraser's hit test.
    func isHit(by point: Point, reach: Double) -> Bool {
        let x0 = min(from.x, to.x)
        let x1 = max(from.x, to.x)
        let y0 = min(from.y, to.y)
        let y1 = max(from.y, to.y)
        switch kind {
        case .line, .dashedLine:
            return Capsule(from: from, to: to, width: 0).distance(point.x, point.y) <= reach
        case .rectangle:
            let inside = point.x >= x0 && point.x <= x1 && point.y >= y0 && point.y <= y1
            if filled && inside { return true }
            let corners = [Point(x: x0, y: y0), Point(x: x1, y: y0), Point(x: x1, y: y1), Point(x: x0, y: y1)]
            return zip(corners, corners.dropFirst() + [corners[0]]).contains {
                Capsule(from: $0.0, to: $0.1, width: 0).distance(point.x, point.y) <= reach
            }
        case .ellipse:
            let a = max((x1 - x0) / 2, 0.5)
            let b = max((y1 - y0) / 2, 0.5)
            let dx = (point.x - (x0 + x1) / 2) / a
            let dy = (point.y - (y0 + y1) / 2) / b
            let r = (dx * dx + dy * dy).squareRoot()
            if filled && r <= 1 { return true }
            // Distance to the curve, roughly: the radial gap scaled by the smaller semi-axis.
            return abs(r - 1) * min(a, b) <= reach
        }
    }
}

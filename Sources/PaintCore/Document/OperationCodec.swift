/// The binary form of an operation, as the crash journal and the saved history store it.
///
/// One tag byte per case (`Tag`), then the case's fields, little-endian. A drawn operation's
/// first field byte carries its `DrawingVersion` beside the tool (`encode(_:into:)` of a style).
/// `encoded()` and `init?(decoding:)` each hold one switch with an arm per case: a new operation
/// gets a new tag and an arm in both, and a round-trip test in OperationCodecTests
/// (PaintCoreTests). Decoding trusts nothing: a count that does not fit the bytes, a value out of
/// range or bytes left over give nil.
extension Operation {
    /// The first byte of every encoded operation. The numbers are on disk (journals, saved
    /// histories): a new operation takes the next free number, and none is ever reused.
    private enum Tag: UInt8 {
        case stroke = 1
        case clear = 2
        case undo = 3
        case redo = 4
        // 5 is the journal's save marker (`JournalRecord.saved` in PaintIO), which once was an
        // operation: journals written before keep it, so it is never an operation's tag.
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
        /// Then a kind byte (0 resize: x, y, width, height as Int32; 1 scale: width, height
        /// as UInt32; 2 orient: the orientation's code).
        case canvas = 14
        /// x, y, width, height, dx, dy as Int32, then the orientation's code.
        case orientRect = 15
        case text = 16
        /// A stroke with dynamics (curves, stabilizer, pressure) or pressure samples.
        case dynamicStroke = 17
        // 255 starts a part of a change too long for one journal record (`JournalParts` in
        // PaintIO): never an operation's tag.
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
        case .stroke(let style, let points, let pressure) where style.dynamics != .straight || !pressure.isEmpty:
            // The dynamics, then the points on their grid (shift 0: as doubles), then the
            // pressure as differences.
            out.byte(Tag.dynamicStroke.rawValue)
            Self.encode(style, into: &out)
            let d = style.dynamics
            let hasPressure = !pressure.isEmpty && pressure.count == points.count
            out.byte(
                (d.curves ? 1 : 0) | (d.pressureWidth ? 2 : 0) | (d.pressureOpacity ? 4 : 0) | (hasPressure ? 8 : 0))
            out.byte(UInt8(d.stabilizer))
            out.uint32(UInt32(points.count))
            if let grid = Self.grid(points) {
                out.byte(UInt8(grid.shift))
                Self.encodeDifferences(grid.units, into: &out)
            } else {
                out.byte(0)
                Self.encodeDoubles(points, into: &out)
            }
            if hasPressure {
                var previous: Int64 = 0
                for q in pressure {
                    out.zigzag(Int64(q) - previous)
                    previous = Int64(q)
                }
            }
        case .stroke(let style, let points, _):
            if let grid = Self.grid(points) {
                out.byte(Tag.gridStroke.rawValue)
                Self.encode(style, into: &out)
                out.byte(UInt8(grid.shift))
                out.uint32(UInt32(points.count))
                Self.encodeDifferences(grid.units, into: &out)
            } else {
                out.byte(Tag.stroke.rawValue)
                Self.encode(style, into: &out)
                out.uint32(UInt32(points.count))
                Self.encodeDoubles(points, into: &out)
            }
        case .shape(let style, let spec):
            out.byte(Tag.shape.rawValue)
            // However the step was made, its bytes name a version that knows its kind.
            Self.encode(style.recording(spec.kind), into: &out)
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
        case .canvas(let change):
            out.byte(Tag.canvas.rawValue)
            switch change {
            case .resize(let rect):
                out.byte(0)
                for v in [rect.x, rect.y, rect.width, rect.height] {
                    out.uint32(UInt32(bitPattern: Int32(clamping: v)))
                }
            case .scale(let w, let h):
                out.byte(1)
                out.uint32(UInt32(clamping: w))
                out.uint32(UInt32(clamping: h))
            case .orient(let o):
                out.byte(2)
                out.byte(o.code)
            }
        case .orientRect(let rect, let orientation, let dx, let dy):
            out.byte(Tag.orientRect.rawValue)
            for v in [rect.x, rect.y, rect.width, rect.height, dx, dy] {
                out.uint32(UInt32(bitPattern: Int32(clamping: v)))
            }
            out.byte(orientation.code)
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
        case .text(let style, let spec):
            out.byte(Tag.text.rawValue)
            Self.encode(style, into: &out)
            Self.encode(spec, into: &out)
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
            guard let v = Self.int32s(tag == .clearRect ? 4 : 6, &input), input.isAtEnd else { return nil }
            let rect = IntRect(x: v[0], y: v[1], width: v[2], height: v[3])
            self = tag == .clearRect ? .clearRect(rect) : .moveRect(rect, dx: v[4], dy: v[5])
        case .orientRect:
            guard let v = Self.int32s(6, &input), let code = input.byte(), let orientation = Orientation(code: code),
                input.isAtEnd
            else { return nil }
            self = .orientRect(IntRect(x: v[0], y: v[1], width: v[2], height: v[3]), orientation, dx: v[4], dy: v[5])
        case .canvas:
            // The sizes are checked against the image limits by the engine, before it allocates.
            switch input.byte() {
            case 0:
                guard let v = Self.int32s(4, &input), v[2] > 0, v[3] > 0, input.isAtEnd else { return nil }
                self = .canvas(.resize(IntRect(x: v[0], y: v[1], width: v[2], height: v[3])))
            case 1:
                guard let w = input.uint32(), let h = input.uint32(), w > 0, h > 0, input.isAtEnd else { return nil }
                self = .canvas(.scale(width: Int(w), height: Int(h)))
            case 2:
                guard let code = input.byte(), let o = Orientation(code: code), input.isAtEnd else { return nil }
                self = .canvas(.orient(o))
            default:
                return nil
            }
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
            guard let points = Self.decodeGrid(&input, count: Int(count), shift: Int(shift)) else { return nil }
            guard input.isAtEnd else { return nil }
            self = .stroke(style, points: points)
        case .text:
            guard let style = Self.decodeStyle(&input), let spec = Self.decodeText(&input), input.isAtEnd else {
                return nil
            }
            self = .text(style, spec)
        case .dynamicStroke:
            guard var style = Self.decodeStyle(&input), let flags = input.byte(), flags < 16,
                let window = input.byte(), StrokeDynamics.stabilizerRange.contains(Int(window)),
                let count = input.uint32(), let shift = input.byte(), shift <= 6,
                Int(count) * (shift == 0 ? 16 : 2) <= input.remaining
            else { return nil }
            style.dynamics = StrokeDynamics(
                curves: flags & 1 != 0, stabilizer: Int(window), pressureWidth: flags & 2 != 0,
                pressureOpacity: flags & 4 != 0)
            var points: [Point] = []
            points.reserveCapacity(Int(count))
            if shift == 0 {
                for _ in 0..<count {
                    guard let x = input.double(), let y = input.double() else { return nil }
                    points.append(Point(x: x, y: y))
                }
            } else {
                guard let decoded = Self.decodeGrid(&input, count: Int(count), shift: Int(shift)) else { return nil }
                points = decoded
            }
            var pressure: [UInt16] = []
            if flags & 8 != 0 {
                // Each value takes at least a byte.
                guard Int(count) <= input.remaining else { return nil }
                pressure.reserveCapacity(Int(count))
                var q: Int64 = 0
                for _ in 0..<count {
                    guard let d = input.zigzag(), (-65535...65535).contains(d), (0...65535).contains(q + d) else {
                        return nil
                    }
                    q += d
                    pressure.append(UInt16(q))
                }
            }
            guard input.isAtEnd else { return nil }
            self = .stroke(style, points: points, pressure: pressure)
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

    /// Decodes one operation of a log read back from disk, within `budget`: what its bytes
    /// declare (a stroke's point count, a text mask's or a picture's size) is checked before
    /// anything is reserved for it, then the decoded operation is counted. Throws the overrun
    /// once the log is over budget; nil for malformed bytes.
    public static func decoding(
        _ bytes: [UInt8], within budget: inout ReplayBudget
    ) throws(ReplayBudget.Overrun) -> Operation? {
        if let declared = declaredSize(bytes) {
            if let overrun = budget.admit(pointCount: declared.points) { throw overrun }
            if let overrun = budget.admit(decodedBytes: declared.bytes) { throw overrun }
        }
        guard let operation = Operation(decoding: bytes) else { return nil }
        if let overrun = budget.add(operation) { throw overrun }
        return operation
    }

    /// The points and the bytes an encoded operation will hold once decoded, read from its
    /// first bytes without decoding the rest; nil for an operation that holds nothing sizable,
    /// or bytes too short to say.
    static func declaredSize(_ bytes: [UInt8]) -> (points: Int, bytes: Int)? {
        var input = ByteReader(bytes)
        guard let raw = input.byte(), let tag = Tag(rawValue: raw) else { return nil }
        switch tag {
        case .stroke, .gridStroke:
            guard decodeStyle(&input) != nil, tag == .stroke || input.byte() != nil, let count = input.uint32()
            else { return nil }
            return (Int(count), Int(count) * MemoryLayout<Point>.stride)
        case .dynamicStroke:
            // Style, dynamics flags, stabilizer window, then the count; pressure (flag 8) adds a
            // value per point.
            guard decodeStyle(&input) != nil, let flags = input.byte(), input.byte() != nil, let count = input.uint32()
            else { return nil }
            let perPoint = MemoryLayout<Point>.stride + (flags & 8 != 0 ? MemoryLayout<UInt16>.stride : 0)
            return (Int(count), Int(count) * perPoint)
        case .text:
            guard decodeStyle(&input) != nil, int32s(4, &input) != nil, let w = input.uint32(), let h = input.uint32()
            else { return nil }
            return (0, Int(w) * Int(h))
        case .paste, .background:
            if tag == .paste {
                guard input.uint32() != nil, input.uint32() != nil else { return nil }
            } else {
                guard input.byte() == 2 else { return nil }
            }
            guard let w = input.uint32(), let h = input.uint32() else { return nil }
            return (0, Int(w) * Int(h) * 4)
        default:
            return nil
        }
    }

    /// `count` signed 32-bit values, or nil when cut short.
    private static func int32s(_ count: Int, _ input: inout ByteReader) -> [Int]? {
        var values: [Int] = []
        for _ in 0..<count {
            guard let u = input.uint32() else { return nil }
            values.append(Int(Int32(bitPattern: u)))
        }
        return values
    }

    /// Points in grid units as the differences between successive ones (zigzag varints).
    private static func encodeDifferences(_ units: [(x: Int64, y: Int64)], into out: inout ByteWriter) {
        var previous = (x: Int64(0), y: Int64(0))
        for h in units {
            out.zigzag(h.x - previous.x)
            out.zigzag(h.y - previous.y)
            previous = h
        }
    }

    /// Points as IEEE doubles.
    private static func encodeDoubles(_ points: [Point], into out: inout ByteWriter) {
        for p in points {
            out.double(p.x)
            out.double(p.y)
        }
    }

    /// `count` points on the grid of 1/2^shift pixel, as differences (zigzag varints).
    private static func decodeGrid(_ input: inout ByteReader, count: Int, shift: Int) -> [Point]? {
        let unit = Double(1 << shift)
        var points: [Point] = []
        points.reserveCapacity(count)
        var x: Int64 = 0
        var y: Int64 = 0
        for _ in 0..<count {
            // Bounded before adding: a hostile varint can decode to Int64.min.
            let step: ClosedRange<Int64> = -0x8000_0000...0x8000_0000
            guard let dx = input.zigzag(), let dy = input.zigzag(), step.contains(dx), step.contains(dy) else {
                return nil
            }
            x += dx
            y += dy
            guard abs(x) <= 0x4000_0000, abs(y) <= 0x4000_0000 else { return nil }
            points.append(Point(x: Double(x) / unit, y: Double(y) / unit))
        }
        return points
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

    /// Tool and drawing version, color, opacity and width: the part every drawn operation
    /// starts with. The first byte holds the tool in its low four bits (0 brush, 1 eraser) and
    /// the `DrawingVersion` less one in its high four: steps written before versions existed
    /// have 0 there and replay by version 1's rules, as they were drawn.
    private static func encode(_ style: StrokeStyle, into out: inout ByteWriter) {
        out.byte(UInt8(style.drawing.rawValue - 1) << 4 | (style.tool == .eraser ? 1 : 0))
        out.byte(style.color.r)
        out.byte(style.color.g)
        out.byte(style.color.b)
        out.double(style.opacity)
        out.double(style.width)
    }

    /// A text's box corner, its mask (place, size, then the coverage deflated, with its length),
    /// and what it was typed as: the family, size, bold and italic, and the text.
    private static func encode(_ spec: TextSpec, into out: inout ByteWriter) {
        let mask = spec.mask
        for v in [spec.x, spec.y, mask.x, mask.y] { out.uint32(UInt32(bitPattern: Int32(clamping: v))) }
        out.uint32(UInt32(mask.width))
        out.uint32(UInt32(mask.height))
        let deflated = Zlib.compress(mask.bytes) ?? []
        out.uint32(UInt32(deflated.count))
        out.append(deflated)
        out.string(spec.font.family)
        out.uint32(UInt32(spec.font.size))
        out.byte((spec.font.bold ? 1 : 0) | (spec.font.italic ? 2 : 0))
        out.string(spec.text)
    }

    /// Decodes `encode(_:into:)` of a text: the mask's size is checked against the image limits
    /// before anything is inflated, and it must inflate to exactly that many bytes.
    private static func decodeText(_ input: inout ByteReader) -> TextSpec? {
        var v: [Int] = []
        for _ in 0..<4 {
            guard let u = input.uint32() else { return nil }
            v.append(Int(Int32(bitPattern: u)))
        }
        guard let w = input.uint32(), let h = input.uint32(), w > 0, h > 0,
            ImageLimits.default.allows(width: Int(w), height: Int(h)), let count = input.uint32(),
            let deflated = input.take(Int(count))
        else { return nil }
        let (bytes, result) = Zlib.inflate(deflated, expected: Int(w) * Int(h))
        guard result == .ok, let bytes,
            let mask = CoverageMask(x: v[2], y: v[3], width: Int(w), height: Int(h), bytes: bytes),
            let family = input.string(maxBytes: TextSpec.maximumFamilyBytes), let size = input.uint32(),
            TextFont.sizes.contains(Int(size)), let flags = input.byte(), flags <= 3,
            let text = input.string(maxBytes: TextSpec.maximumTextBytes)
        else { return nil }
        let font = TextFont(family: family, size: Int(size), bold: flags & 1 != 0, italic: flags & 2 != 0)
        return TextSpec(mask: mask, text: text, font: font, x: v[0], y: v[1])
    }

    /// Decodes `encode(_:into:)` of a style; nil for an unknown tool or a drawing version this
    /// build does not know (a newer SwiftPaint's: `newerDrawingVersion` says which).
    private static func decodeStyle(_ input: inout ByteReader) -> StrokeStyle? {
        guard let first = input.byte(), first & 0x0F <= 1,
            let drawing = DrawingVersion(rawValue: Int(first >> 4) + 1), let r = input.byte(),
            let g = input.byte(), let b = input.byte(), let opacity = input.double(), let width = input.double(),
            opacity.isFinite, width.isFinite
        else { return nil }
        return StrokeStyle(
            tool: first & 0x0F == 1 ? .eraser : .brush, color: Color(r: r, g: g, b: b), opacity: opacity,
            width: width, drawing: drawing)
    }

    /// The drawing version an encoded drawn operation (stroke, shape, fill, text) says it was
    /// drawn by, when it is newer than any this build knows; nil otherwise. Lets a reader say
    /// that a step comes from a newer SwiftPaint rather than that it is damaged.
    public static func newerDrawingVersion(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2, let tag = Tag(rawValue: bytes[0]) else { return nil }
        switch tag {
        case .stroke, .gridStroke, .dynamicStroke, .shape, .fill, .text:
            let version = Int(bytes[1] >> 4) + 1
            return bytes[1] & 0x0F <= 1 && DrawingVersion(rawValue: version) == nil ? version : nil
        default:
            return nil
        }
    }
}

/// One committed change to a document: a value that serializes, and replays through the engine
/// to the same pixels, bit for bit, in the same build.
///
/// The journal appends these as they are committed; the history work builds on the same log.
public enum Operation: Equatable, Sendable {
    /// A brush or eraser stroke: its style and every pointer sample the engine received, with
    /// the pen's pressure at each (0...65535; empty for a device without pressure).
    case stroke(StrokeStyle, points: [Point], pressure: [UInt16] = [])
    /// A line, arrow (either dashed), rectangle or ellipse, drawn with the style's width and opacity.
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
    /// The canvas itself changed: cropped, given another size, scaled, turned or mirrored.
    case canvas(CanvasChange)
    /// The paint inside a rectangle lifted, the rectangle cleared, turned or mirrored, and laid
    /// over the paint with its top-left corner moved by (dx, dy): a selection turned or flipped
    /// (and perhaps dragged) before it was put down.
    case orientRect(IntRect, Orientation, dx: Int, dy: Int)
    /// A step back in the history (the journal records history moves so a restore lands on the
    /// same step); `History` carries them out, `apply(to:)` ignores them.
    case undo
    /// A step forward again.
    case redo
    /// The stroke recorded at history step `step` is taken out of the picture (the stroke
    /// eraser); what lies above and beneath it is re-rendered in its region.
    case removeStroke(step: Int)
    /// A piece of text from the text tool, merged like a stroke in the style's color and
    /// opacity (its width is not used): the spec's coverage, as rendered when it was typed.
    case text(StrokeStyle, TextSpec)

    // Adding an operation: the case here, its pixels in `apply(to:)` and `region(in:)` (the
    // compiler lists every switch that must hear of it, `History.perform` among them), and its
    // bytes in OperationCodec.swift (a new tag, never a reused one).

    /// Applies the operation to `engine` exactly as the live session did; returns the changed
    /// view rectangle.
    @discardableResult
    public func apply(to engine: StrokeEngine) -> IntRect {
        switch self {
        case .stroke(let style, let points, let pressure):
            guard let first = points.first else { return .empty }
            var dirty = engine.begin(style, at: first, pressure: Self.pressure(pressure, 0))
            // Fed as the window feeds the samples it reads at once (`DeferredPieces`): the
            // provisional tail to each sample is never stamped only to be taken back by the
            // next, and the pixels are the same byte for byte.
            for i in points.indices.dropFirst() {
                engine.move(to: points[i], pressure: Self.pressure(pressure, i), deferred: true)
            }
            dirty = dirty.union(engine.finishPath())
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
        case .text(let style, let spec):
            engine.beginText(style)
            let dirty = engine.updateText(spec.mask)
            engine.end()
            return dirty
        case .canvas(let change):
            return change.apply(to: engine)
        case .orientRect(let rect, let orientation, let dx, let dy):
            return engine.movePaint(rect, byX: dx, y: dy, orienting: orientation)
        case .undo, .redo, .removeStroke:
            return .empty
        }
    }

    /// Sample `i`'s pressure as the engine takes it: stored as 0...65535, 1 when none is.
    public static func pressure(_ pressure: [UInt16], _ i: Int) -> Double {
        i < pressure.count ? Double(pressure[i]) / 65535 : 1
    }

    /// Draws the operation into the stroke image and leaves it unmerged, as the live session
    /// does before the button is released; false for operations that are not drawn this way.
    func drawLive(into engine: StrokeEngine) -> Bool {
        switch self {
        case .stroke(let style, let points, let pressure):
            guard let first = points.first else { return false }
            engine.begin(style, at: first, pressure: Self.pressure(pressure, 0))
            for i in points.indices.dropFirst() {
                engine.move(to: points[i], pressure: Self.pressure(pressure, i), deferred: true)
            }
            engine.finishPath()
        case .shape(let style, let spec):
            engine.beginShape(style)
            engine.updateShape(spec)
        case .fill(let style, let point, let tolerance):
            engine.beginFill(style, at: point, tolerance: tolerance)
        case .text(let style, let spec):
            engine.beginText(style)
            engine.updateText(spec.mask)
        default:
            return false
        }
        return true
    }

    /// The canvas region the operation can change, known before it runs (for the history's
    /// before-snapshot): a stroke's samples grown by its radius and the anti-aliasing pixel.
    public func region(in engine: StrokeEngine) -> IntRect {
        switch self {
        case .stroke(let style, let points, _):
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
        case .clear, .fill, .background, .canvas:
            return engine.bounds
        case .paste(let image, let x, let y):
            return IntRect(x: x, y: y, width: image.width, height: image.height).intersection(engine.bounds)
        case .clearRect(let rect):
            return rect.intersection(engine.bounds)
        case .text(_, let spec):
            return spec.mask.bounds.intersection(engine.bounds)
        case .moveRect(let rect, let dx, let dy):
            return rect.union(IntRect(x: rect.x + dx, y: rect.y + dy, width: rect.width, height: rect.height))
                .intersection(engine.bounds)
        case .orientRect(let rect, let orientation, let dx, let dy):
            let (w, h) = orientation.size(width: rect.width, height: rect.height)
            return rect.union(IntRect(x: rect.x + dx, y: rect.y + dy, width: w, height: h)).intersection(engine.bounds)
        case .undo, .redo, .removeStroke:
            return .empty
        }
    }

    /// Whether the stroke eraser can take it out: strokes, shapes and text (its stored
    /// coverage replays without the font).
    var isRemovable: Bool {
        switch self {
        case .stroke, .shape, .text: return true
        default: return false
        }
    }
}

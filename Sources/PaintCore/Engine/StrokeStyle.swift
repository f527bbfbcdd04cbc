/// What a stroke does to the paint layer.
public enum StrokeTool: String, Sendable, Hashable, Codable {
    /// Paints the stroke's color.
    case brush
    /// Removes paint so the background shows through.
    case eraser
}

/// How a stroke turns its pointer samples into a line.
///
/// `straight` (all off) is how strokes were drawn before curves and pressure: round-capped
/// segments between the samples. Operations decoded from older journals and histories carry
/// it, so they replay to the same pixels.
public struct StrokeDynamics: Hashable, Sendable {
    /// A curve through the samples (quadratic pieces through the midpoints between them), so
    /// samples tens of pixels apart still make a round line.
    public var curves: Bool
    /// Stabilizer window in samples (0 or 1: off): each sample is replaced by the mean of the
    /// last `stabilizer` samples, so the line lags the pointer by at most that many; the
    /// release draws it on to where the pointer let go.
    public var stabilizer: Int
    /// Pen pressure sets the width (full pressure: the style's width).
    public var pressureWidth: Bool
    /// Pen pressure sets the strength (full pressure: the style's opacity).
    public var pressureOpacity: Bool

    /// The largest stabilizer window.
    public static let stabilizerRange = 0...32

    /// Round-capped segments between the samples, no pressure.
    public static let straight = StrokeDynamics()

    /// Makes dynamics; the stabilizer window is clamped to `stabilizerRange`.
    public init(curves: Bool = false, stabilizer: Int = 0, pressureWidth: Bool = false, pressureOpacity: Bool = false) {
        self.curves = curves
        self.stabilizer = min(max(stabilizer, Self.stabilizerRange.lowerBound), Self.stabilizerRange.upperBound)
        self.pressureWidth = pressureWidth
        self.pressureOpacity = pressureOpacity
    }
}

/// The drawing rules a recorded step is drawn by. A step keeps the version it was drawn with
/// (in its bytes: `OperationCodec.swift`), so a history or journal written by an older
/// SwiftPaint replays to exactly the pixels that version drew, and new steps use the new rules.
/// A change to how an operation draws takes the next version, never changes an old one. So does
/// a new kind of step that an older SwiftPaint cannot read (a new shape kind): steps of that
/// kind carry it (`ShapeKind.drawingVersion`), so the older one says the step is from a newer
/// SwiftPaint (`Operation.newerDrawingVersion`), not that it is damaged, while every other new
/// step keeps `current` and stays readable there.
public enum DrawingVersion: Int, Sendable, Hashable, Comparable, CaseIterable {
    /// Through session 6: rectangles with round corners (a capsule along each side), flood
    /// fills with a hard edge (full coverage on the matching pixels, nothing beyond).
    case session6 = 1
    /// Rectangles with square (mitred) outer corners; a flood fill's edge blends into the
    /// anti-aliased outline around it (`StrokeEngine.edgeCoverage`).
    case session7 = 2
    /// A flood fill's edge reaches across a soft outline up to `StrokeEngine.edgeReach` pixels
    /// and gives each pixel there exactly what the fill would have made of it under the outline
    /// (`StrokeEngine.filledEdgePixel`), not a least-squares coverage of one pixel.
    case session8 = 3
    /// A rectangle, and a horizontal or vertical line, of a whole-number width has its edges
    /// on pixel boundaries (`StrokeEngine.pixelAligned`): crisp, as MS Paint and KolourPaint
    /// draw them, where an even width centred on a pixel left half-strength edge rows.
    case session8b = 4
    /// Arrows (`ShapeKind.arrow`, `.dashedArrow`), which SwiftPaint before session 15 does not
    /// know. Draws everything exactly as version 4: only steps with an arrow carry it.
    case session15 = 5

    /// The rules new steps are drawn by (an arrow's step carries `ShapeKind.drawingVersion`).
    public static let current = DrawingVersion.session8b
    /// The newest version this build reads.
    public static let newest = DrawingVersion.session15

    public static func < (a: DrawingVersion, b: DrawingVersion) -> Bool { a.rawValue < b.rawValue }
}

/// Everything about a stroke except its points.
public struct StrokeStyle: Hashable, Sendable {
    /// Brush or eraser.
    public var tool: StrokeTool
    /// The paint color (ignored by the eraser).
    public var color: Color
    /// Opacity in (0, 1]; the whole stroke merges at this strength.
    public var opacity: Double
    /// Diameter in image pixels, at least 1.
    public var width: Double
    /// Curves, stabilizer and pressure (freehand strokes only).
    public var dynamics: StrokeDynamics
    /// The drawing rules: the current ones for a new step, the recorded ones for a replayed one.
    public var drawing: DrawingVersion

    /// Makes a style; opacity is clamped to [1/255, 1] and width to [1, 1000].
    public init(
        tool: StrokeTool = .brush, color: Color = .black, opacity: Double = 1, width: Double = 5,
        dynamics: StrokeDynamics = .straight, drawing: DrawingVersion = .current
    ) {
        self.tool = tool
        self.color = color
        self.opacity = opacity.isFinite ? min(max(opacity, 1.0 / 255), 1) : 1
        self.width = width.isFinite ? min(max(width, 1), 1000) : 1
        self.dynamics = dynamics
        self.drawing = drawing
    }

    /// The width at `pressure` (0...1): the style's, or, when pressure sets the width, that
    /// scaled by the pressure (1 px at least). The stroke is drawn so wide there, and zoomed in
    /// its point is put on the picture pixel by this width (`PixelSnap`).
    public func width(pressure: Double) -> Double {
        dynamics.pressureWidth ? max(1, width * min(max(pressure, 0), 1)) : width
    }

    /// Opacity as the 8-bit alpha the compositor uses.
    public var alpha8: UInt32 { UInt32((opacity * 255).rounded()) }

    /// The premultiplied source pixel: the opaque color, or nothing for the eraser.
    var sourcePixel: UInt32 { tool == .eraser ? 0 : color.pixel }
}

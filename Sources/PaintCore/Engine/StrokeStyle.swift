/// What a stroke does to the paint layer.
public enum StrokeTool: String, Sendable, Hashable, Codable {
    /// Paints the stroke's color.
    case brush
    /// Removes paint so the background shows through.
    case eraser
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

    /// Makes a style; opacity is clamped to [1/255, 1] and width to [1, 1000].
    public init(tool: StrokeTool = .brush, color: Color = .black, opacity: Double = 1, width: Double = 5) {
        self.tool = tool
        self.color = color
        self.opacity = opacity.isFinite ? min(max(opacity, 1.0 / 255), 1) : 1
        self.width = width.isFinite ? min(max(width, 1), 1000) : 1
    }

    /// Opacity as the 8-bit alpha the compositor uses.
    public var alpha8: UInt32 { UInt32((opacity * 255).rounded()) }

    /// The premultiplied source pixel: the opaque color, or nothing for the eraser.
    var sourcePixel: UInt32 { tool == .eraser ? 0 : color.pixel }
}

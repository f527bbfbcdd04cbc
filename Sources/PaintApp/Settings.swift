import PaintCore
import PaintIO

/// What the user paints with: the tool, the colors, width, opacity, tolerance and the shape
/// toggles. A plain value, the same whatever document is open; every change goes through a
/// mutating method that clamps it and says whether anything changed.
public struct Settings: Equatable, Sendable {
    public var tool: Tool = .brush
    public var primary: Color = .black
    public var secondary: Color = .white
    /// Brush diameter in image pixels, 1...200.
    public private(set) var brushWidth: Double = 5
    /// Opacity in percent, 1...100.
    public private(set) var opacityPercent = 100
    /// Flood fill tolerance, 0 (exact) ... 255: the width slider sets it while the fill tool is on.
    public private(set) var fillTolerance = 32
    /// Rectangles and ellipses filled (toolbar toggle).
    public var shapeFilled = false
    /// Lines and arrows dashed (toolbar toggle).
    public var lineDashed = false
    /// The text tool's font: family, size, bold and italic.
    public var textFont = TextFont.standard
    /// A pen's pressure sets the brush width (toolbar toggle; a mouse has no pressure).
    public var pressureWidth = true
    /// A pen's pressure sets the stroke's strength (toolbar toggle).
    public var pressureOpacity = false
    /// Freehand strokes are curves through the pointer's samples, not straight pieces.
    public var roundStrokes = true
    /// The stabilizer's window in samples (0: off); see `StrokeDynamics.stabilizer`.
    public private(set) var stabilizer = 0
    /// The stabilizer's steps, off first (the status bar's field goes through them).
    public static let stabilizerSteps = [0, 4, 8, 16]
    /// The last colors used, most recent first (at most `Layout.recentCount`).
    public private(set) var recentColors: [Color] = []
    /// The JPEG quality last chosen, 1...100: what the quality question offers next.
    public private(set) var jpegQuality = SaveOptions.defaultQuality
    /// The WebP quality last chosen, 1...100, 100 lossless (the first offer: a painted picture
    /// keeps every pixel; a photo is smaller at 80 or so).
    public private(set) var webpQuality = Self.defaultWebPQuality
    /// The WebP quality before any is chosen: lossless. Any other in the settings file was
    /// chosen (typed into the question, or written into the file by hand) and is offered for
    /// every picture, one from a JPEG too (`Session.offersLossyWebP`); this one, which every
    /// run writes back whether chosen or not, leaves a JPEG's picture offered lossy 90.
    public static let defaultWebPQuality = 100

    /// The defaults of a new start: brush, black on white, 5 px, 100 %.
    public init() {}

    /// The style the next stroke with `button` would use.
    public func strokeStyle(for button: PointerButton) -> StrokeStyle {
        StrokeStyle(
            tool: tool.strokeTool, color: button == .right ? secondary : primary,
            opacity: Double(opacityPercent) / 100, width: brushWidth)
    }

    /// The style of a freehand stroke with `button`: the stroke style with the curves, the
    /// stabilizer, and (for a pen, `pressure`) the pressure toggles.
    public func freehandStyle(for button: PointerButton, pressure: Bool) -> StrokeStyle {
        var style = strokeStyle(for: button)
        style.dynamics = StrokeDynamics(
            curves: roundStrokes, stabilizer: stabilizer, pressureWidth: pressure && pressureWidth,
            pressureOpacity: pressure && pressureOpacity)
        return style
    }

    /// Sets the stabilizer's window (clamped to `StrokeDynamics.stabilizerRange`); whether it
    /// changed.
    @discardableResult
    public mutating func setStabilizer(_ window: Int) -> Bool {
        Self.update(&stabilizer, to: StrokeDynamics(stabilizer: window).stabilizer)
    }

    /// Sets the brush width (rounded, clamped to 1...200); whether it changed.
    @discardableResult
    public mutating func setWidth(_ w: Double) -> Bool {
        Self.update(&brushWidth, to: min(max(w.rounded(), 1), 200))
    }

    /// Sets the opacity in percent (clamped to 1...100); whether it changed.
    @discardableResult
    public mutating func setOpacity(_ percent: Int) -> Bool {
        Self.update(&opacityPercent, to: min(max(percent, 1), 100))
    }

    /// Sets the JPEG quality (clamped to 1...100); whether it changed.
    @discardableResult
    public mutating func setJPEGQuality(_ value: Int) -> Bool {
        Self.update(&jpegQuality, to: min(max(value, 1), 100))
    }

    /// Sets the WebP quality (clamped to 1...100; 100 is lossless); whether it changed.
    @discardableResult
    public mutating func setWebPQuality(_ value: Int) -> Bool {
        Self.update(&webpQuality, to: min(max(value, 1), 100))
    }

    /// The quality the question offers for `format`.
    func quality(for format: ImageFormat) -> Int { format == .webp ? webpQuality : jpegQuality }

    /// Sets the quality a save as `format` uses (WebP's, else JPEG's); whether it changed.
    @discardableResult
    mutating func setQuality(_ value: Int, for format: ImageFormat) -> Bool {
        format == .webp ? setWebPQuality(value) : setJPEGQuality(value)
    }

    /// Sets the fill tolerance (clamped to 0...255); whether it changed.
    @discardableResult
    public mutating func setTolerance(_ value: Int) -> Bool {
        Self.update(&fillTolerance, to: min(max(value, 0), 255))
    }

    /// Stores `value` in `field`; whether that changed it (the setters' answer: a change
    /// redraws and is saved, the same value does nothing).
    private static func update<T: Equatable>(_ field: inout T, to value: T) -> Bool {
        guard field != value else { return false }
        field = value
        return true
    }

    /// Sets the text size (clamped to the slider's 4...400 px); whether it changed.
    @discardableResult
    public mutating func setTextSize(_ size: Int) -> Bool {
        Self.update(&textFont.size, to: min(max(size, 4), 400))
    }

    /// The step of the text size for `[` (down) or `]`: about 10 %, so `]` then `[` comes back.
    public func textSizeStep(down: Bool) -> Int {
        let size = down ? textFont.size - 1 : textFont.size
        return max(1, Int((Double(size) * 0.1).rounded()))
    }

    /// The color `button` paints with set to `color` (right: secondary, else primary).
    public mutating func setColor(_ color: Color, for button: PointerButton) {
        if button == .right { secondary = color } else { primary = color }
    }

    /// Puts `color` first among the recent colors; whether the list changed.
    @discardableResult
    public mutating func remember(_ color: Color) -> Bool {
        guard recentColors.first != color else { return false }
        recentColors.removeAll { $0 == color }
        recentColors.insert(color, at: 0)
        if recentColors.count > Layout.recentCount { recentColors.removeLast() }
        return true
    }

    /// The next width for `[` (down) or `]`: steps grow with the width, so the keys feel the
    /// same at 3 px and at 150 px.
    public func widthStep(down: Bool) -> Double {
        let w = down ? brushWidth - 1 : brushWidth
        return max(1, (w * 0.15).rounded())
    }

    // MARK: Sliders

    /// The scale of a toolbar slider as it stands (the width slider sets the tolerance while
    /// the fill tool is on); nil for an item that is not a slider.
    public func scale(of item: ToolbarItem) -> SliderScale? {
        switch item {
        case .widthSlider:
            guard tool.hasWidth else { return nil }
            return tool == .fill ? .tolerance : tool == .text ? .textSize : .width
        case .opacitySlider: return .opacity
        default: return nil
        }
    }

    /// The value a slider shows, in its scale's units.
    public func value(of scale: SliderScale) -> Double {
        switch scale {
        case .width: return brushWidth
        case .tolerance: return Double(fillTolerance)
        case .opacity: return Double(opacityPercent)
        case .textSize: return Double(textFont.size)
        }
    }

    /// Sets what a slider's scale measures; whether it changed.
    @discardableResult
    public mutating func set(_ scale: SliderScale, to value: Double) -> Bool {
        switch scale {
        case .width: return setWidth(value)
        case .tolerance: return setTolerance(Int(value))
        case .opacity: return setOpacity(Int(value))
        case .textSize: return setTextSize(Int(value))
        }
    }
}

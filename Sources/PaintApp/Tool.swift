import PaintCore

/// A tool on the toolbar.
public enum Tool: String, Sendable, CaseIterable {
    case brush, eraser, strokeEraser, line, arrow, select, rectangle, ellipse, fill, picker, text

    /// The name shown in tooltips and the status bar.
    public var title: String {
        switch self {
        case .brush: return "Brush"
        case .eraser: return "Eraser"
        case .strokeEraser: return "Stroke eraser: click a stroke to remove it"
        case .line: return "Line (Shift: 15° steps; dashed: the toggle)"
        case .arrow: return "Arrow: drag from the tail to the point (Shift: 15° steps; dashed: the toggle)"
        case .rectangle: return "Rectangle (Shift: square)"
        case .ellipse: return "Ellipse (Shift: circle)"
        case .fill: return "Fill (tolerance on the slider)"
        case .picker: return "Color picker (left: primary, right: secondary)"
        case .select: return "Select a rectangle: drag it to move, Delete clears, Ctrl+C / Ctrl+X copy / cut"
        case .text:
            return
                "Text: click to place a box and type; Esc cancels, a click outside puts it down; double click text to edit it"
        }
    }

    /// The key that selects it, as the tooltip names it.
    public var key: String {
        switch self {
        case .brush: return "B"
        case .eraser: return "E"
        case .strokeEraser: return "Shift+E"
        case .line: return "L"
        case .arrow: return "A"
        case .rectangle: return "R"
        case .ellipse: return "O"
        case .fill: return "F"
        case .picker: return "I"
        case .select: return "S"
        case .text: return "T"
        }
    }

    /// The shape it draws, for the shape tools.
    var shapeKind: ShapeKind? {
        switch self {
        case .line: return .line
        case .arrow: return .arrow
        case .rectangle: return .rectangle
        case .ellipse: return .ellipse
        default: return nil
        }
    }

    /// Whether the toolbar's width slider sets anything for it: a brush's or a shape's width, the
    /// fill's tolerance, the text's size. The picker, the selection and the stroke eraser have
    /// no width: the slider is shown disabled for them (MS Paint greys its size control).
    public var hasWidth: Bool {
        switch self {
        case .picker, .select, .strokeEraser: return false
        case .brush, .eraser, .line, .arrow, .rectangle, .ellipse, .fill, .text: return true
        }
    }

    /// What it is called in a sentence of the status bar.
    var name: String {
        switch self {
        case .brush: return "The brush"
        case .eraser: return "The eraser"
        case .strokeEraser: return "The stroke eraser"
        case .line: return "The line"
        case .arrow: return "The arrow"
        case .rectangle: return "The rectangle"
        case .ellipse: return "The ellipse"
        case .fill: return "The fill"
        case .picker: return "The color picker"
        case .select: return "The selection"
        case .text: return "The text tool"
        }
    }

    /// What its strokes do in the engine.
    var strokeTool: StrokeTool { self == .eraser ? .eraser : .brush }
}

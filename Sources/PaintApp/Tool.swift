import PaintCore

/// A tool on the toolbar.
public enum Tool: String, Sendable, CaseIterable {
    case brush, eraser, strokeEraser

    /// The name shown in tooltips and the status bar.
    public var title: String {
        switch self {
        case .brush: return "Brush"
        case .eraser: return "Eraser"
        case .strokeEraser: return "Stroke eraser: click a stroke to remove it"
        }
    }

    /// The key that selects it, as the tooltip names it.
    public var key: String {
        switch self {
        case .brush: return "B"
        case .eraser: return "E"
        case .strokeEraser: return "Shift+E"
        }
    }

    /// What its strokes do in the engine.
    var strokeTool: StrokeTool { self == .eraser ? .eraser : .brush }
}

import PaintCore

/// A tool on the toolbar.
public enum Tool: String, Sendable, CaseIterable {
    case brush, eraser

    /// The name shown in tooltips and the status bar.
    public var title: String {
        switch self {
        case .brush: return "Brush"
        case .eraser: return "Eraser"
        }
    }

    /// The key that selects it.
    public var key: Character {
        switch self {
        case .brush: return "B"
        case .eraser: return "E"
        }
    }

    /// What its strokes do in the engine.
    var strokeTool: StrokeTool { self == .eraser ? .eraser : .brush }
}

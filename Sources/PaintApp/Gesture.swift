import PaintCore

/// What the pointer is doing from a press to its release: one value, made by the press, that
/// motion and release switch over. Between gestures it is `idle`.
///
/// A new kind of drag is a new case here, the press that starts it, and its arm in
/// `Session.handleMotion` and `Session.handleRelease` (the compiler asks for both).
enum Gesture {
    /// No button is held (or what it was doing has ended).
    case idle
    /// A brush or eraser stroke.
    case stroke(LiveStroke)
    /// A line, rectangle or ellipse dragged out from a point.
    case shape(LiveShape)
    /// A toolbar slider's knob dragged.
    case slider(ToolbarItem)
    /// A toolbar button held down: it acts when released over it.
    case button(ToolbarItem)
    /// The picture dragged with the middle button: where the press was, and the scroll offset
    /// then.
    case pan(x: Int, y: Int, scrollX: Int, scrollY: Int)
    /// A scrollbar's thumb dragged: its axis, where the press was, and the offset then.
    case scrollbar(Scrollbar.Axis, x: Int, y: Int, offset: Int)
    /// A selection dragged out from this image pixel.
    case selecting(anchorX: Int, anchorY: Int)
    /// The floating picture dragged, held this far from its top-left corner.
    case dragFloating(grabX: Int, grabY: Int)
    /// A slider in the color editor panel dragged.
    case editor
    /// A press on the frame of the text box being typed (its margin): past a few pixels of
    /// motion the box follows the pointer, held this far from its top-left corner.
    case textBox(grabX: Int, grabY: Int, pressX: Int, pressY: Int, moving: Bool)
    /// A press on the text of the box being typed: the selection runs from `anchor` (a scalar
    /// offset in its text) to the pointer.
    case selectingText(anchor: Int)

    /// A stroke in progress: the button and its style. Its samples are the session's
    /// `strokeSamples`, beside the gesture rather than in it.
    struct LiveStroke {
        var button: PointerButton
        var style: StrokeStyle
    }

    /// Every sample the engine has received for the stroke in progress (what the journal
    /// records when it is committed). Kept out of the gesture so that each motion event appends
    /// to its arrays where they are: grown inside the enum's payload, the stroke had to be moved
    /// out of the gesture and back per event (~250 instructions, two retains and releases).
    struct StrokeSamples {
        var points: [Point] = []
        /// The pen's pressure at each point, as stored (empty for a mouse).
        var pressure: [UInt16] = []
    }

    /// A shape in progress: the button, its style, where the drag started and the shape drawn
    /// last (nil until the first one is drawn).
    struct LiveShape {
        var button: PointerButton
        var style: StrokeStyle
        var from: Point
        var spec: ShapeSpec?
    }

    /// The button that paints, while a stroke or shape is in progress.
    var paintingButton: PointerButton? {
        switch self {
        case .stroke(let s): return s.button
        case .shape(let s): return s.button
        default: return nil
        }
    }

    /// The toolbar item shown pressed.
    var pressedItem: ToolbarItem? {
        switch self {
        case .slider(let item), .button(let item): return item
        default: return nil
        }
    }
}

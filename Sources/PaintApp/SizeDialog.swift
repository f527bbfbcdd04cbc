import PaintCore

/// The picture size dialog: scale the picture, or change the canvas around it (Ctrl+R,
/// Ctrl+Shift+R). Width, height and percent are typed, stepped with the arrow keys, or dragged
/// (drag a field's label sideways); keep aspect ties width and height together; on the canvas
/// tab a 3 x 3 anchor says where the picture stays. Enter accepts, Escape cancels. A value type
/// the session drives, like `ColorEditor`; coordinates are local to its panel.
public struct SizeDialog: Equatable {
    /// What the dialog changes.
    public enum Kind: Int, CaseIterable, Sendable {
        /// The picture is scaled to the new size.
        case scale
        /// The canvas is cut or extended around the picture.
        case canvas

        var title: String { self == .scale ? "Scale picture" : "Canvas size" }
    }
    /// A number field.
    public enum Field: Int, CaseIterable, Sendable {
        case width, height, percent

        var label: String { ["Width", "Height", "Percent"][rawValue] }
        var unit: String { self == .percent ? "%" : "px" }
    }
    /// What a key or click asks of the session.
    public enum Action: Equatable, Sendable {
        /// Change the canvas so.
        case accept(CanvasChange)
        case cancel
    }

    public private(set) var kind: Kind
    /// The picture's size when the dialog opened.
    public let originalWidth: Int
    public let originalHeight: Int
    /// Width, height and percent as typed.
    public private(set) var fields: [TextField]
    /// The field that has the keyboard.
    public private(set) var focus = Field.width
    /// Whether width and height change together: on the tab shown.
    public var keepsAspect: Bool { keepsAspectOn[kind.rawValue] }
    /// Keep aspect on each tab. Scaling starts with it on (a scaled picture keeps its shape);
    /// the canvas starts with it off, as GIMP's Canvas Size does: room is usually added on
    /// one side (a wider strip, a taller page) without the other changing.
    private var keepsAspectOn = Kind.allCases.map { $0 == .scale }
    /// Where the picture stays on a new canvas: 0 top left … 4 centre … 8 bottom right.
    public private(set) var anchor = 4
    /// The sizes allowed.
    public let limits: ImageLimits
    /// How large it is drawn.
    public let scale: UIScale
    /// A label being dragged: which field, where the press was, the value then.
    private var scrub: Scrub?
    /// The field typed in last: an empty percent is a problem only when it is (the width and
    /// height then still show the last percent that could be used).
    private var lastEdited = Field.width

    struct Scrub: Equatable {
        let field: Field
        let startX: Int
        let startValue: Double
    }

    /// A dialog for a width x height picture.
    public init(kind: Kind, width: Int, height: Int, limits: ImageLimits = .default, scale: UIScale = .one) {
        self.kind = kind
        originalWidth = max(1, width)
        originalHeight = max(1, height)
        self.limits = limits
        self.scale = scale
        fields = [TextField(String(width)), TextField(String(height)), TextField("100")]
        fields[0].selectAll()
    }

    // MARK: Values

    /// A field's text as a number, nil when it is not one: digits with at most one decimal
    /// point (a pasted `0x10`, `1e3`, `-5` or `12 px` is no size, where `Double` would read
    /// some of them).
    public func number(_ field: Field) -> Double? {
        let text = fields[field.rawValue].text.trimmingSpaces
        guard !text.isEmpty, text.count <= 40,
            text.allSatisfy({ $0 == "." || ("0"..."9").contains($0) }),
            text.filter({ $0 == "." }).count <= 1, text != ".",
            let value = Double(text), value.isFinite
        else { return nil }
        return value
    }

    /// The new size, when width and height are whole numbers of at least 1 (and small enough
    /// to count in an `Int`; `problem` says when they are too large for a picture).
    public var size: (width: Int, height: Int)? {
        guard problem(of: .width) == nil, problem(of: .height) == nil, let w = number(.width),
            let h = number(.height)
        else { return nil }
        return (Int(w), Int(h))
    }

    /// What is wrong with one field's text, in words; nil when nothing is. The percent is
    /// wrong when it is not a number above 0, and when it was the last field typed in and is
    /// empty (it is blank on its own, and right, when the sides are not one percent apart).
    public func problem(of field: Field) -> String? {
        let value = number(field)
        if field == .percent {
            if value == nil && fields[field.rawValue].text.trimmingSpaces.isEmpty && lastEdited != .percent {
                return nil
            }
            return (value ?? 0) > 0 ? nil : "The percent must be a number above 0, as 50 or 12.5"
        }
        guard let value, value >= 1, value == value.rounded() else {
            return "The \(field.label.lowercased()) must be a whole number of pixels, 1 or more"
        }
        return value > 1e9 ? tooLarge : nil
    }

    /// The first field with a problem, marked in the dialog.
    public var problemField: Field? { Field.allCases.first { problem(of: $0) != nil } }

    private var tooLarge: String {
        "Too large: at most \(limits.maxSide) px a side, \(limits.maxPixels / 1_000_000) million pixels"
    }

    /// Why the size cannot be used, in words; nil when it can. While there is one, OK is
    /// dimmed and Enter does nothing.
    public var problem: String? {
        if let field = problemField { return problem(of: field) }
        guard let (w, h) = size else { return "Width and height are whole numbers of pixels, 1 or more" }
        guard limits.allows(width: w, height: h) else { return tooLarge }
        if kind == .scale,
            !Resampler.canScale(width: originalWidth, height: originalHeight, toWidth: w, height: h)
        {
            return "Too small: a side shrinks at most \(Resampler.maxShrink) times"
        }
        return nil
    }

    /// The change the dialog describes; nil while there is a problem or nothing would change.
    public var change: CanvasChange? {
        guard problem == nil, let (w, h) = size, w != originalWidth || h != originalHeight else { return nil }
        switch kind {
        case .scale:
            return .scale(width: w, height: h)
        case .canvas:
            // The old picture's corner in the new canvas, by the anchor's column and row; the
            // new canvas as a rectangle of the old one.
            func offset(_ cell: Int, _ old: Int, _ new: Int) -> Int {
                cell == 0 ? 0 : cell == 1 ? (old - new) >> 1 : old - new
            }
            let x = offset(anchor % 3, originalWidth, w)
            let y = offset(anchor / 3, originalHeight, h)
            return .resize(IntRect(x: x, y: y, width: w, height: h))
        }
    }

    /// Sets a field to `value` (as typed) and brings the others in line.
    public mutating func set(_ field: Field, to value: Double) {
        fields[field.rawValue] = TextField(Self.format(value, field))
        follow(field)
    }

    /// After `field` changed: with keep aspect, a width or height carries the other along;
    /// the percent sets both; the percent shows the width's (blank when the sides disagree).
    mutating func follow(_ field: Field) {
        lastEdited = field
        switch field {
        case .percent:
            guard let p = number(.percent), p > 0 else { return }
            fields[0] = TextField(Self.format(Double(originalWidth) * p / 100, .width))
            fields[1] = TextField(Self.format(Double(originalHeight) * p / 100, .height))
        case .width, .height:
            guard let v = number(field), v > 0 else { return }
            let other: Field = field == .width ? .height : .width
            let (mine, theirs) =
                field == .width ? (originalWidth, originalHeight) : (originalHeight, originalWidth)
            if keepsAspect {
                fields[other.rawValue] = TextField(Self.format(v * Double(theirs) / Double(mine), other))
            }
            let percent = v / Double(mine) * 100
            let otherPercent = (number(other) ?? 0) / Double(theirs) * 100
            fields[Field.percent.rawValue] = TextField(
                abs(percent - otherPercent) < 0.5 ? Self.format(percent, .percent) : "")
        }
    }

    /// A value as its field shows it: whole pixels (at least 1), a percent to one decimal.
    static func format(_ value: Double, _ field: Field) -> String {
        guard value.isFinite else { return "" }
        if field == .percent {
            let tenths = (value * 10).rounded()
            return tenths.truncatingRemainder(dividingBy: 10) == 0
                ? String(Int(tenths / 10)) : String(tenths / 10)
        }
        return String(Int(max(1, min(value.rounded(), 1e9))))
    }

    // MARK: Input

    /// A key: Enter accepts (when the size can be used), Escape cancels, Tab moves between the
    /// fields, Up and Down step the number (Shift: by 10), Alt+K turns keep aspect on or off,
    /// the rest edits the field.
    public mutating func key(_ key: Key, _ modifiers: Modifiers = []) -> Action? {
        switch key {
        case .enter:
            if let change { return .accept(change) }
            return problem == nil ? .cancel : nil
        case .escape:
            return .cancel
        case .character(let c) where modifiers == .alt && c.lowercased() == "k":
            // The keyboard's way to the box, as Alt+H is to the file dialog's history box.
            toggleKeepAspect()
        case .tab:
            let all = Field.allCases
            let step = modifiers.contains(.shift) ? all.count - 1 : 1
            focusField(all[(focus.rawValue + step) % all.count])
        case .up, .down:
            let step = (modifiers.contains(.shift) ? 10.0 : 1.0) * (key == .up ? 1 : -1)
            let now = number(focus) ?? 0
            set(focus, to: max(1, now + step))
            fields[focus.rawValue].selectAll()
        default:
            var edited = fields[focus.rawValue]
            guard edited.handle(key, modifiers) else { return nil }
            fields[focus.rawValue] = edited
            follow(focus)
        }
        return nil
    }

    /// Types `text` into the focused field (a paste).
    public mutating func paste(_ text: String) {
        fields[focus.rawValue].insert(text)
        follow(focus)
    }

    mutating func focusField(_ field: Field) {
        focus = field
        fields[field.rawValue].selectAll()
    }

    /// A press at (x, y) in the panel.
    public mutating func press(x: Int, y: Int) -> Action? {
        if acceptButton.contains(x, y) { return key(.enter) }
        if cancelButton.contains(x, y) { return .cancel }
        for k in Kind.allCases where tab(k).contains(x, y) {
            guard k != kind else { return nil }
            kind = k
            // The other tab's keep aspect may be on where this one's was off: the side not
            // being typed follows, as turning it on does.
            if keepsAspect { follow(focus == .height ? .height : .width) }
            return nil
        }
        for field in Field.allCases {
            if box(field).contains(x, y) {
                focusField(field)
                return nil
            }
            if label(field).contains(x, y) {
                focusField(field)
                scrub = Scrub(field: field, startX: x, startValue: number(field) ?? 0)
                return nil
            }
        }
        if keepAspectBox.contains(x, y) {
            toggleKeepAspect()
            return nil
        }
        if kind == .canvas, let cell = (0..<9).first(where: { anchorCell($0).contains(x, y) }) {
            anchor = cell
        }
        return nil
    }

    /// Keep aspect on or off (a click on its box, Alt+K); turned on, the side not being typed
    /// follows the one that is.
    mutating func toggleKeepAspect() {
        keepsAspectOn[kind.rawValue].toggle()
        if keepsAspect { follow(focus == .height ? .height : .width) }
    }

    /// Pointer motion with the button held: a dragged label changes its number, one pixel or
    /// one percent for every pixel of motion.
    public mutating func drag(x: Int) {
        guard let scrub else { return }
        let moved = Double(x - scrub.startX) / scale.factor
        set(scrub.field, to: max(1, scrub.startValue + moved))
        fields[scrub.field.rawValue].selectAll()
    }

    /// The button came up.
    public mutating func release() { scrub = nil }

    /// Whether a label is being dragged.
    public var isDragging: Bool { scrub != nil }

    // MARK: Geometry (panel coordinates, designed at 96 dpi and scaled)

    static let baseWidth = 320
    static let baseHeight = 262

    private func scaled(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> IntRect {
        let x0 = scale.px(Double(x))
        let y0 = scale.px(Double(y))
        return IntRect(x: x0, y: y0, width: scale.px(Double(x + w)) - x0, height: scale.px(Double(y + h)) - y0)
    }

    public var width: Int { scale.px(Double(Self.baseWidth)) }
    public var height: Int { scale.px(Double(Self.baseHeight)) }
    /// The two tabs at the top.
    public func tab(_ k: Kind) -> IntRect { scaled(16 + k.rawValue * 112, 12, 108, 26) }
    /// A field's label (drag it to change the number).
    public func label(_ field: Field) -> IntRect { scaled(16, 52 + field.rawValue * 32, 64, 24) }
    /// A field's box.
    public func box(_ field: Field) -> IntRect { scaled(82, 52 + field.rawValue * 32, 84, 24) }
    public var keepAspectBox: IntRect { scaled(16, 150, 140, 20) }
    /// One of the nine anchor cells (row-major).
    public func anchorCell(_ cell: Int) -> IntRect { scaled(214 + cell % 3 * 30, 76 + cell / 3 * 30, 26, 26) }
    public var acceptButton: IntRect { scaled(Self.baseWidth - 168, Self.baseHeight - 40, 72, 26) }
    public var cancelButton: IntRect { scaled(Self.baseWidth - 88, Self.baseHeight - 40, 72, 26) }
}

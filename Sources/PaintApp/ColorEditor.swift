import Glibc
import PaintCore

/// The custom color editor: RGB and HSV sliders, a hex field, and the old and new color side by
/// side. A value type driven by the session; coordinates are local to its panel.
public struct ColorEditor: Equatable {
    /// Which color it edits.
    public enum Target: Sendable { case primary, secondary }
    /// A slider.
    public enum Channel: Int, CaseIterable, Sendable {
        case red, green, blue, hue, saturation, value

        var label: String { ["R", "G", "B", "H", "S", "V"][rawValue] }
        /// The largest value the slider shows.
        var maximum: Double { [255, 255, 255, 360, 100, 100][rawValue] }
    }
    /// What a click or key asks of the session.
    public enum Action: Sendable { case accept, cancel }

    /// The panel's size at 96 dpi.
    static let baseWidth = 300
    static let baseHeight = 250

    public let target: Target
    /// How large it is drawn (its geometry and text scale with the interface).
    public let scale: UIScale
    /// The color when the editor opened.
    public let original: Color
    public private(set) var color: Color
    /// Hue in degrees, saturation and value 0...1, kept separately so the hue survives grays.
    public private(set) var hue: Double
    public private(set) var saturation: Double
    public private(set) var value: Double
    /// The hex field; typing a full `#rrggbb` or `#rgb` (the `#` optional) sets the color.
    public private(set) var hex: TextField {
        didSet { hexProblem = nil }
    }
    /// Why Enter or OK did not take the hex field's code (it is incomplete or not hex): the
    /// field is framed in red and the status bar says it, until the field or color changes.
    public private(set) var hexProblem: String?
    private var dragging: Channel?

    /// An editor for `color`, drawn at interface scale `scale`.
    public init(target: Target, color: Color, scale: UIScale = .one) {
        self.target = target
        self.scale = scale
        original = color
        self.color = color
        (hue, saturation, value) = Self.hsv(color)
        hex = Self.hexField(color)
    }

    /// The hex field showing `color`, its text selected: a code typed replaces it (the caret at
    /// its end, typing `ff8800` made `#000000ff8800`, which is no color).
    static func hexField(_ color: Color) -> TextField {
        var field = TextField(color.hex)
        field.selectAll()
        return field
    }

    // MARK: Geometry (panel coordinates, designed at 96 dpi and scaled)

    /// A 96-dpi rectangle at this editor's scale, its edges on whole pixels.
    private func scaled(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> IntRect {
        let x0 = scale.px(Double(x))
        let y0 = scale.px(Double(y))
        return IntRect(x: x0, y: y0, width: scale.px(Double(x + w)) - x0, height: scale.px(Double(y + h)) - y0)
    }
    /// The panel's width and height.
    public var width: Int { Self.size(scale).width }
    public var height: Int { Self.size(scale).height }
    /// The panel's size at interface scale `scale`.
    public static func size(_ scale: UIScale) -> (width: Int, height: Int) {
        (scale.px(Double(baseWidth)), scale.px(Double(baseHeight)))
    }
    /// A slider's track.
    public func track(_ channel: Channel) -> IntRect { scaled(40, 72 + channel.rawValue * 22, 190, 14) }
    /// Old color (left) and new color (right).
    public var preview: IntRect { scaled(16, 34, 120, 28) }
    public var hexField: IntRect { scaled(180, 36, 104, 24) }
    public var acceptButton: IntRect { scaled(Self.baseWidth - 168, Self.baseHeight - 40, 72, 26) }
    public var cancelButton: IntRect { scaled(Self.baseWidth - 88, Self.baseHeight - 40, 72, 26) }

    // MARK: Input

    /// A button press inside the panel.
    public mutating func press(x: Int, y: Int) -> Action? {
        if acceptButton.contains(x, y) { return accept() }
        if cancelButton.contains(x, y) { return .cancel }
        let s8 = scale.px(8)
        let s4 = scale.px(4)
        for channel in Channel.allCases {
            let r = track(channel)
            if IntRect(x: r.x - s8, y: r.y - s4, width: r.width + 2 * s8, height: r.height + 2 * s4).contains(x, y) {
                takeTypedCode()
                dragging = channel
                set(channel, atX: x)
                return nil
            }
        }
        return nil
    }

    /// Pointer motion with the button held.
    public mutating func drag(x: Int) {
        if let channel = dragging { set(channel, atX: x) }
    }

    /// The button came up.
    public mutating func release() { dragging = nil }

    /// A key: Enter accepts, Escape cancels, the rest edits the hex field.
    public mutating func key(_ key: Key, _ modifiers: Modifiers = []) -> Action? {
        switch key {
        case .enter: return accept()
        case .escape: return .cancel
        default:
            var edited = hex
            guard edited.handle(key, modifiers) else { return nil }
            hex = edited
            // Only a full six-digit code is shown while typing: `#336` is on the way to
            // `#3366cc` and would flash #333366. A three-digit code is taken on Enter, OK or
            // a slider (as GIMP takes its hex entry on Enter or focus out).
            if Self.sixDigits(hex.text), let parsed = Self.code(hex.text) { setColor(parsed, keepHex: true) }
            return nil
        }
    }

    /// Whether `text` is six hex digits (the `#` optional, spaces around ignored): a code no
    /// further typing completes differently.
    static func sixDigits(_ text: String) -> Bool {
        let trimmed = text.trimmingSpaces
        let digits = trimmed.hasPrefix("#") ? trimmed.dropFirst() : Substring(trimmed)
        return digits.count == 6 && digits.allSatisfy(\.isHexDigit)
    }

    /// The hex field's code taken as the color, when it names one (a three-digit code typed
    /// is taken here: Enter, OK, or leaving the field for a slider).
    private mutating func takeTypedCode() {
        if let parsed = Self.code(hex.text), parsed != color { setColor(parsed, keepHex: true) }
    }

    /// Pastes `text` into the hex field (Ctrl+V).
    public mutating func paste(_ text: String) {
        hex.insert(text)
        if let parsed = Self.code(hex.text) { setColor(parsed, keepHex: true) }
    }

    /// The color the hex field's text names: `#rrggbb` or `#rgb`, the `#` optional, spaces
    /// around ignored.
    static func code(_ text: String) -> Color? {
        let trimmed = text.trimmingSpaces
        return Color(hex: trimmed.hasPrefix("#") ? trimmed : "#" + trimmed)
    }

    /// Enter or OK: the color is taken when the hex field names one. An incomplete or wrong
    /// code is refused (said, the field marked) rather than the last complete code typed
    /// silently taken in its place.
    mutating func accept() -> Action? {
        guard Self.code(hex.text) == nil else {
            takeTypedCode()
            return .accept
        }
        hexProblem = "“\(hex.text.trimmingSpaces)” is no color: type 6 hex digits as #ff8800, or 3 as #f80"
        return nil
    }

    /// Sets a channel from a pointer position along its track.
    mutating func set(_ channel: Channel, atX x: Int) {
        let r = track(channel)
        let t = min(max(Double(x - r.x) / Double(r.width - 1), 0), 1)
        set(channel, to: t * channel.maximum)
    }

    /// Sets one channel's value (in the slider's units).
    public mutating func set(_ channel: Channel, to v: Double) {
        let v = min(max(v, 0), channel.maximum)
        switch channel {
        case .red: setColor(Color(r: UInt8(v.rounded()), g: color.g, b: color.b))
        case .green: setColor(Color(r: color.r, g: UInt8(v.rounded()), b: color.b))
        case .blue: setColor(Color(r: color.r, g: color.g, b: UInt8(v.rounded())))
        case .hue, .saturation, .value:
            if channel == .hue { hue = v }
            if channel == .saturation { saturation = v / 100 }
            if channel == .value { value = v / 100 }
            color = Self.rgb(hue: hue, saturation: saturation, value: value)
            hex = Self.hexField(color)
        }
    }

    /// A channel's value in the slider's units.
    public func value(of channel: Channel) -> Double {
        switch channel {
        case .red: return Double(color.r)
        case .green: return Double(color.g)
        case .blue: return Double(color.b)
        case .hue: return hue
        case .saturation: return saturation * 100
        case .value: return value * 100
        }
    }

    private mutating func setColor(_ c: Color, keepHex: Bool = false) {
        color = c
        let (h, s, v) = Self.hsv(c)
        // A gray has no hue: keep the one the user had.
        if s > 0 { hue = h }
        saturation = s
        value = v
        if !keepHex { hex = Self.hexField(c) }
    }

    // MARK: HSV

    /// Hue in degrees (0..<360), saturation and value 0...1.
    static func hsv(_ c: Color) -> (Double, Double, Double) {
        let r = Double(c.r) / 255
        let g = Double(c.g) / 255
        let b = Double(c.b) / 255
        let maxC = max(r, g, b)
        let minC = min(r, g, b)
        let delta = maxC - minC
        var h = 0.0
        if delta > 0 {
            if maxC == r {
                h = 60 * ((g - b) / delta).truncatingRemainder(dividingBy: 6)
            } else if maxC == g {
                h = 60 * ((b - r) / delta + 2)
            } else {
                h = 60 * ((r - g) / delta + 4)
            }
        }
        if h < 0 { h += 360 }
        return (h, maxC == 0 ? 0 : delta / maxC, maxC)
    }

    /// The color of a hue (degrees), saturation and value (0...1).
    static func rgb(hue: Double, saturation s: Double, value v: Double) -> Color {
        let h = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 60
        let c = v * s
        let x = c * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let m = v - c
        let (r, g, b): (Double, Double, Double)
        switch Int(h) {
        case 0: (r, g, b) = (c, x, 0)
        case 1: (r, g, b) = (x, c, 0)
        case 2: (r, g, b) = (0, c, x)
        case 3: (r, g, b) = (0, x, c)
        case 4: (r, g, b) = (x, 0, c)
        default: (r, g, b) = (c, 0, x)
        }
        func byte(_ u: Double) -> UInt8 { UInt8(min(max(((u + m) * 255).rounded(), 0), 255)) }
        return Color(r: byte(r), g: byte(g), b: byte(b))
    }

    // MARK: Drawing

    /// The panel drawn: pixels and text, in local coordinates.
    public func render(measure: TextMeasuring) -> ChromeStrip { drawn(measure: measure).strip }

    /// Places the hex field's cursor at `index` (a click in it; Shift: extends the selection).
    public mutating func moveCursor(to index: Int, extending: Bool) {
        hex.moveCursor(to: index, extending: extending)
    }

    /// Selects the word of the hex field around `index` (a double click in it).
    public mutating func selectWord(at index: Int) { hex.selectWord(at: index) }

    /// The panel drawn, and its hex field as drawn (where a click lands in its text), in local
    /// coordinates.
    func drawn(measure: TextMeasuring) -> (strip: ChromeStrip, field: TextFieldView) {
        let s = scale
        var p = ChromePainter(width: width, height: height, background: Color(r: 0xFA, g: 0xFA, b: 0xFB))
        var texts: [TextRun] = []
        p.strokeRoundedRect(
            0.5, 0.5, Double(width) - 1, Double(height) - 1, radius: 0, lineWidth: 1, Theme.border)
        texts.append(
            TextRun(
                text: target == .primary ? "Primary color" : "Secondary color", x: s.px(16), baseline: s.px(22),
                color: Theme.text,
                bold: true))
        let pv = preview
        p.fill(IntRect(x: pv.x, y: pv.y, width: pv.width / 2, height: pv.height), original)
        p.fill(IntRect(x: pv.x + pv.width / 2, y: pv.y, width: pv.width - pv.width / 2, height: pv.height), color)
        p.strokeRoundedRect(
            Double(pv.x) + 0.5, Double(pv.y) + 0.5, Double(pv.width) - 1, Double(pv.height) - 1, radius: 0,
            lineWidth: 1, Theme.border)
        texts.append(TextRun(text: "Hex", x: s.px(148), baseline: s.px(53), color: Theme.dimText, bold: false))
        let hf = hexField
        let field = TextFieldView.draw(
            hex, preedit: nil, frame: IntRect(x: hf.x, y: hf.y, width: hf.width - 1, height: hf.height - 1),
            baseline: hf.y + s.px(17), painter: &p, texts: &texts, measure: measure)
        if hexProblem != nil {
            PanelButtons.markProblem(
                IntRect(x: hf.x, y: hf.y, width: hf.width - 1, height: hf.height - 1), scale: s, painter: &p)
        }
        for channel in Channel.allCases {
            let r = track(channel)
            // Each track shows what moving along it would give.
            for i in 0..<r.width {
                var probe = self
                probe.set(channel, to: Double(i) / Double(r.width - 1) * channel.maximum)
                p.fill(IntRect(x: r.x + i, y: r.y + s.px(3), width: 1, height: r.height - 2 * s.px(3)), probe.color)
            }
            p.strokeRoundedRect(
                Double(r.x) + 0.5, Double(r.y + s.px(3)) + 0.5, Double(r.width) - 1, Double(r.height - 2 * s.px(3)) - 1,
                radius: 0,
                lineWidth: 1, Theme.border)
            let knob = Double(r.x) + Double(r.width - 1) * value(of: channel) / channel.maximum
            p.fillCircle(knob, Double(r.y) + Double(r.height) / 2, radius: s.d(6), .white)
            p.strokeCircle(knob, Double(r.y) + Double(r.height) / 2, radius: s.d(6), lineWidth: s.d(1.2), Theme.icon)
            texts.append(
                TextRun(text: channel.label, x: s.px(18), baseline: r.y + s.px(11), color: Theme.dimText, bold: true))
            texts.append(
                TextRun(
                    text: String(Int(value(of: channel).rounded())), x: r.maxX + s.px(14), baseline: r.y + s.px(11),
                    color: Theme.text, bold: false))
        }
        for (rect, label, isDefault) in [(acceptButton, "OK", true), (cancelButton, "Cancel", false)] {
            PanelButtons.button(
                rect, label, isDefault: isDefault, scale: s, painter: &p, texts: &texts, measure: measure)
        }
        return (ChromeStrip(pixels: p.image, texts: texts), field)
    }
}

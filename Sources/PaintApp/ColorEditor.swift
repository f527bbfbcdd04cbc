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

    public static let width = 300
    public static let height = 250

    public let target: Target
    /// The color when the editor opened.
    public let original: Color
    public private(set) var color: Color
    /// Hue in degrees, saturation and value 0...1, kept separately so the hue survives grays.
    public private(set) var hue: Double
    public private(set) var saturation: Double
    public private(set) var value: Double
    /// The hex field; typing a full `#rrggbb` sets the color.
    public private(set) var hex: TextField
    private var dragging: Channel?

    /// An editor for `color`.
    public init(target: Target, color: Color) {
        self.target = target
        original = color
        self.color = color
        (hue, saturation, value) = Self.hsv(color)
        hex = TextField(color.hex)
    }

    // MARK: Geometry

    /// A slider's track.
    public static func track(_ channel: Channel) -> IntRect {
        IntRect(x: 40, y: 72 + channel.rawValue * 22, width: 190, height: 14)
    }
    /// Old color (left) and new color (right).
    public static let preview = IntRect(x: 16, y: 34, width: 120, height: 28)
    public static let hexField = IntRect(x: 180, y: 36, width: 104, height: 24)
    public static let acceptButton = IntRect(x: Self.width - 168, y: Self.height - 40, width: 72, height: 26)
    public static let cancelButton = IntRect(x: Self.width - 88, y: Self.height - 40, width: 72, height: 26)

    // MARK: Input

    /// A button press inside the panel.
    public mutating func press(x: Int, y: Int) -> Action? {
        if Self.acceptButton.contains(x, y) { return .accept }
        if Self.cancelButton.contains(x, y) { return .cancel }
        for channel in Channel.allCases {
            let r = Self.track(channel)
            if IntRect(x: r.x - 8, y: r.y - 4, width: r.width + 16, height: r.height + 8).contains(x, y) {
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
        case .enter: return .accept
        case .escape: return .cancel
        default:
            _ = hex.handle(key, modifiers)
            if let parsed = Color(hex: hex.text.trimmingSpaces) { setColor(parsed, keepHex: true) }
            return nil
        }
    }

    /// Pastes `text` into the hex field (Ctrl+V).
    public mutating func paste(_ text: String) {
        hex.insert(text)
        if let parsed = Color(hex: hex.text.trimmingSpaces) { setColor(parsed, keepHex: true) }
    }

    /// Sets a channel from a pointer position along its track.
    mutating func set(_ channel: Channel, atX x: Int) {
        let r = Self.track(channel)
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
            hex = TextField(color.hex)
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
        if !keepHex { hex = TextField(c.hex) }
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
    public func render(measure: TextMeasuring) -> ChromeStrip {
        var p = ChromePainter(width: Self.width, height: Self.height, background: Color(r: 0xFA, g: 0xFA, b: 0xFB))
        var texts: [TextRun] = []
        p.strokeRoundedRect(
            0.5, 0.5, Double(Self.width) - 1, Double(Self.height) - 1, radius: 0, lineWidth: 1, Theme.border)
        texts.append(
            TextRun(
                text: target == .primary ? "Primary color" : "Secondary color", x: 16, baseline: 22, color: Theme.text,
                bold: true))
        let pv = Self.preview
        p.fill(IntRect(x: pv.x, y: pv.y, width: pv.width / 2, height: pv.height), original)
        p.fill(IntRect(x: pv.x + pv.width / 2, y: pv.y, width: pv.width - pv.width / 2, height: pv.height), color)
        p.strokeRoundedRect(
            Double(pv.x) + 0.5, Double(pv.y) + 0.5, Double(pv.width) - 1, Double(pv.height) - 1, radius: 0,
            lineWidth: 1, Theme.border)
        texts.append(TextRun(text: "Hex", x: 148, baseline: 53, color: Theme.dimText, bold: false))
        let hf = Self.hexField
        _ = TextFieldView.draw(
            hex, preedit: nil, frame: IntRect(x: hf.x, y: hf.y, width: hf.width - 1, height: hf.height - 1),
            baseline: hf.y + 17, painter: &p, texts: &texts, measure: measure)
        for channel in Channel.allCases {
            let r = Self.track(channel)
            // Each track shows what moving along it would give.
            for i in 0..<r.width {
                var probe = self
                probe.set(channel, to: Double(i) / Double(r.width - 1) * channel.maximum)
                p.fill(IntRect(x: r.x + i, y: r.y + 3, width: 1, height: r.height - 6), probe.color)
            }
            p.strokeRoundedRect(
                Double(r.x) + 0.5, Double(r.y) + 3.5, Double(r.width) - 1, Double(r.height) - 7, radius: 0,
                lineWidth: 1, Theme.border)
            let knob = Double(r.x) + Double(r.width - 1) * value(of: channel) / channel.maximum
            p.fillCircle(knob, Double(r.y) + Double(r.height) / 2, radius: 6, .white)
            p.strokeCircle(knob, Double(r.y) + Double(r.height) / 2, radius: 6, lineWidth: 1.2, Theme.icon)
            texts.append(TextRun(text: channel.label, x: 18, baseline: r.y + 11, color: Theme.dimText, bold: true))
            texts.append(
                TextRun(
                    text: String(Int(value(of: channel).rounded())), x: r.maxX + 14, baseline: r.y + 11,
                    color: Theme.text, bold: false))
        }
        for (rect, label, isDefault) in [(Self.acceptButton, "OK", true), (Self.cancelButton, "Cancel", false)] {
            p.fillRoundedRect(
                Double(rect.x) + 0.5, Double(rect.y) + 0.5, Double(rect.width) - 1, Double(rect.height) - 1, radius: 4,
                isDefault ? Theme.activeFill : .white)
            p.strokeRoundedRect(
                Double(rect.x) + 0.5, Double(rect.y) + 0.5, Double(rect.width) - 1, Double(rect.height) - 1, radius: 4,
                lineWidth: 1, isDefault ? Theme.activeBorder : Theme.border)
            let w = measure.width(of: label, bold: isDefault)
            texts.append(
                TextRun(
                    text: label, x: rect.x + (rect.width - w) / 2, baseline: rect.y + 17, color: Theme.text,
                    bold: isDefault))
        }
        return ChromeStrip(pixels: p.image, texts: texts)
    }
}

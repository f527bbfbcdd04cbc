/// The font a piece of text is set in, as the user chose it: a family name, a size and the
/// bold and italic switches. Which file that is, is fontconfig's answer on this machine.
public struct TextFont: Hashable, Sendable {
    /// The family name as fontconfig lists it ("DejaVu Sans").
    public var family: String
    /// The em size in image pixels, within `sizes`.
    public var size: Int
    /// A bold face (or the regular one emboldened where the family has none).
    public var bold: Bool
    /// An italic or oblique face (or the upright one slanted where the family has none).
    public var italic: Bool

    /// The sizes the text tool offers, in pixels.
    public static let sizes = 4...1000

    /// Makes a font choice; the size is clamped to `sizes`.
    public init(family: String, size: Int, bold: Bool = false, italic: Bool = false) {
        self.family = family
        self.size = min(max(size, Self.sizes.lowerBound), Self.sizes.upperBound)
        self.bold = bold
        self.italic = italic
    }

    /// What a new text box starts with.
    public static let standard = TextFont(family: "DejaVu Sans", size: 32)
}

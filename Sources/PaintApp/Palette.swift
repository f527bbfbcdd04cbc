import PaintCore

/// The toolbar's color swatches: two rows of ten, dark row over light row (MS Paint's order).
public enum Palette {
    public static let colors: [Color] = [
        "#000000", "#7f7f7f", "#880015", "#ed1c24", "#ff7f27", "#fff200", "#22b14c", "#00a2e8", "#3f48cc", "#a349a4",
        "#ffffff", "#c3c3c3", "#b97a57", "#ffaec9", "#ffc90e", "#efe4b0", "#b5e61d", "#99d9ea", "#7092be", "#c8bfe7",
    ].compactMap { Color(hex: $0) }

    /// Swatches per row.
    public static let columns = 10
}

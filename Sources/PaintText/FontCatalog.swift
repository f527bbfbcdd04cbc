import CFontconfig
import PaintCore

/// Where a font lives on this machine, as fontconfig matched it, and the synthetic styling
/// fontconfig asks for when the family has no real bold or italic face.
public struct FontFile: Hashable, Sendable {
    /// The font file.
    public var path: String
    /// The face inside a collection file (0 for a plain font file).
    public var index: Int
    /// The family the file belongs to (not the one asked for when fontconfig substituted).
    public var family: String
    /// Bold asked for and the face is not bold: thicken the outlines.
    public var embolden: Bool
    /// The horizontal shear fontconfig's transform asks for (about 0.2 for a synthetic
    /// oblique), 0 for none.
    public var shear: Double
}

/// The installed font families and the file for a family, weight and slant, through
/// fontconfig (the same answers every other program on the desktop gets).
///
/// Owns its own fontconfig configuration; not for sharing between threads.
public final class FontCatalog {
    private let config: OpaquePointer?
    private var cachedFamilies: [String]?
    private var fallbacks: [FallbackKey: FontFile?] = [:]

    private struct FallbackKey: Hashable {
        var scalar: UInt32
        var bold: Bool
        var italic: Bool
    }

    /// Loads the system's fontconfig configuration and font list.
    public init() {
        config = FcInitLoadConfigAndFonts()
    }

    deinit {
        if let config { FcConfigDestroy(config) }
    }

    /// Every family with outline (scalable) fonts, sorted case-insensitively, each name once.
    ///
    /// A font with several family names ("DejaVu Sans" and "DejaVu Sans Condensed") adds each
    /// English or untagged one, so a condensed or light cut can be chosen by name; bitmap-only
    /// fonts (which cannot be drawn at any size) are left out.
    public var families: [String] {
        if let cachedFamilies { return cachedFamilies }
        var names = Set<String>()
        if let config, let pattern = FcPatternCreate() {
            FcPatternAddBool(pattern, FC_OUTLINE, FcBool(FcTrue))
            if let objects = FcObjectSetCreate() {
                FcObjectSetAdd(objects, FC_FAMILY)
                FcObjectSetAdd(objects, FC_FAMILYLANG)
                if let set = FcFontList(config, pattern, objects) {
                    for i in 0..<Int(set.pointee.nfont) {
                        guard let font = set.pointee.fonts[i] else { continue }
                        names.formUnion(Self.englishFamilies(of: font))
                    }
                    FcFontSetDestroy(set)
                }
                FcObjectSetDestroy(objects)
            }
            FcPatternDestroy(pattern)
        }
        let sorted = names.sorted {
            $0.lowercased() < $1.lowercased() || ($0.lowercased() == $1.lowercased() && $0 < $1)
        }
        cachedFamilies = sorted
        return sorted
    }

    /// The families whose name contains every word of `query` (case-insensitive), in list
    /// order; all of them for an empty query.
    public func families(matching query: String) -> [String] {
        let words = query.lowercased().split(separator: " ")
        guard !words.isEmpty else { return families }
        return families.filter { name in
            let lower = name.lowercased()
            return words.allSatisfy { lower.contains($0) }
        }
    }

    /// The outline font file fontconfig picks for `font`'s family, weight and slant (another
    /// family when the asked-for one is not installed: fontconfig's substitute, as every
    /// desktop program gets); nil only when no outline font is installed at all.
    public func match(_ font: TextFont) -> FontFile? {
        best(family: font.family, bold: font.bold, italic: font.italic, covering: nil)
    }

    /// An outline font that has a glyph for `scalar`, as close to `font`'s family and style as
    /// fontconfig can find (the fallback for a letter the chosen font lacks); nil when no
    /// installed font has it. Remembered per character.
    public func fallback(for scalar: UInt32, like font: TextFont) -> FontFile? {
        let key = FallbackKey(scalar: scalar, bold: font.bold, italic: font.italic)
        if let known = fallbacks[key] { return known }
        let found = best(family: font.family, bold: font.bold, italic: font.italic, covering: scalar)
        if fallbacks.count > 4096 { fallbacks.removeAll() }
        fallbacks[key] = found
        return found
    }

    /// fontconfig's sorted list for the request, first outline font (holding `scalar` when
    /// given), with the configuration's font edits (synthetic bold and oblique) applied.
    private func best(family: String, bold: Bool, italic: Bool, covering scalar: UInt32?) -> FontFile? {
        guard let config, let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        FcPatternAddString(pattern, FC_FAMILY, family)
        FcPatternAddInteger(pattern, FC_WEIGHT, bold ? FC_WEIGHT_BOLD : FC_WEIGHT_REGULAR)
        FcPatternAddInteger(pattern, FC_SLANT, italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN)
        if let scalar, let charset = FcCharSetCreate() {
            FcCharSetAddChar(charset, scalar)
            FcPatternAddCharSet(pattern, FC_CHARSET, charset)
            FcCharSetDestroy(charset)
        }
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultMatch
        guard let set = FcFontSort(config, pattern, FcBool(FcFalse), nil, &result) else { return nil }
        defer { FcFontSetDestroy(set) }
        for i in 0..<Int(set.pointee.nfont) {
            guard let candidate = set.pointee.fonts[i] else { continue }
            var outline = FcBool(FcFalse)
            guard FcPatternGetBool(candidate, FC_OUTLINE, 0, &outline) == FcResultMatch, outline != 0 else {
                continue
            }
            if let scalar {
                var charset: OpaquePointer?
                guard FcPatternGetCharSet(candidate, FC_CHARSET, 0, &charset) == FcResultMatch, let charset,
                    FcCharSetHasChar(charset, scalar) != 0
                else { continue }
            }
            guard let prepared = FcFontRenderPrepare(config, pattern, candidate) else { continue }
            defer { FcPatternDestroy(prepared) }
            if let file = Self.fontFile(prepared) { return file }
        }
        return nil
    }

    /// Path, index, family and synthetic styling of a prepared font pattern.
    private static func fontFile(_ font: OpaquePointer) -> FontFile? {
        guard let path = string(font, FC_FILE, 0) else { return nil }
        var index: Int32 = 0
        if FcPatternGetInteger(font, FC_INDEX, 0, &index) != FcResultMatch { index = 0 }
        var embolden = FcBool(FcFalse)
        if FcPatternGetBool(font, FC_EMBOLDEN, 0, &embolden) != FcResultMatch { embolden = FcBool(FcFalse) }
        var shear = 0.0
        var matrix: UnsafeMutablePointer<FcMatrix>?
        if FcPatternGetMatrix(font, FC_MATRIX, 0, &matrix) == FcResultMatch, let m = matrix?.pointee,
            m.xy.isFinite, abs(m.xy) < 1
        {
            shear = m.xy
        }
        return FontFile(
            path: path, index: Int(max(0, index)), family: string(font, FC_FAMILY, 0) ?? "",
            embolden: embolden != 0, shear: shear)
    }

    /// The English (or untagged) family names of a listed font; its first name when it has
    /// only names in other languages.
    private static func englishFamilies(of font: OpaquePointer) -> [String] {
        var names: [String] = []
        var n: Int32 = 0
        while let name = string(font, FC_FAMILY, n) {
            let lang = string(font, FC_FAMILYLANG, n)
            if lang == nil || lang == "en" || lang?.hasPrefix("en-") == true { names.append(name) }
            n += 1
        }
        if names.isEmpty, let first = string(font, FC_FAMILY, 0) { names.append(first) }
        return names
    }

    private static func string(_ pattern: OpaquePointer, _ object: String, _ n: Int32) -> String? {
        var value: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, object, n, &value) == FcResultMatch, let value else { return nil }
        return String(cString: value)
    }
}

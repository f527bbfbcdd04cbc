import PaintCore
import Testing

@testable import PaintText

/// Font families and files through fontconfig (fonts-dejavu-core is installed by `make deps`).
@Suite struct FontCatalogTests {
    @Test func listsInstalledFamiliesOnceEachSorted() {
        let families = FontCatalog().families
        #expect(families.contains("DejaVu Sans"))
        #expect(families.contains("DejaVu Serif"))
        #expect(families.contains("DejaVu Sans Mono"))
        #expect(Set(families).count == families.count)
        #expect(
            families
                == families.sorted {
                    $0.lowercased() < $1.lowercased() || ($0.lowercased() == $1.lowercased() && $0 < $1)
                })
    }

    @Test func searchMatchesEveryWordIgnoringCase() {
        let catalog = FontCatalog()
        #expect(catalog.families(matching: "mono DEJAVU").contains("DejaVu Sans Mono"))
        #expect(!catalog.families(matching: "mono dejavu").contains("DejaVu Serif"))
        #expect(catalog.families(matching: "no such font at all").isEmpty)
        #expect(catalog.families(matching: "  ") == catalog.families)
    }

    @Test func matchesBoldAndItalicFaces() throws {
        let catalog = FontCatalog()
        let dejavu = "/usr/share/fonts/truetype/dejavu/"
        let plain = try #require(catalog.match(TextFont(family: "DejaVu Sans", size: 20)))
        #expect(plain.path == dejavu + "DejaVuSans.ttf")
        #expect(!plain.embolden && plain.shear == 0)
        let bold = try #require(catalog.match(TextFont(family: "DejaVu Sans", size: 20, bold: true)))
        #expect(bold.path == dejavu + "DejaVuSans-Bold.ttf")
        let italic = try #require(catalog.match(TextFont(family: "DejaVu Serif", size: 20, italic: true)))
        #expect(italic.path == dejavu + "DejaVuSerif-Italic.ttf")
        let both = try #require(catalog.match(TextFont(family: "DejaVu Sans Mono", size: 20, bold: true, italic: true)))
        #expect(both.path == dejavu + "DejaVuSansMono-BoldOblique.ttf")
    }

    /// A family that is not installed still gives a font: fontconfig's substitute.
    @Test func unknownFamilyGetsASubstitute() throws {
        let file = try #require(FontCatalog().match(TextFont(family: "No Such Family 12345", size: 20)))
        #expect(file.family != "No Such Family 12345")
        #expect(file.path.hasPrefix("/"))
    }

    @Test func fallbackFindsAFontWithTheLetter() throws {
        let catalog = FontCatalog()
        let hebrew = try #require(catalog.fallback(for: 0x05D0, like: TextFont(family: "DejaVu Serif", size: 20)))
        #expect(hebrew.family == "DejaVu Sans")
        // A private-use code point no installed font draws.
        #expect(catalog.fallback(for: 0x10_FFFD, like: TextFont.standard) == nil)
    }
}

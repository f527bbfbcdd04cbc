import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// A photo whose EXIF orientation turns it, cut in the middle: the rows read are the file's
/// first rows, which the turn puts at the picture's top, bottom, left or right. What opens
/// holds them there, and the message says them in the picture's terms ("only the left 101 of
/// 203 columns"), not the file's.
@Suite struct TurnedDamageTests {
    /// Where the rows a file stores first lie once its EXIF orientation turns it.
    static let edges: [Int: String] = [
        1: "top", 2: "top", 3: "bottom", 4: "bottom", 5: "left", 6: "right", 7: "right", 8: "left",
    ]

    @Test(arguments: 1...8)
    func aTurnedPhotoCutInTheMiddleSaysAndHoldsTheSideRead(exif: Int) throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests-turned")
        defer { folder.remove() }
        // Stored 150 x 203, baseline (its rows come in order).
        let jpeg = try JPEGBandTests.retagged(JPEGBandTests.bytes("gray-baseline-6", "jpg"), exif)
        let whole = try ImageDecoder.decode(jpeg, name: "whole").image
        let cut = Array(jpeg[..<(jpeg.count / 2)])
        let path = StreamedOpeningTests.file(folder, "cut.jpg", cut)
        let decoded = try ImageDecoder.decode(cut, name: path)
        let damage = try #require(decoded.damage, "exif \(exif): opened whole")
        #expect(damage.orientation == Orientation(exif: exif) && damage.inOrder && damage.height == 203)
        #expect(damage.rowsRead > 20 && damage.rowsRead < 183, "exif \(exif): \(damage.rowsRead) rows")
        // From memory in tiles and from the file as the window opens it: the same.
        let tiled = try ImageDecoder.decodeTiles(cut, name: path)
        let opened = try ImageFile.openTiles(path: path)
        #expect(tiled.damage == damage && opened.damage == damage, "exif \(exif)")
        #expect(tiled.picture.image == decoded.image && opened.picture.image == decoded.image, "exif \(exif)")

        // The part read: the whole file's pixels there, white everywhere else.
        let image = decoded.image
        let part = try #require(damage.part(width: image.width, height: image.height))
        let turned = exif >= 5
        #expect((image.width, image.height) == (turned ? (203, 150) : (150, 203)))
        let n = damage.rowsRead
        let expectedPart: IntRect
        switch Self.edges[exif] {
        case "top": expectedPart = IntRect(x: 0, y: 0, width: 150, height: n)
        case "bottom": expectedPart = IntRect(x: 0, y: 203 - n, width: 150, height: n)
        case "left": expectedPart = IntRect(x: 0, y: 0, width: n, height: 150)
        default: expectedPart = IntRect(x: 203 - n, y: 0, width: n, height: 150)
        }
        #expect(part == expectedPart, "exif \(exif): \(part)")
        var wrong = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                let want = part.contains(x, y) ? whole[x, y] : Color.white.pixel
                if image[x, y] != want { wrong += 1 }
            }
        }
        #expect(wrong == 0, "exif \(exif): \(wrong) pixels neither the whole file's where read nor white elsewhere")
        // What the turned picture shows is what the message says.
        let what =
            turned ? "\(Self.edges[exif] ?? "") \(n) of 203 columns" : "\(Self.edges[exif] ?? "") \(n) of 203 rows"
        #expect(
            damage.message(name: "photo.jpg").hasPrefix("“photo.jpg” is damaged: only the \(what) could be read ("),
            "exif \(exif): \(damage.message(name: "photo.jpg"))")
    }
}

import Foundation
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// Edit ▸ Paste as New Picture (Ctrl+Shift+V), GIMP's Paste as New Image: the clipboard's
/// picture becomes a picture of its own, its size, and keeps its transparency in the file saved.
@Suite struct PasteAsNewPictureTests {
    typealias T = SessionTests

    /// 40 x 30: opaque red on the left, half-transparent red in the middle, nothing on the right.
    static func transparentPicture() -> PixelImage {
        var image = PixelImage(width: 40, height: 30)
        for y in 0..<30 {
            for x in 0..<40 { image[x, y] = x < 20 ? 0xFFDC_1E1E : x < 30 ? 0x8080_0000 : 0 }
        }
        return image
    }

    /// The color type in a PNG's IHDR (2: RGB, 6: RGBA).
    static func colorType(_ png: [UInt8]) -> UInt8? { png.count > 25 ? png[25] : nil }

    @Test func aTransparentPictureBecomesANewPictureSavedWithItsAlpha() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = T.makeSession(width: 120, height: 80)
        T.drag(s, [(10, 10), (100, 60)])
        let drawn = Array(s.engine.viewPixels)
        let picture = Self.transparentPicture()
        #expect(T.key(s, "v", [.control, .shift]).clipboard == [.fetch], "it asks for the clipboard")
        s.pasteNow(png: try PNGCodec.encode(picture, withAlpha: true))
        // The drawing is not saved: asked first, as New is; Cancel keeps it as it was.
        #expect(s.mode.answers == [.save, .discard, .cancel], "\(s.mode)")
        s.answer(.cancel)
        #expect(s.engine.width == 120 && Array(s.engine.viewPixels) == drawn && !s.isPlacingPaste)
        T.key(s, "v", [.control, .shift])
        s.pasteNow(png: try PNGCodec.encode(picture, withAlpha: true))
        s.answer(.discard)
        // A new untitled picture, the paste's size, holding exactly the paste.
        #expect(s.engine.width == 40 && s.engine.height == 30 && s.path == nil && !s.isPlacingPaste)
        #expect(s.engine.background == .transparent)
        #expect(s.engine.paintImage() == picture)
        #expect(s.isModified && s.message.hasPrefix("New picture from the clipboard, 40 × 30"), "\(s.message)")

        let file = dir + "/pasted.png"
        #expect(s.save(to: file))
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(Self.colorType(bytes) == 6, "saved as RGBA")
        let saved = try PNGCodec.decode(bytes, name: file)
        #expect(saved == picture, "every pixel's alpha as pasted")
        #expect(saved[0, 0] >> 24 == 255 && saved[25, 10] >> 24 == 128 && saved[35, 20] >> 24 == 0)
        // One step: undo leaves the empty (transparent) canvas.
        T.key(s, "z", .control)
        #expect(s.engine.paintImage() == PixelImage(width: 40, height: 30))
    }

    /// The crop and the paste keep alpha themselves: on a transparent background, a paste
    /// larger than the picture cropped to (Ctrl+Shift+X) saves exactly its pixels, alpha and all.
    /// On the white page a new picture starts with, it is flattened onto the white, as in GIMP.
    @Test func aPasteCroppedToOnATransparentBackgroundKeepsItsAlpha() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = T.makeSession(width: 30, height: 20)
        T.key(s, "b", .control)
        T.typeInDialog(s, "transparent")
        #expect(s.engine.background == .transparent, "\(s.message)")
        let picture = Self.transparentPicture()
        T.key(s, "v", .control)
        s.pasteNow(png: try PNGCodec.encode(picture, withAlpha: true))
        T.key(s, "x", [.control, .shift])
        #expect(s.engine.width == 40 && s.engine.height == 30 && !s.isPlacingPaste, "\(s.message)")
        let file = dir + "/cropped.png"
        #expect(s.save(to: file))
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(Self.colorType(bytes) == 6)
        #expect(try PNGCodec.decode(bytes, name: file) == picture)
    }

    /// An opaque picture gets the usual white background and saves as RGB, as before.
    @Test func anOpaquePictureBecomesAnOpaqueNewPicture() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = T.makeSession(width: 120, height: 80)
        let picture = PixelImage(width: 25, height: 15, fill: 0xFF10_2030)
        T.key(s, "v", [.control, .shift])
        s.pasteNow(png: try PNGCodec.encode(picture, withAlpha: false))
        // Nothing drawn: nothing asked.
        #expect(s.mode == .normal && s.engine.width == 25 && s.engine.height == 15)
        #expect(s.engine.background != .transparent && s.engine.flattenedImage() == picture)
        let file = dir + "/opaque.png"
        #expect(s.save(to: file))
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        #expect(Self.colorType(bytes) == 2, "saved as RGB")
        #expect(try PNGCodec.decode(bytes, name: file) == picture)
        // Ctrl+V after it floats the paste over the picture, as always.
        T.key(s, "v", .control)
        s.pasteNow(png: try PNGCodec.encode(Self.transparentPicture(), withAlpha: true))
        #expect(s.isPlacingPaste && s.engine.width == 25)
    }
}

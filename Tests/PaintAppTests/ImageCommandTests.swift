import Foundation
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// The picture's commands from the keyboard: turns and mirrors of the picture, the selection
/// or the floating picture, crop to selection, autocrop; each one step that undo takes back,
/// the window told the new size, the journal told an operation that replays to the same pixels.
@Suite struct ImageCommandTests {
    typealias T = SessionTests

    /// A 120 x 80 session with a red block at 20...59 x 10...39 (black at its corner) on white,
    /// recording what it commits.
    static func session() -> (Session, RecordingSink) {
        let s = SelectionTests.session()
        let sink = RecordingSink()
        s.sink = sink
        return (s, sink)
    }

    /// The committed steps replayed, as a journal restore replays them, on a fresh copy of the
    /// starting session (same picture, same history steps below them).
    static func replayed(_ sink: RecordingSink) -> [UInt32] {
        let (fresh, _) = session()
        for op in sink.operations { fresh.history.perform(op, engine: fresh.engine) }
        return withExtendedLifetime(fresh) { Array(fresh.engine.viewPixels) }
    }

    static func view(_ s: Session) -> [UInt32] { withExtendedLifetime(s) { Array(s.engine.viewPixels) } }

    @discardableResult
    static func ctrl(_ s: Session, _ c: Character, shift: Bool = false) -> Effects {
        s.handle(
            .key(.character(shift ? Character(c.uppercased()) : c), modifiers: shift ? [.control, .shift] : .control))
    }

    @Test func turnsAndMirrorsOfThePictureAreStepsThatUndo() {
        let keys: [(Character, Bool, Orientation)] = [
            ("h", false, .rotateRight), ("g", false, .rotateLeft), ("j", false, .rotate180),
            ("m", false, .flipHorizontal), ("m", true, .flipVertical),
        ]
        for (key, shift, orientation) in keys {
            let (s, sink) = Self.session()
            let before = s.engine.paintImage()
            let effects = Self.ctrl(s, key, shift: shift)
            #expect(sink.operations == [.canvas(.orient(orientation))], "\(key)")
            #expect(s.engine.paintImage() == before.oriented(orientation), "\(orientation)")
            #expect(s.layout.imageWidth == s.engine.width && s.layout.imageHeight == s.engine.height)
            #expect(effects.canvas == s.engine.bounds)
            if orientation.swapsAxes { #expect(effects.layout && s.engine.width == 80 && s.engine.height == 120) }
            T.key(s, "z", .control)
            #expect(s.engine.paintImage() == before && s.layout.imageWidth == 120 && s.layout.imageHeight == 80)
            T.key(s, "y", .control)
            #expect(s.engine.paintImage() == before.oriented(orientation))
        }
    }

    /// Everything selected (Ctrl+A) turns the whole picture with its canvas, as with nothing
    /// selected, and it stays all selected; no end of a picture that is not square is lost.
    @Test func turningEverythingSelectedTurnsThePictureWithItsCanvas() {
        for (key, orientation) in [("h", Orientation.rotateRight), ("j", .rotate180), ("m", .flipHorizontal)] {
            let (s, sink) = Self.session()
            let before = s.engine.paintImage()
            T.key(s, "a", .control)
            Self.ctrl(s, Character(key))
            #expect(!s.isPlacingPaste, "nothing floats")
            #expect(sink.operations == [.canvas(.orient(orientation))], "\(orientation)")
            #expect(s.engine.paintImage() == before.oriented(orientation), "\(orientation)")
            #expect(s.selection == s.engine.bounds, "still all selected")
            T.key(s, "z", .control)
            #expect(s.engine.paintImage() == before && s.engine.width == 120)
        }
    }

    /// With a selection, a turn lifts it to float, turned about its centre; Enter puts it down
    /// as one step, Escape puts it back as it was.
    @Test func aTurnedSelectionFloatsUntilPutDown() {
        let (s, sink) = Self.session()
        let before = s.engine.paintImage()
        T.key(s, "s")
        T.drag(s, [(15, 5), (45, 25)])  // 30 x 20, over the block's black corner
        Self.ctrl(s, "h")
        #expect(s.isPlacingPaste && sink.operations.isEmpty)
        #expect(s.engine.paintImage() != before, "the selected paint is lifted")
        Self.ctrl(s, "g")
        Self.ctrl(s, "h")  // back and forth: the same place, no drift
        s.handle(.key(.enter, modifiers: []))
        #expect(
            sink.operations == [.orientRect(IntRect(x: 15, y: 5, width: 30, height: 20), .rotateRight, dx: 5, dy: -5)])
        let expected = StrokeEngine(image: before)
        _ = expected.movePaint(IntRect(x: 15, y: 5, width: 30, height: 20), byX: 5, y: -5, orienting: .rotateRight)
        #expect(s.engine.paintImage() == expected.paintImage())
        #expect(s.engine.width == 120, "the canvas stays")
        T.key(s, "z", .control)
        #expect(s.engine.paintImage() == before)

        T.drag(s, [(15, 5), (44, 24)])
        Self.ctrl(s, "m")
        // The status bar says what Escape does to a selection: it puts it back, it does not drop it.
        #expect(s.message.hasSuffix("Esc: put it back"), "\(s.message)")
        s.handle(.key(.escape, modifiers: []))
        #expect(s.engine.paintImage() == before, "Escape puts the selection back unturned")
        #expect(Self.replayed(sink) == Self.view(s))
    }

    @Test func aFloatingPasteIsMirroredBeforeItIsPutDown() throws {
        let (s, sink) = Self.session()
        var picture = PixelImage(width: 3, height: 2, fill: Color.white.pixel)
        picture[0, 0] = Color.black.pixel
        s.pasteNow(png: try PNGCodec.encode(picture, withAlpha: false))
        Self.ctrl(s, "m")
        #expect(s.message.hasSuffix("Esc: drop it"), "\(s.message)")
        s.handle(.key(.enter, modifiers: []))
        guard case .paste(let image, _, _) = sink.operations.last else { return #expect(Bool(false), "a paste") }
        #expect(image == picture.oriented(.flipHorizontal))
    }

    @Test func cropToSelectionKeepsTheSelectedRectangle() {
        let (s, sink) = Self.session()
        Self.ctrl(s, "x", shift: true)
        #expect(sink.operations.isEmpty && s.message.contains("Select a rectangle first"))
        let before = s.engine.paintImage()
        T.key(s, "s")
        T.drag(s, [(18, 8), (48, 32)])
        Self.ctrl(s, "x", shift: true)
        #expect(sink.operations == [.canvas(.resize(IntRect(x: 18, y: 8, width: 30, height: 24)))])
        #expect(s.engine.paintImage() == before.cropped(to: IntRect(x: 18, y: 8, width: 30, height: 24)))
        #expect(s.selection == nil && s.layout.imageWidth == 30 && s.layout.imageHeight == 24)
        #expect(s.message.hasPrefix("Cropped to 30 × 24"))
        #expect(Self.replayed(sink) == Self.view(s))
    }

    /// A paste larger than the picture (a screenshot into a small canvas): Ctrl+Shift+X makes
    /// the canvas the paste's rectangle and puts it down whole; undo takes back the paste, then
    /// the crop.
    @Test func croppingToAPasteLargerThanThePictureKeepsItWhole() throws {
        let (s, sink) = Self.session()
        let before = s.engine.paintImage()
        var picture = PixelImage(width: 150, height: 90, fill: Color(r: 20, g: 120, b: 200).pixel)
        picture[149, 89] = Color.black.pixel
        s.pasteNow(png: try PNGCodec.encode(picture, withAlpha: false))
        #expect(s.message.hasPrefix("Too large: Ctrl+Shift+X grows the picture"), "\(s.message)")
        // Dragged 10 px right and down first: it reaches past the canvas on those sides.
        let (gx, gy) = T.window(s, 1, 1)
        s.handle(.press(x: gx, y: gy, button: .left, modifiers: []))
        s.handle(.motion(x: gx + 10, y: gy + 10, modifiers: []))
        s.handle(.release(x: gx + 10, y: gy + 10, button: .left, modifiers: []))
        Self.ctrl(s, "x", shift: true)
        #expect(!s.isPlacingPaste && s.engine.width == 150 && s.engine.height == 90)
        #expect(s.engine.paintImage() == picture, "the whole paste, its far corner too")
        #expect(sink.operations.count == 2, "a canvas change and a paste: \(sink.operations.count)")
        #expect(Self.replayed(sink) == Self.view(s))
        T.key(s, "z", .control)
        #expect(s.engine.width == 150 && s.engine.paintPixel(x: 149, y: 89) != Color.black.pixel)
        T.key(s, "z", .control)
        #expect(s.engine.width == 120 && s.engine.paintImage() == before)
    }

    @Test func autocropCutsTheWhiteBorderAway() {
        let (s, sink) = Self.session()
        Self.ctrl(s, "u")
        #expect(sink.operations == [.canvas(.resize(IntRect(x: 20, y: 10, width: 40, height: 30)))])
        #expect(s.engine.width == 40 && s.engine.height == 30)
        // The block is a red field with a black pixel in its corner: red is now the border.
        Self.ctrl(s, "u")
        #expect(sink.operations.last == .canvas(.resize(IntRect(x: 0, y: 0, width: 1, height: 1))))
        Self.ctrl(s, "u")
        #expect(sink.operations.count == 2 && s.message == "No border of one color to crop (fill tolerance 32)")
    }

    /// A drawing on white saved as JPEG and opened again: its margin decodes to whites a few
    /// levels apart, most of all in the 8 x 8 blocks beside the drawing. Autocrop cuts it away
    /// at the fill tolerance (32, the default) as it cuts a flat margin: to the drawing at
    /// quality 90, within the pixel or two that color halved at 75 smears the red over. At
    /// tolerance 0 (autocrop before) it stopped at the noise, leaving a ring of margin.
    @Test func autocropCutsAJPEGsNoisyMarginAway() throws {
        // A disc (x 55...107, y 38...90) and a bar on its lower left (x 45...59, y 71...91).
        var drawing = PixelImage(width: 160, height: 120, fill: Color.white.pixel)
        for y in 37..<92 {
            for x in 45..<109 {
                let inDisc = (x - 81) * (x - 81) + (y - 64) * (y - 64) < 27 * 27
                if inDisc || (x < 60 && y > 70) { drawing[x, y] = Color(r: 190, g: 30, b: 40).pixel }
            }
        }
        let content = IntRect(x: 45, y: 38, width: 63, height: 54)
        /// How far `rect` reaches past the drawing on its widest side; nil when it cuts into it.
        func margin(_ rect: IntRect) -> Int? {
            guard rect.intersection(content) == content else { return nil }
            return [content.x - rect.x, content.y - rect.y, rect.maxX - content.maxX, rect.maxY - content.maxY].max()
        }
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (quality, smear) in [(75, 2), (90, 0)] {
            let file = dir + "/drawing\(quality).jpg"
            let jpeg = try JPEGCodec.encode(drawing, quality: quality)
            #expect(FileManager.default.createFile(atPath: file, contents: Data(jpeg)))
            let s = try WebPQualityOfferTests.opened(file, tiles: true)
            let sink = RecordingSink()
            s.sink = sink
            let exact = try #require(s.engine.autocropRect(tolerance: 0))
            #expect((margin(exact) ?? 0) > 4, "exact: a ring of margin is left, \(exact)")
            Self.ctrl(s, "u")
            guard case .canvas(.resize(let rect)) = sink.operations.first, sink.operations.count == 1 else {
                Issue.record("quality \(quality): no crop, \(s.message)")
                continue
            }
            #expect(margin(rect).map { $0 <= smear } ?? false, "quality \(quality): \(rect)")
            #expect(s.message.hasPrefix("Cropped the border: \(rect.width) × \(rect.height) (fill tolerance 32)"))
        }
    }

    /// A stroke drawn before a turn: the stroke eraser finds it where it shows now.
    @Test func theStrokeEraserFindsAStrokeAcrossATurn() {
        let (s, sink) = Self.session()
        T.key(s, "b")
        T.drag(s, [(70, 60), (110, 60)])
        Self.ctrl(s, "h")
        // (x, y) → (79 - y, x): the stroke now runs down column 19 from row 70 to 110.
        T.key(s, "E")
        T.drag(s, [(19, 90)])
        #expect(sink.operations.last == .removeStroke(step: s.history.count - 3))
        #expect(Self.replayed(sink) == Self.view(s))
    }

    /// After a turn the selection and the clipboard work on the new canvas: Ctrl+A selects all
    /// of it, Ctrl+C copies its pixels, and a paste lands on it.
    @Test func selectionAndClipboardWorkOnTheChangedCanvas() throws {
        let (s, _) = Self.session()
        Self.ctrl(s, "h")
        Self.ctrl(s, "a")
        #expect(s.selection == IntRect(x: 0, y: 0, width: 80, height: 120))
        let effects = Self.ctrl(s, "c")
        guard case .offer(let png) = effects.clipboard.last else { return #expect(Bool(false), "a copy") }
        let copied = try PNGCodec.decode(png, name: "clipboard")
        #expect(copied.width == 80 && copied.height == 120)
        #expect(copied == s.engine.flattenedImage())
        s.handle(.key(.escape, modifiers: []))
        // To the corner's outer edge (a drag past the picture stops at its edge).
        T.drag(s, [(70, 100), (85, 125)])
        #expect(s.selection == IntRect(x: 70, y: 100, width: 10, height: 20), "a selection in the new bottom corner")
        s.pasteNow(png: png)
        s.handle(.key(.enter, modifiers: []))
        #expect(s.engine.flattenedImage() == copied, "the copy pasted back over itself")
    }
}

import Foundation
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// Backgrounds: a color from the toolbar, an image or transparency from the prompt; the paint
/// stays on top, the change is an undoable step, and a transparent background saves alpha.
@Suite struct BackgroundTests {
    typealias T = SessionTests

    @Test func theBackgroundButtonSetsTheColorAndKeepsThePaint() {
        let (s, sink) = T.recordingSession(width: 120, height: 80)
        T.drag(s, [(10, 10), (100, 10)])
        T.click(s, .swatch(6))  // green as primary
        T.click(s, .background)
        #expect(s.engine.viewPixel(x: 60, y: 60) == Palette.colors[6].pixel)
        #expect(s.engine.viewPixel(x: 50, y: 10) == Color.black.pixel, "the paint stays on top")
        #expect(sink.operations.last == .background(.color(Palette.colors[6])))
        T.key(s, "z", .control)
        #expect(s.engine.viewPixel(x: 60, y: 60) == Color.white.pixel)
        T.key(s, "y", .control)
        #expect(s.engine.viewPixel(x: 60, y: 60) == Palette.colors[6].pixel)
        let replay = StrokeEngine(width: 120, height: 80)
        let history = History(base: nil)
        for op in sink.operations { history.perform(op, engine: replay) }
        #expect(Array(replay.viewPixels) == Array(s.engine.viewPixels))
    }

    @Test func thePromptTakesAPictureOrTransparencyAndTransparentSavesAlpha() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let picture = PixelImage(width: 60, height: 40, fill: Color(r: 200, g: 100, b: 50).pixel)
        try ImageFile.save(picture, to: dir + "/bg.png", withAlpha: false)
        let s = T.makeSession(path: dir + "/out.png", width: 120, height: 80)
        T.key(s, "b", .control)
        #expect(s.fileDialog?.purpose == .background)
        T.typeInDialog(s, dir + "/bg.png")
        #expect(s.fileDialog == nil)
        s.finishPaste()
        #expect(s.engine.viewPixel(x: 60, y: 40) == Color(r: 200, g: 100, b: 50).pixel, "centred picture")
        #expect(s.engine.viewPixel(x: 5, y: 5) == Color.white.pixel, "padded with white")
        T.key(s, "b", .control)
        for c in "transparent" { s.handle(.key(.character(c), modifiers: [])) }
        s.handle(.key(.enter, modifiers: []))
        #expect(s.engine.background == .transparent)
        T.key(s, "5")
        T.drag(s, [(60, 40)])
        T.key(s, "s", .control)
        let saved = try ImageFile.load(path: dir + "/out.png")
        #expect(Pixel.unpack(saved[0, 0]).a == 0, "unpainted pixels are transparent in the file")
        #expect(Pixel.unpack(saved[60, 40]).a == 128, "50 % black keeps its alpha")
    }

    /// A background picture is decoded off the window's thread: the window answers meanwhile,
    /// the status bar says what is coming, Escape leaves the background as it was, and once
    /// decoded the picture becomes the background as one undoable step.
    @Test func aBackgroundPictureIsDecodedAsideAndEscapeLeavesTheBackground() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/large.bmp"
        try Data(PasteDecodingTests.bmp(width: 3000, height: 3000)).write(to: URL(fileURLWithPath: path))
        let s = T.makeSession(width: 120, height: 80)
        for typed in [false, true] {
            T.key(s, "b", .control)
            if typed {
                T.typeInDialog(s, path)
            } else {
                s.fileDialog?.go(to: dir)
                s.fileDialog.map { s.carryOut(.open($0.rows[0].path)) }
            }
            #expect(s.fileDialog == nil && s.isDecodingPaste, "typed \(typed): decoded on the window's thread")
            #expect(s.message == "Reading the background picture 3000 × 3000…; Escape cancels", "\(s.message)")
            #expect(s.engine.background == .color(.white) && !s.history.canUndo)
            let decoding = try #require(s.pasteDecoding)
            s.handle(.key(.escape, modifiers: []))
            #expect(!s.isDecodingPaste && s.message == "Background unchanged")
            guard case .failure(let error) = decoding.finish(), error == .stopped(path: path) else {
                Issue.record("typed \(typed): the decode ran to its end")
                continue
            }
            s.watch(lookingAtFile: false)
            #expect(s.engine.background == .color(.white) && !s.history.canUndo && !s.isPlacingPaste)
        }
        // Let through: the background, one step.
        T.key(s, "b", .control)
        T.typeInDialog(s, path)
        s.finishPaste()
        #expect(s.message.hasPrefix("Background: ") && !s.isPlacingPaste, "\(s.message)")
        #expect(s.engine.viewPixel(x: 60, y: 40) == Color(r: 0x60, g: 0x60, b: 0x60).pixel)
        T.key(s, "z", .control)
        #expect(s.engine.background == .color(.white))
    }

    @Test func aMissingPictureSaysWhyAndChangesNothing() {
        let s = T.makeSession()
        T.key(s, "b", .control)
        for c in "/no/such/picture.png" { s.handle(.key(.character(c), modifiers: [])) }
        s.handle(.key(.enter, modifiers: []))
        #expect(s.fileDialog?.note?.contains("Cannot open") == true, "\(s.fileDialog?.note ?? "no dialog")")
        #expect(s.engine.background == .color(.white))
        #expect(!s.history.canUndo)
    }

    @Test func backgroundOptionTakesAFile() throws {
        let options = try CommandLineOptions.parse(["--background", "/tmp/pic.png"])
        #expect(options.backgroundFile == "/tmp/pic.png")
        #expect(Operation(decoding: Operation.background(.transparent).encoded()) == .background(.transparent))
        let image = PixelImage(width: 3, height: 2, fill: Color(r: 1, g: 2, b: 3).pixel)
        #expect(Operation(decoding: Operation.background(.image(image)).encoded()) == .background(.image(image)))
    }

    @Test func aBackgroundThatLooksLikeABadColorSaysItIsNotAColor() throws {
        #expect(
            throws: OptionError(
                "--background #zzzzzz: not a color (use #rrggbb, white, black or transparent) nor a picture file")
        ) {
            try CommandLineOptions.parse(["--background", "#zzzzzz"])
        }
        #expect(throws: OptionError.self) { try CommandLineOptions.parse(["--background", "#12345"]) }
        #expect(
            try CommandLineOptions.parse(["--background", "#123456"]).background
                == .color(Color(r: 0x12, g: 0x34, b: 0x56)))
    }

    /// `--background FILE`: a step the journal hears of, that leaves the document modified
    /// whether its file exists yet or not (`swiftpaint --background PIC new.png` shows a picture
    /// no file holds: closing asks, as closing any unsaved picture does); a plain new file is a
    /// blank canvas that closes without asking. A file that cannot be read says why and
    /// changes nothing.
    @Test func aStartingBackgroundPictureIsAJournaledStepThatLeavesTheDocumentUnsaved() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let picture = PixelImage(width: 120, height: 80, fill: Color(r: 10, g: 120, b: 200).pixel)
        try ImageFile.save(picture, to: dir + "/bg.png", withAlpha: false)
        var options = CommandLineOptions()
        (options.width, options.height) = (120, 80)
        let file = dir + "/doc.png"

        // A new file, blank: nothing to lose.
        let blank = DocumentLoaderTests.open(file, options)
        #expect(blank.title == "doc.png — SwiftPaint", "\(blank.title)")
        #expect(blank.handle(.closeRequest).exit == 0, "a blank new picture closes without asking")

        for exists in [false, true] {
            // A transparent picture on disk, so the background shows through its paint.
            if exists { try ImageFile.save(PixelImage(width: 120, height: 80, fill: 0), to: file, withAlpha: true) }
            let s = DocumentLoaderTests.open(file, options)
            let sink = RecordingSink()
            s.sink = sink
            #expect(s.setStartingBackground(file: dir + "/bg.png") == nil)
            #expect(sink.operations == [.background(.image(picture))])
            #expect(s.engine.viewPixel(x: 5, y: 5) == picture[5, 5])
            #expect(s.isModified, "file on disk: \(exists)")
            #expect(s.title == "*doc.png — SwiftPaint", "file on disk: \(exists): \(s.title)")
            #expect(s.history.canUndo, "the picture is a step that can be undone")
            #expect(s.handle(.closeRequest).exit == nil, "closing asks first (file on disk: \(exists))")
            #expect(s.mode == .confirmLeave(.quit), "\(s.mode)")
            // Saving writes the picture and closes.
            s.answer(.save)
            #expect(s.takeEffects().exit == 0)
            #expect(try ImageFile.load(path: file)[5, 5] == picture[5, 5], "the picture is on disk")
        }
        let (s, sink) = T.recordingSession(width: 120, height: 80)
        let problem = s.setStartingBackground(file: dir + "/missing.png")
        #expect(problem?.isEmpty == false)
        #expect(sink.operations.isEmpty && !s.isModified && !s.history.canUndo)
        #expect(s.engine.viewPixel(x: 5, y: 5) == Color.white.pixel)
    }
}

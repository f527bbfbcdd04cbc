import Foundation
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// Files hold what they show; their histories stay in this computer's history store and come
/// back when the file is reopened here. Anything doubtful opens as a plain picture and says why.
@Suite struct DocumentLoaderTests {
    typealias T = SessionTests

    /// Options for an 80 x 60 canvas (or `width` x `height`) whose history store ("this
    /// computer") is `store` inside `dir`.
    static func options(_ dir: String, store: String = "store", width: Int = 80, height: Int = 60) -> CommandLineOptions
    {
        var options = CommandLineOptions()
        options.width = width
        options.height = height
        options.historyStore = HistoryStore(folder: dir + "/" + store + "/swiftpaint/history")
        return options
    }

    /// A session on `path` as the program starts it.
    static func open(_ path: String?, _ options: CommandLineOptions = CommandLineOptions()) -> Session {
        let (document, message) = DocumentLoader.open(path, options: options)
        let session = Session(document: document, windowWidth: 1000, windowHeight: 400, message: message)
        session.opener = DocumentOpener(options: options, journalFolder: nil)
        return session
    }

    /// An 80 x 60 drawing with one stroke, saved as `name` in `dir` (Ctrl+S, or Ctrl+Alt+S for
    /// `inside`).
    static func savedDrawing(in dir: String, named name: String, inside: Bool = false) -> (
        Session, String, CommandLineOptions
    ) {
        let file = dir + "/" + name
        let options = options(dir)
        let s = open(file, options)
        T.drag(s, [(10, 10), (70, 50)])
        T.key(s, "s", inside ? [.control, .alt] : .control)
        return (s, file, options)
    }

    static func bytes(_ file: String) throws -> [UInt8] { try [UInt8](Data(contentsOf: URL(fileURLWithPath: file))) }

    /// Whether `engine` shows `picture` flattened (takes the engine, so a failure does not
    /// print every pixel).
    static func shows(_ engine: StrokeEngine, _ picture: PixelImage) -> Bool { engine.flattenedImage() == picture }

    /// Whether `engine` shows nothing but `color`.
    static func shows(_ engine: StrokeEngine, only color: Color) -> Bool {
        engine.flattenedImage() == PixelImage(width: engine.width, height: engine.height, fill: color.pixel)
    }

    /// Draws a stroke, then `drawSome`, and saves with Ctrl+S; the canvas before, after the
    /// stroke and after the rest.
    static func drawAndSave(_ s: Session) -> [[UInt32]] {
        var steps = [Array(s.engine.viewPixels)]
        T.drag(s, [(10, 10), (60, 40), (150, 20)])
        steps.append(Array(s.engine.viewPixels))
        drawSome(s)
        steps.append(Array(s.engine.viewPixels))
        T.key(s, "s", .control)
        return steps
    }

    static func drawSome(_ s: Session) {
        T.key(s, "5")
        T.drag(s, [(10, 10), (60, 40), (150, 20)])
        T.key(s, "0")
        T.drag(s, [(20, 80), (120, 10)])
        T.key(s, "E", .shift)
        let (x, y) = T.window(s, 35, 25)
        s.handle(.press(x: x, y: y, button: .left, modifiers: []))
        s.handle(.release(x: x, y: y, button: .left, modifiers: []))
        T.key(s, "b")
        T.drag(s, [(90, 50), (180, 90)], button: .right)
    }

    @Test func saveReopenUndoToTheStartAndRedoToTheEnd() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/h.png"
        let options = Self.options(dir, width: 200, height: 100)
        let s = Self.open(file, options)
        let steps = Self.drawAndSave(s)
        #expect(!s.isModified)
        #expect(s.message == "Saved to \(PathDisplay.abbreviatingHome(file))", "\(s.message)")
        // The file holds the picture only.
        #expect(HistoryChunk.extract(from: try Self.bytes(file)) == .none)
        #expect(!s.carriesHistory && !s.title.contains("(with history)"))

        let reopened = Self.open(file, options)
        #expect(
            reopened.message.hasSuffix("history restored (\(s.history.cursor) steps)"), "\(reopened.message)")
        #expect(Array(reopened.engine.viewPixels) == steps.last)
        #expect(!reopened.isModified && reopened.history.cursor == s.history.cursor)
        while reopened.history.canUndo { T.key(reopened, "z", .control) }
        #expect(Array(reopened.engine.viewPixels) == steps[0])
        while reopened.history.canRedo { T.key(reopened, "y", .control) }
        #expect(Array(reopened.engine.viewPixels) == steps.last)
        #expect(!reopened.isModified, "back on the saved step")
    }

    @Test func anotherComputerOrNoStoreOpensTheFilePlain() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (s, file, _) = Self.savedDrawing(in: dir, named: "plain.png")
        for options in [Self.options(dir, store: "other computer"), CommandLineOptions()] {
            let reopened = Self.open(file, options)
            #expect(reopened.message == "Opened \(PathDisplay.abbreviatingHome(file))", "\(reopened.message)")
            #expect(!reopened.history.canUndo)
            #expect(Array(reopened.engine.viewPixels) == Array(s.engine.viewPixels))
        }
    }

    @Test func aTransparentDrawingComesBackWithItsHistory() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        Self.transparentDrawingComesBack(dir + "/glass.png") { s, _ in T.key(s, "s", .control) }
    }

    /// A lossless WebP keeps its pixels as a PNG does: the history is named by them without the
    /// file being decoded after it is written (`ImageEncoder.decodedExactly`), and comes back.
    @Test func aTransparentDrawingSavedAsALosslessWebPComesBackWithItsHistory() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/glass.webp"
        Self.transparentDrawingComesBack(file) { s, file in #expect(s.save(to: file, as: .webp), "\(s.message)") }
        let bytes = try Self.bytes(file)
        #expect(String(decoding: bytes[12..<16], as: UTF8.self) == "VP8L", "lossless")
    }

    /// Draws a stroke on a transparent canvas opened as `file`, saves it with `save`, and
    /// opens the file again: the same paint, its one step of history restored and undone.
    static func transparentDrawingComesBack(_ file: String, save: (Session, String) -> Void) {
        var options = Self.options((file as NSString).deletingLastPathComponent)
        options.background = .transparent
        let s = Self.open(file, options)
        T.key(s, "5")
        T.drag(s, [(10, 10), (60, 40)])
        save(s, file)
        let reopened = Self.open(file, options)
        #expect(reopened.message.hasSuffix("history restored (1 step)"), "\(reopened.message)")
        #expect(reopened.engine.paintImage() == s.engine.paintImage())
        T.key(reopened, "z", .control)
        #expect(reopened.engine.paintImage() == PixelImage(width: 80, height: 60))
    }

    @Test func aReopenedFileOpenedFromAPictureKeepsThatPictureAsTheStart() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/photo.png"
        var picture = PixelImage(width: 120, height: 60, fill: Color(r: 30, g: 140, b: 200).pixel)
        for x in 0..<120 { picture[x, 30] = Color(r: UInt8(x * 2), g: 0, b: 0).pixel }
        try ImageFile.save(picture, to: file, withAlpha: false)
        let options = Self.options(dir)
        let s = Self.open(file, options)
        T.drag(s, [(10, 10), (100, 50)])
        T.key(s, "s", .control)
        let reopened = Self.open(file, options)
        T.key(reopened, "z", .control)
        #expect(reopened.engine.paintImage() == picture)
    }

    /// Started on white, the background changed to red, then a stroke: every way the history
    /// comes back (this computer's store, the file's own chunk elsewhere, the journal the
    /// reopened document starts) undoes to the white it started on, not to the red it was saved
    /// with.
    @Test func undoingAReopenedHistoryToItsStartShowsTheBackgroundItStartedOn() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let options = Self.options(dir)
        let red = Color(r: 200, g: 30, b: 40)
        for inside in [false, true] {
            let file = dir + (inside ? "/portable.png" : "/plain.png")
            let s = Self.open(file, options)
            #expect(Self.shows(s.engine, only: .white))
            s.setBackground(.color(red))
            T.drag(s, [(10, 10), (70, 50)])
            let saved = s.engine.flattenedImage()
            T.key(s, "s", inside ? [.control, .alt] : .control)
            #expect(!s.isModified, "\(s.message)")
            // Here (from the store), and for the portable file another computer (from the file).
            var reopenings = [("this computer", Self.open(file, options))]
            if inside { reopenings.append(("another computer", Self.open(file, Self.options(dir, store: "other")))) }
            for (computer, reopened) in reopenings {
                #expect(reopened.history.cursor == 2, "\(computer): \(reopened.message)")
                #expect(Self.shows(reopened.engine, saved), "\(computer): the saved picture")
                T.key(reopened, "z", .control)
                T.key(reopened, "z", .control)
                #expect(reopened.engine.background == .color(.white), "\(computer): \(reopened.engine.background)")
                #expect(Self.shows(reopened.engine, only: .white), "\(computer): undone to the start")
            }
        }
        // The journal a reopened document starts replays from the same white start.
        let folder = dir + "/journals"
        let s = NewAndOpenTests.session(journalingInto: folder, options: options)
        T.key(s, "o", .control)
        NewAndOpenTests.type(s, dir + "/plain.png")
        // The history comes back in the background: wait for it as the window does.
        #expect(HistoryRebuildTests.waitForRebuild(s))
        s.checkHistoryRebuild()
        #expect(s.history.cursor == 2, "\(s.message)")
        T.settleJournal(s)
        let journals = NewAndOpenTests.journals(folder)
        let contents = try JournalReader.read(path: folder + "/" + (journals.last ?? ""))
        let restored = try DocumentJournal.rebuild(contents)
        #expect(Self.shows(restored.engine, s.engine.flattenedImage()))
        restored.history.undo(engine: restored.engine)
        restored.history.undo(engine: restored.engine)
        #expect(Self.shows(restored.engine, only: .white), "the journal's start")
    }

    @Test func saveWithHistoryCarriesItInsideAndAPlainSaveElsewhereMovesItToThatStore() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (s, file, _) = Self.savedDrawing(in: dir, named: "portable.png", inside: true)
        #expect(s.carriesHistory && s.title == "portable.png (with history) — SwiftPaint", "\(s.title)")
        #expect(s.message.hasSuffix("with its editing history inside"), "\(s.message)")
        guard case .archive = HistoryChunk.extract(from: try Self.bytes(file)) else {
            Issue.record("Ctrl+Alt+S wrote no history into the file")
            return
        }
        // Another computer: the history comes from the file, which says so.
        let other = Self.options(dir, store: "other computer")
        let reopened = Self.open(file, other)
        #expect(
            reopened.message.contains("the file carries its editing history inside (1 step)"), "\(reopened.message)")
        #expect(reopened.title.contains("(with history)"))
        #expect(reopened.history.canUndo)
        // Ctrl+S there writes it plain; its history moves to that computer's store.
        T.key(reopened, "s", .control)
        #expect(!reopened.carriesHistory && !reopened.title.contains("(with history)"))
        #expect(HistoryChunk.extract(from: try Self.bytes(file)) == .none)
        let again = Self.open(file, other)
        #expect(again.message.hasSuffix("history restored (1 step)"), "\(again.message)")
        #expect(!again.carriesHistory)
    }

    @Test func aCancelledSaveWithHistoryDoesNotLeakIntoTheNextSave() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // An untitled document: Ctrl+Alt+S asks for a name; Escape cancels.
        let untitled = Self.open(nil, Self.options(dir))
        T.drag(untitled, [(5, 5), (30, 30)])
        T.key(untitled, "s", [.control, .alt])
        guard untitled.fileDialog?.purpose == .save(then: nil) else {
            Issue.record("no save dialog for an untitled document")
            return
        }
        untitled.handle(.key(.escape, modifiers: []))
        // Then the user saves as usual, to a name: the file is plain.
        T.key(untitled, "s", .control)
        T.typeInDialog(untitled, dir + "/named.png")
        #expect(FileManager.default.fileExists(atPath: dir + "/named.png"), "\(untitled.message)")
        #expect(HistoryChunk.extract(from: try Self.bytes(dir + "/named.png")) == .none)
        #expect(!untitled.carriesHistory)
    }

    @Test func saveWithHistoryIsAChoiceInTheSaveDialog() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (s, file, _) = Self.savedDrawing(in: dir, named: "first.png")
        s.makesThumbnails = false
        #expect(!s.carriesHistory)
        // Save as: the box is there, not ticked; a click on it ticks it and the note warns.
        T.key(s, "s", [.control, .shift])
        var texts = s.renderPanel(measure: FixedWidthMeasurer())?.texts.map(\.text) ?? []
        guard let dialog = s.fileDialog, texts.contains("Save with history"), !dialog.withHistory else {
            Issue.record("no Save with history box in the save dialog: \(texts)")
            return
        }
        let box = dialog.historyBox
        let frame = s.fileDialogFrame
        let (x, y) = (frame.x + box.x + 5, frame.y + box.y + box.height / 2)
        s.handle([.press(x: x, y: y, button: .left, modifiers: []), .release(x: x, y: y, button: .left, modifiers: [])])
        texts = s.renderPanel(measure: FixedWidthMeasurer())?.texts.map(\.text) ?? []
        #expect(texts.contains("Anyone who opens it can undo what was painted over"), "\(texts)")
        let portable = dir + "/portable.png"
        T.typeInDialog(s, portable)
        #expect(s.message.hasSuffix("with its editing history inside"), "\(s.message)")
        #expect(s.carriesHistory && s.title == "portable.png (with history) — SwiftPaint", "\(s.title)")
        guard case .archive = HistoryChunk.extract(from: try Self.bytes(portable)) else {
            Issue.record("the ticked box wrote no history into the file")
            return
        }
        #expect(HistoryChunk.extract(from: try Self.bytes(file)) == .none, "the first file changed")

        // Alt+H ticks and clears it from the keyboard; cleared, the save is plain again.
        T.drag(s, [(20, 40), (60, 10)])
        T.key(s, "s", [.control, .shift])
        #expect(s.fileDialog?.withHistory == false, "the box starts unticked at every Save as")
        T.key(s, "h", .alt)
        #expect(s.fileDialog?.withHistory == true)
        T.key(s, "h", .alt)
        #expect(s.fileDialog?.withHistory == false)
        #expect(s.fileDialog?.field.text.contains("h") == false, "Alt+H typed into the name")
        let plain = dir + "/plain-again.png"
        T.typeInDialog(s, plain)
        #expect(HistoryChunk.extract(from: try Self.bytes(plain)) == .none)
        #expect(!s.carriesHistory && !s.title.contains("(with history)"), "\(s.title)")

        // Ctrl+Alt+S on an untitled drawing asks for the name with the box already ticked.
        let untitled = Self.open(nil, Self.options(dir))
        untitled.makesThumbnails = false
        T.drag(untitled, [(5, 5), (30, 30)])
        T.key(untitled, "s", [.control, .alt])
        #expect(untitled.fileDialog?.withHistory == true)
        T.typeInDialog(untitled, dir + "/untitled-portable.png")
        guard case .archive = HistoryChunk.extract(from: try Self.bytes(dir + "/untitled-portable.png")) else {
            Issue.record("Ctrl+Alt+S through the dialog wrote no history: \(untitled.message)")
            return
        }
    }

    /// The store's cap as a user meets it: with room for two drawings' histories, the third
    /// save drops the one saved or opened longest ago, whose file then opens plain and says
    /// nothing of a history; opening a file makes its history the last to go.
    @Test func underATinyCapTheLeastRecentlyUsedHistoryGoesFirst() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var options = Self.options(dir)
        let folder = dir + "/store/swiftpaint/history"
        func draw(_ name: String, _ i: Int) -> String {
            let file = dir + "/" + name
            let s = Self.open(file, options)
            T.drag(s, [(5 + i, 5), (70, 10 + 10 * i)])
            T.key(s, "s", .control)
            #expect(!s.isModified, "\(s.message)")
            return file
        }
        func hasHistory(_ file: String) -> Bool {
            let s = Self.open(file, options)
            return s.history.canUndo && s.message.hasSuffix("history restored (1 step)")
        }
        // One entry's size, then a cap with room for two (the entries differ by a few bytes).
        let probe = draw("probe.png", 0)
        let size = HistoryStore(folder: folder).entries().first?.bytes ?? 0
        #expect(size > 0)
        try options.historyStore?.forgetAll()
        options.historyStore = HistoryStore(folder: folder, capBytes: size * 5 / 2)
        let (a, b) = (draw("a.png", 1), draw("b.png", 2))
        #expect(hasHistory(b) && hasHistory(a))
        // a was opened after b: c pushes b out, not a.
        let c = draw("c.png", 3)
        #expect(options.historyStore?.entries().count == 2)
        #expect(hasHistory(a) && hasHistory(c))
        let plain = Self.open(b, options)
        #expect(
            !plain.history.canUndo && plain.message == "Opened \(PathDisplay.abbreviatingHome(b))", "\(plain.message)")
        #expect(!hasHistory(probe))
        #expect((options.historyStore?.entries().reduce(0) { $0 + $1.bytes } ?? .max) <= size * 5 / 2)
    }

    @Test func aFileChangedByAnotherProgramOpensAsAPlainPicture() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (_, file, options) = Self.savedDrawing(in: dir, named: "edited.png", inside: true)
        // Another editor repaints a pixel and keeps our unsafe-to-copy chunk (a careless one).
        let bytes = try Self.bytes(file)
        guard case .archive(let archive) = HistoryChunk.extract(from: bytes) else {
            Issue.record("no history chunk in the saved file")
            return
        }
        var picture = try PNGCodec.decode(bytes, name: file)
        picture[0, 0] = Color(r: 1, g: 2, b: 3).pixel
        let foreign = try HistoryChunk.embed(archive, into: try PNGCodec.encode(picture, withAlpha: false))
        try Data(foreign).write(to: URL(fileURLWithPath: file))
        let reopened = Self.open(file, options)
        #expect(reopened.message.contains("another program changed the picture"), "\(reopened.message)")
        #expect(!reopened.history.canUndo)
        #expect(reopened.engine.viewPixel(x: 0, y: 0) == Color(r: 1, g: 2, b: 3).pixel)
    }

    @Test func aDamagedHistoryOpensAsAPlainPictureAndSaysWhy() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var options = Self.options(dir)
        options.historyStore = nil
        let file = dir + "/damaged.png"
        let s = Self.open(file, options)
        T.drag(s, [(10, 10), (70, 50)])
        T.key(s, "s", [.control, .alt])
        var bytes = try Self.bytes(file)
        // Flip a byte inside the history chunk's data (just before IEND's 12 bytes and its CRC).
        bytes[bytes.count - 12 - 4 - 10] ^= 0x5A
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let reopened = Self.open(file, options)
        #expect(reopened.message.contains("left out"), "\(reopened.message)")
        #expect(Array(reopened.engine.viewPixels) == Array(s.engine.viewPixels))
    }

    @Test func aKeptHistoryThatDoesNotReplayToTheFileIsLeftOut() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (s, file, options) = Self.savedDrawing(in: dir, named: "forged.png")
        let shown = try ImageFile.load(path: file)
        // An entry under the file's key with the file's pixel hash, whose steps paint something
        // else: only replaying it can tell.
        let forged = DocumentArchive(
            width: 80, height: 60, background: .color(.white), operations: [.clear, .clear],
            pixelHash: DocumentArchive.hash(shown))
        try options.historyStore?.keep(forged, for: HistoryKey(of: shown))
        let reopened = Self.open(file, options)
        #expect(
            reopened.message.contains("its kept history was left out: replaying it does not give the picture"),
            "\(reopened.message)")
        #expect(!reopened.history.canUndo)
        #expect(Array(reopened.engine.viewPixels) == Array(s.engine.viewPixels))
    }

    @Test func noHistoryKeepsNothingAnywhere() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/plain.png"
        var options = Self.options(dir)
        options.historyStore = nil
        let s = Self.open(file, options)
        T.drag(s, [(10, 10)])
        T.key(s, "s", .control)
        #expect(HistoryChunk.extract(from: try Self.bytes(file)) == .none)
        #expect(!FileManager.default.fileExists(atPath: dir + "/store"))
    }

    @Test func aJPEGReopensWithItsHistoryAsItWasPaintedAndAChangedOneOpensPlain() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let options = Self.options(dir)
        let file = dir + "/photo.jpg"
        let s = Self.open(file, options)
        T.drag(s, [(10, 10), (70, 50)])
        T.drag(s, [(70, 10), (10, 50)])
        T.key(s, "s", .control)
        // A new JPEG asks its quality first.
        FormatsTests.answerPrompt(s, "85")
        #expect(s.message == "Saved to \(PathDisplay.abbreviatingHome(file))", "\(s.message)")
        let drawn = s.engine.flattenedImage()
        let shown = try ImageFile.open(path: file).picture
        #expect(shown.format == .jpeg && (shown.image == drawn) == false, "JPEG kept every pixel")

        // The history is found by the JPEG's decoded pixels and trusted because its replay is
        // the picture that was encoded: the canvas is that picture, as it was painted.
        let reopened = Self.open(file, options)
        #expect(reopened.message.hasSuffix("history restored (2 steps)"), "\(reopened.message)")
        #expect(reopened.engine.flattenedImage() == drawn)
        T.key(reopened, "z", .control)
        T.key(reopened, "z", .control)
        #expect(reopened.engine.flattenedImage() == PixelImage(width: 80, height: 60, fill: Color.white.pixel))

        // The same JPEG re-encoded by another program: other pixels, no history.
        let other = dir + "/resaved.jpg"
        try ImageFile.save(
            shown.image, to: other, options: SaveOptions(format: .jpeg, quality: 60), withAlpha: false)
        let plain = Self.open(other, options)
        #expect(plain.message == "Opened \(PathDisplay.abbreviatingHome(other))", "\(plain.message)")
        #expect(!plain.history.canUndo)
    }
}

import Foundation
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// An opened picture's file bytes (the history's starting picture) live in its crash journal
/// once that is made, not in memory for the whole session; a save with history and a crash
/// restore still get exactly those bytes, and a journal that cannot give them back costs the
/// saved history, never the saved picture.
@Suite struct BaseImageTests {
    typealias T = SessionTests

    /// A photo-like 80 x 60 PNG in `dir`, opened as the window opens it, with a journal in
    /// `dir`/journal and a history store: the session, the file and its bytes.
    static func opened(in dir: String) throws -> (Session, String, [UInt8], CommandLineOptions) {
        let file = dir + "/photo.png"
        try ImageFile.save(photo, to: file, withAlpha: false)
        let bytes = try DocumentLoaderTests.bytes(file)
        let options = DocumentLoaderTests.options(dir)
        let (document, _) = try DocumentLoader.load(file, options: options, historyInBackground: true)
        let s = Session(document: document, windowWidth: 1000, windowHeight: 400, message: "")
        s.opener = DocumentOpener(options: options, journalFolder: dir + "/journal")
        #expect(s.start(s.document, message: "") == nil)
        T.settleJournal(s)
        return (s, file, bytes, options)
    }

    /// A photo-like 80 x 60 picture.
    static let photo: PixelImage = {
        var image = PixelImage(width: 80, height: 60)
        for y in 0..<60 {
            for x in 0..<80 { image[x, y] = Pixel.pack(r: UInt8(x * 3), g: UInt8(y * 4), b: 90, a: 255) }
        }
        return image
    }()

    static func journalPath(_ s: Session) throws -> String {
        try #require((s.sink as? DocumentJournal)?.path)
    }

    @Test func theOpenedFileLivesInTheJournalAndComesBackForTheSavedHistory() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (s, file, bytes, options) = try Self.opened(in: dir)
        let original = s.engine.flattenedImage()
        // Not in memory: in the journal, which a crash restore reads the starting picture from.
        #expect(s.document.base?.isInMemory == false)
        #expect(s.document.base?.read() == bytes)
        let journal = try JournalReader.read(path: try Self.journalPath(s))
        #expect(journal.header.baseImage == bytes)

        T.drag(s, [(10, 10), (70, 50)])
        T.key(s, "s", .control)
        #expect(s.message.hasPrefix("Saved to"), "\(s.message)")
        // The store's entry starts from the opened file's own bytes, read back from the journal.
        let saved = try ImageFile.load(path: file)
        guard case .entry(let archive, _) = try #require(options.historyStore).find(HistoryKey(of: saved)) else {
            Issue.record("no history kept for the saved picture")
            return
        }
        #expect(archive.baseImage == bytes)
        // Reopened, the history goes back to the picture as it was opened.
        let reopened = DocumentLoaderTests.open(file, options)
        #expect(reopened.history.canUndo)
        T.key(reopened, "z", .control)
        #expect(DocumentLoaderTests.shows(reopened.engine, original))
    }

    @Test func aJournalThatCannotGiveItBackCostsTheSavedHistoryNotThePicture() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (s, file, bytes, options) = try Self.opened(in: dir)
        // A flipped bit in the middle of the journal's copy of the starting picture.
        let path = try Self.journalPath(s)
        let journal = try DocumentLoaderTests.bytes(path)
        let at = try #require(
            (0...(journal.count - bytes.count)).first { journal[$0..<($0 + 64)].elementsEqual(bytes[0..<64]) })
        let fd = open(path, O_WRONLY)
        var flipped = journal[at + bytes.count / 2] ^ 0x10
        #expect(pwrite(fd, &flipped, 1, off_t(at + bytes.count / 2)) == 1)
        close(fd)
        #expect(s.document.base?.read() == nil)

        T.drag(s, [(10, 10), (70, 50)])
        let drawn = s.engine.flattenedImage()
        T.key(s, "s", .control)
        #expect(s.message.contains("its history was not kept"), "\(s.message)")
        // The picture is saved as drawn; no history names it.
        let saved = try ImageFile.load(path: file)
        #expect(saved == drawn)
        #expect(try #require(options.historyStore).find(HistoryKey(of: saved)) == .none)
    }

    /// The window's opening (`historyInBackground`): the picture is decoded as the file is
    /// read, and its bytes stay in the file, not in memory, until the journal copies them.
    @Test func theOpenedFileStaysInTheFileUntilTheJournalCopiesIt() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/photo.png"
        try ImageFile.save(Self.photo, to: file, withAlpha: false)
        let bytes = try DocumentLoaderTests.bytes(file)
        let (document, _) = try DocumentLoader.load(
            file, options: DocumentLoaderTests.options(dir), historyInBackground: true)
        guard case .file(let kept) = document.base else {
            Issue.record("the opened file's bytes were read into memory: \(String(describing: document.base))")
            return
        }
        #expect(kept.count == bytes.count && kept.read() == bytes)
        #expect(document.onDisk != .unknown)
    }

    /// Draws a stroke in `s`, waits until its journal holds it, and drops the session without
    /// closing it, as a crash leaves it; the picture it showed.
    static func drawAndCrash(_ s: Session) throws -> PixelImage {
        T.drag(s, [(10, 10), (70, 50)])
        let drawn = s.engine.flattenedImage()
        let journal = try #require(s.sink as? DocumentJournal)
        journal.flush()
        #expect(journal.protection == .safe)
        return drawn
    }

    /// A new session for `file` offered what a crash left in `dir`/journal, restored.
    static func restore(_ file: String, in dir: String) throws -> Session {
        let options = DocumentLoaderTests.options(dir)
        let (document, _) = try DocumentLoader.load(file, options: options, historyInBackground: true)
        let s = Session(document: document, windowWidth: 1000, windowHeight: 400, message: "")
        s.opener = DocumentOpener(options: options, journalFolder: dir + "/journal")
        // As at start-up (main.swift): offered, then its own journal started.
        s.offerLeftOverDrawing()
        s.startJournal()
        guard case .offerRestore = s.mode else {
            Issue.record("nothing offered: \(s.mode), \(s.message)")
            return s
        }
        s.handle(.key(.enter, modifiers: []))
        #expect(s.message.hasPrefix("Restored 1 step from "), "\(s.message)")
        return s
    }

    @Test func aCrashAfterOpeningAStreamedPictureRestoresTheDrawingOnIt() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var drawn: PixelImage?
        var file = ""
        do {
            let (s, opened, bytes, _) = try Self.opened(in: dir)
            file = opened
            #expect(try JournalReader.read(path: try Self.journalPath(s)).header.baseImage == bytes)
            drawn = try Self.drawAndCrash(s)
        }
        let restored = try Self.restore(file, in: dir)
        #expect(restored.engine.flattenedImage() == drawn)
        // Undo goes back to the picture as it was opened.
        T.key(restored, "z", .control)
        #expect(DocumentLoaderTests.shows(restored.engine, try ImageFile.load(path: file)))
    }

    /// Another program writes a different picture over the file (in place: the same file)
    /// between the decode and the journal's copy: the journal starts from the picture shown, in
    /// its own encoding, and a crash restores the drawing onto that picture, never onto the
    /// file's new one.
    @Test func aFileWrittenOverBeforeTheJournalCopiesItNeverGivesAWrongHistory() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = dir + "/photo.png"
        let original = Self.photo
        try ImageFile.save(original, to: file, withAlpha: false)
        let options = DocumentLoaderTests.options(dir)
        var drawn: PixelImage?
        var other = original
        for y in 0..<other.height { for x in 0..<other.width { other[x, y] = Color(r: 0, g: 200, b: 0).pixel } }
        do {
            let (document, _) = try DocumentLoader.load(file, options: options, historyInBackground: true)
            // Written over in place: same file, other pixels.
            let replacement = try PNGCodec.encode(other, withAlpha: false)
            let fd = open(file, O_WRONLY | O_TRUNC)
            #expect(replacement.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == replacement.count)
            close(fd)
            let s = Session(document: document, windowWidth: 1000, windowHeight: 400, message: "")
            s.opener = DocumentOpener(options: options, journalFolder: dir + "/journal")
            #expect(s.start(s.document, message: "") == nil)
            T.settleJournal(s)
            #expect(DocumentLoaderTests.shows(s.engine, original))
            // The journal's starting picture is the one shown.
            let base = try #require(JournalReader.read(path: try Self.journalPath(s)).header.baseImage)
            #expect(try ImageDecoder.decode(base, name: "base").image == original)
            #expect(s.document.base?.read() == base)
            drawn = try Self.drawAndCrash(s)
        }
        // Restored over the picture the strokes were drawn on, whatever the file shows now.
        let s = try Self.restore(file, in: dir)
        #expect(s.engine.flattenedImage() == drawn)
        T.key(s, "z", .control)
        #expect(DocumentLoaderTests.shows(s.engine, original))
    }
}

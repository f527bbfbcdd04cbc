import Foundation
import PaintCore
import Testing

@testable import PaintApp
@testable import PaintIO

/// Canvas changes outside the engine: a crash journal holding them restores the same picture
/// (and the same undo steps), and a saved history that crops, scales or turns reopens on the
/// canvas it started from.
@Suite struct CanvasChangeDocumentTests {
    static let changes: [CanvasChange] = [
        .resize(IntRect(x: 12, y: 5, width: 41, height: 37)), .resize(IntRect(x: -30, y: -3, width: 140, height: 70)),
        .scale(width: 35, height: 23), .scale(width: 161, height: 131), .orient(.rotateRight),
        .orient(.rotateLeft), .orient(.rotate180), .orient(.flipHorizontal), .orient(.flipVertical),
    ]

    static func stroke(_ n: Int) -> PaintCore.Operation {
        let style = StrokeStyle(color: Color(r: UInt8(40 * n % 256), g: 90, b: 200), opacity: 0.7, width: Double(3 + n))
        return .stroke(style, points: [Point(x: 5.5 + Double(n * 9), y: 4.5), Point(x: 60.5, y: 40.5 - Double(n * 3))])
    }

    /// Strokes, the change, a stroke on the new canvas, an undo and a redo of the change, and a
    /// stroke removed from before it.
    static func operations(_ change: CanvasChange) -> [PaintCore.Operation] {
        [
            stroke(1), stroke(2), .canvas(change), stroke(3), .undo, .undo, .redo, .redo, .removeStroke(step: 1),
            stroke(4),
        ]
    }

    static func state(_ engine: StrokeEngine) -> [String] {
        ["\(engine.width)x\(engine.height)", "\(engine.paintImage().pixels.hashValue)", "\(Array(engine.viewPixels))"]
    }

    /// The document the live program would have after `operations`.
    static func live(_ operations: [PaintCore.Operation], width: Int = 80, height: Int = 60) -> (StrokeEngine, History)
    {
        let engine = StrokeEngine(width: width, height: height, background: .color(.white))
        let history = History(base: nil)
        for op in operations { history.perform(op, engine: engine) }
        return (engine, history)
    }

    @Test(arguments: changes)
    func aJournalLeftByACrashRestoresTheChangedCanvasAndItsUndo(change: CanvasChange) throws {
        let folder = NSTemporaryDirectory() + "swiftpaint-canvas-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let ops = Self.operations(change)
        let header = JournalHeader(documentPath: nil, width: 80, height: 60, background: .color(.white))
        let writer = try JournalWriter.create(in: folder, header: header)
        for op in ops { writer.append(op) }
        #expect(writer.flush())
        writer.abandonForTesting()  // the program dies here; the journal stays

        let contents = try JournalReader.read(path: writer.path)
        #expect(contents.operations == ops)
        let restored = try DocumentJournal.rebuild(contents)
        let (engine, history) = Self.live(ops)
        #expect(Self.state(restored.engine) == Self.state(engine), "\(change)")
        #expect(restored.history.cursor == history.cursor)
        while history.canUndo {
            history.undo(engine: engine)
            restored.history.undo(engine: restored.engine)
            #expect(Self.state(restored.engine) == Self.state(engine), "\(change): undo to \(history.cursor)")
        }
        #expect(restored.engine.width == 80 && restored.engine.height == 60)
    }

    /// A blank canvas drawn on, cropped or turned, saved with its history (kept on this
    /// computer, and inside the file): the history starts on the blank canvas's size, not the
    /// saved picture's, and undo goes all the way back, from either.
    @Test(arguments: changes)
    func aSavedHistoryReopensOnTheCanvasItStartedFrom(change: CanvasChange) throws {
        let ops = Self.operations(change)
        let (engine, history) = Self.live(ops)
        let document = Document(engine: engine, history: history, path: nil)
        let archive = DocumentLoader.archive(for: document)
        let start = change.size(width: 80, height: 60) == (80, 60) ? nil : IntRect(x: 0, y: 0, width: 80, height: 60)
        #expect(archive.startingCanvas == start)
        let folder = NSTemporaryDirectory() + "swiftpaint-canvas-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let file = folder + "/changed.png"
        var options = CommandLineOptions()
        options.historyStore = HistoryStore(folder: folder + "/store")
        try ImageFile.save(
            engine.flattenedImage(), to: file, withAlpha: false,
            history: SavedHistory(archive: archive, store: options.historyStore, portable: true))
        for (options, says) in [(options, "history restored"), (CommandLineOptions(), "carries its editing history")] {
            let reopened = try DocumentLoader.load(file, options: options)
            #expect(reopened.message.contains(says), "\(reopened.message)")
            let e = reopened.document.engine
            #expect(Self.state(e) == Self.state(engine))
            while reopened.document.history.canUndo { reopened.document.history.undo(engine: e) }
            let blank = StrokeEngine(width: 80, height: 60, background: .color(.white))
            #expect(Self.state(e) == Self.state(blank))
        }
    }

    @Test func aLogAskingForAnImpossibleStartingCanvasIsRefusedBeforeAllocating() throws {
        #expect(throws: HistoryReplay.Refusal.canvasTooLarge(width: 1 << 30, height: 1 << 30)) {
            try Document.replaying(
                [.operation(.clear)],
                from: HistoryReplay.Start(width: 1 << 30, height: 1 << 30, background: .color(.white), baseImage: nil),
                path: nil, memoryCap: 1 << 20)
        }
    }
}

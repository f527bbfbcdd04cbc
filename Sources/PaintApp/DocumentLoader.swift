import PaintCore
import PaintIO

/// A document as the program starts it: from a file (with its saved history when the file
/// carries one), or blank.
public struct LoadedDocument {
    /// The canvas.
    public var engine: StrokeEngine
    /// Its steps.
    public var history: History
    /// The file it saves to, nil while untitled.
    public var path: String?
    /// What the status bar says first.
    public var message: String
    /// PNG bytes of the picture the history starts from (the journal's starting point).
    public var baseBytes: [UInt8]?
    /// The history steps to journal right away (a reopened file's saved history).
    public var operations: [Operation]
    /// The history step that is on disk.
    public var savedStep: Int?
}

/// Opening documents.
public enum DocumentLoader {
    /// Opens `path` (absolute) or starts a blank canvas per `options`. A file that cannot be
    /// read opens as an untitled blank canvas, so a save can never overwrite it.
    public static func open(_ path: String?, options: CommandLineOptions) -> LoadedDocument {
        guard let path else { return blank(width: options.width, height: options.height, options: options) }
        guard FileSystem.exists(path) else {
            var document = blank(width: options.width, height: options.height, options: options)
            document.path = path
            document.message = "New picture; Ctrl+S saves it as \(PathDisplay.abbreviatingHome(path))"
            return document
        }
        do {
            return try load(path, options: options)
        } catch {
            FileSystem.printError("swiftpaint: " + error.description)
            var document = blank(width: options.width, height: options.height, options: options)
            document.message = error.description
            return document
        }
    }

    /// A blank untitled canvas on the options' background.
    public static func blank(width: Int, height: Int, options: CommandLineOptions) -> LoadedDocument {
        LoadedDocument(
            engine: StrokeEngine(width: width, height: height, background: options.background),
            history: History(base: nil, memoryCap: options.historyMemoryMB << 20), path: nil, message: "",
            baseBytes: nil, operations: [], savedStep: 0)
    }

    /// The PNG at `path` (absolute), with its saved history when it carries one that matches
    /// its pixels; throws when the file cannot be read as a picture.
    public static func load(_ path: String, options: CommandLineOptions) throws(ImageFileError) -> LoadedDocument {
        let memoryCap = options.historyMemoryMB << 20
        let loaded = try ImageFile.loadWithBytes(path: path)
        let opened = "Opened \(PathDisplay.abbreviatingHome(path))"
        switch HistoryChunk.extract(from: loaded.bytes) {
        case .archive(let archive):
            guard archive.matches(loaded.image) else {
                return plain(
                    loaded, path, options, memoryCap,
                    "\(opened); its editing history was left out: another program changed the picture")
            }
            do {
                let replay = try rebuild(archive, memoryCap: memoryCap)
                return LoadedDocument(
                    engine: replay.engine, history: replay.history, path: path,
                    message: "\(opened) with its history (\(replay.history.cursor) steps to undo)",
                    baseBytes: archive.baseImage,
                    operations: archive.operations, savedStep: replay.history.cursor)
            } catch {
                return plain(
                    loaded, path, options, memoryCap,
                    "\(opened); its editing history could not be read (\(error.description))")
            }
        case .rejected(let reason):
            return plain(loaded, path, options, memoryCap, "\(opened); its editing history was left out: \(reason)")
        case .none:
            return plain(loaded, path, options, memoryCap, opened)
        }
    }

    private static func plain(
        _ loaded: (image: PixelImage, bytes: [UInt8]), _ path: String, _ options: CommandLineOptions, _ memoryCap: Int,
        _ message: String
    ) -> LoadedDocument {
        LoadedDocument(
            engine: StrokeEngine(image: loaded.image, background: options.background),
            history: History(base: loaded.image, memoryCap: memoryCap), path: path, message: message,
            baseBytes: loaded.bytes,
            operations: [], savedStep: 0)
    }

    /// The document an archive describes: its starting picture with its steps replayed.
    static func rebuild(_ archive: DocumentArchive, memoryCap: Int) throws(ImageFileError) -> (
        engine: StrokeEngine, history: History
    ) {
        let background: Background
        switch archive.background {
        case .color(let c): background = .color(c)
        case .transparent: background = .transparent
        }
        var base: PixelImage?
        let engine: StrokeEngine
        if let bytes = archive.baseImage {
            let image = try PNGCodec.decode(bytes, name: "history")
            base = image
            engine = StrokeEngine(image: image, background: background)
        } else {
            engine = StrokeEngine(width: archive.width, height: archive.height, background: background)
        }
        let history = History(base: base, memoryCap: memoryCap)
        // Nothing is shown until the whole history is replayed: composite once, at the end.
        engine.defersComposite = true
        for operation in archive.operations { history.perform(operation, engine: engine) }
        engine.defersComposite = false
        return (engine, history)
    }

    /// The archive to save with the picture: the starting picture, every step (undone ones
    /// too, followed by the undos), and the hash of `saved`, the pixels a reader will decode.
    public static func archive(for session: Session, baseBytes: [UInt8]?, saved: PixelImage) -> DocumentArchive {
        let history = session.history
        var operations = history.operations
        operations.append(contentsOf: Array(repeating: Operation.undo, count: history.count - history.cursor))
        return DocumentArchive(
            width: session.engine.width, height: session.engine.height,
            background: DocumentJournal.journalBackground(session.engine.background), baseImage: baseBytes,
            operations: operations, pixelHash: DocumentArchive.hash(saved))
    }
}

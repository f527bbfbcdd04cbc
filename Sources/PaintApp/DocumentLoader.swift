import PaintCore
import PaintIO

/// Reading documents: a picture in any format SwiftPaint opens, with its editing history from
/// this computer's history store or (a PNG) from the file itself, when it replays to the picture
/// the file was saved from; or a blank canvas. And the archive a save keeps.
public enum DocumentLoader {
    /// Opens `path` (absolute) or starts a blank canvas per `options`, with what the status bar
    /// says first. A file that cannot be read opens as an untitled blank canvas, so a save can
    /// never overwrite it.
    public static func open(_ path: String?, options: CommandLineOptions) -> (document: Document, message: String) {
        guard let path else { return (blank(width: options.width, height: options.height, options: options), "") }
        guard FileSystem.exists(path) else {
            var document = blank(width: options.width, height: options.height, options: options)
            document.path = path
            return (document, "New picture; Ctrl+S saves it as \(PathDisplay.abbreviatingHome(path))")
        }
        do {
            return try load(path, options: options)
        } catch {
            FileSystem.printError("swiftpaint: " + error.description)
            return (blank(width: options.width, height: options.height, options: options), error.description)
        }
    }

    /// A blank untitled canvas on the options' background.
    public static func blank(width: Int, height: Int, options: CommandLineOptions) -> Document {
        Document(
            engine: StrokeEngine(width: width, height: height, background: options.background),
            history: History(base: nil, memoryCap: options.historyMemoryMB << 20))
    }

    /// The picture at `path` (absolute), in any format SwiftPaint opens, with its editing history
    /// when this computer's history store keeps one for its pixels or (a PNG) the file carries
    /// one inside, and the history replays to the picture the file was saved from; and what to
    /// tell the user. Throws when the file cannot be read as a picture.
    ///
    /// A picture whose file stores transparency opens as paint over a transparent background
    /// (shown over a checkerboard, erased to transparency, saved with alpha); any other keeps the
    /// options' background behind it, which its opaque pixels cover.
    public static func load(_ path: String, options: CommandLineOptions) throws(ImageFileError) -> (
        document: Document, message: String
    ) {
        let memoryCap = options.historyMemoryMB << 20
        let opened = try ImageFile.open(path: path)
        let picture = opened.picture
        let shown = picture.image
        let said = "Opened \(PathDisplay.abbreviatingHome(path))"
        let inFile = picture.format == .png ? HistoryChunk.extract(from: opened.bytes) : .none
        let carries = inFile != .none
        var notes: [String] = []
        // This computer's store first: it holds the latest history saved here for these pixels.
        if let store = options.historyStore {
            switch store.find(HistoryKey(of: shown)) {
            case .entry(let archive, let named):
                // The replay must give the picture that was encoded into this file: the file's
                // own pixels (as a chunk's replay must), or (a lossy format) the picture the
                // entry names.
                let trusted = { (engine: StrokeEngine) -> Bool in
                    HistoryReplay.verify(engine, shows: shown) || HistoryKey(of: engine.flattenedImage()) == named
                }
                switch restore(archive, shows: shown, path: path, memoryCap: memoryCap, trusting: trusted) {
                case .success(var document):
                    document.format = picture.format
                    document.carriesHistory = carries
                    let restored = "\(said) — history restored (\(steps(document.history.cursor)))"
                    return (document, restored + (carries ? "; the file carries it inside too" : ""))
                case .failure(let problem): notes.append("its kept history was left out: \(problem.reason)")
                }
            case .rejected(let reason): notes.append("its kept history was left out: \(reason)")
            case .none: break
            }
        }
        switch inFile {
        case .archive(let archive):
            let trusted = { (engine: StrokeEngine) in HistoryReplay.verify(engine, shows: shown) }
            switch restore(archive, shows: shown, path: path, memoryCap: memoryCap, trusting: trusted) {
            case .success(var document):
                document.format = .png
                document.carriesHistory = true
                return (
                    document,
                    "\(said) — the file carries its editing history inside (\(steps(document.history.cursor)));"
                        + " Ctrl+S saves it without"
                )
            case .failure(let problem): notes.append("its editing history was left out: \(problem.reason)")
            }
        case .rejected(let reason): notes.append("its editing history was left out: \(reason)")
        case .none: break
        }
        // Without its history: the file's pixels are the starting picture.
        let background = picture.hasAlpha ? .transparent : options.background
        let engine = StrokeEngine(image: shown, background: background)
        // The history shares the engine's tiles of the opened picture: no second copy.
        let document = Document(
            engine: engine, history: History(startingFrom: engine, memoryCap: memoryCap), path: path,
            baseBytes: opened.bytes, format: picture.format, carriesHistory: carries)
        return (document, ([said] + notes).joined(separator: "; "))
    }

    /// "1 step", "12 steps".
    static func steps(_ n: Int) -> String { n == 1 ? "1 step" : "\(n) steps" }

    /// Why a history read back was not used, in words.
    struct Distrust: Error {
        let reason: String
    }

    /// The document `archive` describes, on its saved step, but only when its replay is what
    /// `trusted` accepts (the picture the file `shown` was saved from): the one path every
    /// history read back takes, from the store or from the file.
    static func restore(
        _ archive: DocumentArchive, shows shown: PixelImage, path: String, memoryCap: Int,
        trusting trusted: (StrokeEngine) -> Bool
    ) -> Result<Document, Distrust> {
        // Cheap checks first: a history of another size or other pixels is not replayed at all.
        guard archive.matches(shown) else { return .failure(Distrust(reason: "another program changed the picture")) }
        var document: Document
        do {
            // Within the image limits and the replay budget, on the canvas the history starts on.
            document = try Document.replaying(
                archive.operations.map(JournalRecord.operation), from: HistoryReplay.Start(archive), path: path,
                memoryCap: memoryCap)
        } catch {
            return .failure(Distrust(reason: error.description))
        }
        // The stored hash can be forged with the picture: only the replay itself says whether
        // the history describes what the file shows.
        guard trusted(document.engine) else {
            return .failure(Distrust(reason: HistoryReplay.Refusal.picturesDiffer.description))
        }
        document.savedStep = document.history.cursor
        document.log = archive.operations
        return .success(document)
    }

    /// The archive to keep with the saved picture: the starting picture and every step (undone
    /// ones too, followed by the undos). Its pixel hash is filled in by the save, from the
    /// pixels a reader decodes.
    public static func archive(for document: Document) -> DocumentArchive {
        let history = document.history
        var operations = history.operations
        operations.append(contentsOf: Array(repeating: Operation.undo, count: history.count - history.cursor))
        let start = history.startingCanvas
        return DocumentArchive(
            width: document.engine.width, height: document.engine.height,
            background: document.startingBackground, baseImage: document.baseBytes,
            operations: operations, pixelHash: 0,
            startingCanvas: start == nil || start == document.engine.bounds ? nil : start)
    }
}

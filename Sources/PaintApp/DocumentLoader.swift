import PaintCore
import PaintIO

/// Reading documents: a picture in any format SwiftPaint opens (a PNG with its saved history
/// when it carries one that matches its pixels), or a blank canvas; and the archive a save embeds.
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

    /// The picture at `path` (absolute), in any format SwiftPaint opens, with its saved history
    /// when it is a PNG that carries one matching its pixels, and what to tell the user; throws
    /// when the file cannot be read as a picture.
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
        let said = "Opened \(PathDisplay.abbreviatingHome(path))"
        // Without its history: the file's pixels are the starting picture.
        func plain(_ message: String) -> (document: Document, message: String) {
            let background = picture.hasAlpha ? .transparent : options.background
            let engine = StrokeEngine(image: picture.image, background: background)
            // The history shares the engine's tiles of the opened picture: no second copy.
            let document = Document(
                engine: engine, history: History(startingFrom: engine, memoryCap: memoryCap), path: path,
                baseBytes: opened.bytes, format: picture.format)
            return (document, message)
        }
        guard picture.format == .png else { return plain(said) }
        switch HistoryChunk.extract(from: opened.bytes) {
        case .archive(let archive):
            guard archive.matches(picture.image) else {
                return plain("\(said); its editing history was left out: another program changed the picture")
            }
            do {
                // The history may start on another canvas than the saved picture's (a crop, a
                // scale or a turn since).
                let start = archive.startingCanvas ?? IntRect(x: 0, y: 0, width: archive.width, height: archive.height)
                var document = try Document.replaying(
                    archive.operations.map(JournalRecord.operation), width: start.width, height: start.height,
                    background: archive.background, baseBytes: archive.baseImage, path: path, memoryCap: memoryCap,
                    source: "history")
                document.savedStep = document.history.cursor
                document.log = archive.operations
                document.format = .png
                return (document, "\(said) with its history (\(document.history.cursor) steps to undo)")
            } catch {
                return plain("\(said); its editing history could not be read (\(error.description))")
            }
        case .rejected(let reason):
            return plain("\(said); its editing history was left out: \(reason)")
        case .none:
            return plain(said)
        }
    }

    /// The archive to save with the picture: the starting picture, every step (undone ones
    /// too, followed by the undos), and the hash of `saved`, the pixels a reader will decode.
    public static func archive(for document: Document, saved: PixelImage) -> DocumentArchive {
        let history = document.history
        var operations = history.operations
        operations.append(contentsOf: Array(repeating: Operation.undo, count: history.count - history.cursor))
        let start = history.startingCanvas
        return DocumentArchive(
            width: document.engine.width, height: document.engine.height,
            background: DocumentJournal.journalBackground(document.engine.background), baseImage: document.baseBytes,
            operations: operations, pixelHash: DocumentArchive.hash(saved),
            startingCanvas: start == nil || start == document.engine.bounds ? nil : start)
    }
}

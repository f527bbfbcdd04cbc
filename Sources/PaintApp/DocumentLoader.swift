import PaintCore
import PaintIO

/// Reading documents: a picture in any format SwiftPaint opens, with its editing history from
/// this computer's history store or (a PNG) from the file itself, when it replays to the picture
/// the file was saved from; or a blank canvas. And the archive a save keeps.
public enum DocumentLoader {
    /// Opens `path` (absolute) or starts a blank canvas per `options`, with what the status bar
    /// says first. A file that cannot be read opens as an untitled blank canvas, so a save can
    /// never overwrite it.
    /// With `historyInBackground`, see `load`.
    public static func open(_ path: String?, options: CommandLineOptions, historyInBackground: Bool = false) -> (
        document: Document, message: String
    ) {
        guard let path else { return (blank(width: options.width, height: options.height, options: options), "") }
        guard FileSystem.exists(path) else {
            var document = blank(width: options.width, height: options.height, options: options)
            document.path = path
            document.onDisk = .absent
            return (document, "New picture; Ctrl+S saves it as \(PathDisplay.abbreviatingHome(path))")
        }
        do {
            let loaded = try load(path, options: options, historyInBackground: historyInBackground)
            // Said on the terminal too, as a file that cannot be opened at all is.
            if loaded.document.damage != nil { FileSystem.printError("swiftpaint: " + loaded.message) }
            return loaded
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
    ///
    /// With `historyInBackground` (the window) the history is not looked for here: the document
    /// opens on the file's picture at once and carries a `HistoryRebuild` that looks for it and
    /// replays it on a thread of its own once the document is installed (Session+HistoryRebuild).
    public static func load(
        _ path: String, options: CommandLineOptions, historyInBackground: Bool = false
    ) throws(ImageFileError) -> (document: Document, message: String) {
        let said = "Opened \(PathDisplay.abbreviatingHome(path))"
        // What the file was when read: a save over it checks that no other program changed it.
        func baseline(_ bytes: [UInt8]) -> DiskBaseline {
            FileVersion(path: path, bytes: bytes).map(DiskBaseline.version) ?? .unknown
        }
        let base: BaseImage
        let format: ImageFormat
        let hasAlpha: Bool
        let engine: StrokeEngine
        let carries: Bool
        let onDisk: DiskBaseline
        let resolution: PictureResolution?
        let damage: PictureDamage?
        var notes: [String] = []
        let lossySource: Bool
        let sourceJPEG: JPEGSource?
        if historyInBackground {
            // Decoded straight into the engine's tiles as the file is read (never held whole);
            // the history is looked for later.
            let opened = try ImageFile.openTiles(path: path)
            (format, hasAlpha, carries) = (opened.format, opened.hasAlpha, opened.carriesHistory)
            damage = opened.damage
            onDisk = opened.version.map(DiskBaseline.version) ?? .unknown
            resolution = opened.resolution
            switch opened.bytes {
            case .file(let file): base = .file(file)
            case .memory(let bytes): base = .bytes(bytes)
            }
            lossySource = format.storesLossy(head: opened.head)
            sourceJPEG = format == .jpeg ? JPEGSource(head: opened.head) : nil
            engine = StrokeEngine(
                picture: opened.picture, background: hasAlpha ? .transparent : options.background)
        } else {
            let opened = try ImageFile.open(path: path)
            let picture = opened.picture
            let bytes = opened.bytes
            (base, format, hasAlpha) = (.bytes(bytes), picture.format, picture.hasAlpha)
            damage = picture.damage
            resolution = opened.resolution
            let head = Array(bytes.prefix(PictureResolution.headBytes))
            lossySource = format.storesLossy(head: head)
            sourceJPEG = format == .jpeg ? JPEGSource(head: head) : nil
            // Only the chunks' lengths and types: the chunk itself is read with the history.
            carries = format == .png && HistoryChunk.isPresent(in: bytes)
            onDisk = baseline(bytes)
            let shown = picture.image
            // The file's pixels in tiles: what a history must replay to, and the starting
            // picture when none does.
            engine = StrokeEngine(image: shown, background: hasAlpha ? .transparent : options.background)
            switch savedHistory(
                bytes, format: format, key: { HistoryKey(of: shown) }, shows: engine.paintSnapshot(), path: path,
                store: options.historyStore, memoryCap: options.historyMemoryMB << 20)
            {
            case .found(var document, let detail):
                document.onDisk = baseline(bytes)
                document.resolution = resolution
                document.lossySource = lossySource
                document.damage = damage
                document.sourceJPEG = sourceJPEG
                return (document, damage.map { damaged($0, path) } ?? "\(said) — \(detail)")
            case .none(let why): notes = why
            }
        }
        // A picture whose file stores transparency opens over a transparent background. The
        // history shares the engine's tiles of the opened picture: no second copy.
        var document = Document(
            engine: engine, history: History(startingFrom: engine, memoryCap: options.historyMemoryMB << 20),
            path: path, format: format, carriesHistory: carries)
        document.base = base
        document.onDisk = onDisk
        document.resolution = resolution
        document.lossySource = lossySource
        document.damage = damage
        document.sourceJPEG = sourceJPEG
        // Looked for only where there can be one: the file's chunk, or a store that keeps any
        // history at all (else the thread would hash a 4K picture for nothing: 0.2 s of CPU).
        if historyInBackground && (carries || options.historyStore.map { !$0.isEmpty } ?? false) {
            // The file's bytes only where its own history is to be read (the thread reads
            // them from the file).
            let plan = HistoryRebuild.Plan(
                fileBytes: carries ? base : .bytes([]), format: format, picture: engine.paintSnapshot(), path: path,
                store: options.historyStore, memoryCap: options.historyMemoryMB << 20)
            if let rebuild = HistoryRebuild(plan) {
                document.historyRebuild = rebuild
                if carries { notes.append("reading the editing history it carries…") }
            }
        }
        if let damage { return (document, damaged(damage, path)) }
        return (document, ([said] + notes).joined(separator: "; "))
    }

    /// What the status bar says of a picture opened from a damaged file: how much could be
    /// read, and that Ctrl+S keeps the file as it is.
    static func damaged(_ damage: PictureDamage, _ path: String) -> String {
        damage.message(name: PathDisplay.abbreviatingHome(path)) + "; Ctrl+S saves a copy, the file is left as it is"
    }

    /// What `savedHistory` found.
    enum SavedHistory {
        /// The document on its saved step, and what the status bar says of its history.
        case found(Document, String)
        /// No history to use; why each one found was left out.
        case none([String])
    }

    /// The editing history of a picture whose file holds `bytes` in `format` and shows
    /// `picture` (the engine's tiles of it, read a row at a time: never copied whole; `key`
    /// gives its `HistoryKey`, asked only when the store keeps any entry, nil when told to stop): from
    /// this computer's `store` or (a PNG) from the file itself, when it replays to the picture
    /// the file was saved from. Safe to run on a thread of its own; `control` stops it between
    /// two replayed operations (and `key` between two bands of hashed rows).
    static func savedHistory(
        _ bytes: [UInt8], format: ImageFormat, key: () -> HistoryKey?, shows shown: PackedPixels,
        path: String, store: HistoryStore?, memoryCap: Int, control: ReplayControl? = nil
    ) -> SavedHistory {
        let inFile = format == .png ? HistoryChunk.extract(from: bytes) : .none
        let carries = inFile != .none
        var notes: [String] = []
        // This computer's store first: it holds the latest history saved here for these pixels.
        // An empty one is not looked in (hashing a 4K picture takes 0.1 to 0.3 s).
        if let store, !store.isEmpty, let key = key() {
            switch store.find(key) {
            case .entry(let archive, let named):
                // The replay must give the picture that was encoded into this file: the file's
                // own pixels (as a chunk's replay must), or (a lossy format) the picture the
                // entry names.
                let trusted = { (engine: StrokeEngine) -> Bool in
                    HistoryReplay.verify(engine, shows: shown) || HistoryKey(flattening: engine) == named
                }
                switch restore(
                    archive, shows: shown, path: path, memoryCap: memoryCap, trusting: trusted, control: control)
                {
                case .success(var document):
                    document.format = format
                    document.carriesHistory = carries
                    let restored = "history restored (\(steps(document.history.cursor)))"
                    return .found(document, restored + (carries ? "; the file carries it inside too" : ""))
                case .failure(let problem): notes.append("its kept history was left out: \(problem.reason)")
                }
            case .rejected(let reason): notes.append("its kept history was left out: \(reason)")
            case .none: break
            }
        }
        // Stopped: the file's own history is not looked at either.
        if control?.isStopped == true { return .none([HistoryReplay.Refusal.stopped.description]) }
        switch inFile {
        case .archive(let archive):
            let trusted = { (engine: StrokeEngine) in HistoryReplay.verify(engine, shows: shown) }
            switch restore(archive, shows: shown, path: path, memoryCap: memoryCap, trusting: trusted, control: control)
            {
            case .success(var document):
                document.format = .png
                document.carriesHistory = true
                return .found(
                    document,
                    "the file carries its editing history inside (\(steps(document.history.cursor)));"
                        + " Ctrl+S saves it without")
            case .failure(let problem): notes.append("its editing history was left out: \(problem.reason)")
            }
        case .rejected(let reason): notes.append("its editing history was left out: \(reason)")
        case .none: break
        }
        return .none(notes)
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
        _ archive: DocumentArchive, shows shown: PackedPixels, path: String, memoryCap: Int,
        trusting trusted: (StrokeEngine) -> Bool, control: ReplayControl? = nil
    ) -> Result<Document, Distrust> {
        // Cheap checks first: a history of another size or other pixels is not replayed at all.
        guard archive.matches(shown) else { return .failure(Distrust(reason: "another program changed the picture")) }
        var document: Document
        control?.noteReplayStarts(archive.operations.count)
        do {
            // Within the image limits and the replay budget, on the canvas the history starts on.
            document = try Document.replaying(
                archive.operations.map(JournalRecord.operation), from: HistoryReplay.Start(archive), path: path,
                memoryCap: memoryCap, control: control)
        } catch {
            return .failure(Distrust(reason: error.description))
        }
        // The history's starting picture may be a damaged file's; the file it was found for is
        // not (its own damage is the loader's to say).
        document.damage = nil
        // The stored hash can be forged with the picture: only the replay itself says whether
        // the history describes what the file shows.
        guard trusted(document.engine) else {
            return .failure(Distrust(reason: HistoryReplay.Refusal.picturesDiffer.description))
        }
        document.savedStep = document.history.cursor
        document.log = archive.operations
        return .success(document)
    }

    /// The archive to keep with the saved picture: every step (undone ones too, followed by the
    /// undos), without the starting picture's bytes: those are `document.base`, read back (from
    /// the opened file or the crash journal: megabytes) where the archive is written, on the
    /// save's thread (`BackgroundSave`). Its pixel hash is filled in by the save, from the
    /// pixels a reader decodes.
    public static func archive(for document: Document) -> DocumentArchive {
        let start = document.history.startingCanvas
        return DocumentArchive(
            width: document.engine.width, height: document.engine.height,
            background: document.startingBackground, baseImage: nil,
            operations: document.replayLog, pixelHash: 0,
            startingCanvas: start == nil || start == document.engine.bounds ? nil : start)
    }
}

import Glibc
import PaintCore
import PaintIO

/// The document: saving, New and Open, closing, and the questions they ask.
extension Session {
    // MARK: Document

    /// Removes all paint.
    public func clear() {
        commitStroke()
        canvasDirty = canvasDirty.union(history.perform(.clear, engine: engine))
        record(.clear)
        setMessage("Canvas cleared")
    }

    /// Saves to the document's file, or asks for a name when it has none.
    public func save() {
        guard let path else {
            promptSaveAs(then: nil)
            return
        }
        save(to: path)
    }

    /// Opens the file-name prompt with the current name filled in; after a successful save the
    /// user goes on to `then`.
    public func promptSaveAs(then: Leaving?) {
        let suggestion = path ?? Self.defaultSavePath()
        mode = .savePrompt(TextField(PathDisplay.abbreviatingHome(suggestion)), then: then)
        setMessage("")
    }

    /// Opens the prompt for a picture to open, in the current document's folder.
    public func promptOpen() {
        commitStroke()
        let folder = path.map(FileSystem.parentFolder) ?? FileSystem.parentFolder(Self.defaultSavePath())
        mode = .openPrompt(TextField(PathDisplay.abbreviatingHome(folder) + "/"))
        setMessage("")
    }

    /// Where an untitled drawing is offered to go: ~/Pictures when it exists, else the current
    /// folder.
    static func defaultSavePath() -> String {
        let pictures = PathDisplay.expandingTilde("~/Pictures")
        let folder = FileSystem.kind(pictures) == .folder ? pictures : FileSystem.currentFolder
        return folder + "/untitled.png"
    }

    /// Writes the picture to `target` atomically; reports success or the reason in the status
    /// bar. The document stays modified when it fails.
    @discardableResult
    public func save(to target: String) -> Bool {
        commitStroke()
        let withAlpha = engine.background == .transparent
        var png: [UInt8]
        do {
            png = try PNGCodec.encode(engine.flattenedImage(), withAlpha: withAlpha)
            if savesHistory {
                // The hash covers what a reader decodes from this file, so reopening checks
                // exactly that. A history that cannot be embedded leaves a plain PNG.
                let saved = try PNGCodec.decode(png, name: target)
                let archive = DocumentLoader.archive(for: self, baseBytes: baseBytes, saved: saved)
                if let withHistory = try? HistoryChunk.embed(archive, into: png) { png = withHistory }
            }
            try AtomicFile.write(png, to: target)
        } catch {
            setMessage(error.description)
            return false
        }
        sink?.saved(path: target)
        path = target
        savedStep = history.cursor
        updateModified()
        setMessage("Saved to \(PathDisplay.abbreviatingHome(target))")
        return true
    }

    // MARK: Closing

    /// Opens the picture at `target` (absolute) in place of this document: read first, so a
    /// file that cannot be opened is reported before anything is asked or changed.
    public func open(_ target: String) {
        switch opener.load(target) {
        case .success(let document):
            pendingOpen = document
            requestLeave(to: .open(target))
        case .failure(let error):
            setMessage(error.description)
        }
    }

    /// The window is asked to close: quit at once when saved, else ask.
    public func requestClose() { requestLeave(to: .quit) }

    /// Leaves the document for `leaving`: at once when it is saved, else after asking
    /// Save / Discard / Cancel.
    public func requestLeave(to leaving: Leaving) {
        commitStroke()
        if isModified {
            mode = .confirmLeave(leaving)
            statusDirty = true
        } else {
            proceed(to: leaving)
        }
    }

    /// Goes where the user was going, the document being saved or given up.
    func proceed(to leaving: Leaving) {
        switch leaving {
        case .quit:
            finish()
        case .newDocument:
            switchDocument(to: opener.blank(width: engine.width, height: engine.height))
        case .open(let target):
            let loaded: Result<LoadedDocument, ImageFileError>
            if let pending = pendingOpen, pending.path == target {
                loaded = .success(pending)
            } else {
                loaded = opener.load(target)
            }
            pendingOpen = nil
            switch loaded {
            case .success(let document): switchDocument(to: opener.attach(document, offeringLeftOver: true))
            case .failure(let error): setMessage(error.description)
            }
        }
    }

    /// Makes `opened` the document: the old one's journal goes (it was saved or given up), the
    /// new one's takes its place.
    func switchDocument(to opened: DocumentOpener.Opened) {
        sink?.closedCleanly()
        sink = opened.journal
        let document = opened.document
        replaceDocument(
            engine: document.engine, history: document.history, savedStep: document.savedStep, path: document.path)
        baseBytes = document.baseBytes
        setHoverStroke(nil)
        setMessage(opened.journalProblem ?? document.message)
        if let offer = opened.restoreOffer { self.offer(offer) }
    }

    /// Leaves with nothing to lose: the journal goes.
    func finish() {
        sink?.closedCleanly()
        exitCode = 0
    }

    /// SIGTERM, SIGHUP: finish the stroke in progress, make the journal durable, and exit. The
    /// journal stays when there are unsaved changes, so the next start offers to restore them.
    public func terminate() {
        commitStroke()
        if isModified {
            sink?.flush()
            exitCode = 0
        } else {
            finish()
        }
    }

    /// The X server is gone: no more X calls. Record the stroke in progress as finished and make
    /// the journal durable; the caller exits.
    public func emergencyStop() {
        commitStroke()
        sink?.flush()
    }

    /// Offers to restore a drawing left by a crash (shown in the status bar).
    public func offer(_ restore: RestoreOffer) {
        pendingRestore = restore
        mode = .offerRestore(restore.question)
        statusDirty = true
    }

    /// Replaces the document with another (restored) one.
    func replaceDocument(
        engine newEngine: StrokeEngine, history newHistory: History, savedStep step: Int?, path newPath: String?
    ) {
        engine = newEngine
        history = newHistory
        savedStep = step
        path = newPath
        layout = Layout(
            windowWidth: layout.windowWidth, windowHeight: layout.windowHeight, imageWidth: engine.width,
            imageHeight: engine.height, zoom: layout.zoom)
        layoutChanged = true
        toolbarDirty = true
        statusDirty = true
        updateModified()
        lastPaintPoint = nil
    }

    /// Answers the question in the status bar.
    public func answer(_ answer: Answer) {
        let asked = mode
        mode = .normal
        statusDirty = true
        switch (asked, answer) {
        case (.confirmReplace(let target, let then), .replace):
            if save(to: target), let then { proceed(to: then) }
        case (.confirmReplace, .cancel):
            setMessage("Save cancelled; the file there is as it was")
        case (.confirmLeave(let leaving), .save):
            if let path {
                if save(to: path) { proceed(to: leaving) }
            } else {
                promptSaveAs(then: leaving)
            }
        case (.confirmLeave(let leaving), .discard):
            proceed(to: leaving)
        case (.offerRestore, .restore):
            guard let offer = pendingRestore else { return }
            pendingRestore = nil
            let restored = offer.restore()
            if let engine = restored.engine {
                replaceDocument(
                    engine: engine, history: restored.history ?? History(base: nil), savedStep: restored.savedStep,
                    path: restored.path)
                baseBytes = restored.baseBytes
            }
            setMessage(restored.message)
        case (.offerRestore, .discard):
            pendingRestore?.discard()
            pendingRestore = nil
            setMessage("The earlier drawing was discarded")
        default:
            pendingOpen = nil
            setMessage("")
        }
    }

    /// The answer buttons' rectangles in the status bar, right-aligned, in `mode.answers` order.
    public func answerButtons() -> [(Answer, IntRect)] {
        let bar = layout.statusBar
        let answers = mode.answers
        var x = bar.maxX - 8 - 76 * answers.count
        return answers.map { answer in
            defer { x += 76 }
            return (answer, IntRect(x: x + 4, y: bar.y + 3, width: 72, height: bar.height - 6))
        }
    }
}

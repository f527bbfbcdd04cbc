import Glibc
import PaintCore
import PaintIO

/// The document: saving, New and Open, closing, and the questions they ask.
extension Session {
    // MARK: Document

    /// Removes all paint.
    public func clear() {
        perform(.clear)
        setMessage("Canvas cleared")
    }

    /// Saves to the document's file (asking what only the user can say, see `saveAsking`), or
    /// asks for a name when it has none or was opened damaged (`ownFile`).
    public func save() { save(historyInside: false) }

    /// The file Ctrl+S writes without asking for a name: the document's own, unless the picture
    /// is what could be read of a damaged file (`Document.damage`). That file is left as it is
    /// (another tool may yet recover its rest): Ctrl+S asks for a name, as for an untitled
    /// picture, suggesting `photo (recovered).png`, rather than overwrite it with the part read
    /// or ask a question whose default would do so.
    var ownFile: String? { document.damage == nil ? path : nil }

    /// Saves as `save()` does; with `historyInside` ("Save with history", Ctrl+Alt+S) the file
    /// carries the editing history inside, to be taken to another computer.
    public func save(historyInside: Bool) {
        historyInsideNextSave = historyInside
        // An untitled picture's first save, still being written, has given it its name.
        guard let path = ownFile ?? saving?.target else {
            promptSaveAs(then: nil)
            return
        }
        saveAsking(to: path, then: nil)
    }

    /// Writes the picture to `target` in the format its name (or, for the document's own file,
    /// the document) asks for, PNG when neither says; see `save(to:as:)`.
    @discardableResult
    public func save(to target: String) -> Bool {
        save(to: target, as: formatToSave(target) ?? .png)
    }

    // MARK: Closing

    /// Opens the picture at `target` (absolute) in place of this document: read first, so a
    /// file that cannot be opened is reported before anything is asked or changed.
    public func open(_ target: String) {
        switch loadToOpen(target) {
        case .success(let loaded):
            pendingOpen = loaded
            requestLeave(to: .open(target))
        case .failure(let error):
            setMessage(error.description)
        }
    }

    /// Reads the picture at `target` for Open while another thread looks for a drawing a crash
    /// left for it (a `BackgroundJob`), offered once the picture is put in place.
    func loadToOpen(
        _ target: String
    ) -> Result<(document: Document, message: String, leftOver: BackgroundJob<Recovery.Candidate?>?), ImageFileError> {
        let search = opener.journalFolder.map { folder in
            // A cancelled or failed open leaves the look to finish on its own.
            BackgroundJob(wake: .none) { [findLeftOver] in findLeftOver(target, folder) }
        }
        return opener.load(target).map { ($0.document, $0.message, search) }
    }

    /// The window is asked to close: quit at once when saved, else ask.
    public func requestClose() { requestLeave(to: .quit) }

    /// Leaves the document for `leaving`: at once when it is saved, else after asking
    /// Save / Discard / Cancel. While a save is being written, once it is done.
    public func requestLeave(to leaving: Leaving) {
        // Closing while a drawing is restored loses nothing: the replay stops, its journal stays
        // for the next start, and the document shown is left as any other.
        stopRestore()
        commitStroke()
        historyInsideNextSave = false
        if let saving {
            leaveAfterSave = leaving
            let next = leaving == .quit ? "closing" : "going on"
            setMessage("Saving “\(FileSystem.lastComponent(saving.target))”…; \(next) once it is saved")
            return
        }
        // Waiting for the file's bytes (a Ctrl+S, or leaving asked before): leaving follows.
        if let waiting = awaitingDisk {
            awaitingDisk = waiting.joining(leave: leaving)
            return
        }
        // A picture saved here that another program has since replaced, or whose file is gone,
        // exists only in this window: leaving asks too (once the file's bytes, read off the
        // window's thread, tell whether it was replaced).
        deletedOnDisk = fileDeletedOnDisk()
        var asks = isModified || (history.cursor > 0 && deletedOnDisk)
        if !asks && history.cursor > 0 {
            guard let changed = changeOnDisk(read: readOffThread) else { return waitForDisk(.leave(leaving)) }
            asks = changed
        }
        if asks {
            setMode(.confirmLeave(leaving))
        } else {
            proceed(to: leaving)
        }
    }

    /// The user gave up going where they were going (`then` of a Save As cancelled, a save
    /// for it cancelled or failed): what waited for the answer is let go now, not held until
    /// the next leave: a decoded paste for a new picture (32 MB for a 4K one), a picture read
    /// for Open with the look for its left-over drawing. Nothing when there was no leave.
    func giveUpLeaving(_ leaving: Leaving?) {
        guard leaving != nil else { return }
        pendingOpen = nil
        pendingPasteAsNew = nil
    }

    /// Goes where the user was going, the document being saved or given up.
    func proceed(to leaving: Leaving) {
        switch leaving {
        case .quit:
            finish()
        case .newDocument:
            let (w, h) = (engine.width, engine.height)
            start(opener.blank(width: w, height: h), message: "New picture, \(w) × \(h)")
        case .pastedPicture:
            newPictureFromPaste()
        case .open(let target):
            let loaded:
                Result<
                    (document: Document, message: String, leftOver: BackgroundJob<Recovery.Candidate?>?), ImageFileError
                >
            if let pending = pendingOpen, pending.document.path == target {
                loaded = .success(pending)
            } else {
                loaded = loadToOpen(target)
            }
            pendingOpen = nil
            switch loaded {
            case .success(let opened):
                // Found before this picture's own journal is made, offered in its first frame.
                let leftOver = opened.leftOver?.finish() ?? nil
                start(opened.document, message: opened.message, anotherPicture: true)
                offerLeftOverDrawing(leftOver)
                rememberRecent(target)
            case .failure(let error):
                setMessage(error.description)
            }
        }
    }

    /// Makes `document` the one being edited, going on in `journal`: start-up, New, Open and
    /// Restore all come here. The previous document's journal closes (it was saved or given
    /// up). The window keeps its size, and its zoom unless this is `anotherPicture` (a file
    /// opened, at start-up or by Open): that one shows fitted to the
    /// window when larger (`fitLargePictures`, View ▸ Open Large Pictures Fitted, as Windows 11 Paint,
    /// GIMP and Krita open a file), else at 100 %, where it kept the zoom chosen for the picture before (an
    /// 800 px photo opened after a 4000 px one showed at 33 %). A new blank canvas and a restored
    /// drawing keep the zoom.
    public func install(
        _ document: Document, message: String, journal: OperationSink?, anotherPicture: Bool = false
    ) {
        if journal !== sink { sink?.closedCleanly() }
        sink = journal
        // A save still being written belonged to the document that goes; what waited for it too.
        documentSerial += 1
        queuedSave = nil
        leaveAfterSave = nil
        journalToSettle = journal is DocumentJournal
        crashProtectionStopped = nil
        journalMissing = nil
        changedOnDisk = false
        deletedOnDisk = false
        diskSeen = nil
        diskCheck = nil
        awaitingDisk = nil
        overwriteAccepted = nil
        // A text box belonged to the picture that goes (whoever replaces it puts it down first).
        liveText = nil
        fontChooser = nil
        // So did a paste still being decoded: it is stopped.
        pasteDecoding = nil
        switch gesture {
        case .textBox, .selectingText: gesture = .idle
        default: break
        }
        self.document = document
        // A restored drawing whose journal did not say which version of its file it knew: the
        // file as it is now is read from here on, off the window's thread.
        if let path = document.path, document.onDisk == .unread { _ = readOffThread(path) }
        // A saved history is replayed on a thread of its own while the picture is drawn on.
        if !backgroundWorkWaits { document.historyRebuild?.start() }
        layout = layout.showing(imageWidth: engine.width, imageHeight: engine.height)
        if let path = document.path, FileSystem.kind(FileSystem.parentFolder(path)) == .folder {
            lastFolder = FileSystem.parentFolder(path)
        }
        if anotherPicture {
            // fitZoom never enlarges: a picture that fits the window shows at 100 %.
            let zoom = fitLargePictures ? layout.fitZoom() : .actualSize
            layout = layout.zoomed(to: zoom, keepingWindowX: 0, y: layout.canvasArea.y)
        }
        // A new canvas or a restored drawing keeps a zoom that was fitted to another picture.
        zoomFitted = anotherPicture && fitLargePictures
        fitEnlarges = false
        effects.layout = true
        effects.toolbar = true
        effects.status = true
        refreshPointerPixel()
        lastPaintPoint = nil
        // The selection and the stroke under the pointer belonged to the picture that went.
        setSelection(nil)
        setHoverStroke(nil)
        setMessage(message)
    }

    /// Starts editing `document` with a crash journal of its own (New, Open, and the first
    /// document once the window is up): its journal is made first, then the document installed.
    /// A drawing a crash left is offered apart (`offerLeftOverDrawing`). Returns why there is no journal when one
    /// was wanted: drawing goes on without it, and the status bar says what is at stake.
    @discardableResult
    public func start(
        _ document: Document, message: String, anotherPicture: Bool = false
    ) -> String? {
        var document = document
        let started = opener.startJournal(for: &document)
        install(document, message: started.problem ?? message, journal: started.journal, anotherPicture: anotherPicture)
        journalMissing = started.why
        return started.problem
    }

    /// The window's first frame is on screen: work held back for it starts (see `init`).
    public func startBackgroundWork() {
        backgroundWorkWaits = false
        document.historyRebuild?.start()
    }

    /// Gives the document installed at start-up its crash journal once the window shows it
    /// (what `start` does, without installing the document again: nothing on screen changes
    /// unless the journal cannot be made, which the status bar then says; a drawing a crash left
    /// was offered before, `offerLeftOverDrawing`). Returns why there is no journal when one
    /// was wanted.
    @discardableResult
    public func startJournal() -> String? {
        guard sink == nil else { return nil }
        let started = opener.startJournal(for: &document)
        sink = started.journal
        journalToSettle = sink != nil
        crashProtectionStopped = nil
        journalMissing = started.why
        if let problem = started.problem { setMessage(problem) }
        return started.problem
    }

    /// Offers back the drawing a crash left for the document's file (for an untitled document,
    /// the newest of all), looked for on the window's thread: at start-up, before the
    /// first frame, so the window shows the question from the start.
    ///
    /// Not when the picture named to open could not be (an untitled canvas, the reason in red):
    /// the newest drawing of any file was offered over that reason, which was never seen (`swiftpaint
    /// damaged.png` asked "Restore the drawing “photo.png” …?"). It stays for the next start.
    public func offerLeftOverDrawing() {
        guard offersLeftOver, let folder = opener.journalFolder else { return }
        offerLeftOverDrawing(Recovery.candidate(for: document.path, in: folder))
    }

    /// Offers `leftOver`, found for this document off the window's thread while the window was
    /// made (`DocumentOpening.leftOver`), as `offerLeftOverDrawing()` offers what it finds.
    public func offerLeftOverDrawing(_ leftOver: Recovery.Candidate?) {
        guard offersLeftOver, let leftOver else { return }
        offer(Recovery.offer(leftOver))
    }

    /// Whether a drawing a crash left is offered over this document: not over the reason a
    /// picture named to open could not be.
    private var offersLeftOver: Bool { !(document.path == nil && Self.isError(message)) }

    /// Leaves with nothing to lose: the journal goes.
    func finish() {
        sink?.closedCleanly()
        waitForRecentList()
        effects.exit = 0
    }

    /// SIGTERM, SIGHUP: finish the stroke in progress, make the journal durable, and exit. The
    /// journal stays when there are unsaved changes, so the next start offers to restore them.
    public func terminate() {
        // A save being written is finished (the file is whole either way: it is renamed into
        // place), nothing that waited for it is.
        finishSave(goingOn: false)
        waitForRecentList()
        commitStroke()
        if isModified {
            // Without a journal (a start that could not make one), a last try.
            retryJournal()
            sink?.flush()
            effects.exit = 0
        } else {
            finish()
        }
    }

    /// The X server is gone: no more X calls. Record the stroke in progress as finished and make
    /// the journal durable; the caller exits.
    public func emergencyStop() {
        finishSave(goingOn: false)
        waitForRecentList()
        commitStroke()
        sink?.flush()
    }

    /// Offers to restore a drawing left by a crash (shown in the status bar).
    public func offer(_ restore: RestoreOffer) {
        pendingRestore = restore
        setMode(.offerRestore(restore.question))
    }

    /// Shows a prompt or question in the status bar (or, with `.normal`, the status again).
    func setMode(_ new: SessionMode) {
        mode = new
        effects.status = true
    }

    /// Answers the question in the status bar.
    public func answer(_ answer: Answer) {
        let asked = mode
        setMode(.normal)
        switch (asked, answer) {
        case (.confirmReplace(let target, let then), .replace):
            saveAsking(to: target, then: then)
        case (.chooseFormat(let target, let then), .png), (.chooseFormat(let target, let then), .jpeg),
            (.chooseFormat(let target, let then), .webp):
            let format: ImageFormat = answer == .png ? .png : answer == .jpeg ? .jpeg : .webp
            choseFormat(format, for: target, then: then)
        case (.confirmOverwrite(let target, let then), .overwrite):
            overwriteAccepted = FileVersion.Stat(path: target)
            saveAsking(to: target, then: then)
        case (.confirmOverwrite(_, let then), .saveAs):
            promptSaveAs(then: then)
        case (.confirmOverwrite(let target, let then), .cancel):
            giveUpLeaving(then)
            setMessage("Not saved; “\(FileSystem.lastComponent(target))” stays as the other program left it")
        case (.confirmReplace(_, let then), .cancel):
            giveUpLeaving(then)
            setMessage("Save cancelled; the file there is as it was")
        case (.confirmLeave(let leaving), .save):
            if let path = ownFile {
                saveAsking(to: path, then: leaving)
            } else {
                promptSaveAs(then: leaving)
            }
        case (.confirmLeave(let leaving), .discard):
            proceed(to: leaving)
        case (.offerRestore, .restore):
            guard let offer = pendingRestore else { return }
            pendingRestore = nil
            startRestore(offer)
        case (.offerRestore, .discard):
            let said = pendingRestore?.discard()
            pendingRestore = nil
            setMessage(said ?? "")
        default:
            pendingOpen = nil
            pendingPasteAsNew = nil
            setMessage("")
        }
    }

    /// The answer buttons' rectangles in the status bar, right-aligned, in `mode.answers` order.
    public func answerButtons() -> [(Answer, IntRect)] {
        let bar = layout.statusBar
        let s = layout.ui
        let answers = mode.answers
        // Narrower buttons where the usual 76 px would leave the question no room or the
        // buttons no place in the window (as narrow as the toolbar allows), never narrower than
        // the longest answer in bold and a margin.
        let widest = answers.map { textMeasure.width(of: $0.rawValue, bold: true) }.max() ?? 0
        let pitch = max(
            widest + s.px(12), min(s.px(76), (bar.width - s.px(16) - s.px(48)) / max(1, answers.count)))
        var x = bar.maxX - s.px(8) - pitch * answers.count
        return answers.map { answer in
            defer { x += pitch }
            return (
                answer,
                IntRect(x: x + s.px(4), y: bar.y + s.px(3), width: pitch - s.px(4), height: bar.height - s.px(6))
            )
        }
    }
}

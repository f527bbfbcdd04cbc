import PaintCore
import PaintIO
import PaintText

/// The running program without its window: it takes platform-free input events, drives the
/// stroke engine, and describes what the window must do (`Effects`). The window layer owns one
/// and only translates events in and carries the effects out.
///
/// Its state is a few values: the `document` being edited, the `settings` painted with, the
/// `gesture` the pointer is making, the `mode` of the status bar, and the `layout` of the window.
/// Input arrives through `handle`; everything a change asks of the window collects in `effects`
/// until the window takes it.
public final class Session {
    /// The picture being edited, its history and its file. `install` replaces it.
    public internal(set) var document: Document
    /// Geometry of the window.
    public internal(set) var layout: Layout
    /// The tool, the colors, width, opacity and the toggles.
    public internal(set) var settings = Settings()
    /// Whether the save being asked for carries the history inside the file (Ctrl+Alt+S, or
    /// "Save with history" ticked in the Save as dialog). Every way of asking for a save sets it;
    /// a save uses it up.
    var historyInsideNextSave = false
    /// Whether saves are written on a thread of their own (the window: drawing goes on while a
    /// large picture is encoded and synced); without, `save` writes before it returns.
    public var savesInBackground = false
    /// The save being written (`BackgroundSave`); nil when none is.
    var saving: BackgroundSave?
    /// A save asked for while another was being written, made once that one is done: never two
    /// at once.
    var queuedSave: (target: String, then: Leaving?, historyInside: Bool)?
    /// Where the user was going (closing, New, Open) when a save was still being written: asked
    /// again once it is done, so closing never loses a save under way.
    var leaveAfterSave: Leaving?
    /// Counts the documents installed: a save that ends after another document came is not
    /// that document's save.
    var documentSerial = 0
    /// Counts the changes the journal heard of (`record`).
    var recordedChanges = 0
    /// The journal `retryJournal` made (once the disk had room again), which starts from the
    /// history as it was then: a save that ends while it is the journal marks its step by
    /// that history (`noteSaved`).
    var journalFromHistory: ObjectIdentifier?
    /// The recent list being written on its own thread (`rememberRecent`).
    var recentWriting: RecentWriting?
    /// The last message for the status bar ("Saved to …", an error).
    public internal(set) var message = ""
    /// What the status bar is doing: showing the status, or asking something.
    public internal(set) var mode: SessionMode = .normal {
        didSet {
            // The canvas is shown dimmed while a question blocks it.
            let blocks = mode.blocksCanvas
            if blocks != blocksCanvas {
                blocksCanvas = blocks
                redraw(engine.bounds)
            }
        }
    }
    /// Whether `mode` blocks the canvas (`SessionMode.blocksCanvas`), kept as the mode changes:
    /// the pointer's events and every blit of the canvas ask, and reading the mode copies it.
    public private(set) var blocksCanvas = false
    /// The toolbar item under the pointer.
    public internal(set) var hovered: ToolbarItem?
    /// What the pointer is doing: made by a press, ended by its release.
    var gesture = Gesture.idle
    /// The samples of the stroke `gesture` holds (`Gesture.StrokeSamples`); empty otherwise.
    var strokeSamples = Gesture.StrokeSamples()
    /// Where the pointer was last seen in the window.
    var lastPointer: (x: Int, y: Int)?
    /// When `runTimers` last repeated the motion of a drag selecting text held past the
    /// canvas's edge (or saw the drag get there); nil while nothing is held there.
    var autoscrolledAt: Double?
    /// Whether `message` is a notice that goes by itself (not an error), and when `runTimers`
    /// first saw it (nil: not yet).
    var messageFades = false
    var messageShownAt: Double?
    /// Seconds a notice stays in the status bar: `messageLifetime`, unless the program was
    /// started with `SWIFTPAINT_NOTICE_SECONDS` (`noticeLifetime(environment:)`), which the
    /// end-to-end tests set so long that a notice they read cannot go before they look.
    public var noticeLifetime = Session.messageLifetime
    /// Whether the command running was chosen in a menu (not by its key).
    var runningMenuCommand = false
    /// The image pixel under the pointer, when it is over the image.
    public internal(set) var pointerPixel: (x: Int, y: Int)?
    /// What the window is asked to do, collected since it last took it (`takeEffects`). A new
    /// session asks for the whole window.
    var effects: Effects = {
        var start = Effects()
        start.layout = true
        start.toolbar = true
        start.status = true
        return start
    }()
    /// What the window title shows, as the window was last told.
    private var shownTitle: TitleKey?
    private struct TitleKey: Equatable {
        var modified: Bool
        var path: String?
        var carriesHistory: Bool
        var changedOnDisk: Bool
        var deletedOnDisk: Bool
    }
    /// The pointer shape the window was last told.
    private var shownPointer: PointerShape?
    /// Whether the window was last told to offer text as the PRIMARY selection (and not told to
    /// give it up since): once nothing is selected, it is told to give it up (`takeEffects`).
    var primaryHeld = false
    /// Whether undo and redo had a step to take when the toolbar was last asked for.
    private var shownActions: ActionsKey?
    private struct ActionsKey: Equatable {
        var undo: Bool
        var redo: Bool
    }

    /// Where committed operations go (the crash journal); nil runs without one.
    public var sink: OperationSink?
    /// Makes the documents New and Open switch to, and their journals.
    public var opener = DocumentOpener(options: CommandLineOptions(), journalFolder: nil)
    var pendingRestore: RestoreOffer?
    /// Whether Restore replays the crash journal on a thread of its own (the window: it draws
    /// and says how far the replay got meanwhile); without, the drawing is restored before the
    /// answer returns.
    public var restoresInBackground = false
    /// The drawing being restored from its crash journal (`JournalRestore`); nil when none is.
    var restoring: JournalRestore?
    /// Why crash protection stopped, as the status bar last said; nil while it works.
    var crashProtectionStopped: String?
    /// Why the document has no crash journal though it should have one: it could not be made
    /// (a full disk), and `watch` tries again every 2 s while there are unsaved changes (kept
    /// until the journal tried again is made). Nil while it has one, or runs without
    /// (`--no-journal`).
    var journalMissing: String?
    /// The crash journal is being made on its own thread: `settleJournal` looks at it on the
    /// window's turns until it is made (or could not be), and then no more.
    var journalToSettle = false
    /// Whether another program changed the document's file since it was opened or saved here,
    /// as last looked (the title says so).
    public internal(set) var changedOnDisk = false
    /// Whether the document's file, opened or saved here, is gone from its path since (deleted,
    /// or moved away), as last looked: this window may hold the only copy of the picture.
    public internal(set) var deletedOnDisk = false
    /// The file's stat when its bytes were last compared, and whether they differed: a file
    /// that stays as it is is read once, not at every look.
    var diskSeen: (stat: FileVersion.Stat, changed: Bool)?
    /// The file's bytes being read on a thread of their own for that comparison, between
    /// events (`Session+Watch`).
    var diskCheck: DiskCheck?
    /// A save or leaving asked for while `diskCheck` reads the file's bytes: it goes on once
    /// they are read (`Session+DiskWait`).
    var awaitingDisk: DiskWait?
    /// Reads the file's version for `diskCheck` (tests give a reader that notes its thread, or
    /// one held for as long as they need).
    var readFileVersion: @Sendable (String) -> FileVersion? = { FileVersion.current(path: $0) }
    /// Decodes a pasted or dropped picture on `PasteDecoding`'s thread (tests give one held for
    /// as long as they need).
    var decodePaste: PasteDecoding.Decoder = { PasteDecoding.decode($0, control: $1) }
    /// The file's stat when the user chose Overwrite: that version is not asked about again.
    var overwriteAccepted: FileVersion.Stat?
    /// The last point painted, where Shift+click draws a straight line from.
    var lastPaintPoint: Point?
    /// The folder a file was last opened from or saved to: where an untitled drawing's Open
    /// and Save as start.
    public internal(set) var lastFolder: String?
    /// Whether a picture larger than the window opens fitted to it (View ▸ Open Large Pictures
    /// Fitted; off by default, see `StoredSettings.fitLargePictures`).
    public var fitLargePictures = false

    /// Whether the zoom was chosen by fitting the picture to the window (a large picture opened
    /// fitted, Fit to Window) rather than set by the user (a zoom key, a preset, the wheel): a
    /// change of the picture's size (a crop, a scale, a turn, or their undo) then fits it again
    /// (`followCanvasSize`), so a 700 x 500 crop of a fitted 4000 x 3000 photo is not left at 27 %;
    /// so does a new window size (`resizeWindow`), as an image viewer's "best fit" does.
    var zoomFitted = false
    /// Whether the fitted zoom may be above 100 % (Fit to Window enlarges a small picture to the
    /// window; a picture opened fitted, or fitted again after a crop, is shown at most at 100 %):
    /// a new window size fits it the same way. Meaningful only while `zoomFitted`.
    var fitEnlarges = false

    /// Whether the user answered the WebP question in this window with another quality than the
    /// one offered: that answer is offered from then on, whatever the picture came from
    /// (`offeredQuality`).
    var webpQualityChosen = false
    /// Whether work that can wait for the window's first frame (a history being rebuilt on its
    /// thread) waits until `startBackgroundWork`: the window shows the picture first.
    var backgroundWorkWaits: Bool
    /// Lines of the settings file this version does not read, written back as they were.
    var otherStoredSettings: [SettingsFile.Entry] = []

    /// How large controls and text are drawn (from the screen's Xft.dpi or SWIFTPAINT_SCALE).
    public var uiScale: UIScale {
        get { layout.ui }
        set {
            guard newValue != layout.ui else { return }
            setLayout(
                Layout(
                    windowWidth: layout.windowWidth, windowHeight: layout.windowHeight, imageWidth: layout.imageWidth,
                    imageHeight: layout.imageHeight, scrollX: layout.scrollX, scrollY: layout.scrollY,
                    zoom: layout.zoom, ui: newValue))
        }
    }
    /// The tool a stylus's eraser end replaced, selected again when the pen's tip comes back.
    var toolBeforeEraser: Tool?
    /// The stabilizer's field in the status bar as last drawn (a click steps it).
    var stabilizerField: IntRect?

    // MARK: State of the parts in Session+*.swift

    /// The menu bar and its open menu (Session+Menus.swift).
    public internal(set) var menuBar = MenuBar(menus: [])
    /// The zoom presets, opened from the status bar's zoom field: a menu of one.
    public internal(set) var zoomMenu = MenuBar(menus: [])
    /// The keys or About panel, while it is shown.
    public internal(set) var infoPanel: InfoPanel?
    /// Measures text as the window draws it (the window's font once it has drawn the chrome):
    /// where menu titles and the zoom field sit depends on it.
    var textMeasure: TextMeasuring = FixedWidthMeasurer() {
        didSet { widestPosition = nil }
    }
    /// The widest pointer position's width as `textMeasure` measured it, and the picture side it
    /// was measured for (`widestPositionWidth`).
    var widestPosition: (side: Int, width: Int)?
    /// A smooth wheel's scrolling not yet a whole pixel, and its turns over a panel not yet a
    /// whole click; the zoom its Ctrl turns follow, unrounded (Session+Wheel.swift).
    var wheelRemainder = (x: 0.0, y: 0.0)
    var wheelClicks = (x: 0.0, y: 0.0)
    var smoothZoom = 1.0

    /// The color editor while it is open.
    public internal(set) var colorEditor: ColorEditor?
    /// The picture size dialog while it is open (Ctrl+R, Ctrl+Shift+R).
    public internal(set) var sizeDialog: SizeDialog?
    /// The file dialog while it is open (Open, Save as, the background picture).
    public internal(set) var fileDialog: FileDialog?
    /// The dialog's name field as last drawn, in window coordinates.
    var fileDialogField: TextFieldView?
    /// The color editor's hex field as last drawn, in window coordinates.
    var colorEditorField: TextFieldView?
    /// Where the recent pictures are kept; nil keeps them for this session only.
    public internal(set) var recentFiles: RecentFiles?
    /// The pictures opened or saved last, newest first (as last read).
    public internal(set) var recentPictures: [String] = []
    /// Whether the dialog shows thumbnails (made on a thread of their own).
    public var makesThumbnails = true
    /// Makes them; started with the first dialog that needs one.
    var thumbnailer: ThumbnailLoader?
    /// Thumbnails made (nil: none could be), with the side they were made for.
    var thumbnails: [String: (side: Int, image: PixelImage?)] = [:]
    /// The desktop's folders (xdg-user-dirs), read the first time a dialog opens.
    public lazy var userFolders = UserFolders.current()
    /// The samples of the stroke a stroke-eraser click would remove (image coordinates), for
    /// the window to outline; empty when none.
    public internal(set) var hoverOutline: [Point] = []
    /// The history step of that stroke.
    var hoverStroke: Int?
    /// A picture read for Open, waiting for the answer about this document's changes, and the
    /// look for a drawing a crash left for it (nil without a journal folder).
    var pendingOpen: (document: Document, message: String, leftOver: BackgroundJob<Recovery.Candidate?>?)?
    /// Looks in a journal folder for the drawing a crash left for a file (for no file, the
    /// newest of all): `Recovery.candidate`, held by tests to see where it runs.
    var findLeftOver: (_ path: String?, _ folder: String) -> Recovery.Candidate? = {
        Recovery.candidate(for: $0, in: $1)
    }
    /// A pasted picture floating over the canvas until it is put down.
    var placing: Placing?
    /// Whether the clipboard's picture asked for last (Ctrl+V, Ctrl+Shift+V) becomes a new
    /// picture of its own instead of floating over this one.
    var pasteRequestedAsNew = false
    /// The clipboard's picture decoded for Paste as New Picture, waiting for the answer about
    /// this document's changes (`Leaving.pastedPicture`).
    var pendingPasteAsNew: Pasted?
    /// A copied picture being encoded for the clipboard on its own thread (`offerToClipboard`).
    var clipboardEncoding: ClipboardEncoding?
    /// A pasted or dropped picture being decoded on its own thread, placed when it is done.
    /// One replaced or dropped (a second paste, Escape, another document) is told to stop.
    var pasteDecoding: PasteDecoding? {
        didSet { if oldValue !== pasteDecoding { oldValue?.cancel() } }
    }
    /// The selected rectangle of image pixels (the select tool), outlined; nil when none.
    public internal(set) var selection: IntRect?
    /// Text an input method is composing into the prompt's field, shown at its cursor.
    public internal(set) var preedit: Preedit?
    /// The prompt's field as last drawn (clicks place its cursor where the user sees it).
    var promptView: TextFieldView?
    /// The text box being typed (the text tool): live in the engine's stroke image until it
    /// is put down or cancelled.
    var liveText: LiveText? { didSet { isEditingText = liveText != nil } }
    /// Whether a text box is being typed: the window draws its frame and caret over the
    /// picture only then. Kept as `liveText` changes, so the presents of a stroke ask without
    /// copying the box.
    public private(set) var isEditingText = false
    /// The font list panel while it is open.
    public internal(set) var fontChooser: FontChooser?
    /// Sets text for the text tool; started the first time text is set (fontconfig reads the
    /// font list then, not at every start of the program).
    lazy var typesetter: Typesetter? = Typesetter()
    /// Each family's name set in its own face, for the font list: made once a family.
    var familyPreviews: [String: (mask: CoverageMask, ascent: Int, size: Int)] = [:]

    /// A session editing `document` in a window of the given size. With
    /// `backgroundWorkWaits`, a history rebuild starts only at `startBackgroundWork` (the
    /// window calls it once its first frame is on screen).
    public init(
        document: Document, windowWidth: Int, windowHeight: Int, message: String = "", backgroundWorkWaits: Bool = false
    ) {
        self.document = document
        self.backgroundWorkWaits = backgroundWorkWaits
        layout = Layout(
            windowWidth: windowWidth, windowHeight: windowHeight, imageWidth: document.engine.width,
            imageHeight: document.engine.height)
        install(document, message: message, journal: nil)
    }

    // MARK: Derived state

    /// The canvas and its stroke engine (the document's).
    public var engine: StrokeEngine { document.engine }
    /// Undo and redo (the document's).
    public var history: History { document.history }
    /// The file the document saves to; nil until it has one.
    public var path: String? { document.path }
    /// Whether there are changes since the last save.
    public var isModified: Bool { document.isModified }

    /// Whether the open file carries its editing history inside (the document's).
    public var carriesHistory: Bool { document.carriesHistory }

    /// The window title: `name.png — SwiftPaint`, with a leading `*` while modified,
    /// `(with history)` after the name while the file carries its editing history inside and
    /// `(changed on disk)` once another program changed the file since it was opened or saved
    /// here, `(deleted on disk)` once it is gone from its path.
    public var title: String {
        (isModified ? "*" : "") + displayName + (carriesHistory ? " (with history)" : "")
            + (changedOnDisk ? " (changed on disk)" : "") + (deletedOnDisk ? " (deleted on disk)" : "")
            + " — SwiftPaint"
    }

    /// The document's file name, or "Untitled".
    public var displayName: String {
        path.map(FileSystem.lastComponent) ?? "Untitled"
    }

    /// The pointer the window should show: a crosshair over the picture, a hand while panning
    /// or dragging a picture, the arrow elsewhere.
    public var pointerShape: PointerShape {
        switch gesture {
        case .pan, .dragFloating, .textBox(_, _, _, _, true): return .move
        case .stroke: return brushOutline
        case .shape: return .crosshair
        default: break
        }
        guard let p = lastPointer, panelFrame?.contains(p.x, p.y) != true else { return .arrow }
        // A question, or the file dialog (modal), leaves the canvas alone.
        if blocksCanvas || fileDialog != nil {
            return layout.canvasArea.contains(p.x, p.y) ? .notAllowed : .arrow
        }
        if let shape = textPointerShape(atWindowX: p.x, y: p.y) { return shape }
        if let rect = placing?.rect, layout.windowRect(forImageRect: rect).contains(p.x, p.y) { return .move }
        if settings.tool == .select, let rect = selection, layout.windowRect(forImageRect: rect).contains(p.x, p.y) {
            return .move
        }
        guard layout.visibleImage.contains(p.x, p.y) else { return .arrow }
        return settings.tool == .brush || settings.tool == .eraser ? brushOutline : .crosshair
    }

    /// The brush's circle at the current zoom.
    var brushOutline: PointerShape {
        .brush(diameter: max(1, Int((settings.brushWidth * layout.zoom.factor).rounded())))
    }

    /// The toolbar item shown pressed (a held button or a dragged slider).
    public var pressed: ToolbarItem? { gesture.pressedItem }

    // MARK: Input and effects

    /// Feeds a batch of input events, in order; returns what they, and anything asked since the
    /// effects were last taken, ask of the window.
    @discardableResult
    public func handle(_ events: [InputEvent]) -> Effects {
        feed(events)
        return takeEffects()
    }

    /// Feeds a batch of input events, in order, leaving what they ask to be taken later
    /// (`takeEffects`): the window takes it once per turn of its loop, after the turn's input
    /// and its look at the journal, not once for each.
    public func feed(_ events: [InputEvent]) {
        for event in events { apply(event) }
        // A history rebuilt while something was being drawn waits for it to be put down, which
        // only input does (a release, Enter, a click beside a floating picture): it is taken
        // over here, after the input that may have done so, not looked for every turn.
        if document.historyRebuild?.isFinished == true { checkHistoryRebuild() }
    }

    /// Feeds one pointer motion, as `feed([.motion(...)])` does: the window's motion events, with
    /// no array to fill and empty, and no `InputEvent` made, switched over and destroyed per
    /// event (~90 instructions of outlined copies and dispatch).
    public func feedMotion(x: Int, y: Int, modifiers: Modifiers, sample: PointerSample?) {
        handleMotion(x, y, modifiers, sample)
    }

    /// Feeds one input event; returns what the window must do (as `handle(_:)` for a batch).
    @discardableResult
    public func handle(_ event: InputEvent) -> Effects { handle([event]) }

    /// What the window is asked to do since it last took it; the session starts collecting
    /// afresh. The title and pointer are included when they changed, and the toolbar when undo
    /// or redo became available or not.
    public func takeEffects() -> Effects {
        // The stroke's samples since the last frame, stamped at once (`extendStroke`).
        redraw(engine.drawDeferred())
        // A committed stroke redraws the toolbar (14 million instructions, milliseconds) only
        // when it changes what the undo and redo buttons show, not after every stroke.
        let actions = ActionsKey(undo: canUndoNow, redo: canRedoNow)
        if actions != shownActions {
            shownActions = actions
            effects.toolbar = true
        }
        let titleKey = TitleKey(
            modified: isModified, path: path, carriesHistory: carriesHistory, changedOnDisk: changedOnDisk,
            deletedOnDisk: deletedOnDisk)
        if titleKey != shownTitle {
            shownTitle = titleKey
            effects.title = title
            // The status bar shows the same name and the unsaved mark.
            effects.status = true
        }
        let pointer = pointerShape
        if pointer != shownPointer {
            shownPointer = pointer
            effects.pointer = pointer
        }
        // Nothing selected any more (deselected, typed over, the box put down or gone with its
        // picture): PRIMARY is given up, as GTK's and Qt's text widgets do, rather than offering
        // text that is no longer selected to the next middle click.
        if primaryHeld, liveText?.box.selection == nil {
            primaryHeld = false
            effects.clipboard.append(.releasePrimary)
        }
        // Moved out, not copied and then cleared.
        var taken = Effects()
        swap(&taken, &effects)
        return taken
    }

    func apply(_ event: InputEvent) {
        switch event {
        case .resize(let w, let h):
            resizeWindow(width: w, height: h)
        case .closeRequest:
            requestClose()
        case .key(let key, let modifiers):
            handleKey(key, modifiers)
        case .press(let x, let y, let button, let modifiers, let sample):
            handlePress(x, y, button, modifiers, sample)
        case .motion(let x, let y, let modifiers, let sample):
            handleMotion(x, y, modifiers, sample)
        case .release(let x, let y, let button, _, _):
            handleRelease(x, y, button)
        case .scroll(let x, let y, let dx, let dy, let modifiers):
            handleScroll(x, y, dx: dx, dy: dy, modifiers)
        case .doubleClick(let x, let y):
            doubleClick(x, y)
        case .tripleClick(let x, let y):
            tripleClick(x, y)
        case .leave:
            lastPointer = nil
            setHovered(nil)
            if pointerPixel != nil {
                pointerPixel = nil
                if mode == .normal { effects.pointerPosition = true }
            }
        case .pasted(let picture):
            paste(picture: picture)
        case .pastedFiles(let paths):
            pasteFiles(paths)
        case .pastedText(let text):
            paste(text: text)
        case .clipboardFailed(let why):
            setMessage(why)
        case .dropped(let paths, let paste, let namesNotUTF8):
            drop(paths, paste: paste, namesNotUTF8: namesNotUTF8)
        case .dropFailed(let failure):
            setMessage(failure.message)
        }
    }

    /// Redraws the image pixels in `rect` (their view changed).
    func redraw(_ rect: IntRect) {
        effects.canvas = effects.canvas.union(rect)
    }

    func setLayout(_ new: Layout) {
        guard new != layout else { return }
        // "Zoomed out as far as it goes" is no longer so once the zoom moved (Fit, Ctrl+0).
        if new.zoom != layout.zoom, message == Self.zoomedInAllTheWay || message == Self.zoomedOutAllTheWay {
            message = ""
        }
        // A zoom set by the user is kept; whoever fits sets `zoomFitted` again after this.
        if new.zoom != layout.zoom { zoomFitted = false }
        layout = new
        // A dialog centred over the canvas moves with it; the file dialog fits the window.
        if sizeDialog != nil { effects.editor = true }
        if var dialog = fileDialog {
            dialog.resize(windowWidth: new.windowWidth, windowHeight: new.windowHeight)
            fileDialog = dialog
            effects.editor = true
        }
        effects.layout = true
        effects.toolbar = true
        effects.status = true
        // The picture moved under a pointer that did not (a zoom, a scroll, a new size): the
        // position the status bar shows is of the pixel under it now.
        refreshPointerPixel()
    }

    /// Shows in the status bar the image pixel under the pointer's last known place.
    func refreshPointerPixel() {
        guard let p = lastPointer else { return }
        updatePointerPixel(p.x, p.y)
    }

    func setHovered(_ item: ToolbarItem?) {
        guard item != hovered else { return }
        hovered = item
        effects.toolbar = true
    }

    func setMessage(_ text: String) {
        message = text
        // A notice goes by itself a while after it shows (`runTimers`); an error stays until
        // something replaces it.
        messageFades = !text.isEmpty && !Self.isError(text)
        messageShownAt = nil
        effects.status = true
    }

    /// Whether a status-bar message tells of something that went wrong: shown in red and bold,
    /// and kept until the next message or change (a notice such as "Canvas size unchanged" goes
    /// by itself after `noticeLifetime`).
    public static func isError(_ text: String) -> Bool {
        // A picture opened or pasted from a damaged file says so until something else is said.
        text.hasPrefix("Cannot") || text.hasPrefix("Crash protection stopped") || text.contains(" is damaged: only ")
            || text.hasPrefix("Your settings from last time could not be saved")
    }

    /// Shows a message from outside the session in the status bar (a problem found while
    /// setting up the window, such as a bad SWIFTPAINT_SCALE).
    public func show(_ text: String) { setMessage(text) }

    /// Whether the hovered toolbar item, or the status bar's cut text under the pointer
    /// (`statusTip`), may show its tooltip: not while a panel, a dialog or a menu is open,
    /// however it opened (a click on the button under the pointer, a key, the menus): the
    /// tooltip would cover the panel's top.
    public var showsTooltip: Bool { (hovered != nil || statusTip != nil) && panelFrame == nil && !popupOpen }

    /// Where the tooltip belongs: the hovered toolbar item, shown below it, or the status bar's
    /// cut text, shown above it (the bar is the window's bottom edge).
    public var tooltipPlace: (anchor: IntRect, above: Bool)? {
        if let item = hovered { return (layout.rect(of: item), false) }
        return statusTip.map { ($0.anchor, true) }
    }

    /// The tooltip's lines, each at most `Self.tooltipWidth` wide as `measure` measures them,
    /// and no wider than the window leaves room for: a whole message can be longer than the
    /// screen is wide.
    public func tooltipLines(_ measure: TextMeasuring) -> [String] {
        guard let tip = tooltip else { return [] }
        let s = layout.ui
        let room = layout.windowWidth - s.px(Self.tooltipPadding) - 2 * s.px(Self.tooltipMargin)
        return Self.brokenIntoLines(tip, width: max(s.px(40), min(s.px(Self.tooltipWidth), room)), measure)
    }

    /// The tooltip box's width for `lines`: the widest line and the padding either side.
    public func tooltipBoxWidth(_ lines: [String], _ measure: TextMeasuring) -> Int {
        (lines.map { measure.width(of: $0, bold: false) }.max() ?? 0) + layout.ui.px(Self.tooltipPadding)
    }

    /// Where a tooltip `width` wide has its left edge, in window pixels: at its anchor, moved
    /// left so it ends inside the window, a margin from its edge (a tip for the status bar's
    /// message, at its right end, ran past the window's edge); nil without a tooltip.
    public func tooltipX(width: Int) -> Int? {
        guard let place = tooltipPlace else { return nil }
        let margin = layout.ui.px(Self.tooltipMargin)
        return max(min(margin, place.anchor.x), min(place.anchor.x, layout.windowWidth - margin - width))
    }

    /// The widest a tooltip's line gets at 96 dpi.
    static let tooltipWidth = 640.0
    /// The tooltip box's padding, both sides together, and its least distance from the
    /// window's side, at 96 dpi.
    static let tooltipPadding = 16.0
    static let tooltipMargin = 4.0

    /// The tooltip for the hovered toolbar item: what it is and its key; for the status bar's
    /// cut text, the whole of it; nil when `showsTooltip` is not so.
    public var tooltip: String? {
        guard showsTooltip else { return nil }
        if hovered == nil, let cut = statusTip { return cut.whole }
        switch hovered {
        case .tool(let t): return "\(t.title) (\(t.key))"
        case .swatch(let i): return "\(Palette.colors[i].hex) — left click: primary, right click: secondary"
        case .recent(let i):
            let recent = settings.recentColors
            return i < recent.count ? "Recently used \(recent[i].hex)" : "Colors you use appear here"
        case .currentColors:
            return
                "Primary \(settings.primary.hex), secondary \(settings.secondary.hex) — click to edit (right: secondary); X swaps"
        case .widthSlider:
            if !settings.tool.hasWidth { return "\(settings.tool.name) has no width" }
            if settings.tool == .fill { return "Fill tolerance \(settings.fillTolerance) (0 = exact color; [ and ])" }
            if settings.tool == .text { return "Text size \(settings.textFont.size) px ([ and ])" }
            return "Brush width \(Int(settings.brushWidth)) px ([ and ])"
        case .filledToggle where settings.tool == .text: return "Bold (Ctrl+B while typing)"
        case .dashedToggle where settings.tool == .text: return "Italic (Ctrl+I while typing)"
        case .font:
            return settings.tool == .text ? "Font: \(settings.textFont.family) — click to choose another" : nil
        case .filledToggle: return "Filled rectangles and ellipses: " + (settings.shapeFilled ? "on" : "off")
        case .dashedToggle: return "Dashed lines and arrows: " + (settings.lineDashed ? "on" : "off")
        case .pressureWidthToggle:
            return "Pen pressure sets the brush width: " + (settings.pressureWidth ? "on" : "off") + " (tablets)"
        case .pressureOpacityToggle:
            return "Pen pressure sets the opacity: " + (settings.pressureOpacity ? "on" : "off") + " (tablets)"
        case .opacitySlider: return "Opacity \(settings.opacityPercent)% (1…9 = 10…90%, 0 = 100%)"
        case .undo: return "Undo (Ctrl+Z)"
        case .redo: return "Redo (Ctrl+Shift+Z, Ctrl+Y)"
        case .background:
            return "Background: left click primary color, right click secondary (Ctrl+B: image or transparent)"
        case .clear: return "Clear the canvas"
        case .save: return "Save (Ctrl+S), Save as (Ctrl+Shift+S), Save with history (Ctrl+Alt+S)"
        case .newDocument: return "New picture (Ctrl+N)"
        case .more:
            return layout.controls.expanded
                ? "Hide the row of recent colors and actions"
                : "More: the recent colors and actions (also in the menus)"
        case .open: return "Open a picture (Ctrl+O)"
        case nil: return nil
        }
    }
}

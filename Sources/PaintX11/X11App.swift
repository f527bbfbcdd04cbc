import CX11
import Glibc
import PaintApp
import PaintCore
import PaintIO
import XConnect

/// The window: one thread owns every X call. The loop waits on the X connection, drains every
/// pending event into the session as one batch (no motion is dropped or compressed), then
/// carries out the `Effects` the session returns: it presents the union of what changed once.
public final class X11App {
    /// The connection to the server; a lost server marks it (`isLost`) and the loop ends.
    let connection: XConnection
    let display: OpaquePointer
    let screen: Int32
    let window: Window
    let session: Session
    let format: PixelFormat
    let blitter: Blitter
    /// Fonts load on first use (see `prepareFonts`): fontconfig's start-up is the slowest part
    /// of opening the window. Kept where `deinit` can close them before the display.
    private var loadedText: TextRenderer?
    var text: TextRenderer {
        if let loadedText { return loadedText }
        let made = TextRenderer(
            display: display, screen: screen, visual: visual, colormap: colormap, scale: session.uiScale)
        loadedText = made
        return made
    }
    var lastStatusDraw: Double = 0
    /// When a turn last put ink (the canvas) on screen (`InputPacing.drawsPosition`).
    var lastInk = -Double.infinity
    /// The part of the picture the engine keeps its view for, and where, with what it was
    /// worked out from (see `keepViewForWindow`).
    var keptView: KeptView?
    /// The status bar's position slot on the server (see `PositionBackdrop`).
    var positionPixmaps: PositionBackdrop?
    /// The time of this turn of the loop (CLOCK_MONOTONIC seconds), read once after the events
    /// are taken: every deadline of the turn is measured against it, not a clock read each.
    var clock: Double = 0
    /// When to look at the crash journal again (CLOCK_MONOTONIC seconds); nil when all is safe.
    private var watchAgain: Double?
    /// When the session's timers are due next (`Session.runTimers`); nil: none is pending.
    private var timersDue: Double?
    /// When to look at the document's file on disk again (CLOCK_MONOTONIC seconds).
    private var nextFileLook: Double = 0
    /// How often the connection is read while pointer motion keeps coming.
    private(set) var pacing = InputPacing()
    /// How many pointer motion events this turn read (`pacing` decides whether the next read
    /// waits).
    private var motionRead = 0
    /// The display's vertical-blank notifications (Present), which pace the reads of fast
    /// motion; nil where the server has no Present extension.
    private let blankEvents: OpaquePointer?
    /// The serial of the last question about a blank.
    private var blankQuestions: UInt32 = 0
    /// Seconds between status-bar redraws for pointer-position changes alone.
    static let statusInterval = 0.033
    let chromeGC: GC
    let visual: UnsafeMutablePointer<Visual>
    let colormap: Colormap
    let depth: Int32
    private let wmDeleteWindow: Atom
    private let wmProtocols: Atom
    /// Window-manager pings waiting for the end of the present (see `PingAnswers`).
    var pings: PingAnswers
    private let netWMName: Atom
    private let utf8String: Atom
    private var tooltip: Tooltip
    /// The color editor, menus and panels over the canvas.
    let popups: PopupWindows
    let clipboard: Clipboard
    /// The PRIMARY selection: text selected in the text box, and a middle click's paste there.
    let primary: Clipboard
    /// Files dropped on the window (XDND).
    private let dropTarget: DropTarget
    /// The pointer shapes: font cursors, the brush outline, the not-allowed sign.
    let cursors: Cursors
    /// The window as an XRender picture: a canvas that waits for an answer is dimmed with it.
    let windowPicture: Picture
    /// What the session has asked for and the window has not done yet: a status bar redraw
    /// waits here while pointer-position updates are throttled.
    var owed = Effects()
    /// The server time of the last input event: the clipboard's requests carry it (ICCCM asks
    /// for a real time, not CurrentTime).
    var lastEventTime: Time = 0
    private var hoverSince: Double = 0
    /// What the tooltip shown or waiting its delay is about (`updateTooltip`).
    private var lastTip: TipKey?
    /// Typed text (XIM) and the layout's keys for shortcuts (XKB).
    var input: InputMethod!
    private let keyboard: KeyboardMap
    /// Pointer events with sub-pixel positions, where the server has XInput 2.2.
    private var pointer: XInput2?
    /// The last left-button press, for double clicks: server time and window position.
    private var lastLeftPress: (time: Time, x: Int, y: Int, count: Int)?
    /// The events the window always selects (the input method may add some).
    private static let eventMask =
        ExposureMask | KeyPressMask | ButtonPressMask | ButtonReleaseMask | PointerMotionMask | LeaveWindowMask
        | StructureNotifyMask | PropertyChangeMask | FocusChangeMask
    /// How the window gets its pixels, for the log line at start-up.
    public let transport: String

    /// Starts what the window's text needs (fontconfig) on a thread of its own: called first
    /// thing at start-up, it is ready by the time the first frame draws the toolbar.
    public static func prepareFonts() { TextRenderer.prepare() }

    /// What the first frame needs that does not depend on the picture, done while the picture
    /// is still being opened on its own thread (`DocumentOpening`): the interface's fonts are
    /// opened and the window's image has its memory mapped in.
    public func prepareFirstFrame() {
        _ = text
        blitter.touchPages()
    }

    /// Opens the display and creates the (not yet mapped) window for `session`, `windowSize`
    /// (in 96-dpi pixels, scaled to the screen) when the last run remembered one.
    public init(
        session: Session, displayName: String?, windowSize: StoredSettings.WindowSize? = nil
    ) throws(DisplayError) {
        InputMethod.prepareLocale()
        guard let connection = XConnection(displayName) else {
            throw .noDisplay(displayName ?? FileSystem.environment("DISPLAY"))
        }
        StartupTrace.mark("display opened")
        self.connection = connection
        let display = connection.display
        self.display = display
        self.session = session
        screen = XDefaultScreen(display)
        visual = XDefaultVisual(display, screen)
        depth = XDefaultDepth(display, screen)
        colormap = XDefaultColormap(display, screen)
        switch PixelFormat.of(visual: visual, depth: depth) {
        case .success(let f): format = f
        case .failure(let error):
            connection.close()
            throw error
        }
        let root = XRootWindow(display, screen)
        // The interface scale: SWIFTPAINT_SCALE, else the Xft.dpi the desktop put in the
        // resource database (RESOURCE_MANAGER on the root window, as xrdb sets it).
        let detected = UIScale.detect(
            resources: XResourceManagerString(display).map { String(cString: $0) },
            override: FileSystem.environment("SWIFTPAINT_SCALE"))
        session.uiScale = detected.scale
        if let problem = detected.problem {
            FileSystem.printError("swiftpaint: \(problem)")
            session.show(problem)
        }
        let screenWidth = Int(XDisplayWidth(display, screen))
        let screenHeight = Int(XDisplayHeight(display, screen))
        var size = Layout.preferredWindowSize(
            imageWidth: session.engine.width, imageHeight: session.engine.height, screenWidth: screenWidth,
            screenHeight: screenHeight, ui: detected.scale)
        if let remembered = windowSize {
            // The size the window had last time, on this screen's scale, within the screen.
            let minimum = Layout.minimumSize(detected.scale)
            size = (
                min(max(detected.scale.px(Double(remembered.width)), minimum.width), screenWidth),
                min(max(detected.scale.px(Double(remembered.height)), minimum.height), screenHeight)
            )
        }
        netWMName = XInternAtom(display, "_NET_WM_NAME", 0)
        utf8String = XInternAtom(display, "UTF8_STRING", 0)
        var attributes = XSetWindowAttributes()
        // No background: the first thing the window shows is the image, never a white flash.
        attributes.background_pixmap = 0
        attributes.bit_gravity = NorthWestGravity
        attributes.event_mask = Self.eventMask
        window = XCreateWindow(
            display, root, 0, 0, UInt32(size.width), UInt32(size.height), 0, depth, UInt32(InputOutput), visual,
            UInt(CWBackPixmap | CWBitGravity | CWEventMask), &attributes)
        // Named in the same requests as its creation, so no one sees it nameless (a taskbar
        // watching windows being created, `xdotool search --name`): the placeholder canvas has
        // the file's name (`DocumentOpening`), and `run` renames it only if the opened document
        // turns out otherwise (a file that cannot be read is untitled).
        var created = session.takeEffects()
        if let title = created.title {
            Self.name(window, title, display: display, netWMName: netWMName, utf8String: utf8String)
            created.title = nil
        }
        wmDeleteWindow = XInternAtom(display, "WM_DELETE_WINDOW", 0)
        wmProtocols = XInternAtom(display, "WM_PROTOCOLS", 0)
        pings = PingAnswers(display: display)
        let (shm, why) = Blitter.shmUsable(display: display, displayName: String(cString: XDisplayString(display)))
        transport = shm ? "MIT-SHM" : "XPutImage (\(why))"
        blitter = Blitter(display: display, window: window, visual: visual, format: format, useShm: shm)
        blankEvents = cx_present_watch(display, window)
        chromeGC = XCreateGC(display, window, 0, nil)
        // Chrome is copied from pixmaps we always draw in full: no NoExpose event per copy.
        XSetGraphicsExposures(display, chromeGC, 0)
        tooltip = Tooltip(display: display, parent: root, visual: visual, depth: depth, colormap: colormap)
        popups = PopupWindows(display: display, parent: window, visual: visual, depth: depth)
        clipboard = Clipboard(display: display, window: window, makesBMPElsewhere: true)
        primary = Clipboard(display: display, window: window, selection: "PRIMARY")
        dropTarget = DropTarget(display: display, window: window)
        cursors = Cursors(display: display, window: window)
        windowPicture = XRenderCreatePicture(display, window, XRenderFindVisualFormat(display, visual), 0, nil)
        keyboard = KeyboardMap(display: display)
        owed.merge(created)
        owed.merge(session.handle(.resize(width: size.width, height: size.height)))
        try blitter.resize(width: size.width, height: size.height)
        setProperties()
        input = InputMethod(display: display, window: window) { [session] text, caret in
            session.setPreedit(text, caret: caret)
        }
        pointer = XInput2.disabled ? nil : XInput2(display: display, window: window, root: root)
        selectEvents()
    }

    /// The core events the window selects: XInput 2 delivers the buttons and motion instead
    /// where it is used, and the input method may need more (e.g. KeyRelease).
    private func selectEvents() {
        let pointerMasks = ButtonPressMask | ButtonReleaseMask | PointerMotionMask
        let core = pointer == nil ? Self.eventMask : Self.eventMask & ~pointerMasks
        XSelectInput(display, window, core | input.eventMask)
    }

    /// How pointer events arrive, for the log line at start-up.
    public var pointerInput: String { pointer == nil ? "core events" : "XInput 2.2" }

    deinit {
        // The fonts and the shared image are released through the display, so before it closes
        // (stored properties are destroyed only after this body has run).
        input = nil
        loadedText = nil
        positionPixmaps?.free(display)
        blitter.release()
        connection.close()
    }

    /// The window manager's properties, set once before the window is mapped.
    private func setProperties() {
        var protocols = [wmDeleteWindow, pings.atom]
        XSetWMProtocols(display, window, &protocols, Int32(protocols.count))
        WindowProperties.setClassAndPID(display: display, window: window)
        WindowProperties.setMinimumSize(Layout.minimumSize(session.uiScale), display: display, window: window)
        WindowIcon.set(on: window, display: display)
    }

    /// Names the window (the session says when: `Effects.title`).
    func setTitle(_ title: String) {
        Self.name(window, title, display: display, netWMName: netWMName, utf8String: utf8String)
    }

    /// Names `window` `title`: `_NET_WM_NAME` in UTF-8, and WM_NAME.
    private static func name(
        _ window: Window, _ title: String, display: OpaquePointer, netWMName: Atom, utf8String: Atom
    ) {
        let bytes = Array(title.utf8)
        _ = bytes.withUnsafeBufferPointer {
            XChangeProperty(display, window, netWMName, utf8String, 8, PropModeReplace, $0.baseAddress, Int32($0.count))
        }
        // WM_NAME for old window managers is Latin-1: the dash becomes "-", anything else
        // outside Latin-1 a "?".
        let latin1: [UInt8] = title.unicodeScalars.map { $0 == "—" ? 0x2D : $0.value < 256 ? UInt8($0.value) : 0x3F }
        _ = latin1.withUnsafeBufferPointer {
            XChangeProperty(display, window, XA_WM_NAME, XA_STRING, 8, PropModeReplace, $0.baseAddress, Int32($0.count))
        }
    }

    /// Maps the window and runs until the session asks to exit; returns the exit code.
    ///
    /// The first frame (the picture, the toolbar, the status bar) is drawn right after the
    /// window is mapped, before any event is read; then `afterFirstFrame` runs (what can wait
    /// for the picture to be on screen: the crash journal, the recent list, a history rebuild),
    /// and only then input is handled, so every input event finds all of it in place. The input
    /// method opens at the first key press (`translate`).
    public func run(afterFirstFrame: () -> Void = {}) -> Int32 {
        // Before the window shows: a SIGTERM from then on ends the program as a close does.
        let signalFD = TerminationSignals.install()
        // Renamed, before it shows, when the document installed since the window was made
        // (`DocumentOpening`) has another name than the placeholder it was named after.
        owed.merge(session.takeEffects())
        if let title = owed.title {
            setTitle(title)
            owed.title = nil
        }
        XMapWindow(display, window)
        StartupTrace.mark("window mapped")
        present()
        if StartupTrace.enabled {
            XSync(display, 0)
            StartupTrace.mark("first frame shown")
        }
        afterFirstFrame()
        XFlush(display)
        owed.merge(session.takeEffects())
        StartupTrace.mark("input ready")
        let fd = XConnectionNumber(display)
        // The connection, the signal pipe, then one slot for each descriptor the session may
        // give for work done off this thread (-1: none; poll skips it), filled in place each turn.
        var fds = [
            Glibc.pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
            Glibc.pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0),
        ]
        fds += repeatElement(Glibc.pollfd(fd: -1, events: Int16(POLLIN), revents: 0), count: Session.backgroundSlots)
        var batch: [InputEvent] = []
        while owed.exit == nil {
            // One read of the connection (XPending), then what it queued: XQLength makes no
            // system call, where another XPending per event would try to read the socket again
            // each time. (It is XEventsQueued's QueuedAlready answer without the display lock,
            // which this thread, the only one making X calls, need not take twice a turn.)
            if XPending(display) > 0 {
                repeat {
                    var event = XEvent()
                    XNextEvent(display, &event)
                    translate(&event, into: &batch)
                } while XQLength(display) > 0
            }
            // Every turn comes here (a lost connection reads nothing: XPending says 0).
            if connection.isLost { return serverLost() }
            forgetGoneRequestors()
            clock = now()
            if motionRead > 0 {
                pacing.readMotion(motionRead, at: clock)
                motionRead = 0
            }
            if let blankEvents {
                if pacing.awaitsBlank(at: clock) { _ = takeBlanks(blankEvents) }
                askAboutBlank()
            }
            // A paste whose owner went silent is given up, with a message.
            if let expired = clipboard.expire(now: clock) { batch.append(Self.input(expired)) }
            if let expired = primary.expire(now: clock), let input = Self.input(primary: expired) {
                batch.append(input)
            }
            // So is a drop whose source never hands its files over.
            if let expired = dropTarget.expire(now: clock) { batch.append(expired) }
            hand(&batch)
            // What is due with time alone (a drag held past the canvas's edge scrolls on). A
            // timer that is due may draw into the window's image (the held drag's motion,
            // repeated, extends the selection in the view): the server must have read the last
            // put first. Only then: a wait at every turn would be a round trip after each frame.
            if let timersDue, clock >= timersDue { blitter.waitUntilServerRead() }
            timersDue = session.runTimers(at: clock)
            // The crash journal is watched between events: it may stop (a full disk) or resume
            // while nothing is drawn. The file is looked at every few seconds, not per event.
            let lookAtFile = clock >= nextFileLook
            if lookAtFile { nextFileLook = clock + Session.fileInterval }
            watchAgain = session.watch(lookingAtFile: lookAtFile).map { clock + $0 }
            // What the turn's input and the look ask of the window, taken once.
            owed.merge(session.takeEffects())
            serveClipboard()
            // Before presenting: a tooltip the pointer left goes in this frame, so the window
            // under it is exposed before the frame's ping answers (`PingAnswers`) go out.
            updateTooltip()
            present()
            if owed.exit != nil { break }
            // While motion keeps coming the connection is read once per `pacing.period`: what
            // arrives meanwhile waits in the socket (or in Xlib's queue) for the next read.
            let holding = pacing.holds(at: clock)
            // Flushing read what had arrived into Xlib's queue (XFlush reads after it writes),
            // where poll would not see it: look there, without another read of the socket.
            if XQLength(display) > 0 && !holding { continue }
            // While a blank's answer is out, a flush may have read it into its own queue, where
            // poll would not see it; looking there may read events into XCB's queue, which
            // poll does not see either (XPending takes them).
            if let blankEvents, pacing.awaitsBlank(at: clock), takeBlanks(blankEvents) || XPending(display) > 0 {
                continue
            }
            // Work a step left for later (merging a finished stroke into the paint, packing
            // its undo snapshot) runs in slices of a fraction of a millisecond, between checks
            // for input: no event waits behind it for long.
            let idle = session.history.hasIdleWork(engine: session.engine)
            // Lost during this turn: not a poll on a connection Xlib has given up.
            if connection.isLost { return serverLost() }
            for i in fds.indices { fds[i].revents = 0 }
            fds[0].fd = holding ? -1 : fd
            // Work finished off this thread (a history rebuilt, a paste decoded, the file
            // dialog's thumbnails, a drawing restored) wakes the loop too.
            for slot in 0..<Session.backgroundSlots { fds[2 + slot].fd = session.backgroundDescriptor(slot) ?? -1 }
            // A descriptor of -1 (no signal pipe, nothing under way) is skipped by poll.
            let ready = poll(
                &fds, nfds_t(fds.count), idle ? 0 : pacing.timeout(pollTimeout(), holding: holding, at: clock))
            if ready == 0 && idle {
                // No wait for the server: a slice merges into the paint layer and packs the
                // history, and never writes a view pixel (the view already shows a finished
                // stroke, and a keyframe is taken only between strokes, with nothing deferred).
                session.history.idleWork(engine: session.engine)
                continue
            }
            if fds[2...].contains(where: { $0.revents != 0 }) {
                // What finished may draw into the window's image at once (a paste floats in the
                // view, a restored drawing or a rebuilt history is composited there): after
                // the server has read the last put.
                blitter.waitUntilServerRead()
                session.takeBackgroundWork()
                owed.merge(session.takeEffects())
            }
            if signalFD >= 0 && fds[1].revents != 0 && TerminationSignals.drain(signalFD) {
                session.terminate()
                owed.merge(session.takeEffects())
                break
            }
        }
        XUnmapWindow(display, window)
        XFlush(display)
        // What was copied stays pasteable after the window goes, when a clipboard manager runs
        // (a copy still being encoded is waited for).
        session.finishClipboardEncoding()
        owed.merge(session.takeEffects())
        serveClipboard()
        _ = clipboard.handOver(time: lastEventTime)
        return owed.exit ?? 0
    }

    /// The server went away (`XConnection.isLost`; Xlib's calls on the connection return at
    /// once since): no more X calls. The stroke in progress is recorded as finished and the
    /// journal made durable here, on the loop's turn, rather than from inside Xlib's handler,
    /// where the program used to exit: that ran the libraries' exit handlers on a thread still
    /// inside Xlib. Returns the exit code, 1.
    private func serverLost() -> Int32 {
        session.emergencyStop()
        FileSystem.printError(
            "swiftpaint: lost the connection to the X server; unsaved work is kept for the next start")
        return 1
    }

    /// Takes the display's blanks that arrived (Xlib's reads put them in a queue of their own,
    /// which poll does not see); returns whether one came.
    private func takeBlanks(_ queue: OpaquePointer) -> Bool {
        var ust: UInt64 = 0
        var msc: UInt64 = 0
        guard cx_present_take(display, queue, &ust, &msc) != 0 else { return false }
        if pacing.blank(msc, at: Double(ust) / 1e6, clock: clock), FileSystem.environment("SWIFTPAINT_DEBUG") == "1" {
            let micros = Int((pacing.period * 1e6).rounded())
            FileSystem.printError("swiftpaint: input paced by the display's frames, \(micros) µs apart (Present)")
        }
        return true
    }

    /// Asks about the display's next blank when the pacing needs it (a few times at start,
    /// then once a second while motion comes); one that must wait its turn wakes the loop
    /// (`pollTimeout`).
    private func askAboutBlank() {
        guard let (number, when) = pacing.blankToAsk(at: clock), when <= clock else { return }
        blankQuestions &+= 1
        cx_present_notify_msc(display, window, blankQuestions, number)
        pacing.asked(number, at: clock)
        XFlush(display)
    }

    func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Sleep until an event, a throttled status-bar redraw, or a pending tooltip is due.
    private func pollTimeout() -> Int32 {
        var due = Double.infinity
        if owed.pointerPosition {
            due = pacing.positionDue(throttle: lastStatusDraw + Self.statusInterval, lastInk: lastInk)
        }
        // Not while a panel is open: the wait would be over at once, and poll woke every
        // millisecond until it closed.
        if session.showsTooltip, !tooltip.isShown { due = min(due, hoverSince + Tooltip.delay) }
        // A paste waiting on another program is given up when it stays silent.
        if let deadline = clipboard.deadline { due = min(due, deadline) }
        if let deadline = primary.deadline { due = min(due, deadline) }
        if let deadline = dropTarget.deadline { due = min(due, deadline) }
        if let watchAgain { due = min(due, watchAgain) }
        if let timersDue { due = min(due, timersDue) }
        if blankEvents != nil, let question = pacing.blankToAsk(at: clock) { due = min(due, question.when) }
        guard due.isFinite else { return -1 }
        return Int32(max(1, ((due - clock) * 1000).rounded(.up)))
    }

    private func updateTooltip() {
        // What the tip is about: a toolbar button, or the status bar's cut text; a new one, or
        // new words for it (a message replaced), waits its delay again.
        let place = session.tooltipPlace
        let shown = place.map { TipKey(anchor: $0.anchor, text: session.tooltip) }
        if shown != lastTip {
            lastTip = shown
            hoverSince = clock
            tooltip.hide()
        }
        guard let place else { return }
        guard session.showsTooltip else {
            // A panel, a dialog or a menu opened over a tooltip already shown (from the keyboard
            // too: a click hides it anyway): it goes, and its wait starts again once they close.
            tooltip.hide()
            hoverSince = clock
            return
        }
        guard !tooltip.isShown, clock >= hoverSince + Tooltip.delay else { return }
        let lines = session.tooltipLines(text)
        let width = session.tooltipBoxWidth(lines, text)
        // Its left edge in the window (`tooltipX` keeps it inside), on the anchor's rows.
        let r = place.anchor
        let x = session.tooltipX(width: width) ?? r.x
        var child: Window = 0
        var rootX: Int32 = 0
        var rootY: Int32 = 0
        XTranslateCoordinates(
            display, window, XRootWindow(display, screen), Int32(x), Int32(r.y), &rootX, &rootY, &child)
        tooltip.show(
            lines, width: width, at: IntRect(x: Int(rootX), y: Int(rootY), width: r.width, height: r.height),
            above: place.above,
            screenWidth: Int(XDisplayWidth(display, screen)), screenHeight: Int(XDisplayHeight(display, screen)),
            scale: session.uiScale, text: text, format: format)
    }

    /// Appends the input `event` stands for to `batch`, in the order X delivered it; exposures
    /// are noted for the next present.
    private func translate(_ event: inout XEvent, into batch: inout [InputEvent]) {
        // The input method opens at the first key press, this one included, not before input
        // is read: it reads the locale's Compose table (12–15 ms), which a first click need not
        // wait for. It may ask for more events (e.g. key releases).
        if event.type == KeyPress, input.start() {
            selectEvents()
            StartupTrace.mark("input method opened")
        }
        if event.type == GenericEvent {
            // XInput 2's pointer events, selected on this window alone. No input method takes
            // them (methods filter key events and their own protocol's), so they skip its filter
            // (Xlib's display lock and filter list, at every motion event) and the popups.
            if let (translated, time) = pointer?.translate(&event) { appendPointer(translated, time: time, to: &batch) }
            return
        }
        // The input method sees every other event first: it may take a key that starts or
        // continues a composition, and its own messages.
        if input.filter(&event) { return }
        if event.xany.window != window {
            let before = batch.count
            if popups.translate(&event, into: &batch) {
                // A press in a popup makes double clicks as one in the window does (a row of the
                // file dialog opens, a word of a field is chosen).
                if event.type == ButtonPress, batch.count == before + 1, case .press = batch[before] {
                    appendPointer(batch.removeLast(), time: event.xbutton.time, to: &batch)
                }
                return
            }
        }
        switch event.type {
        case KeyPress:
            lastEventTime = event.xkey.time
            // Which keys a press stands for depends on what the session is doing (a text field
            // takes text, a question its answers' letters): it hears what came before first.
            hand(&batch)
            let (keysym, text) = input.lookup(&event.xkey)
            let press = keyboard.press(event.xkey, keysym: keysym, text: text)
            for key in KeyTranslation.keys(for: press, acceptsText: session.acceptsText, binds: session.bindsKey) {
                batch.append(.key(key, modifiers: press.modifiers))
            }
        case MappingNotify:
            XRefreshKeyboardMapping(&event.xmapping)
            keyboard.invalidate()
        case FocusIn:
            input.focus(true)
        case FocusOut:
            input.focus(false)
        case ButtonPress:
            if let button = EventTranslator.button(event.xbutton.button) {
                let (x, y) = (Int(event.xbutton.x), Int(event.xbutton.y))
                let modifiers = EventTranslator.modifiers(event.xbutton.state)
                appendPointer(
                    .press(x: x, y: y, button: button, modifiers: modifiers), time: event.xbutton.time, to: &batch)
            }
        case ButtonRelease:
            if let button = EventTranslator.button(event.xbutton.button) {
                batch.append(
                    .release(
                        x: Int(event.xbutton.x), y: Int(event.xbutton.y), button: button,
                        modifiers: EventTranslator.modifiers(event.xbutton.state)))
            }
        case MotionNotify:
            motionRead += 1
            batch.append(
                .motion(
                    x: Int(event.xmotion.x), y: Int(event.xmotion.y),
                    modifiers: EventTranslator.modifiers(event.xmotion.state)))
        case LeaveNotify:
            pointer?.pointerLeft()
            batch.append(.leave)
        case ConfigureNotify:
            batch.append(.resize(width: Int(event.xconfigure.width), height: Int(event.xconfigure.height)))
        case Expose:
            exposed = exposed.union(
                IntRect(
                    x: Int(event.xexpose.x), y: Int(event.xexpose.y), width: Int(event.xexpose.width),
                    height: Int(event.xexpose.height)))
        case SelectionNotify:
            // The dropped files' list, or the clipboard's answer.
            if let dropped = dropTarget.take(event.xselection) {
                batch.append(dropped)
            } else {
                handleSelection(&event, into: &batch)
            }
        case SelectionRequest, SelectionClear, PropertyNotify:
            handleSelection(&event, into: &batch)
        case ClientMessage:
            if event.xclient.message_type == wmProtocols, Atom(event.xclient.data.l.0) == wmDeleteWindow {
                batch.append(.closeRequest)
            } else if !pings.take(event.xclient) {
                _ = dropTarget.handle(event.xclient)
            }
        default:
            break
        }
    }

    /// Hands the input collected so far to the session; what it asks is taken later in the
    /// turn.
    private func hand(_ batch: inout [InputEvent]) {
        guard !batch.isEmpty else { return }
        give(batch)
        batch.removeAll(keepingCapacity: true)
    }

    /// Input for the session. It may composite the view into the window's image, so the server
    /// must have read the last put first (known without a round trip at drawing speed: see
    /// `Blitter.waitUntilServerRead`). What it asks waits in the session for the loop's
    /// `takeEffects`.
    func give(_ events: [InputEvent]) {
        blitter.waitUntilServerRead()
        session.feed(events)
    }

    var exposed = IntRect.empty
    /// Where the text box's frame and caret were last drawn (window coordinates): over the gray
    /// beyond the picture too, which is drawn again there before they are drawn anew.
    var textOverlayDrawn = IntRect.empty

    /// A pointer event from XInput 2 or the core protocol; a left press may make a double click.
    /// Motion goes to the session at once, after what came before it (no batch to fill and
    /// empty at every event).
    private func appendPointer(_ pointerEvent: consuming InputEvent, time: Time, to batch: inout [InputEvent]) {
        guard case .press(let x, let y, let button, _, _) = pointerEvent else {
            if case .motion(let x, let y, let modifiers, let sample) = pointerEvent {
                motionRead += 1
                hand(&batch)
                blitter.waitUntilServerRead()
                session.feedMotion(x: x, y: y, modifiers: modifiers, sample: sample)
            } else {
                // Moved into the batch, not copied.
                batch.append(pointerEvent)
            }
            return
        }
        batch.append(pointerEvent)
        tooltip.hide()
        lastEventTime = time
        guard button == .left else { return }
        switch clicks(at: time, x: x, y: y) {
        case 2: batch.append(.doubleClick(x: x, y: y))
        case 3: batch.append(.tripleClick(x: x, y: y))
        default: break
        }
    }

    /// Which click of a run this left press is: each within 400 ms and 4 px of the one before
    /// (GTK's defaults) counts on, a double click then a triple click; a fourth starts over.
    private func clicks(at time: Time, x: Int, y: Int) -> Int {
        if let last = lastLeftPress, last.count < 3, time &- last.time <= 400, abs(x - last.x) <= 4,
            abs(y - last.y) <= 4
        {
            lastLeftPress = (time, x, y, last.count + 1)
            return last.count + 1
        }
        lastLeftPress = (time, x, y, 1)
        return 1
    }
}

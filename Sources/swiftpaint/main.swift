import CMalloc
import Glibc
import PaintApp
import PaintCore
import PaintIO
import PaintX11

// swiftpaint: parse the command line, open or make the picture, run the window.

// SWIFTPAINT_TRACE_STARTUP=1 writes when each phase of start-up ends (see StartupTrace).
StartupTrace.mark("main")

// Buffers of 128 KiB and more (a decoded picture, a view, a fill's scratch) come straight from
// the kernel and go straight back when freed. glibc's default raises that threshold to the
// size of the largest buffer freed so far, after which an 8 MB picture's worth of later
// buffers would stay in the heap, resident, after they are freed.
_ = mallopt(M_MMAP_THRESHOLD, 128 << 10)
_ = mallopt(M_TRIM_THRESHOLD, 256 << 10)

func fail(_ message: String, code: Int32 = 1) -> Never {
    FileSystem.printError(message)
    exit(code)
}

let options: CommandLineOptions
do {
    // The bytes as given, not `CommandLine.arguments`, which repairs a name that is not UTF-8.
    let raw = (1..<Int(CommandLine.argc)).map { i in
        CommandLine.unsafeArgv[i].map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? []
    }
    options = try CommandLineOptions.parse(raw: raw)
} catch {
    fail("swiftpaint: \(error.description)", code: 2)
}

switch options.action {
case .help:
    print(CommandLineOptions.usage)
    exit(0)
case .version:
    print("swiftpaint \(CommandLineOptions.version)")
    exit(0)
case .recover:
    print(Recovery.listing(in: JournalReader.defaultFolder))
    exit(0)
case .export(let output, let input):
    // No window, no X display: the picture is opened and saved as the window would.
    do {
        try ImageFile.export(from: input, to: output, quality: options.quality)
    } catch {
        fail("swiftpaint: \(error.description)")
    }
    exit(0)
case .forget(let file):
    let report = HistoryForgetting.forget(file: PathDisplay.absolute(file), store: HistoryStore())
    report.succeeded ? print(report.message) : FileSystem.printError(report.message)
    exit(report.succeeded ? 0 : 1)
case .forgetAll:
    let report = HistoryForgetting.forgetAll(store: HistoryStore())
    report.succeeded ? print(report.message) : FileSystem.printError(report.message)
    exit(report.succeeded ? 0 : 1)
case .run:
    // Fontconfig starts on a thread of its own while the picture is read.
    X11App.prepareFonts()
}

// Further files open in windows of their own; this one opens the first.
let notStarted = OtherWindows.open(options, programName: CommandLine.arguments.first ?? "swiftpaint")
if notStarted > 0 {
    FileSystem.printError("swiftpaint: \(notStarted) of the other files could not be opened in a window of their own")
}

// The picture is opened on a thread of its own while the window is made for the size its file
// says (a saved history is replayed later still, in the background). The window shows the
// picture before anything that can wait: a history rebuild starts, the crash journal is written
// and the recent list updated once the first frame is on screen.
// The journal folder is looked in on the same thread, for a drawing a crash left.
let opening = DocumentOpening(
    path: options.path.map(PathDisplay.absolute), options: options,
    journalFolder: options.journal ? JournalReader.defaultFolder : nil)
let session = Session(
    document: opening.placeholder, windowWidth: 1280, windowHeight: 900, backgroundWorkWaits: true)
// What the last run remembered: the tool, colors, width, opacity, toggles, window size, folder.
let settingsPath = SettingsFile.defaultPath
let (stored, settingsProblem) = StoredSettings.load(from: settingsPath)
session.restore(stored)
// The window goes on while a save is encoded and written, and while a drawing a crash left is
// restored (its journal read and replayed).
session.savesInBackground = true
session.restoresInBackground = true
if let seconds = Session.noticeLifetime(environment: FileSystem.environment("SWIFTPAINT_NOTICE_SECONDS")) {
    session.noticeLifetime = seconds
}
do {
    StartupTrace.mark("session made")
    let app = try X11App(session: session, displayName: nil, windowSize: stored.window)
    app.prepareFirstFrame()
    StartupTrace.mark("window made")
    do {
        // Scoped: the session holds the document from here on (its file's bytes go to the
        // journal once that starts, and no copy may stay alive in this frame).
        let (document, message) = opening.finish()
        StartupTrace.mark("picture opened")
        // Installed after the settings are restored: a large picture read from its file opens
        // fitted unless they say otherwise (a blank canvas, even one named, opens at 100 %).
        let fromFile = document.path != nil && document.onDisk != .absent
        session.install(document, message: message, journal: nil, anotherPicture: fromFile)
    }
    let path = session.document.path
    if FileSystem.environment("SWIFTPAINT_DEBUG") == "1" {
        FileSystem.printError("swiftpaint: drawing through \(app.transport), pointer through \(app.pointerInput)")
    }
    // The journal starts once the window is up: without a display nothing is left on disk.
    session.opener = DocumentOpener(
        options: options, journalFolder: options.journal ? JournalReader.defaultFolder : nil)
    // A drawing a crash left (found while the window was made) is offered in the first frame;
    // the journal itself is written after.
    session.offerLeftOverDrawing(opening.leftOver)
    func startJournal() {
        if let problem = session.startJournal() {
            // Drawing goes on without a journal; the status bar says what is at stake.
            FileSystem.printError("swiftpaint: \(problem)")
        }
    }
    // A starting background is a step of the picture the first frame shows, journaled like any
    // other: its journal comes first.
    if let file = options.backgroundFile {
        startJournal()
        if let problem = session.setStartingBackground(file: file) {
            FileSystem.printError("swiftpaint: the background \(file) cannot be used: \(problem)")
        }
    }
    // The pictures opened or saved last, shared by every window (the dialog's "Recent" place).
    if let problem = session.useRecentFiles(RecentFiles()) { FileSystem.printError("swiftpaint: \(problem)") }
    if let settingsProblem {
        // Never fatal: the defaults stand for what could not be read, and the status bar says so.
        FileSystem.printError("swiftpaint: \(settingsProblem)")
        session.show(settingsProblem)
    }
    let code = app.run(afterFirstFrame: {
        if options.backgroundFile == nil { startJournal() }
        StartupTrace.mark("journal started")
        if let path, FileSystem.kind(path) == .file, session.path == path { session.rememberRecent(path) }
        session.startBackgroundWork()
    })
    if let problem = session.stored.save(to: settingsPath) {
        FileSystem.printError("swiftpaint: the settings were not saved: \(problem)")
    }
    exit(code)
} catch {
    fail(error.description)
}

import Glibc
import PaintApp
import PaintCore
import PaintIO
import PaintX11

// swiftpaint: parse the command line, open or make the picture, run the window.

func fail(_ message: String, code: Int32 = 1) -> Never {
    FileSystem.printError(message)
    exit(code)
}

let options: CommandLineOptions
do {
    options = try CommandLineOptions.parse(Array(CommandLine.arguments.dropFirst()))
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
case .run:
    break
}

var engine: StrokeEngine
var path = options.path.map(PathDisplay.absolute)
var message = ""
/// The opened file's bytes, the journal's starting point.
var baseImage: [UInt8]?
/// The opened picture, where undo stops.
var basePaint: PixelImage?
if let target = path, FileSystem.exists(target) {
    do {
        let (image, bytes) = try ImageFile.loadWithBytes(path: target)
        engine = StrokeEngine(image: image, background: options.background)
        baseImage = bytes
        basePaint = image
        message = "Opened \(PathDisplay.abbreviatingHome(target))"
    } catch {
        // Never start editing over a file we could not read: a blank untitled canvas instead,
        // so Ctrl+S cannot overwrite it.
        FileSystem.printError("swiftpaint: " + error.description)
        engine = StrokeEngine(width: options.width, height: options.height, background: options.background)
        message = error.description
        path = nil
    }
} else {
    engine = StrokeEngine(width: options.width, height: options.height, background: options.background)
    if let target = path { message = "New picture; Ctrl+S saves it as \(PathDisplay.abbreviatingHome(target))" }
}

let session = Session(
    engine: engine, path: path, windowWidth: 1280, windowHeight: 900, message: message,
    history: History(base: basePaint, memoryCap: options.historyMemoryMB << 20))
do {
    let app = try X11App(session: session, displayName: nil)
    if FileSystem.environment("SWIFTPAINT_DEBUG") == "1" {
        FileSystem.printError("swiftpaint: drawing through \(app.transport)")
    }
    if options.journal {
        let folder = JournalReader.defaultFolder
        let leftOver = Recovery.candidate(for: path, in: folder)
        let header = JournalHeader(
            documentPath: path, width: engine.width, height: engine.height,
            background: DocumentJournal.journalBackground(engine.background), baseImage: baseImage)
        do {
            let journal = DocumentJournal(writer: try JournalWriter.create(in: folder, header: header))
            session.sink = journal
            if let leftOver { session.offer(Recovery.offer(leftOver, journal: journal)) }
        } catch {
            // Drawing goes on without a journal; the user is told what is at stake.
            FileSystem.printError("swiftpaint: \(error.description)")
            session.show("No crash journal: \(error.description)")
        }
    }
    exit(app.run())
} catch {
    fail(error.description)
}

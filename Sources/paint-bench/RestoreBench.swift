// paint-bench restore STROKES.jsonl [--repeat 4] [--folder DIR] [--runs 3]
//
// How long restoring a large crash journal holds the window's thread (issue 16 item 2). The
// strokes are drawn --repeat times through the engine into a crash journal in DIR (default
// .build/bench-restore; made once, kept for later runs), which is then left as a crash leaves
// it. Each run makes a headless session as the window makes one, restores the journal as the
// window did before (all of it in the answer: "answer") and as it does now (on a thread of its
// own: "background"), and times, on this thread:
//
//   offer_ms      finding the journal and building the offer (`offerLeftOverDrawing`), which
//                 the window does before its first frame (now the journal is found on the
//                 thread that opens the picture, `DocumentOpening`, while the window is made);
//   restore_ms    what Restore (Enter) holds the thread for, in all: the answer, then each
//                 wake-up of the restore's pipe taken (`takeBackgroundWork`), up to the drawing
//                 installed; max_hold_ms the longest of those;
//   wall_ms       from Enter to the drawing installed (the reading and replay off the thread
//                 included).

import Glibc
import PaintApp
import PaintCore
import PaintIO

func runRestoreBench(arguments: [String]) -> Never {
    var folder = ".build/bench-restore"
    var repeats = 4
    var runs = 3
    var input: String?
    var reader = ArgumentReader(
        arguments, usage: "usage: paint-bench restore STROKES.jsonl [--repeat 4] [--folder DIR] [--runs 3]")
    while let option = reader.next() {
        switch option {
        case "--folder": folder = reader.value()
        case "--repeat": repeats = reader.integer(in: 1...100)
        case "--runs": runs = reader.integer(in: 1...100)
        default: input = reader.word(replacing: input)
        }
    }
    guard let input else { reader.reject("no input file") }
    mkdir(folder, 0o755)
    if JournalReader.orphans(in: folder).isEmpty {
        let file = StrokeFile.load(input)
        let header = JournalHeader(
            documentPath: nil, width: file.canvasWidth, height: file.canvasHeight, background: .color(.white))
        let journal: JournalWriter
        do {
            journal = try JournalWriter.create(in: folder, header: header)
        } catch {
            fail(error.description, code: 1)
        }
        let timer = ReplayTimer(width: file.canvasWidth, height: file.canvasHeight)
        _ = timer.replay(file, times: repeats, journal: journal)
        guard journal.flush(timeout: 120) else { fail("the journal did not become durable", code: 1) }
        // Dropped without discarding: the file stays, as a crash leaves it.
    }
    guard let orphan = JournalReader.orphans(in: folder).first else { fail("no journal in \(folder)", code: 1) }
    var info = stat()
    _ = stat(orphan.path, &info)
    print(
        "journal: \(orphan.header.width) x \(orphan.header.height), \(orphan.stepCount) steps,"
            + " \(Int(info.st_size) / 1024) KB (\(orphan.path))")
    fflush(nil)
    func milliseconds(since start: UInt64) -> Double { Double(monotonicNanoseconds() - start) / 1e6 }
    func restore(run: Int, inBackground: Bool) {
        let options = CommandLineOptions()
        let session = Session(
            document: DocumentLoader.blank(width: 1280, height: 800, options: options), windowWidth: 1280,
            windowHeight: 900)
        session.restoresInBackground = inBackground
        session.opener = DocumentOpener(options: options, journalFolder: folder)
        var start = monotonicNanoseconds()
        if inBackground {
            // Found on the opening's thread while the window is made (its time hidden behind
            // the window's); the window's thread only makes the offer.
            let opening = DocumentOpening(path: nil, options: options, journalFolder: folder)
            _ = opening.finish()
            start = monotonicNanoseconds()
            session.offerLeftOverDrawing(opening.leftOver)
        } else {
            session.offerLeftOverDrawing()
        }
        let offer = milliseconds(since: start)
        guard case .offerRestore = session.mode else { fail("no restore offered", code: 1) }
        start = monotonicNanoseconds()
        session.answer(.restore)
        var holds = [milliseconds(since: start)]
        // As the window's loop: woken by the restore's pipe, or by the progress's timer.
        while session.isRestoring, !session.backgroundDescriptors.isEmpty {
            var fds = session.backgroundDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&fds, nfds_t(fds.count), Int32(Session.restoreProgressInterval * 1000))
            let taken = monotonicNanoseconds()
            if ready > 0 {
                session.takeBackgroundWork()
            } else {
                _ = session.runTimers(at: Double(taken) / 1e9)
            }
            holds.append(milliseconds(since: taken))
        }
        let wall = milliseconds(since: start)
        print(
            "run \(run) \(inBackground ? "background" : "answer"): offer_ms=\(fixed(offer, 1)) restore_ms=\(fixed(holds.reduce(0, +), 1))"
                + " max_hold_ms=\(fixed(holds.max() ?? 0, 1)) wakes=\(holds.count - 1) wall_ms=\(fixed(wall, 1))"
                + " steps=\(session.history.cursor) message=\"\(session.message)\"")
        fflush(nil)
    }
    for run in 1...runs {
        // The way the window restored before (the whole restore in the answer) and now, in turn,
        // so the machine's drift hits both alike.
        for inBackground in [false, true] {
            restore(run: run, inBackground: inBackground)
        }
    }
    exit(0)
}

import CX11
import Foundation
import PaintApp
import PaintCore
import PaintIO
import Testing
import XDriver

/// A drag source that quits mid-drag: its window is gone before SwiftPaint reads its
/// XdndTypeList or answers it (XdndStatus, XdndFinished). Each of those was refused by the
/// server (BadWindow), and Xlib's default error handler ended the program.
extension FileDialogEndToEndTests {
    @Test("Drag and drop: sources gone before the answers (enter, position, drop) leave the window working")
    func sourcesGoneMidDrag() throws {
        let dir = try scratchFolder()
        let picture = Self.quarters(Color(r: 250, g: 120, b: 0), Color(r: 10, g: 10, b: 120))
        try ImageFile.save(picture, to: dir.file("pic.png"), withAlpha: false)
        let paint = try start(ServerConfig.standard, dir.file("doc.png"))
        defer { paint.stop() }
        let display = paint.session.server.displayName
        // Enter (its types in XdndTypeList: bit 0), then Position, then Drop; the messages and the
        // window's end go to the server in one flush, so the window is gone when they are read.
        // The connections stay open to the end: a closed one's window id would be given again to
        // the next connection's window, which the answers would then reach.
        var sources: [SelectionConnection] = []
        for messages in 1...3 {
            let gone = try SelectionConnection(displayName: display, selection: "XdndSelection")
            sources.append(gone)
            let atom = gone.atom
            let uriList = Int(atom("text/uri-list"))
            let sent: [(String, [Int])] = [
                ("XdndEnter", [Int(gone.window), 5 << 24 | 1, uriList, 0, 0]),
                (
                    "XdndPosition",
                    [Int(gone.window), 0, 200 << 16 | 200, Int(CurrentTime), Int(atom("XdndActionCopy"))]
                ),
                ("XdndDrop", [Int(gone.window), 0, Int(CurrentTime), 0, 0]),
            ]
            for (type, values) in sent.prefix(messages) {
                var event = XEvent()
                event.xclient.type = ClientMessage
                event.xclient.window = paint.window
                event.xclient.message_type = atom(type)
                event.xclient.format = 32
                event.xclient.data.l = (values[0], values[1], values[2], values[3], values[4])
                XSendEvent(gone.display, paint.window, 0, NoEventMask, &event)
            }
            XDestroyWindow(gone.display, gone.window)
            XSync(gone.display, 0)
        }
        // Once it has handled them (the last drop's empty answer too), it still takes a real drop.
        try paint.roundTrip()
        try paint.roundTrip()
        defer { withExtendedLifetime(sources) {} }
        let (x, y) = paint.windowPoint(imageX: 200, imageY: 150)
        let source = try DragSource(displayName: display, uris: "file://\(dir.file("pic.png"))\r\n")
        let result = try source.drop(on: paint.window, x: x, y: y)
        #expect(result.accepted && result.finished, "\(result)\n\(paint.app.outputSummary)")
        #expect(
            paint.client.waitForTitle(paint.window) { $0 == "pic.png — SwiftPaint" } != nil,
            "\(paint.title ?? "nil")\n\(paint.app.outputSummary)")
        expectCanvas(paint, equals: picture, "the dropped picture opened")
        #expect(paint.app.isRunning && !paint.app.stderr.contains("X Error"), "\(paint.app.stderr)")
    }
}

/// Drops whose files never arrive: a source that hangs once asked for its list, and one that
/// quits as it drops. The window gave the first no end (it waited for ever, and took the next
/// drag's list for the hung one's) and the second "Only files can be dropped here".
extension FileDialogEndToEndTests {
    /// The red pixels of an error in the status bar.
    static func errorPixels(_ paint: PaintWindow) -> Int {
        let shot = try? paint.client.capture(paint.window, rect: paint.layout.statusBar)
        return shot?.count(of: Theme.errorText, tolerance: 24) ?? 0
    }

    /// A scratch folder holding first.png and second.png, two pictures a drop can open, and
    /// the pictures.
    static func twoDropPictures() throws -> (TemporaryDirectory, PixelImage, PixelImage) {
        let dir = try scratchFolder()
        let first = quarters(Color(r: 250, g: 120, b: 0), Color(r: 10, g: 10, b: 120))
        let second = quarters(Color(r: 20, g: 160, b: 90), Color(r: 240, g: 240, b: 240))
        try ImageFile.save(first, to: dir.file("first.png"), withAlpha: false)
        try ImageFile.save(second, to: dir.file("second.png"), withAlpha: false)
        return (dir, first, second)
    }

    /// Drags `file` onto the middle of the picture and drops it; it opens.
    func dropAndOpen(_ paint: PaintWindow, _ file: String, _ picture: PixelImage) throws {
        let (x, y) = paint.windowPoint(imageX: 200, imageY: 150)
        let source = try DragSource(displayName: paint.session.server.displayName, uris: "file://\(file)\r\n")
        let result = try source.drop(on: paint.window, x: x, y: y)
        #expect(result.accepted && result.finished, "\(result)\n\(paint.app.outputSummary)")
        let name = URL(fileURLWithPath: file).lastPathComponent
        #expect(
            paint.client.waitForTitle(paint.window) { $0 == "\(name) — SwiftPaint" } != nil,
            "\(paint.title ?? "nil")\n\(paint.app.outputSummary)")
        expectCanvas(paint, equals: picture, "\(name) dropped and opened")
    }

    @Test("Drag and drop: a source that never hands its list over, or quits at the drop, is given up in red")
    func dropsNeverHandedOver() throws {
        let (dir, first, second) = try Self.twoDropPictures()
        let paint = try start(ServerConfig.standard, dir.file("doc.png"))
        defer { paint.stop() }
        let display = paint.session.server.displayName
        let (x, y) = paint.windowPoint(imageX: 200, imageY: 150)
        #expect(Self.errorPixels(paint) == 0)
        // Hung: asked for its list, it never answers. The window gives up after its patience
        // (5 s), tells the source the drop failed (XdndFinished without success) and says why.
        let hung = try DragSource(displayName: display, uris: "file://\(dir.file("first.png"))\r\n", behaviour: .silent)
        let given = try hung.drop(on: paint.window, x: x, y: y)
        #expect(given.accepted && !given.finished, "\(given)\n\(paint.app.outputSummary)")
        try Wait.require("the hung drop's error in red\n\(paint.app.outputSummary)") { Self.errorPixels(paint) >= 30 }
        #expect(paint.title == "doc.png — SwiftPaint", "\(paint.title ?? "nil")")
        // The next drop opens its picture (the message goes with it).
        try dropAndOpen(paint, dir.file("first.png"), first)
        try Wait.require("the error gone once a drop opened") { Self.errorPixels(paint) == 0 }
        // Quits at the drop: the server answers the request for its list (no owner any more).
        let quitter = try DragSource(
            displayName: display, uris: "file://\(dir.file("second.png"))\r\n", behaviour: .quitsAtDrop)
        _ = try quitter.drop(on: paint.window, x: x, y: y)
        try Wait.require("the quitter's error in red\n\(paint.app.outputSummary)") { Self.errorPixels(paint) >= 30 }
        #expect(paint.title == "first.png — SwiftPaint", "\(paint.title ?? "nil")")
        try dropAndOpen(paint, dir.file("second.png"), second)
        #expect(paint.app.isRunning && !paint.app.stderr.contains("X Error"), "\(paint.app.stderr)")
    }
}

extension FileDialogEndToEndTests {
    /// How the hung source of `aLateAnswerIsNotTheNextDrops` drops and wakes up.
    struct LateAnswer: CustomStringConvertible, Sendable {
        /// Whether the drops name the server's time, as file managers' do (else CurrentTime,
        /// which the request for the list and its answer then carry as 0).
        var timed: Bool
        /// Whether the late answer refuses (property None) instead of handing the list over.
        var refusing: Bool
        var description: String { "\(timed ? "timed" : "CurrentTime") drops, \(refusing ? "a refusal" : "a list")" }
    }

    @Test(
        "Drag and drop: a hung source's late answer is not taken for the next drop's list",
        arguments: [
            LateAnswer(timed: true, refusing: false), LateAnswer(timed: false, refusing: false),
            LateAnswer(timed: false, refusing: true),
        ])
    func aLateAnswerIsNotTheNextDrops(_ late: LateAnswer) throws {
        let (dir, _, second) = try Self.twoDropPictures()
        let paint = try start(ServerConfig.standard, dir.file("doc.png"))
        defer { paint.stop() }
        let display = paint.session.server.displayName
        let (x, y) = paint.windowPoint(imageX: 200, imageY: 150)
        let clock = try ClipboardRequestor(displayName: display)
        let hung = try DragSource(displayName: display, uris: "file://\(dir.file("first.png"))\r\n", behaviour: .silent)
        if late.timed { hung.time = try clock.serverTime() }
        let given = try hung.drop(on: paint.window, x: x, y: y)
        #expect(given.accepted && !given.finished, "\(given)\n\(paint.app.outputSummary)")
        // The hung source wakes up as the next drop's list is asked for, and answers first; the
        // next source answers once the window has handled all that reached it by then (else the
        // late list could be read back as the next one's, when both went to one property).
        let next = try DragSource(displayName: display, uris: "file://\(dir.file("second.png"))\r\n")
        if late.timed { next.time = try clock.serverTime() }
        var answered = false
        next.beforeAnswering = {
            answered = hung.answerLate(refusing: late.refusing)
            try paint.roundTrip()
        }
        let result = try next.drop(on: paint.window, x: x, y: y)
        #expect(answered && result.accepted && result.finished, "\(answered) \(result)\n\(paint.app.outputSummary)")
        #expect(
            paint.client.waitForTitle(paint.window) { $0 == "second.png — SwiftPaint" } != nil,
            "\(paint.title ?? "nil")\n\(paint.app.outputSummary)")
        expectCanvas(paint, equals: second, "the second drop's picture, not the hung one's")
        #expect(Self.errorPixels(paint) == 0, "no drop failed")
    }
}

import CX11
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
        let paint = try start(ServerConfig(depth: 24, shm: true), dir.file("doc.png"))
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

import CX11
import Foundation
import PaintCore
import PaintIO
import Testing
import XDriver

/// Ctrl+C and Ctrl+V against another program on the same display: xclip, which reads and
/// writes the CLIPBOARD selection the way desktop programs do.
@Suite("Clipboard end to end", .serialized)
struct ClipboardEndToEndTests: CanvasChecks {
    static let size = (w: 400, h: 300)

    func start(_ config: ServerConfig) throws -> PaintWindow {
        try PaintWindow(
            config, arguments: ["--size", "\(Self.size.w)x\(Self.size.h)"], imageWidth: Self.size.w,
            imageHeight: Self.size.h)
    }

    /// Runs xclip on the program's display with `arguments`; returns its exit status and what
    /// it printed (or, in the background, the running child).
    func xclip(_ paint: PaintWindow, _ arguments: [String], background: Bool = false) throws -> (
        status: ExitStatus?, output: [UInt8], child: ChildProcess
    ) {
        let dir = try scratchFolder()
        var environment = ChildProcess.cleanEnvironment()
        environment["DISPLAY"] = paint.session.server.displayName
        let child = try ChildProcess(
            executable: "/usr/bin/xclip", arguments: arguments, environment: environment, stdoutPath: dir.file("out"),
            stderrPath: dir.file("err"))
        if background { return (nil, [], child) }
        let status = child.waitForExit()
        if status == nil { child.killAndReap() }
        let output = (try? Data(contentsOf: URL(fileURLWithPath: dir.file("out")))).map { [UInt8]($0) } ?? []
        return (status, output, child)
    }

    /// Noise (at the default size, its PNG is larger than one clipboard request and goes in INCR
    /// chunks).
    static func noise(width: Int = size.w, height: Int = size.h) -> PixelImage {
        var image = PixelImage(width: width, height: height)
        var state: UInt32 = 12345
        for i in image.pixels.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            image.pixels[i] = state | 0xFF00_0000
        }
        return image
    }

    @Test("Ctrl+C: another program reads the picture as image/png, also when it needs INCR chunks")
    func copy() throws {
        let dir = try scratchFolder()
        let picture = dir.file("noise.png")
        let noise = Self.noise()
        try ImageFile.save(noise, to: picture, withAlpha: false)
        let paint = try PaintWindow(
            ServerConfig.standard, arguments: ["--size", "\(Self.size.w)x\(Self.size.h)", picture],
            imageWidth: Self.size.w, imageHeight: Self.size.h)
        defer { paint.stop() }
        expectCanvas(paint, equals: noise, "the opened noise")
        try paint.key("c", modifiers: [.control])
        // The key is handled asynchronously: ask until the program owns the clipboard.
        var offered = ""
        let owned = Wait.until(poll: .milliseconds(50)) {
            guard let targets = try? xclip(paint, ["-selection", "clipboard", "-t", "TARGETS", "-o"]),
                targets.status == .exited(0)
            else { return false }
            offered = String(decoding: targets.output, as: UTF8.self)
            return true
        }
        #expect(owned, "the program never took the clipboard: \(paint.app.outputSummary)")
        #expect(offered.contains("image/png") && offered.contains("TIMESTAMP"), "targets: \(offered)")
        let read = try xclip(paint, ["-selection", "clipboard", "-t", "image/png", "-o"])
        #expect(read.status == .exited(0), "xclip: \(String(describing: read.status))")
        let bytes = read.output
        #expect(bytes.count > 256 << 10, "\(bytes.count) bytes: small enough for one piece, INCR untested")
        #expect((try? PNGCodec.decode(bytes, name: "clipboard")) == noise)
    }

    @Test("Ctrl+C on a picture over a megapixel: the PNG encoded on its own thread reaches another program whole")
    func copyEncodedOffTheWindowsThread() throws {
        let dir = try scratchFolder()
        let picture = dir.file("noise.png")
        let noise = Self.noise(width: 1200, height: 1000)
        try ImageFile.save(noise, to: picture, withAlpha: false)
        let paint = try PaintWindow(
            ServerConfig.standard, arguments: ["--no-journal", picture], imageWidth: 1200,
            imageHeight: 1000)
        defer { paint.stop() }
        try paint.key("c", modifiers: [.control])
        // The key is handled asynchronously: ask until the program owns the clipboard (at
        // once, while the PNG is still being encoded).
        let owned = Wait.until(poll: .milliseconds(50)) {
            (try? xclip(paint, ["-selection", "clipboard", "-t", "TARGETS", "-o"]))?.status == .exited(0)
        }
        #expect(owned, "the program never took the clipboard: \(paint.app.outputSummary)")
        // Asked for while it may still be encoded: the answer waits for it.
        let read = try xclip(paint, ["-selection", "clipboard", "-t", "image/png", "-o"])
        #expect(read.status == .exited(0), "xclip: \(String(describing: read.status))")
        #expect((try? PNGCodec.decode(read.output, name: "clipboard")) == noise, "\(read.output.count) bytes")
        #expect(paint.app.isRunning)
    }

    @Test("Ctrl+V: a picture another program put on the clipboard lands at the corner; Ctrl+Z takes it back")
    func paste() throws {
        let dir = try scratchFolder()
        let file = dir.file("sticker.png")
        let sticker = PixelImage(width: 90, height: 60, fill: Color(r: 200, g: 40, b: 160).pixel)
        try ImageFile.save(sticker, to: file, withAlpha: false)
        let paint = try start(ServerConfig.standard)
        defer { paint.stop() }
        // In the foreground (-quiet: no fork), xclip serves every request until it is killed:
        // nothing here depends on how many requests (TARGETS, then the picture) a `-loops` count
        // lets it answer, which xclip versions count differently.
        let owner = try xclip(
            paint, ["-quiet", "-selection", "clipboard", "-t", "image/png", "-i", file], background: true)
        defer { owner.child.killAndReap() }
        // xclip owns the clipboard once it has read the file (nothing else on this server
        // copies): one Ctrl+V then, so that one paste is what Ctrl+Z takes back.
        let owned = Wait.until {
            XGetSelectionOwner(paint.client.display, paint.client.atom("CLIPBOARD")) != 0
        }
        #expect(owned, "xclip never took the clipboard")
        try paint.key("v", modifiers: [.control])
        var expected = PixelImage(width: Self.size.w, height: Self.size.h, fill: Color.white.pixel)
        for y in 0..<60 {
            for x in 0..<90 { expected[x, y] = sticker[x, y] }
        }
        // The pasted picture floats (outlined) until put down: Enter, again until it has come
        // (Enter with nothing floating does nothing).
        let pasted = Wait.until(poll: .milliseconds(200)) {
            try? paint.key("Return")
            guard let shot = try? paint.captureCanvas() else { return false }
            return differences(screen: shot, file: expected, limit: 1).isEmpty
        }
        #expect(pasted, "the pasted picture never showed: \(paint.app.outputSummary)")
        // A capture can land between the picture and its outline being drawn: put it down for
        // sure (Enter with nothing floating does nothing).
        try paint.key("Return")
        try paint.waitForModified(true)
        try paint.key("z", modifiers: [.control])
        expectCanvas(
            paint, equals: PixelImage(width: Self.size.w, height: Self.size.h, fill: Color.white.pixel), "after Ctrl+Z")
    }

    @Test("Ctrl+V: a large picture sent in INCR chunks arrives whole")
    func pasteInChunks() throws {
        let noise = Self.noise()
        let png = try PNGCodec.encode(noise, withAlpha: false)
        let paint = try start(ServerConfig.standard)
        defer { paint.stop() }
        let owner = try IncrClipboardOwner(displayName: paint.session.server.displayName, png: png)
        try pasteServed(paint, serve: { owner.serve() }, until: noise, "the chunked picture")
        #expect(owner.chunksSent == png.count / (64 << 10) + 2, "\(owner.chunksSent) chunks for \(png.count) bytes")
    }

    @Test("Ctrl+V: a large picture decodes while the window goes on drawing, then floats")
    func pasteDecodesOffTheWindowsThread() throws {
        let dir = try scratchFolder()
        let file = dir.file("large.png")
        let green = Color(r: 30, g: 160, b: 90)
        // 144 MB of pixels from a few hundred kilobytes: its decode outlasts many frames.
        try ImageFile.save(PixelImage(width: 6000, height: 6000, fill: green.pixel), to: file, withAlpha: false)
        let paint = try start(ServerConfig.standard)
        defer { paint.stop() }
        let owner = try xclip(paint, ["-selection", "clipboard", "-t", "image/png", "-i", file], background: true)
        defer { owner.child.killAndReap() }
        // Ctrl+V only once xclip owns the clipboard: the first change of the status bar is then
        // the paste's own.
        let owned = Wait.until(poll: .milliseconds(50)) {
            (try? xclip(paint, ["-selection", "clipboard", "-t", "TARGETS", "-o"]))?.status == .exited(0)
        }
        #expect(owned, "xclip never took the clipboard")
        // The pointer where the key puts it, drawn: nothing but the paste changes the bar after.
        paint.parkPointer()
        try paint.roundTrip()
        let before = try paint.client.capture(paint.window, rect: paint.layout.statusBar).image
        try paint.key("v", modifiers: [.control])
        // The status bar says "Pasting 6000 × 6000…" while the canvas is still white: the
        // window drew a frame while the picture was being decoded.
        let spot = IntRect(x: 50, y: 50, width: 1, height: 1)
        var canvasWhileSaid: Color?
        let said = try Wait.until(poll: .milliseconds(5)) {
            guard try paint.client.capture(paint.window, rect: paint.layout.statusBar).image != before else {
                return false
            }
            canvasWhileSaid = try paint.client.capture(paint.window, rect: paint.layout.windowRect(forImageRect: spot))
                .color(x: 0, y: 0)
            return true
        }
        #expect(said, "the status bar never changed: \(paint.app.outputSummary)")
        #expect(canvasWhileSaid == .white, "the status bar changed only once the paste floated")
        // The window answers while it decodes (each round trip is answered after drawing).
        try paint.roundTrip()
        // Then the picture floats over the whole canvas, and Enter puts it down.
        _ = try paint.waitForCapture(image: spot, "the pasted picture") { $0.color(x: 0, y: 0) == green }
        try paint.key("Return")
        try paint.waitForModified(true)
        expectCanvas(
            paint, equals: PixelImage(width: Self.size.w, height: Self.size.h, fill: green.pixel), "the pasted picture")
    }
}

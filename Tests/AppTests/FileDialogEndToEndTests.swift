import Foundation
import PaintApp
import PaintCore
import PaintIO
import Testing

/// The file dialog in the real window: a folder entered with a double click, a picture opened
/// with the keyboard and shown pixel for pixel; Save as with the format chosen by a click and
/// the Save button; the pictures opened and saved come back under Recent.
@Suite("File dialog end to end", .serialized)
struct FileDialogEndToEndTests: CanvasChecks {
    static let size = (w: 400, h: 300)

    func start(_ config: ServerConfig, _ file: String, home: String? = nil) throws -> PaintWindow {
        try PaintWindow(
            config, arguments: ["--size", "\(Self.size.w)x\(Self.size.h)", file], imageWidth: Self.size.w,
            imageHeight: Self.size.h, home: home)
    }

    /// A picture no chrome looks like: four colored quarters.
    static func quarters(_ a: Color, _ b: Color) -> PixelImage {
        var image = PixelImage(width: size.w, height: size.h, fill: a.pixel)
        for y in 0..<size.h {
            for x in 0..<size.w where (x < size.w / 2) != (y < size.h / 2) { image[x, y] = b.pixel }
        }
        return image
    }

    /// The dialog as the window lays it out (its geometry does not depend on the folder).
    func geometry(_ paint: PaintWindow, _ purpose: FileDialog.Purpose) -> FileDialog {
        FileDialog(
            purpose: purpose, folder: "/", places: [], recent: [], windowWidth: paint.layout.windowWidth,
            windowHeight: paint.layout.windowHeight, scale: paint.layout.ui)
    }

    /// Whether the list's row `index` shows `color` (a thumbnail's), in window coordinates.
    func row(_ paint: PaintWindow, _ index: Int, shows color: Color) throws -> Bool {
        let f = paint.fileDialogFrame
        let r = geometry(paint, .open).rowRect(index)
        let shot = try paint.client.capture(
            paint.window, rect: IntRect(x: f.x + r.x, y: f.y + r.y, width: r.width, height: r.height))
        return shot.contains(color, tolerance: paint.config.tolerance)
    }

    @Test(
        "Open: a double click enters a folder, Down and Enter open the picture, shown pixel for pixel",
        arguments: [ServerConfig(depth: 24, shm: true), ServerConfig(depth: 24, shm: false)])
    func openThroughTheDialog(config: ServerConfig) throws {
        let dir = try scratchFolder()
        let shots = try dir.subdirectory("shots")
        let red = Color(r: 255, g: 0, b: 0)
        let picture = Self.quarters(red, Color(r: 20, g: 40, b: 200))
        try ImageFile.save(picture, to: shots + "/quarters.png", withAlpha: false)
        // Not a picture: not listed.
        try Data("notes".utf8).write(to: URL(fileURLWithPath: shots + "/notes.txt"))
        let paint = try start(config, dir.file("doc.png"))
        defer { paint.stop() }
        try paint.key("o", modifiers: [.control])
        try paint.waitForFileDialog("the Open dialog")
        // The dialog starts in the document's folder: "shots" is the first row.
        let f = paint.fileDialogFrame
        let first = geometry(paint, .open).rowRect(0)
        let point = (f.x + first.x + first.width / 2, f.y + first.y + first.height / 2)
        // Both clicks in one flush: the server stamps them back to back, a double click however
        // long this thread waits between two requests (two `click`s, each a round trip, were
        // two single clicks when more than 400 ms went by between them).
        paint.client.clickRun(paint.window, x: point.0, y: point.1, delays: [0, 0])
        paint.parkPointer()
        // Inside: the picture is the first row, its thumbnail red and blue.
        try Wait.require("the picture's thumbnail in the first row, inside the folder\n\(paint.app.outputSummary)") {
            try row(paint, 0, shows: red)
        }
        #expect(try !row(paint, 1, shows: red) && paint.title == "doc.png — SwiftPaint")
        try paint.key("Down")
        try paint.key("Return")
        try paint.waitForFileDialogClosed("the dialog closed after Enter")
        #expect(
            paint.client.waitForTitle(paint.window) { $0 == "quarters.png — SwiftPaint" } != nil,
            "\(paint.title ?? "nil")\n\(paint.app.outputSummary)")
        expectCanvas(paint, equals: picture, "the picture opened through the dialog")
    }

    @Test("Save as: a click on WebP renames the file, a click on Save writes it; both come back under Recent")
    func saveAsWithThePointerAndRecent() throws {
        let config = ServerConfig.standard
        let dir = try scratchFolder()
        let green = Color(r: 30, g: 200, b: 60)
        let picture = Self.quarters(green, Color(r: 250, g: 250, b: 20))
        try ImageFile.save(picture, to: dir.file("start.png"), withAlpha: false)
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        do {
            let paint = try start(config, dir.file("start.png"), home: home.path)
            defer { paint.stop() }
            try paint.key("s", modifiers: [.control, .shift])
            try paint.waitForFileDialog("the Save as dialog")
            let dialog = geometry(paint, .save(then: nil))
            let f = paint.fileDialogFrame
            let webp = dialog.formatButton(.webp)
            try paint.client.click(paint.window, x: f.x + webp.x + webp.width / 2, y: f.y + webp.y + webp.height / 2)
            let save = dialog.acceptButton
            try paint.client.click(paint.window, x: f.x + save.x + save.width / 2, y: f.y + save.y + save.height / 2)
            paint.parkPointer()
            // The WebP quality question: Enter takes the 100 offered (lossless).
            try paint.key("Return")
            #expect(
                paint.client.waitForTitle(paint.window) { $0 == "start.webp — SwiftPaint" } != nil,
                "\(paint.title ?? "nil")\n\(paint.app.outputSummary)")
            let saved = try ImageFile.open(path: dir.file("start.webp")).picture
            #expect(saved.format == .webp && saved.image == picture, "lossless WebP of the picture")
            // The recent list is written on a thread of its own after the save: stopping the
            // program (kill -9) before it is there would lose the entry this test looks for.
            try Wait.require("start.webp in the recent list") {
                let list = try? String(contentsOfFile: home.path + "/.local/state/swiftpaint/recent", encoding: .utf8)
                return list?.contains(dir.file("start.webp")) == true
            }
        }
        // A second run in the same home: the Open dialog's Recent place lists start.webp (saved
        // last) before start.png (opened first).
        let paint = try start(config, dir.file("other.png"), home: home.path)
        defer { paint.stop() }
        let recent = (try? String(contentsOfFile: home.path + "/.local/state/swiftpaint/recent", encoding: .utf8)) ?? ""
        #expect(
            recent.split(separator: "\n").filter { !$0.hasPrefix("#") }
                == [Substring(dir.file("start.webp")), Substring(dir.file("start.png"))], "\(recent)")
        try paint.key("o", modifiers: [.control])
        try paint.waitForFileDialog("the Open dialog")
        // The places as the window lists them (this home has no Desktop or Pictures); a click
        // on Recent lists the two pictures, newest first, with their thumbnails.
        let places = FileDialog.places(
            user: UserFolders(home: home.path, desktop: nil, pictures: nil), documentFolder: dir.path,
            recent: [dir.file("start.webp"), dir.file("start.png")])
        guard let index = places.firstIndex(where: { $0.kind == .recent }) else {
            Issue.record("no Recent place: \(places)")
            return
        }
        let dialog = FileDialog(
            purpose: .open, folder: "/", places: places, recent: [], windowWidth: paint.layout.windowWidth,
            windowHeight: paint.layout.windowHeight, scale: paint.layout.ui)
        let f = paint.fileDialogFrame
        let place = dialog.placeRect(index)
        try paint.client.click(paint.window, x: f.x + place.x + place.width / 2, y: f.y + place.y + place.height / 2)
        paint.parkPointer()
        try Wait.require("the recent pictures' thumbnails\n\(paint.app.outputSummary)") {
            try row(paint, 0, shows: green) && row(paint, 1, shows: green)
        }
        try paint.key("Down")
        try paint.key("Return")
        try paint.waitForFileDialogClosed()
        #expect(
            paint.client.waitForTitle(paint.window) { $0 == "start.webp — SwiftPaint" } != nil,
            "\(paint.title ?? "nil")\n\(paint.app.outputSummary)")
        expectCanvas(paint, equals: picture, "the recent picture opened")
    }

    @Test("Drag and drop: a file dropped from another program opens; with Ctrl held it is pasted, floating")
    func dropOpensAndCtrlPastes() throws {
        let config = ServerConfig.standard
        let dir = try scratchFolder()
        let picture = Self.quarters(Color(r: 250, g: 120, b: 0), Color(r: 10, g: 10, b: 120))
        // A space in the name: the uri list carries it as %20.
        try ImageFile.save(picture, to: dir.file("my pic.png"), withAlpha: false)
        let small = PixelImage(width: 60, height: 40, fill: Color(r: 0, g: 200, b: 0).pixel)
        try ImageFile.save(small, to: dir.file("small.png"), withAlpha: false)
        let paint = try start(config, dir.file("doc.png"))
        defer { paint.stop() }
        let display = paint.session.server.displayName
        let (x, y) = paint.windowPoint(imageX: 200, imageY: 150)
        let first = try DragSource(
            displayName: display,
            uris: "# dragged\r\nfile://\(dir.path.replacingOccurrences(of: " ", with: "%20"))/my%20pic.png\r\n")
        let result = try first.drop(on: paint.window, x: x, y: y)
        #expect(result.accepted && result.finished, "\(result)\n\(paint.app.outputSummary)")
        #expect(
            paint.client.waitForTitle(paint.window) { $0 == "my pic.png — SwiftPaint" } != nil,
            "\(paint.title ?? "nil")\n\(paint.app.outputSummary)")
        expectCanvas(paint, equals: picture, "the dropped picture opened")
        // Ctrl held at the drop: the picture floats at the top-left of the canvas; the document
        // stays. Ctrl comes up as soon as the window asks for the list, before it arrives: what
        // counts is the drop (the window read Ctrl when the list came, after telling the source
        // it had finished, and the test's release after XdndFinished raced with that read).
        let second = try DragSource(displayName: display, uris: "file://\(dir.file("small.png"))\r\n")
        var held = true
        second.beforeAnswering = {
            if held { try paint.client.setModifiers([.control], down: false) }
            held = false
        }
        try paint.client.setModifiers([.control], down: true)
        defer { if held { try? paint.client.setModifiers([.control], down: false) } }
        let pasted = try second.drop(on: paint.window, x: x, y: y)
        #expect(pasted.accepted && pasted.finished && !held)
        // The dropped picture is decoded on a thread of its own: Enter puts it down once it floats.
        let green = Color(r: 0, g: 200, b: 0)
        _ = try paint.waitForCapture(image: IntRect(x: 30, y: 20, width: 1, height: 1), "the dropped picture floating")
        {
            $0.color(x: 0, y: 0) == green
        }
        try paint.key("Return")
        try paint.waitForModified(true)
        var expected = picture
        for py in 0..<small.height {
            for px in 0..<small.width { expected[px, py] = small[px, py] }
        }
        expectCanvas(paint, equals: expected, "the dropped picture pasted at the top-left and put down")
        #expect(paint.title == "*my pic.png — SwiftPaint", "\(paint.title ?? "nil")")
    }
}

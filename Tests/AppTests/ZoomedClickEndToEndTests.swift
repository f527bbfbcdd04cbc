import Foundation
import PaintApp
import PaintCore
import PaintIO
import TestSupport
import Testing
import XDriver

/// At 1600 % one picture pixel is 16 x 16 screen pixels, and a click aims at a picture pixel: a
/// 1 px brush paints exactly the pixel clicked, wherever inside it the pointer is, as MS Paint,
/// KolourPaint, mtPaint and GIMP's pencil do (before, the brush was centred where the pointer's
/// screen pixel fell, up to 31/32 of a pixel right and down, and tinted the right and lower
/// neighbours); a 3 px one that pixel and its four neighbours with the corners anti-aliased, and
/// a 1 px line that row from pixel to pixel. The crash journal holds the same points: replayed,
/// it gives the saved pixels.
@Suite("Zoomed-in clicks end to end", .serialized)
struct ZoomedClickEndToEndTests {
    static let size = (w: 24, h: 16)

    @Test("at 1600 % a 1 px click paints the pixel clicked, a 3 px one a disc on it, a 1 px line its row")
    func clicksPaintThePixelClicked() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let dir = try scratchFolder()
        let file = dir.file("zoomed.png")
        let config = home.path + "/.config/swiftpaint"
        try FileManager.default.createDirectory(atPath: config, withIntermediateDirectories: true)
        try Data("width = 1\n".utf8).write(to: URL(fileURLWithPath: config + "/settings.conf"))
        let paint = try PaintWindow(
            ServerConfig(depth: 24, shm: true), arguments: ["--size", "\(Self.size.w)x\(Self.size.h)", file],
            imageWidth: Self.size.w, imageHeight: Self.size.h, home: home.path)
        defer { paint.stop() }
        // Ctrl+= six times: 150, 200, 300, 400, 800 and 1600 %, each about the parked pointer.
        try paint.key("equal", modifiers: [.control], times: 6)
        var zoomed = paint.layout
        for zoom in [Zoom(3, 2), Zoom(2), Zoom(3), Zoom(4), Zoom(8), Zoom(16)] {
            zoomed = zoomed.zoomed(to: zoom, keepingWindowX: paint.parkedPointer.x, y: paint.parkedPointer.y)
        }
        #expect(zoomed.zoom == Zoom(16))
        /// The screen square of picture pixel (x, y).
        func cell(_ x: Int, _ y: Int) -> IntRect {
            zoomed.windowRect(forImageRect: IntRect(x: x, y: y, width: 1, height: 1))
        }
        let one = cell(10, 7)
        #expect(one.width == 16 && one.height == 16, "\(one)")
        // Shown at 1600 % once the pixel's square is the picture's white, 16 screen pixels wide.
        _ = try paint.client.waitForCapture(paint.window, rect: one, "the picture at 1600 %") { shot in
            shot.color(x: 0, y: 0) == .white && shot.color(x: 15, y: 15) == .white
        }
        // 1 px, the pointer near the pixel's lower right corner (its last screen pixel).
        try paint.client.click(paint.window, x: one.maxX - 1, y: one.maxY - 1)
        // 3 px (`]` twice from 1), the pointer at the upper left of pixel (4, 4).
        try paint.key("bracketright", times: 2)
        let three = cell(4, 4)
        try paint.client.click(paint.window, x: three.x, y: three.y)
        // The line tool, 3 px still: `[` twice back to 1, from pixel (14, 12) to (20, 12), the
        // pointer at the right edge of each.
        try paint.key("bracketleft", times: 2)
        try paint.key("l")
        let (from, to) = (cell(14, 12), cell(20, 12))
        try paint.client.drag(
            paint.window, path: stride(from: from.maxX - 1, through: to.maxX - 1, by: 4).map { ($0, from.y + 8) })
        let journal = try RecoveryTests.waitForJournal(home, operations: 3, "two clicks and a line")
        try paint.waitForModified(true)
        try paint.key("s", modifiers: [.control])
        try paint.waitForModified(false)

        let saved = try ImageFile.load(path: file)
        var painted: [String: UInt8] = [:]
        for y in 0..<saved.height {
            for x in 0..<saved.width where saved[x, y] != Color.white.pixel {
                painted["\(x),\(y)"] = Pixel.unpack(saved[x, y]).r
            }
        }
        // The 1 px dot: pixel (10, 7) black, nothing round it.
        #expect(painted["10,7"] == 0, "the pixel clicked: \(painted["10,7"].map(String.init) ?? "white")")
        // The 3 px dot round (4, 4): the pixel and its four neighbours black, the corners partly,
        // nothing further.
        for (x, y) in [(4, 4), (3, 4), (5, 4), (4, 3), (4, 5)] {
            #expect(painted["\(x),\(y)"] == 0, "(\(x), \(y)) of the 3 px dot: \(painted["\(x),\(y)"] ?? 255)")
        }
        for (x, y) in [(3, 3), (5, 3), (3, 5), (5, 5)] {
            #expect(painted["\(x),\(y)"] != nil, "(\(x), \(y)), a corner of the 3 px dot, left white")
        }
        // The line: row 12 from 14 to 20, black.
        for x in 14...20 { #expect(painted["\(x),12"] == 0, "(\(x), 12) of the line: \(painted["\(x),12"] ?? 255)") }
        let expected =
            Set(["10,7"] + (3...5).flatMap { x in (3...5).map { "\(x),\($0)" } } + (14...20).map { "\($0),12" })
        let stray = Set(painted.keys).subtracting(expected).sorted()
        #expect(stray.isEmpty, "pixels painted beside what was clicked: \(stray.map { "\($0)=\(painted[$0]!)" })")

        // The journal's points are the pixels' centres, and replayed they give the saved pixels.
        let operations = journal.contents.operations
        if case .stroke(_, let points, _) = operations.first {
            #expect(points == [Point(x: 10.5, y: 7.5)], "\(points)")
        } else {
            Issue.record("the journal's first step is no stroke: \(operations)")
        }
        let replayed = StrokeEngine(width: Self.size.w, height: Self.size.h)
        for operation in operations { operation.apply(to: replayed) }
        #expect(replayed.flattenedImage().pixels == saved.pixels, "the journal replayed differs from the file")
    }
}

import Foundation
import Glibc
import PaintCore
import PaintIO
import TestSupport
import Testing

/// A PNG followed by 200 MB of junk (a sparse tail) opens in the window, takes a stroke and is
/// saved with its history (Ctrl+S with --save-with-history) without the junk ever being held:
/// its crash journal copies the picture's bytes only, the save reads back only those, and the
/// saved file ends at its IEND. The program's peak memory is read from /proc while it runs.
@Suite(.serialized) struct PictureTailEndToEndTests {
    static let size = (w: 320, h: 200)

    /// The highest resident set of process `pid` so far, in MiB (`VmHWM`).
    static func peakMiB(of pid: pid_t) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kb = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        else { return nil }
        return Double(kb) / 1024
    }

    @Test func aPNGWithTwoHundredMegabytesOfJunkIsSavedWithItsHistoryWithoutHoldingIt() throws {
        let dir = try scratchFolder()
        let path = dir.file("tail.png")
        let picture = PixelImage(width: Self.size.w, height: Self.size.h, fill: Color(r: 30, g: 140, b: 220).pixel)
        let png = try PNGCodec.encode(picture, withAlpha: false)
        let tail = 200 << 20
        #expect(SparseFile.write([(0, png)], size: png.count + tail, to: path))
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let paint = try PaintWindow(
            ServerConfig.standard, arguments: ["--save-with-history", path], imageWidth: Self.size.w,
            imageHeight: Self.size.h, home: home.path)
        defer { paint.stop() }
        try paint.drag(image: line(from: (40, 60), to: (280, 60)))
        _ = try paint.waitForCapture(image: IntRect(x: 160, y: 60, width: 1, height: 1), "the stroke") {
            $0.image[0, 0] == Color.black.pixel
        }
        try paint.key("s", modifiers: [.control])
        #expect(
            paint.client.waitForTitle(paint.window, timeout: .seconds(300)) {
                $0 == "tail.png (with history) — SwiftPaint"
            } != nil, "saved: \(paint.title ?? "nil")\n\(paint.app.outputSummary)")
        let peak = Self.peakMiB(of: paint.app.pid) ?? .infinity
        // The window of a 320 x 200 picture in a debug build: 27 MiB; the junk alone is 200.
        #expect(peak < 100, "peak memory \(peak) MiB")

        // The saved file: the picture with the stroke and its history, nothing after its IEND.
        let saved = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        #expect(saved.count < 1 << 20, "the saved file has \(saved.count) bytes")
        let iend: [UInt8] = [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
        #expect(saved.suffix(12).elementsEqual(iend) && HistoryChunk.isPresent(in: saved))
        let shown = try ImageFile.load(path: path)
        #expect(shown[160, 60] == Color.black.pixel && shown[10, 10] == picture[10, 10])
    }
}

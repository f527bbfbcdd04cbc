import CX11
import Foundation
import PaintApp
import PaintCore
import PaintIO
import TestSupport
import Testing
import XDriver

/// Pointer input through XInput 2: the program takes the positions the server reports between
/// pixels. XTest's device moves in whole pixels, so the test gives it a coordinate
/// transformation matrix that halves every position (the server then keeps the half pixel, as
/// it does for a tablet whose resolution is finer than the screen's) and reads the stroke's
/// points back from the crash journal.
@Suite("Pointer end to end", .serialized)
struct PointerEndToEndTests {
    static var config: ServerConfig { .standard }
    static let size = (w: 400, h: 300)

    func start(home: TemporaryDirectory, environment: [String: String] = [:]) throws -> PaintWindow {
        try PaintWindow(
            Self.config, arguments: ["--size", "\(Self.size.w)x\(Self.size.h)"], imageWidth: Self.size.w,
            imageHeight: Self.size.h, home: home.path, environment: environment)
    }

    /// The stroke of the journal's single operation.
    func strokePoints(_ home: TemporaryDirectory) throws -> [Point] {
        let journal = try RecoveryTests.waitForJournal(home, operations: 1, "the stroke")
        guard case .stroke(_, let points, _) = journal.contents.operations.first else {
            throw HarnessError.xRequestFailed("the journal holds no stroke: \(journal.contents.operations)")
        }
        return points
    }

    @Test("XI2 motion from the XTest device arrives with sub-pixel positions, into the stroke")
    func subPixelMotion() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let paint = try start(home: home)
        defer { paint.stop() }
        let client = paint.client
        guard client.xinputVersion >= 202 else {
            // A server without XInput 2.2: the program must say it uses core events.
            #expect(paint.app.stderr.contains("pointer through core events"), "\(paint.app.outputSummary)")
            return
        }
        #expect(paint.app.stderr.contains("pointer through XInput 2.2"), "\(paint.app.outputSummary)")
        try client.scaleXTestPointer(by: 0.5)
        // A horizontal drag in half-pixel steps over image row 40, from x 20 to 60: XTest
        // positions are doubled so the halved ones land there.
        let start = client.toScreen(
            paint.window, x: paint.layout.imageOrigin.x + 20, y: paint.layout.imageOrigin.y + 40)
        #expect(2 * (start.x + 40) < client.screenSize.width && 2 * start.y < client.screenSize.height)
        client.moveMouse(toScreenX: 2 * start.x, y: 2 * start.y)
        client.press()
        for step in 1...80 { client.moveMouse(toScreenX: 2 * start.x + step, y: 2 * start.y) }
        client.release()
        let points = try strokePoints(home)
        #expect(points.count >= 60, "\(points.count) points")
        let fractions = Set(points.map { $0.x - $0.x.rounded(.down) })
        // Core positions are pixel centres (.5) only; halved XI2 ones fall on whole pixels too.
        #expect(fractions.contains(0) && fractions.contains(0.5), "x fractions \(fractions)")
        #expect(fractions.isSubset(of: [0, 0.5]), "x fractions \(fractions)")
        let xs = points.map(\.x)
        #expect(xs.max()! - xs.min()! >= 39 && xs.max()! - xs.min()! <= 41, "x from \(xs.min()!) to \(xs.max()!)")
    }

    @Test("with SWIFTPAINT_NO_XI2=1 core events draw, at pixel centres")
    func coreFallback() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-home")
        let paint = try start(home: home, environment: ["SWIFTPAINT_NO_XI2": "1"])
        defer { paint.stop() }
        #expect(paint.app.stderr.contains("pointer through core events"), "\(paint.app.outputSummary)")
        try paint.drag(image: line(from: (20, 40), to: (60, 40), step: 1))
        let points = try strokePoints(home)
        #expect(points.count == 41 && points.allSatisfy { $0.x - $0.x.rounded(.down) == 0.5 }, "\(points)")
        _ = try paint.waitForCapture(image: IntRect(x: 40, y: 40, width: 1, height: 1), "the stroke") {
            $0.color(x: 0, y: 0).brightest < 100
        }
    }
}

extension XClient {
    /// The server's XInput version as major × 100 + minor (0 without the extension).
    var xinputVersion: Int {
        var opcode: Int32 = 0
        var event: Int32 = 0
        var error: Int32 = 0
        guard XQueryExtension(display, "XInputExtension", &opcode, &event, &error) != 0 else { return 0 }
        var major: Int32 = 2
        var minor: Int32 = 2
        guard XIQueryVersion(display, &major, &minor) == Success else { return 0 }
        return Int(major) * 100 + Int(minor)
    }

    /// Scales every position the XTest pointer reports ("Coordinate Transformation Matrix"):
    /// by 0.5, a move to x lands at x / 2, with its half pixel.
    func scaleXTestPointer(by factor: Float) throws {
        var count: Int32 = 0
        guard let devices = XIQueryDevice(display, XIAllDevices, &count) else {
            throw HarnessError.xRequestFailed("XIQueryDevice")
        }
        defer { XIFreeDeviceInfo(devices) }
        let all = UnsafeBufferPointer(start: devices, count: Int(count))
        guard let xtest = all.first(where: { String(cString: $0.name) == "Virtual core XTEST pointer" }) else {
            throw HarnessError.xRequestFailed("no XTEST pointer among \(all.map { String(cString: $0.name) })")
        }
        // Format-32 items of XIChangeProperty are 32 bits (unlike XChangeProperty's longs).
        var matrix: [Float] = [factor, 0, 0, 0, factor, 0, 0, 0, 1]
        matrix.withUnsafeMutableBytes {
            XIChangeProperty(
                display, xtest.deviceid, atom("Coordinate Transformation Matrix"), atom("FLOAT"), 32, PropModeReplace,
                $0.baseAddress?.assumingMemoryBound(to: UInt8.self), 9)
        }
        XSync(display, 0)
    }
}

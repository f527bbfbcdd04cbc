import CX11
import Foundation
import Testing
import XConnect

@testable import PaintX11

/// The clipboard fetch against owners that misbehave: one that never stops sending, one that
/// never answers. Driven directly on a private Xvfb with small limits, so the limits are reached
/// in a megabyte and a second (the program uses the largest PNG it opens and 10 s).
@Suite(.serialized) struct ClipboardLimitsTests {
    /// Fetches the clipboard from an owner that behaves as `behaviour`; returns how it ended
    /// and how many chunks the owner sent.
    /// `watch` sees the clipboard after each event it handled.
    func fetch(
        from behaviour: IncrClipboardOwner.Behaviour, bytes: [UInt8], chunk: Int, limit: Int, patience: Double,
        announcing: Int? = nil, watch: (Clipboard) -> Void = { _ in }
    ) throws -> (Clipboard.Fetched, Int) {
        let server = try XvfbServer(width: 64, height: 64)
        defer { server.stop() }
        let connection = try #require(XConnection(server.displayName))
        // Closed before the server stops (and kept open until then: `display` is all that is used).
        defer { connection.close() }
        let display = connection.display
        let window = XCreateSimpleWindow(display, XDefaultRootWindow(display), 0, 0, 1, 1, 0, 0, 0)
        XSelectInput(display, window, PropertyChangeMask)
        let clipboard = Clipboard(display: display, window: window, fetchLimit: limit, patience: patience)
        let owner = try IncrClipboardOwner(
            displayName: server.displayName, png: bytes, chunk: chunk, behaviour: behaviour, announcing: announcing)
        var result = clipboard.fetch(time: Time(CurrentTime))
        XFlush(display)
        Wait.until(timeout: .seconds(120), poll: .milliseconds(1)) {
            owner.serve()
            while result == nil && XPending(display) > 0 {
                var event = XEvent()
                XNextEvent(display, &event)
                result = clipboard.handle(&event)
                watch(clipboard)
            }
            if result == nil { result = clipboard.expire() }
            XFlush(display)
            return result != nil
        }
        return (try #require(result), owner.chunksSent)
    }

    static func bytes(_ count: Int) -> [UInt8] {
        var state: UInt32 = 7
        return (0..<count).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
    }

    @Test("an owner that sends INCR chunks forever is cut off at the size limit, with a message")
    func endlessOwner() throws {
        let (fetched, chunks) = try fetch(
            from: .endless, bytes: Self.bytes(100_000), chunk: 16 << 10, limit: 1 << 20, patience: 30)
        guard case .nothing(let why) = fetched else {
            Issue.record("an endless transfer ended in a picture")
            return
        }
        #expect(why == "The clipboard's picture is larger than 1 MB; nothing was pasted")
        // It really took the transfer up to the limit: 64 chunks of 16 KiB fill 1 MiB.
        #expect(chunks >= 64)
    }

    @Test("an owner that never answers: the paste is abandoned after the patience runs out, with a message")
    func silentOwner() throws {
        let started = ContinuousClock.now
        let (fetched, chunks) = try fetch(from: .silent, bytes: Self.bytes(10), chunk: 16, limit: 1 << 20, patience: 1)
        guard case .nothing(let why) = fetched else {
            Issue.record("a silent owner produced a picture")
            return
        }
        #expect(why == "The program holding the clipboard stopped answering; the paste was abandoned after 1 s")
        #expect(chunks == 0)
        #expect(ContinuousClock.now - started >= .seconds(1))
    }

    @Test("a transfer of many small chunks arrives whole, byte for byte")
    func manySmallChunks() throws {
        let bytes = Self.bytes(900_000)
        let (fetched, chunks) = try fetch(from: .honest, bytes: bytes, chunk: 4096, limit: 1 << 20, patience: 30)
        guard case .picture(let received) = fetched else {
            Issue.record("the honest transfer did not arrive: \(fetched)")
            return
        }
        #expect(received == bytes)
        #expect(chunks == 900_000 / 4096 + 2)
    }

    @Test("an owner announcing 900 MB and sending 100 KB: no more than 16 MB is reserved, and the picture arrives")
    func overAnnouncingOwner() throws {
        let bytes = Self.bytes(100_000)
        var most = 0
        let (fetched, _) = try fetch(
            from: .honest, bytes: bytes, chunk: 16 << 10, limit: 1 << 30, patience: 30, announcing: 900 << 20,
            watch: { most = max(most, $0.incomingCapacity) })
        guard case .picture(let received) = fetched else {
            Issue.record("the transfer did not arrive: \(fetched)")
            return
        }
        #expect(received == bytes)
        // Before: the announcement's 900 MB reserved as soon as it came. (malloc rounds the
        // 16 MB up to its pages.)
        #expect(most > 0 && most < Clipboard.mostReserved + (1 << 16), "\(most) bytes reserved")
    }
}

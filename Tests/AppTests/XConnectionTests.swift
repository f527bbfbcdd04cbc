import CX11
import Foundation
import Synchronization
import Testing
import XConnect
import XDriver

/// What a thread of a test saw of its connection, read by the test's own thread.
private final class Seen: Sendable {
    let opened = Atomic<Bool>(false)
    let lostBeforeTheServerWent = Atomic<Bool>(false)
    let lost = Atomic<Bool>(false)
    let closed = Atomic<Bool>(false)
}

/// Connections to the X server (`XConnection`): a server that dies under one is reported by
/// its owner, never an `exit` from inside Xlib on whichever thread saw it.
@Suite struct XConnectionTests {
    /// Before, the owner's raw `XOpenDisplay` kept Xlib's default exit handler: the `XSync`
    /// after the server died called `exit(1)` on the owner's thread, ending the whole test
    /// process (libX11's destructor freed the lock other threads' connections were taking).
    @Test("a server that dies under a connection on another thread: its owner says so, the process goes on")
    func serverDiesUnderAnotherThread() throws {
        let dying = try XvfbServer(width: 64, height: 64)
        defer { dying.stop() }
        let staying = try XvfbServer(width: 64, height: 64)
        defer { staying.stop() }
        let client = try XClient(display: staying.displayName)
        let name = dying.displayName
        let seen = Seen()
        let ownerReady = DispatchSemaphore(value: 0)
        let serverGone = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            defer { finished.signal() }
            do {
                // Another program on the display, owning the CLIPBOARD, as the clipboard tests have.
                let owner = try SelectionConnection(displayName: name, selection: "CLIPBOARD")
                seen.opened.store(true, ordering: .releasing)
                seen.lostBeforeTheServerWent.store(owner.isLost, ordering: .releasing)
                ownerReady.signal()
                serverGone.wait()
                XSync(owner.display, 0)  // Xlib's IO error: marks the connection
                owner.drain { _ in }  // reads nothing more from a lost connection
                seen.lost.store(owner.isLost, ordering: .releasing)
            } catch {
                ownerReady.signal()
            }
            // The owner is gone here: its connection was closed without a request.
            seen.closed.store(true, ordering: .releasing)
        }.start()
        #expect(ownerReady.wait(timeout: .now() + 120) == .success)
        let opened = seen.opened.load(ordering: .acquiring)
        try #require(opened, "the owner could not open \(name)")
        let lostEarly = seen.lostBeforeTheServerWent.load(ordering: .acquiring)
        #expect(!lostEarly)
        dying.stop()
        serverGone.signal()
        #expect(finished.wait(timeout: .now() + 120) == .success)
        let lost = seen.lost.load(ordering: .acquiring)
        let closed = seen.closed.load(ordering: .acquiring)
        #expect(lost, "the owner did not see its server go")
        #expect(closed)
        // This process goes on, and so do its other connections.
        #expect(client.attributes(client.root) != nil, "a round trip on another server")
        #expect(!client.isConnectionLost)
    }

    /// libXau's `XauFileName` re-allocates a static buffer without a lock when XAUTHORITY is
    /// unset: every open waits for the one process-wide lock (`XOpening`), so no two run at once.
    @Test("an open waits while another holds the lock every open of the process takes")
    func opensTakeTurns() throws {
        let server = try XvfbServer(width: 64, height: 64)
        defer { server.stop() }
        let name = server.displayName
        let seen = Seen()
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        XOpening.serialised {
            Thread {
                started.signal()
                let connection = XConnection(name)
                seen.opened.store(connection != nil, ordering: .releasing)
                finished.signal()
            }.start()
            started.wait()
            // The thread waits for the lock: the open has not been made while it is held.
            #expect(Wait.until(timeout: .seconds(120)) { XOpening.waitingCount > 0 })
            let openedMeanwhile = seen.opened.load(ordering: .acquiring)
            #expect(!openedMeanwhile)
        }
        #expect(finished.wait(timeout: .now() + 120) == .success)
        let opened = seen.opened.load(ordering: .acquiring)
        #expect(opened, "the open never happened once the lock was let go")
    }
}

import CX11
import Foundation
import PaintCore
import TestSupport
import Testing
import XConnect
import XDriver

/// Proves the end-to-end harness on real X programs (xlogo, and the harness's own probe window)
/// before any SwiftPaint test relies on it. Each test starts its own Xvfb.
@Suite("End-to-end harness", .serialized)
struct HarnessTests {
    /// Asserts that a stopped server left no process (kill(pid, 0) fails with ESRCH) and no
    /// lock file behind.
    private func expectGone(_ server: XvfbServer) {
        let pid = server.pid
        let number = server.number
        server.stop()
        #expect(kill(pid, 0) == -1 && errno == ESRCH, "Xvfb \(pid) is still there")
        #expect(!server.isRunning)
        #expect(!XvfbServer.displayLooksTaken(number), "Xvfb :\(number) left its lock file or socket")
    }

    /// Runs xlogo on a server of the given kind and checks windows, pixels and the pointer.
    private func exerciseXlogo(depth: Int, shm: Bool) throws {
        let server = try XvfbServer(width: 800, height: 600, depth: depth, shm: shm)
        let client = try XClient(display: server.displayName)
        #expect(client.depth == depth)
        #expect(client.hasMITSHM == shm)
        #expect(client.screenSize == (800, 600))

        let app = try AppProcess(
            executable: "/usr/bin/xlogo", arguments: ["-geometry", "200x180+40+30"],
            display: server.displayName)
        let window = try client.waitForWindow(named: "xlogo")
        #expect(client.windowClass(window)?.className == "XLogo")
        #expect(client.windowTitle(window) == "xlogo")
        #expect(client.findWindow(pid: app.pid) == nil, "xlogo does not set _NET_WM_PID")
        // The Xt shell has a 1-pixel border: the inside starts at (41, 31).
        let frame = try #require(client.geometry(window))
        #expect(frame.width == 200 && frame.height == 180)
        #expect((40...41).contains(frame.x) && (30...31).contains(frame.y), "\(frame)")

        let masks = try client.channelMasks(window)
        #expect(masks == (depth == 16 ? .depth16 : .depth24))
        // xlogo draws on Expose, which may come after the map: poll the pixels.
        let shot = try client.waitForCapture(window, "black and white in the xlogo window") {
            $0.contains(.black) && $0.contains(.white)
        }
        #expect(shot.width == 200 && shot.height == 180)
        #expect(shot.count(of: .black) + shot.count(of: .white) > shot.width * shot.height / 2)
        let part = try client.capture(window, rect: IntRect(x: 10, y: 20, width: 30, height: 40))
        #expect(part.width == 30 && part.height == 40)
        #expect(part.color(x: 3, y: 4) == shot.color(x: 13, y: 24))

        client.moveMouse(toWindow: window, x: 17, y: 23)
        #expect(client.pointerPosition() == (frame.x + 17, frame.y + 23))
        client.moveMouse(toScreenX: 700, y: 500)
        #expect(client.pointerPosition() == (700, 500))

        #expect(app.isRunning, "\(app.outputSummary)")
        app.kill(SIGTERM)
        #expect(app.waitForExit() == 128 + SIGTERM, "xlogo ignored SIGTERM: signal mask leaked into the child")
        #expect(client.waitUntilGone(window))
        client.close()
        expectGone(server)
    }

    @Test("xlogo on depth 24 with MIT-SHM")
    func xlogoDepth24() throws {
        try exerciseXlogo(depth: 24, shm: true)
    }

    @Test("xlogo on depth 16 without MIT-SHM")
    func xlogoDepth16NoSHM() throws {
        try exerciseXlogo(depth: 16, shm: false)
    }

    @Test("pointer input arrives with coordinates, buttons and modifiers", arguments: [24, 16])
    func pointerInput(depth: Int) throws {
        let server = try XvfbServer(width: 640, height: 480, depth: depth)
        let sender = try XClient(display: server.displayName)
        let probe = try ProbeWindow(client: try XClient(display: server.displayName), x: 50, y: 60)
        #expect(sender.findWindow(pid: getpid()) == probe.window)
        probe.clear()

        let path = [(10, 10), (20, 15), (30, 25), (31, 25), (100, 120)]
        try sender.drag(probe.window, path: path, button: 3, modifiers: [.shift])
        #expect(probe.waitForEvents { $0.contains { $0.type == ButtonRelease } })
        let presses = probe.events(ofType: ButtonPress)
        let releases = probe.events(ofType: ButtonRelease)
        #expect(presses.count == 1 && releases.count == 1)
        #expect(presses.first?.xbutton.button == 3)
        #expect(presses.first.map { [$0.xbutton.x, $0.xbutton.y] } == [10, 10])
        #expect(presses.first.map { $0.xbutton.state & UInt32(ShiftMask) != 0 } == true)
        #expect(releases.first.map { [$0.xbutton.x, $0.xbutton.y] } == [100, 120])
        let motions = probe.events(ofType: MotionNotify).map { (Int($0.xmotion.x), Int($0.xmotion.y)) }
        // The pointer came from outside, so the move to the first point is a motion too.
        #expect(motions.elementsEqual(path, by: ==), "every motion delivered in order: \(motions)")

        probe.clear()
        try sender.click(probe.window, x: 5, y: 6, modifiers: [.control])
        #expect(probe.waitForEvents { $0.contains { $0.type == ButtonRelease } })
        let click = probe.events(ofType: ButtonPress).first
        #expect(click?.xbutton.button == 1)
        #expect(click.map { $0.xbutton.state & UInt32(ControlMask) != 0 } == true)
        client(sender, releasedEverything: probe)
        sender.close()
        expectGone(server)
    }

    /// After input with modifiers, no key or button is left pressed.
    private func client(_ sender: XClient, releasedEverything probe: ProbeWindow) {
        var keys = [CChar](repeating: 0, count: 32)
        XQueryKeymap(sender.display, &keys)
        #expect(keys.allSatisfy { $0 == 0 }, "a key is still held down")
    }

    @Test("keys and text arrive with the right keysyms and modifiers")
    func keyboardInput() throws {
        let server = try XvfbServer(width: 640, height: 480)
        let sender = try XClient(display: server.displayName)
        let probe = try ProbeWindow(client: try XClient(display: server.displayName))
        sender.moveMouse(toWindow: probe.window, x: 20, y: 20)
        probe.clear()

        let text = "Hello, World! [x] 0-9 ~"
        try sender.typeText(text)
        #expect(probe.waitForEvents { $0.filter { $0.type == KeyPress }.count >= text.count })
        #expect(probe.typedText == text)

        probe.clear()
        try sender.key("z", modifiers: [.control, .shift])
        try sender.key("Z", modifiers: [.control])
        try sender.key("bracketright")
        #expect(probe.waitForEvents { $0.filter { $0.type == KeyRelease }.count >= 7 })
        let zs = probe.keyPresses.filter { $0.keysym == KeySym(XK_z) }
        #expect(zs.count == 2)
        #expect(zs.allSatisfy { $0.state & UInt32(ControlMask | ShiftMask) == UInt32(ControlMask | ShiftMask) })
        #expect(probe.keyPresses.last.map { $0.keysym == KeySym(XK_bracketright) && $0.state == 0 } == true)
        client(sender, releasedEverything: probe)
        sender.close()
        expectGone(server)
    }

    /// A tap is a press and a release sent one after the other; on a loaded machine the test's
    /// thread may stall between the two for longer than the repeat delay, and a server that
    /// repeats keys then types the letter many times (the Hebrew text test timed out so). The
    /// test servers do not repeat, and a layout switched with setxkbmap keeps that.
    @Test("the test servers do not repeat a held key, on any layout")
    func noKeyAutoRepeat() throws {
        let server = try XvfbServer(width: 320, height: 240)
        let client = try XClient(display: server.displayName)
        #expect(!client.keyAutoRepeat, "the server repeats held keys")
        try client.setKeyboardLayout("il")
        #expect(!client.keyAutoRepeat, "the server repeats held keys after setxkbmap il")
        try client.setKeyboardLayout("us")
        #expect(!client.keyAutoRepeat, "the server repeats held keys after setxkbmap us")
        client.close()
        expectGone(server)
    }

    @Test("captures convert the visual's colors, titles and close requests work", arguments: [24, 16])
    func colorsTitlesAndClose(depth: Int) throws {
        let server = try XvfbServer(width: 640, height: 480, depth: depth, shm: depth == 24)
        let tester = try XClient(display: server.displayName)
        let orange = Color(r: 200, g: 100, b: 50)
        let probe = try ProbeWindow(
            client: try XClient(display: server.displayName), width: 120, height: 90,
            background: orange, title: "* drawing.png — SwiftPaint")
        #expect(tester.windowTitle(probe.window) == "* drawing.png — SwiftPaint")
        #expect(tester.waitForTitle(probe.window) { $0.hasSuffix("SwiftPaint") } != nil)

        let tolerance = depth == 16 ? 8 : 0
        let shot = try tester.waitForCapture(probe.window, "the probe's background") {
            $0.count(of: orange, tolerance: tolerance) == 120 * 90
        }
        #expect(
            shot.boundingBox { ScreenCapture.matches($0, orange, tolerance: tolerance) }
                == IntRect(x: 0, y: 0, width: 120, height: 90))
        let white = try tester.capture(tester.root, rect: IntRect(x: 0, y: 0, width: 4, height: 4))
        #expect(white.width == 4)

        probe.clear()
        tester.sendCloseRequest(probe.window)
        #expect(probe.waitForEvents { $0.contains { $0.type == ClientMessage } })
        let message = probe.events(ofType: ClientMessage).first?.xclient
        #expect(message?.message_type == tester.atom("WM_PROTOCOLS"))
        #expect(message.map { Atom($0.data.l.0) } == tester.atom("WM_DELETE_WINDOW"))
        tester.close()
        expectGone(server)
    }

    @Test("children get an empty signal mask, the environment, and captured output")
    func processLifecycle() throws {
        let home = try TemporaryDirectory()
        let app = try AppProcess(
            executable: "/bin/sh",
            arguments: [
                "-c",
                """
                grep -E '^Sig(Blk|Ign)' /proc/self/status; echo "D=$DISPLAY H=$HOME S=$XDG_STATE_HOME N=$SWIFTPAINT_NO_SHM"; \
                echo oops >&2; exit 3
                """,
            ],
            display: ":4242", environment: ["SWIFTPAINT_NO_SHM": "1"], home: home.path)
        #expect(app.waitForExit() == 3)
        #expect(app.exitStatus == .exited(3))
        #expect(app.stdout.contains("SigBlk:\t0000000000000000"), "\(app.stdout)")
        #expect(app.stdout.contains("SigIgn:\t0000000000000000"), "\(app.stdout)")
        #expect(app.stdout.contains("D=:4242 H=\(home.path) S=\(home.path)/.local/state N=1"), "\(app.stdout)")
        #expect(app.stderr == "oops\n")

        let sleeper = try AppProcess(executable: "/bin/sleep", arguments: ["600"], display: ":4242")
        #expect(sleeper.waitForExit(timeout: .milliseconds(50)) == nil)
        #expect(sleeper.isRunning)
        #expect(sleeper.kill(SIGTERM))
        #expect(sleeper.waitForExit() == 128 + SIGTERM)
        #expect(sleeper.exitStatus == .signaled(SIGTERM))
        #expect(!sleeper.kill(SIGTERM), "kill after exit reports false")
    }

    @Test("AppSession starts, finds the window and tears everything down")
    func appSessionWithXlogo() throws {
        let session = try AppSession(
            executable: "/usr/bin/xlogo", screenWidth: 640, screenHeight: 480,
            depth: 16, shm: false, match: .named("xlogo"))
        #expect(session.client.isViewable(session.window))
        let serverPID = session.server.pid
        let appPID = session.app.pid
        session.stop()
        #expect(kill(serverPID, 0) == -1 && kill(appPID, 0) == -1)

        let dead = try? AppSession(executable: "/bin/true", match: .pid, timeout: .seconds(30))
        #expect(dead == nil, "a program that exits without a window fails the session quickly")
    }

    /// A server keeps to the display numbers it is given (`XVFB_DISPLAYS` on a machine shared by
    /// several people, each given a few): started twice on a range of two, it takes one, then
    /// the other, and a third cannot start while both run.
    @Test("a server takes only the display numbers it is given")
    func serverKeepsToItsDisplays() throws {
        #expect(XvfbServer.displays(named: "195-199") == 195...199)
        #expect(XvfbServer.displays(named: " 7 ") == 7...7)
        for bad in [nil, "", "9-3", "a-b", "1-2-3", "-4", "5-"] {
            #expect(XvfbServer.displays(named: bad) == nil, "\(bad ?? "nil")")
        }
        // The top two of the numbers allowed here, which nothing else of the suite asks for.
        let allowed = XvfbServer.displaysAllowed
        let two = max(allowed.lowerBound, allowed.upperBound - 1)...allowed.upperBound
        try #require(two.count == 2 && !two.contains { XvfbServer.displayLooksTaken($0) }, "\(two) are in use")
        let first = try XvfbServer(width: 320, height: 240, displays: two)
        let second = try XvfbServer(width: 320, height: 240, displays: two)
        #expect(Set([first.number, second.number]) == Set(two))
        #expect(throws: (any Error).self) {
            try XvfbServer(width: 320, height: 240, startTimeout: .seconds(5), displays: two)
        }
        #expect(first.isRunning && second.isRunning)
    }

    @Test("a test client survives its server going away")
    func serverLoss() throws {
        let server = try XvfbServer(width: 320, height: 240)
        let client = try XClient(display: server.displayName)
        let probe = try ProbeWindow(client: try XClient(display: server.displayName))
        #expect(!client.isConnectionLost)
        server.stop()
        client.sync()  // Xlib's IO error: must mark the client, not exit the test process
        #expect(client.isConnectionLost)
        probe.client.sync()
        #expect(probe.client.isConnectionLost)
        client.close()
    }

    /// The client is whole when XTEST turns out to be missing, so the throw runs its `deinit`;
    /// the connection must be closed once (closing it in `init` and again in `deinit` freed
    /// the Display twice, a heap corruption that aborts the whole test process).
    @Test("a server without XTEST: the client says so and closes its connection once")
    func serverWithoutXTest() throws {
        let server = try XvfbServer(width: 64, height: 64, withoutExtensions: ["XTEST"])
        defer { server.stop() }
        for _ in 0..<3 {
            do {
                _ = try XClient(display: server.displayName)
                Issue.record("a client on a server without XTEST")
            } catch HarnessError.xRequestFailed(let why) {
                #expect(why == "the server has no XTEST extension")
            }
        }
        // The server still serves: the refused clients left nothing behind.
        let connection = try #require(XConnection(server.displayName))
        var opcode: Int32 = 0
        var event: Int32 = 0
        var error: Int32 = 0
        #expect(XQueryExtension(connection.display, "XTEST", &opcode, &event, &error) == 0)
    }

    @Test("the swiftpaint binary is found next to the tests")
    func locatesSwiftPaint() throws {
        let path = try SwiftPaintBinary.locate()
        #expect(path.hasSuffix("/swiftpaint"))
        #expect(FileManager.default.isExecutableFile(atPath: path))
    }

    @Test("visual masks scale 5/6-bit channels to 8 bits")
    func channelMasks() {
        #expect(ChannelMasks.depth16.rgb(0xF800) == (255, 0, 0))
        #expect(ChannelMasks.depth16.rgb(0x07E0) == (0, 255, 0))
        #expect(ChannelMasks.depth16.rgb(0xFFFF) == (255, 255, 255))
        #expect(ChannelMasks.depth16.rgb(0x0010) == (0, 0, 132))
        #expect(ChannelMasks.depth24.rgb(0x12_34_56) == (0x12, 0x34, 0x56))
        #expect(ChannelMasks.depth16.bits == (5, 6, 5))
    }
}

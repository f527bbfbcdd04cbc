import CX11
// Every file of the end-to-end tests drives X and makes temporary folders: the driver and the
// test support are imported once, here, for all of them.
@_exported import TestSupport
@_exported import XDriver

/// Everything one end-to-end test needs, torn down in the right order: a private `XvfbServer`,
/// the program under test (`AppProcess`, `swiftpaint` by default) on it, a test-side `XClient`,
/// and the program's main window, already viewable.
///
/// ```swift
/// let s = try AppSession(arguments: ["--size", "400x300"])
/// try s.client.drag(s.window, path: [(50, 50), (150, 80)])
/// _ = try s.client.waitForCapture(s.window) { $0.contains(.black) }
/// s.client.sendCloseRequest(s.window)
/// #expect(s.app.waitForExit() == 0)
/// ```
final class AppSession {
    /// How to recognise the program's window.
    enum WindowMatch {
        /// `_NET_WM_PID` equal to the program's pid (swiftpaint sets it).
        case pid
        /// WM_CLASS or title equal to the name (for programs that do not set `_NET_WM_PID`).
        case named(String)
    }

    /// The private X server.
    let server: XvfbServer
    /// The program under test.
    let app: AppProcess
    /// The test's connection to `server`.
    let client: XClient
    /// The program's main window (viewable when the initializer returned).
    let window: Window

    /// Starts a server, the program, and a client, and waits for the program's window.
    /// - Parameters:
    ///   - executable: the program; `SwiftPaintBinary.locate()` by default.
    ///   - shm: whether the server offers MIT-SHM (false starts Xvfb with `-extension MIT-SHM`);
    ///     by default the half the running test is in (`MITSHMChoice`).
    ///   - environment: extra variables for the program (e.g. `SWIFTPAINT_NO_SHM=1`).
    ///   - home: a `HOME` to reuse across sessions (crash-recovery tests); fresh by default.
    ///   - prepare: runs on the test's client before the program starts (e.g. to put an
    ///     `Xft.dpi` into the resource database, as a desktop does at login).
    /// - Throws: when any piece fails to start; the error includes the program's output.
    init(
        executable: String? = nil, arguments: [String] = [], screenWidth: Int = 1600,
        screenHeight: Int = 1200, depth: Int = 24, shm: Bool? = nil,
        environment: [String: String] = [:], home: String? = nil, match: WindowMatch = .pid,
        timeout: Duration = Wait.defaultTimeout, prepare: (XClient) -> Void = { _ in }
    ) throws {
        let executable = try executable ?? SwiftPaintBinary.locate()
        server = try XvfbServer(
            width: screenWidth, height: screenHeight, depth: depth, shm: shm ?? MITSHMChoice.offered())
        client = try XClient(display: server.displayName)
        prepare(client)
        app = try AppProcess(
            executable: executable, arguments: arguments, display: server.displayName,
            environment: environment, home: home)
        var found: Window?
        let client = client
        let app = app
        Wait.until(timeout: timeout, poll: .milliseconds(20)) {
            if !app.isRunning { return true }  // it died: stop waiting, report below
            let candidate: Window?
            switch match {
            case .pid: candidate = client.findWindow(pid: app.pid)
            case .named(let name): candidate = client.findWindow(named: name)
            }
            found = candidate.flatMap { client.isViewable($0) ? $0 : nil }
            return found != nil
        }
        guard let found, app.isRunning else {
            let summary = app.outputSummary
            client.close()
            app.killAndReap()
            server.stop()
            throw HarnessError.timedOut("the program's window (\(match))\n\(summary)")
        }
        window = found
    }

    deinit { stop() }

    /// Closes the client, kills the program if still running, and stops the server. Idempotent.
    func stop() {
        client.close()
        app.killAndReap()
        server.stop()
    }
}

/// The driver's exit status (Swift Testing has a type of the same name).
typealias ExitStatus = TestSupport.ExitStatus

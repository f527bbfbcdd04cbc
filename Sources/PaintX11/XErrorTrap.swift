import CX11
import Glibc

// Xlib calls its error handler with no context pointer, so the flag it sets must be a global.
// Only the X thread touches it (one thread owns every X call), hence nonisolated(unsafe).
nonisolated(unsafe) private var trappedErrorCode: UInt8 = 0

private func trapHandler(_ display: OpaquePointer?, _ event: UnsafeMutablePointer<XErrorEvent>?) -> Int32 {
    trappedErrorCode = event?.pointee.error_code ?? 1
    return 0
}

/// Runs X calls under a temporary error handler and reports whether the server refused any.
///
/// Used where an error is an answer rather than a bug: a trial XShmAttach on a server that
/// cannot reach our shared memory (remote X, containers), or writing a selection's answer to
/// another program's window, which may be gone (`Clipboard`).
enum XErrorTrap {
    /// Runs `body`, syncs so the server has answered, and returns the first error code or nil.
    static func run(_ display: OpaquePointer, _ body: () -> Void) -> UInt8? {
        XSync(display, 0)
        trappedErrorCode = 0
        let previous = XSetErrorHandler(trapHandler)
        body()
        XSync(display, 0)
        XSetErrorHandler(previous)
        return trappedErrorCode == 0 ? nil : trappedErrorCode
    }
}

// What to do when the X server goes away; set once by the app before the loop starts, read
// only on the X thread (Xlib calls the handler from inside the X call that failed).
nonisolated(unsafe) private var lostConnectionHook: (() -> Void)?

/// Called by Xlib when the connection to the server is lost. It must not call X again: it lets
/// the app finish the stroke in progress and make the journal durable, says so, and exits.
private func connectionLost(_ display: OpaquePointer?) -> Int32 {
    lostConnectionHook?()
    let message = "swiftpaint: lost the connection to the X server; unsaved work is kept for the next start\n"
    _ = message.withCString { write(2, $0, strlen($0)) }
    exit(1)
}

enum XConnectionGuard {
    /// Installs the handler for a lost X connection; `onLost` runs before the exit.
    static func install(onLost: (() -> Void)? = nil) {
        lostConnectionHook = onLost
        XSetIOErrorHandler(connectionLost)
    }
}

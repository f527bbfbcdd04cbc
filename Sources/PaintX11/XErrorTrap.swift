import CX11
import Glibc

// Xlib calls its error handler with no context pointer, so what it reads and writes are
// globals. The program makes every X call on one thread, but a process may hold several
// connections on several threads (the tests' in-process clients run in parallel): every
// access to the lists holds `trapLock`, never across an X call (the handler runs inside them).

/// Requests whose refusal is expected, by connection and serial (`first...last`), and the
/// window they were about (0: none in particular).
private struct Tolerated {
    let display: OpaquePointer
    let first: UInt
    let last: UInt
    let about: Window
}

/// A tolerated request the server refused.
private struct Refusal {
    let display: OpaquePointer
    let serial: UInt
    let code: UInt8
    let about: Window
}

nonisolated(unsafe) private var trapLock = pthread_mutex_t()
nonisolated(unsafe) private var tolerated: [Tolerated] = []
nonisolated(unsafe) private var refusals: [Refusal] = []
/// The handler ours replaced (Xlib's default, which prints the error and exits): every error of
/// a request not tolerated still goes there.
nonisolated(unsafe) private var previousHandler: XErrorHandler?
nonisolated(unsafe) private var handlerInstalled = false

private func trapHandler(_ display: OpaquePointer?, _ event: UnsafeMutablePointer<XErrorEvent>?) -> Int32 {
    guard let error = event?.pointee else { return 0 }
    // Xlib hands the error the whole serial of the request it answers (widened from the
    // protocol's 16 bits), the number `XNextRequest` gave that request.
    let kept = withTrapLock { () -> Bool in
        guard
            let range = tolerated.first(where: {
                $0.display == error.display && $0.first <= error.serial && error.serial <= $0.last
            })
        else { return false }
        refusals.append(
            Refusal(display: range.display, serial: error.serial, code: error.error_code, about: range.about))
        return true
    }
    return kept ? 0 : previousHandler?(display, event) ?? 0
}

/// Runs `body` holding `trapLock`.
private func withTrapLock<T>(_ body: () -> T) -> T {
    pthread_mutex_lock(&trapLock)
    defer { pthread_mutex_unlock(&trapLock) }
    return body()
}

/// X calls whose refusal by the server is an answer rather than a bug: a trial XShmAttach on a
/// server that cannot reach our shared memory (remote X, containers), or writing a selection's
/// answer or a drag's reply to another program's window, which may be gone (`Clipboard`,
/// `DropTarget`).
///
/// One error handler stays installed; it matches an error to the requests made under the trap
/// by their serial numbers, so nothing needs a round trip to the server before (errors of
/// earlier requests keep their serials and still reach Xlib's default handler) nor, for
/// `tolerate`, after: a refusal arrives later with the events and is kept for `takeRefusals`.
enum XErrorTrap {
    /// Runs `body`, whose requests the server may refuse; the refusals are kept, with `about`,
    /// for `takeRefusals`. No round trip: a request of `body` that waits for a reply
    /// (XGetWindowProperty) has its refusal handled before it returns, and says so itself.
    static func tolerate(_ display: OpaquePointer, about: Window = 0, _ body: () -> Void) {
        install()
        // Ranges the server has gone past cannot be answered any more (an answer to a later
        // request was read, and errors come in order).
        let processed = XLastKnownRequestProcessed(display)
        // Open-ended while `body` runs: a request that waits for its reply has its error
        // handled before `body` returns.
        let first = XNextRequest(display)
        withTrapLock {
            tolerated.removeAll { $0.display == display && $0.last < processed }
            tolerated.append(Tolerated(display: display, first: first, last: .max, about: about))
        }
        body()
        let next = XNextRequest(display)
        withTrapLock {
            // This call's own range (another thread's connection may have added one since).
            tolerated.removeAll { $0.display == display && $0.first == first && $0.last == .max }
            if next > first {
                tolerated.append(Tolerated(display: display, first: first, last: next - 1, about: about))
            }
        }
    }

    /// Runs `body`, syncs once so the server has answered it, and returns the first error code
    /// or nil: for a trial whose answer is needed now.
    static func run(_ display: OpaquePointer, _ body: () -> Void) -> UInt8? {
        let first = XNextRequest(display)
        tolerate(display, body)
        XSync(display, 0)
        return withTrapLock {
            let mine = refusals.filter { $0.display == display && $0.serial >= first }
            refusals.removeAll { $0.display == display && $0.serial >= first }
            return mine.first?.code
        }
    }

    /// The windows (the `about` of `tolerate`) whose requests were refused since the last call,
    /// each once: the programs that owned them are gone.
    static func takeRefusals() -> [Window] {
        withTrapLock {
            guard !refusals.isEmpty else { return [] }
            var windows: [Window] = []
            for refusal in refusals where refusal.about != 0 && !windows.contains(refusal.about) {
                windows.append(refusal.about)
            }
            refusals.removeAll()
            return windows
        }
    }

    private static func install() {
        // XSetErrorHandler only swaps a pointer in Xlib (no request): safe under the lock.
        withTrapLock {
            guard !handlerInstalled else { return }
            handlerInstalled = true
            previousHandler = XSetErrorHandler(trapHandler)
        }
    }
}

import CX11
import Synchronization

/// Set from inside Xlib when the server went away under one connection.
private final class Loss {
    let happened = Atomic<Bool>(false)
}

/// One connection to an X server whose loss is reported, never fatal: the program's window and
/// every connection the tests open (their clients, the other programs they play, the polls of
/// a starting server) come from here, each opened under `XOpening`'s lock.
///
/// Xlib's default answer to a lost server (libX11 1.8's `_XDefaultIOErrorExit`) is `exit(1)` on
/// the thread that saw it. That runs libX11's destructor, which frees the lock every other
/// connection takes (`XFreeThreads`), while other threads may still be inside Xlib: a heap
/// corruption in a process with several connections, and no chance for the owner to say what
/// happened. Here the connection's exit handler only marks it (`isLost`) and returns. Xlib then
/// refuses the connection's requests (its calls return at once, and `XPending` says 0); its
/// owner stops using it (nothing that waits for an event: `XNextEvent` with nothing queued
/// would wait forever) and closes it (`close`, which frees it without a request).
///
/// Not thread-safe: one thread uses a connection (`isLost` may be read from any).
public final class XConnection {
    /// The Xlib display.
    public let display: OpaquePointer
    private let loss = Loss()
    /// Whether `close` was called (nothing may use `display` after that).
    public private(set) var isClosed = false

    /// Opens `name` (nil: `$DISPLAY`); nil when no server accepts the connection.
    public init?(_ name: String?) {
        _ = XlibThreads.ready
        _ = Self.quietIOErrors
        guard let display = XOpening.serialised({ XOpenDisplay(name) }) else { return nil }
        self.display = display
        // `loss` lives as long as this object, which closes the display before it goes.
        XSetIOErrorExitHandler(
            display,
            { _, data in
                guard let data else { return }
                Unmanaged<Loss>.fromOpaque(data).takeUnretainedValue().happened.store(true, ordering: .releasing)
            }, Unmanaged.passUnretained(loss).toOpaque())
    }

    deinit { close() }

    /// Whether the server went away under this connection (Xlib's IO error).
    public var isLost: Bool { loss.happened.load(ordering: .acquiring) }

    /// Closes the connection (a lost one too: Xlib sends nothing on it then, it only frees it).
    /// Idempotent.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        XCloseDisplay(display)
    }

    /// Xlib's process-wide IO error handler, installed before the first connection: its default
    /// prints "XIO: fatal IO error" for a loss the connection's owner reports in its own words.
    /// It returns, and the connection's exit handler (above) marks the connection.
    private static let quietIOErrors: Void = { _ = XSetIOErrorHandler { _ in 0 } }()
}

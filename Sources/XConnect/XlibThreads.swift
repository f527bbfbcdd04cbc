import CX11

/// Makes Xlib safe for a process's many threads before its first connection (`XConnection`).
///
/// Swift Testing runs tests in parallel, each with its own `XClient` (and `XvfbServer` polls
/// with connections of its own), so several threads call Xlib at once. Xlib guards its
/// process-wide state (the display list, the quark and keysym tables, the error handlers) only
/// after `XInitThreads`, which must come before any other Xlib call. libX11 1.8 and later call
/// it from a constructor, unless built without that; older ones never do, and there two tests
/// opening their displays at once can corrupt the heap. Calling it again is harmless.
enum XlibThreads {
    /// Runs `XInitThreads` once, before any connection is opened.
    static let ready: Void = { _ = XInitThreads() }()
}

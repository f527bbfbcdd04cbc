import Glibc

/// The one way the program starts a thread of its own (it does not use Foundation): the thread
/// that opens a picture, the history rebuild, the reclaimer, the crash journal's writer, the
/// thumbnail loader and fontconfig's start-up.
public enum BackgroundThread {
    /// What the thread runs, kept alive by the thread until it has run.
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Runs `body` on a new joinable thread and returns the thread. Returns nil, with `errno`
    /// set to the system's reason, when no thread can be made: then `body` has not run and is
    /// released, and the caller does the work itself or goes without.
    public static func start(_ body: @escaping () -> Void) -> pthread_t? {
        var thread = pthread_t()
        let context = Unmanaged.passRetained(Body(body)).toOpaque()
        let rc = pthread_create(
            &thread, nil,
            { raw in
                guard let raw else { return nil }
                Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
                return nil
            }, context)
        guard rc == 0 else {
            Unmanaged<Body>.fromOpaque(context).release()
            errno = rc
            return nil
        }
        return thread
    }
}

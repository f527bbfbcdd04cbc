import Glibc

// The write end of the self-pipe; a signal handler can only do async-signal-safe things, so it
// writes one byte and the event loop, which polls the read end, does the rest.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

private func onTerminationSignal(_ signal: Int32) {
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(signalPipeWriteEnd, &byte, 1)
}

/// SIGTERM, SIGHUP (logout) and SIGINT turned into a readable file descriptor for the loop.
enum TerminationSignals {
    /// Installs the handlers; returns the descriptor to poll, or -1 when no pipe could be made.
    static func install() -> Int32 {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return -1 }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        signalPipeWriteEnd = fds[1]
        for signal in [SIGTERM, SIGHUP, SIGINT] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = onTerminationSignal
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signal, &action, nil)
        }
        return fds[0]
    }

    /// Drains the pipe; true when a signal had arrived.
    static func drain(_ fd: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        var received = false
        while read(fd, &buffer, buffer.count) > 0 { received = true }
        return received
    }
}

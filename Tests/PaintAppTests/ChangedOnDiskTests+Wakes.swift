import Foundation
import Glibc
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

// MARK: - Waiting for the file's bytes wakes the window only when they are read

/// A save or closing that waits for the file's bytes, read on a thread of their own, sleeps
/// until the read wakes the window (a descriptor it polls with the X connection), and until
/// the dialog or question it also waits for is closed: no look every 50 ms meanwhile.
extension ChangedOnDiskTests {
    /// The window's loop (`X11App.run`) while nothing is typed, on a clock of its own: each
    /// turn looks (at the file every `fileInterval`), then takes work done off the window's
    /// thread if a descriptor the session gives is readable, else sleeps until the look's
    /// deadline. Returns how many times that deadline woke it in `seconds` (counting stops
    /// at 1,000 turns: a descriptor that stayed readable would spin the loop).
    static func deadlineWakes(_ s: Session, for seconds: Double) -> Int {
        var clock = 0.0
        var nextLook = 0.0
        var wakes = 0
        for _ in 0..<1000 {
            let look = clock >= nextLook
            if look { nextLook = clock + Session.fileInterval }
            let due = s.watch(lookingAtFile: look).map { clock + $0 } ?? .infinity
            var fds = s.backgroundDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if poll(&fds, nfds_t(fds.count), 0) > 0 {
                s.takeBackgroundWork()
                continue
            }
            guard due < seconds else { return wakes }
            clock = due
            wakes += 1
        }
        return wakes
    }

    /// Whether the end of the session's read of its file wakes the window, as poll does in
    /// its loop (a 10 s bound, never reached when it does); the turn it wakes for follows.
    static func wokenByTheRead(_ s: Session) -> Bool {
        guard let fd = s.diskCheck?.wakeFD else { return false }
        var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&ready, 1, 10_000) == 1 else { return false }
        s.takeBackgroundWork()
        s.watch(lookingAtFile: false)
        return true
    }

    /// `heldWindow` after a same-size rewrite of its file, Ctrl+S pressed: the save waits for
    /// the held read.
    static func savingAfterARewrite(_ dir: String) throws -> (Session, HeldReader, String) {
        let (a, reader, file) = try heldWindow(dir)
        try rewriteSameSize(file)
        T.key(a, "s", .control)
        return (a, reader, file)
    }

    @Test func ctrlSWaitingForTheBytesSleepsUntilTheReadWakesTheWindow() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (a, reader, file) = try Self.savingAfterARewrite(dir)
        defer { reader.release() }
        // 10 s with the read held: the window wakes for its look at the file (every 2 s) only.
        let wakes = Self.deadlineWakes(a, for: 10)
        #expect(wakes <= 4, "the window woke \(wakes) times in 10 s while the read was held")
        #expect(a.mode == .normal && a.awaitingDisk != nil)
        reader.release()
        #expect(Self.wokenByTheRead(a), "the read's end did not wake the window")
        #expect(a.mode == .confirmOverwrite(file, then: nil), "\(a.mode)")
    }

    @Test func ctrlSWaitingForTheBytesAndADialogSleepsUntilTheDialogCloses() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (a, reader, file) = try Self.savingAfterARewrite(dir)
        defer { reader.release() }
        // The Open dialog is opened meanwhile, then the bytes are read: the save waits for the
        // dialog, asleep; the read's wake-up is taken once, not polled again and again.
        T.key(a, "o", .control)
        try #require(a.fileDialog != nil)
        reader.release()
        #expect(Self.wokenByTheRead(a), "the read's end did not wake the window")
        let wakes = Self.deadlineWakes(a, for: 10)
        #expect(wakes <= 4, "the window woke \(wakes) times in 10 s while the dialog was open")
        #expect(a.mode == .normal && a.awaitingDisk != nil && a.changedOnDisk)
        // Closing the dialog is input: the turn it comes in asks the question.
        a.handle(.key(.escape, modifiers: []))
        a.watch(lookingAtFile: false)
        #expect(a.fileDialog == nil && a.mode == .confirmOverwrite(file, then: nil), "\(a.mode)")
        #expect(reader.readers.count == 1)
    }
}

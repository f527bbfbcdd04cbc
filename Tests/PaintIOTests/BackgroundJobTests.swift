import Glibc
import PaintCore
import Synchronization
import Testing

@testable import PaintIO

/// The one pattern every piece of work off the window's thread follows (`BackgroundJob`): the
/// value is handed over once, on the owner's thread; the descriptor the window polls becomes
/// readable when the work is done and is nil once that was seen; without a thread the work is
/// done on the caller's; a job dropped unfinished is told to stop and ends on its own, or is
/// waited for.
@Suite struct BackgroundJobTests {
    /// A gate the work waits at (on its pipe, not a sleep) until the test opens it.
    final class Gate: Sendable {
        let pipe = DonePipe()
        func open() { pipe?.signal() }
        /// Waits until the gate is opened (at most a minute); whether it was.
        func wait() -> Bool {
            guard let pipe else { return false }
            var p = pollfd(fd: pipe.readEnd, events: Int16(POLLIN), revents: 0)
            return poll(&p, 1, 60_000) == 1
        }
    }

    /// Whether `fd` is readable within `milliseconds`.
    static func readable(_ fd: Int32?, within milliseconds: Int32) -> Bool {
        guard let fd else { return false }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, milliseconds) == 1
    }

    /// Waits for `condition` (a minute at most, looking every millisecond).
    static func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<60_000 {
            if condition() { return true }
            usleep(1000)
        }
        return condition()
    }

    @Test func theDescriptorBecomesReadableWhenTheWorkIsDoneAndTheValueIsHandedOverOnce() throws {
        let gate = Gate()
        let ranOn = Atomic<UInt>(0)
        let job = BackgroundJob(wake: .pipe) { () -> Int in
            ranOn.store(pthread_self(), ordering: .relaxed)
            return gate.wait() ? 42 : -1
        }
        #expect(job.runsInBackground && job.wakes)
        let fd = try #require(job.descriptor, "a started job with a pipe has a descriptor")
        #expect(!Self.readable(fd, within: 0) && !job.checkFinished() && !job.isDone, "not done while it waits")
        gate.open()
        #expect(Self.readable(fd, within: 60_000), "done: the descriptor is readable")
        #expect(job.checkFinished() && job.isFinished && job.isDone)
        #expect(job.descriptor == nil, "seen done: nothing more to poll")
        let worker = ranOn.load(ordering: .relaxed)
        #expect(worker != pthread_self(), "the work ran on a thread of its own")
        #expect(job.finish() == 42)
        #expect(job.finish() == nil, "handed over once")
    }

    @Test func withoutAThreadTheWorkIsDoneHereAndSeenDone() throws {
        let ranOn = Atomic<UInt>(0)
        let here: () -> String = {
            ranOn.store(pthread_self(), ordering: .relaxed)
            return "here"
        }
        let job = BackgroundJob(wake: .pipe, startThread: { _ in nil }, here)
        let worker = ranOn.load(ordering: .relaxed)
        #expect(worker == pthread_self(), "done on the caller's thread, before init returned")
        #expect(!job.runsInBackground && job.isDone)
        // Its pipe was signalled: a window polling it wakes and takes it as any other.
        #expect(Self.readable(job.descriptor, within: 0))
        #expect(job.checkFinished() && job.descriptor == nil)
        #expect(job.finish() == "here" && job.finish() == nil)
        // Not in the background at all: the same, without a pipe.
        let local = BackgroundJob(wake: .pipe, inBackground: false) { 7 }
        #expect(!local.wakes && local.descriptor == nil && local.checkFinished() && local.finish() == 7)
        // Needing a pipe, made without a thread: still done here.
        let piped = try #require(BackgroundJob.withPipe(startThread: { _ in nil }, { 8 }))
        #expect(piped.checkFinished() && piped.finish() == 8)
    }

    @Test func aJobStartedLaterHasNoDescriptorUntilItStarts() throws {
        let job = try #require(BackgroundJob.withPipe(startNow: false) { 3 })
        #expect(job.descriptor == nil && !job.isDone && !job.checkFinished(), "not started: nothing to poll")
        job.start()
        #expect(Self.readable(job.descriptor, within: 60_000))
        job.start()  // once
        #expect(job.checkFinished() && job.finish() == 3)
        // `finish` starts one never started.
        let unstarted = try #require(BackgroundJob.withPipe(startNow: false) { 4 })
        #expect(unstarted.finish() == 4)
    }

    @Test func aJobWithoutAPipeIsWaitedForWithFinish() {
        let gate = Gate()
        let job = BackgroundJob(wake: .none) { gate.wait() }
        #expect(job.descriptor == nil && !job.wakes && job.runsInBackground)
        gate.open()
        #expect(job.finish() == true)
        #expect(Self.eventually { job.isDone })
    }

    @Test func cancelTellsTheWorkToStopThroughItsControl() {
        let control = ReplayControl()
        let job = BackgroundJob(wake: .pipe, control: control) { () -> Bool in
            // Runs until told to stop (a decode looks at each row).
            while !control.isStopped { sched_yield() }
            return true
        }
        job.cancel()
        #expect(job.finish() == true && control.hasEnded, "stopped, and the thread noted its end")
    }

    @Test func aJobDroppedUnfinishedIsToldToStopAndEndsOnItsOwn() {
        let control = ReplayControl()
        let stopped = Atomic<Bool>(false)
        var job: BackgroundJob<Int>? = BackgroundJob(wake: .pipe, control: control) { () -> Int in
            while !control.isStopped { sched_yield() }
            stopped.store(true, ordering: .releasing)
            return 0
        }
        #expect(job?.runsInBackground == true)
        job = nil
        #expect(Self.eventually { control.hasEnded && stopped.load(ordering: .acquiring) })
    }

    @Test func aJobThatIsWaitedForWhenDroppedHasFinishedOnceItIsGone() {
        let gate = Gate()
        let finished = Atomic<Bool>(false)
        var job: BackgroundJob<Void>? = BackgroundJob(wake: .pipe, dropped: .waitedFor) {
            _ = gate.wait()
            finished.store(true, ordering: .releasing)
        }
        #expect(job?.runsInBackground == true)
        gate.open()
        job = nil
        let done = finished.load(ordering: .acquiring)
        #expect(done, "dropping it waited for the work (a save: the file is whole)")
    }

    @Test func aJobThatLooksInsteadOfWakingStillRunsOnAThread() {
        let gate = Gate()
        let job = BackgroundJob(wake: .pipeOrLooking) { gate.wait() }
        #expect(job.runsInBackground && !job.isDone)
        gate.open()
        #expect(Self.eventually { job.isDone }, "the owner looks at isDone")
        #expect(job.checkFinished() && job.finish() == true)
    }
}

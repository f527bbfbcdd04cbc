import Glibc
import PaintCore

/// The write-ahead journal of one open document: every committed operation is appended to a
/// file under the journal folder and made durable by a background thread, so that a crash, a
/// kill -9 or the loss of the X server never costs more than the stroke in progress.
///
/// `append` only enqueues (the event thread never waits on the disk); a background pthread
/// makes the file, then writes the queued records with one `pwrite`, and a second one
/// `fdatasync`s what is written (`Core`), so a slow sync never holds back the next write. The
/// file is held under
/// `flock(LOCK_EX)` for the writer's whole life, so a journal whose lock can be taken belongs to
/// a program that is gone (see `JournalReader.orphans`).
///
/// Disk errors never crash or stop the program: they are kept in `lastError`, the records that
/// could not be written stay queued and are retried with the next append or `flush`.
///
/// Dropping the last reference without `discard()` writes what is queued, stops the threads and
/// closes the file, leaving the journal on disk to be found as an orphan.
public final class JournalWriter: @unchecked Sendable {
    private let core: Core
    private var writing: pthread_t
    private var syncing: pthread_t
    /// Whether both threads were joined (once only: a joined thread's handle is gone).
    private var joined = false

    private init(core: Core) throws(JournalError) {
        self.core = core
        guard let writing = BackgroundThread.start({ core.write() }) else {
            let e = errno
            core.closeFile(unlinking: true)
            throw .cannotOpen(path: core.path, errno: e)
        }
        guard let syncing = BackgroundThread.start({ core.sync() }) else {
            let e = errno
            _ = core.stop(mode: .drop)
            pthread_join(writing, nil)
            core.closeFile(unlinking: true)
            throw .cannotOpen(path: core.path, errno: e)
        }
        self.writing = writing
        self.syncing = syncing
    }

    deinit {
        // Not discarded: keep the work. Write what is queued, then stop; the file stays.
        stopThreads(mode: .drain)
        core.closeFile(unlinking: false)
    }

    /// Stops both threads and waits for them. They are joined even when they had already
    /// ended by themselves (a journal that could not be made): a thread never joined keeps its
    /// stack mapped for the life of the program, 2 stacks for every journal that failed.
    private func stopThreads(mode: Core.StopMode) {
        _ = core.stop(mode: mode)
        guard !joined else { return }
        joined = true
        pthread_join(writing, nil)
        pthread_join(syncing, nil)
    }

    // MARK: Creating

    /// Starts a new journal for a document in `folder` (created with mode 0700 if missing),
    /// made on the writer's own thread: this returns at once, and changes can be appended from
    /// the start. They go into the file as soon as it is made (with its header and starting
    /// picture), in the same order, so a crash while a slow disk syncs it loses none of them;
    /// `making` says when it is made and synced, or why it could not be made (then nothing is
    /// left on disk, and what was appended is not kept).
    ///
    /// The file is named `doc-<16 hex digits of the FNV-1a hash of the document path>-<pid>.spj`,
    /// or `untitled-<pid>-<created time>.spj`, with `-2`, `-3`, ... added if that name is taken.
    /// It is locked for the writer's whole life.
    ///
    /// `sizeLimit` is the most the file may grow to (by default the most a reader reads back,
    /// 2 GiB; smaller only in tests).
    ///
    /// With `baseFile` (and no `header.baseImage`), the header's base image is the picture file
    /// a document was decoded from, copied from that file into the journal through a small
    /// buffer and CRC-checked as it is copied: when the file no longer holds the bytes decoded
    /// (written over since), nothing is left behind and making fails with `.baseChanged`, so
    /// no journal ever starts from another picture than the one shown. Until the copy is done
    /// (and synced), the file at the journal's name is an interim journal whose header names
    /// the picture file (`JournalBaseReference`) and which takes the changes from the first,
    /// so a crash during a long copy loses none of them (`Core.copyBase`).
    ///
    /// `initial` records (a reopened picture's history) are written with the header: the file
    /// becomes a journal (its signature, written last) only once it holds them all, so a crash
    /// while a journal starts over from a rebuilt history never leaves a newer journal holding
    /// part of it beside the whole one it replaces.
    ///
    /// A change longer than `recordLimit` bytes (by default, and at most, the 512 MiB a reader
    /// takes in one record) is written in parts the reader joins (`JournalParts`).
    public static func start(
        in folder: String, header: JournalHeader, baseFile: PictureFile? = nil, initial: [JournalRecord] = [],
        sizeLimit: Int? = nil, recordLimit: Int? = nil
    ) throws(JournalError) -> JournalWriter {
        let plan = try plan(
            in: folder, header: header, baseFile: baseFile, initial: initial, sizeLimit: sizeLimit,
            recordLimit: recordLimit)
        let core = Core(fd: -1, path: "", folder: folder, header: header, fileEnd: 0, recordCount: initial.count)
        core.sizeLimit = plan.sizeLimit
        core.recordLimit = recordLimit ?? JournalFormat.maxRecordBytes
        core.plan = plan
        return try JournalWriter(core: core)
    }

    /// `start`, then waits until the journal is made and synced; throws why it could not be.
    public static func create(
        in folder: String, header: JournalHeader, baseFile: PictureFile? = nil, initial: [JournalRecord] = [],
        sizeLimit: Int? = nil, recordLimit: Int? = nil
    ) throws(JournalError) -> JournalWriter {
        let writer = try start(
            in: folder, header: header, baseFile: baseFile, initial: initial, sizeLimit: sizeLimit,
            recordLimit: recordLimit)
        writer.flush()
        if case .failed(let error) = writer.making {
            writer.discard()
            throw error
        }
        return writer
    }

    /// Takes over the journal at `path` left by a program that is gone: locks it (failing with
    /// `inUse` when its owner is still running), cuts off a torn last record, and continues
    /// appending after the last complete one.
    ///
    /// Adopt before reading the contents to restore, so that no other instance can take the
    /// same journal in between.
    public static func adopt(path: String) throws(JournalError) -> JournalWriter {
        var fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .cannotOpen(path: path, errno: errno) }
        var ok = false
        defer { if !ok { _ = close(fd) } }
        // An orphan scan in another instance may hold the lock for a moment; a live owner holds
        // it for good.
        let e = JournalFormat.lockPastScans(fd)
        if e == EWOULDBLOCK { throw .inUse(path: path) }
        guard e == 0 else { throw .cannotOpen(path: path, errno: e) }
        // Locked by its path: make sure the path still names this file (another window may
        // have deleted it after answering Discard), so no one ever writes to a deleted journal.
        guard JournalFormat.sameFile(fd, path) else { throw .cannotOpen(path: path, errno: ENOENT) }
        var parsed = try JournalParser.parse(fd: fd, path: path, collect: false)
        // Over its budget it could not be restored, and appending to it would only make it worse.
        if let refusal = parsed.refusal { throw .damagedHeader(path: path, reason: refusal) }
        // An interim journal (a crash came while the opened picture was copied into it) becomes
        // a whole one, the picture read from its file, before anything is appended: the file
        // may be saved over next.
        if let reference = parsed.header.baseReference {
            let whole = try completeInterim(fd: fd, path: path, parsed: parsed, base: try reference.read())
            _ = close(fd)
            fd = whole
            parsed = try JournalParser.parse(fd: fd, path: path, collect: false)
        }
        let folder = path.lastIndex(of: "/").map { i in i == path.startIndex ? "/" : String(path[..<i]) } ?? "."
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .cannotRead(path: path, errno: errno) }
        if Int(info.st_size) != parsed.validEnd {
            guard ftruncate(fd, off_t(parsed.validEnd)) == 0 else { throw .cannotWrite(path: path, errno: errno) }
            let e = JournalFormat.dataSync(fd)
            guard e == 0 else { throw .cannotWrite(path: path, errno: e) }
        }
        // Back to blocking mode for the writes.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        let core = Core(
            fd: fd, path: path, folder: folder, header: parsed.header, fileEnd: parsed.validEnd,
            recordCount: parsed.operationCount, version: parsed.version)
        core.making = .done
        ok = true
        return try JournalWriter(core: core)
    }

    // MARK: Using

    /// The journal file's path ("" until `start` has made it).
    public var path: String { core.locked { core.path } }

    /// Whether the file is made and synced with its header and starting picture, still being
    /// made, or could not be made (and why).
    public var making: JournalMaking { core.locked { core.making } }

    /// The header of the current journal file (without its base image once
    /// `releaseBaseImage` has let it go: `readBaseImage` reads it back).
    public var header: JournalHeader { core.locked { core.header } }

    /// The base image this writer wrote into the file's header, read back from the file (or
    /// the header's own bytes while it keeps them) and checked against the header record's
    /// CRC; nil when it cannot be read, does not check out, or the journal is closed.
    public func readBaseImage() -> [UInt8]? { readBaseImage(reading: JournalFormat.read) }

    /// `readBaseImage`, the file read through `read` (descriptor, offset, count; tests give a
    /// slow one). The lock is held only to learn where the bytes are and to take a descriptor
    /// of their own, not across the reads (megabytes): a change finished meanwhile is appended
    /// at once. The journal's file only grows past its header, and the descriptor keeps the
    /// file read open whatever the writer does with its own (the whole journal renamed over the
    /// interim one, the journal closed or discarded); no descriptor to spare reads nothing.
    func readBaseImage(reading read: (Int32, Int, Int) -> [UInt8]?) -> [UInt8]? {
        let source = core.locked { () -> (image: [UInt8]?, fd: Int32, stored: BaseInFile?) in
            if let image = core.header.baseImage { return (image, -1, nil) }
            guard let stored = core.baseInFile, !core.closed else { return (nil, -1, nil) }
            return (nil, fcntl(core.fd, F_DUPFD_CLOEXEC, 0), stored)
        }
        if let image = source.image { return image }
        guard let stored = source.stored, source.fd >= 0 else { return nil }
        defer { _ = close(source.fd) }
        guard let fields = read(source.fd, stored.fieldsAt, stored.fieldsCount),
            let image = read(source.fd, stored.fieldsAt + stored.fieldsCount, stored.count),
            JournalFormat.recordCRC(sequence: 0, payload: [fields, image]) == stored.crc
        else { return nil }
        return image
    }

    /// Lets go of the header's base image, which the file holds once made (`making` is
    /// `.done`; before, this does nothing and returns false): a
    /// document keeps its starting picture's bytes (a whole picture file: megabytes) in its
    /// journal instead of in memory, and `readBaseImage` reads them back when a save needs them.
    /// Returns whether they were let go (not for an adopted journal, whose bytes stay).
    @discardableResult
    public func releaseBaseImage() -> Bool {
        core.locked {
            guard core.baseInFile != nil, case .done = core.making, !core.closed else { return false }
            core.header.baseImage = nil
            return true
        }
    }

    /// Operations in the current journal file: those already on disk plus those appended since.
    public var recordCount: Int { core.locked { core.recordCount } }

    /// Operations appended but not yet durable (queued, being written, or waiting for a retry
    /// after a disk error).
    public var pendingCount: Int { core.locked { core.appended - core.durableThrough } }

    /// The most recent disk error, or nil when none happened. It is not cleared by later
    /// successes; compare `pendingCount` to see whether the journal has caught up.
    public var lastError: JournalError? { core.locked { core.lastError } }

    /// Why changes wait for the disk, while they do: the error of the last write or sync when
    /// it failed and changes still wait for a retry (a full disk, the size limit); nil once the
    /// journal has caught up. The threads retry every 2 s by themselves. A journal that could
    /// not be made says why here for good.
    public var failure: JournalError? { standing.failure }

    /// Changes appended and not yet durable, or a write that failed: whether to look again soon.
    public var isBehind: Bool { standing.isBehind }

    /// `failure` and `isBehind` read together, under one lock: the window looks at both on
    /// every turn of its loop.
    public var standing: (failure: JournalError?, isBehind: Bool) {
        core.locked {
            if case .failed(let error) = core.making { return (error, true) }
            let behind = core.isBehind
            return ((core.writeFailed || core.syncFailed) && behind ? core.lastError : nil, behind)
        }
    }

    /// Queues `operation` to be written and made durable; returns at once. The writer's thread
    /// encodes it: the caller (the event loop, on a release) only hands over the value.
    public func append(_ operation: Operation) { append(.operation(operation)) }

    /// Queues a record (a change, or the mark of a save) for the disk; returns at once.
    public func append(_ record: JournalRecord) {
        let now = JournalFormat.monotonic()
        core.locked {
            guard !core.closed else { return }
            core.appended += 1
            core.recordCount += 1
            core.queue.append(
                Pending(
                    record: record, appendedAt: now, sequence: core.appended, recordNumber: core.recordCount))
            pthread_cond_broadcast(core.condition)
        }
    }

    /// Blocks until the file is made and every operation appended so far is durable, or until
    /// a write or sync that included all of them has failed (then `lastError` says why), or the
    /// file could not be made, or until `timeout` seconds have passed. Returns whether
    /// everything is durable.
    ///
    /// The writer's lock is never held across disk I/O, so this cannot wait on a lock forever;
    /// it only waits for the disk itself, and `timeout` bounds even that.
    @discardableResult
    public func flush(timeout: Double? = nil) -> Bool {
        core.locked {
            let target = core.appended
            if core.makingFailed { return false }
            if core.durableThrough >= target && !core.isMaking { return true }
            let startFailures = core.failures
            core.retryRequested = true
            core.syncRetry = true
            pthread_cond_broadcast(core.condition)
            let deadline = timeout.map { JournalFormat.monotonic() + $0 }
            while core.durableThrough < target || core.isMaking {
                // A failure that covered them, once what was written whole is synced (or that
                // failed too): `pendingCount` then counts only the records that wait.
                let syncing = core.writtenThrough > core.durableThrough && !core.syncFailed
                if core.failures > startFailures, core.failedThrough >= target, !syncing { return false }
                if core.makingFailed || !core.syncing { return false }
                if let deadline {
                    let left = deadline - JournalFormat.monotonic()
                    if left <= 0 { return false }
                    var ts = timespec()
                    clock_gettime(CLOCK_MONOTONIC, &ts)
                    let end = Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9 + left
                    ts.tv_sec = time_t(end)
                    ts.tv_nsec = Int((end - Double(ts.tv_sec)) * 1e9)
                    _ = pthread_cond_timedwait(core.condition, core.mutex, &ts)
                } else {
                    pthread_cond_wait(core.condition, core.mutex)
                }
            }
            return true
        }
    }

    /// The time from `append` to durable, in seconds, of the most recent records (up to 4096),
    /// oldest first.
    public func durableLatencies() -> [Double] {
        core.locked {
            let ring = core.latencies
            guard ring.count == Core.latencyCapacity else { return ring }
            return Array(ring[core.latencyNext...] + ring[..<core.latencyNext])
        }
    }

    /// After a clean exit or close: stops the threads, closes and deletes the journal. Anything
    /// still queued is dropped. Calling it again does nothing.
    public func discard() {
        stopThreads(mode: .drop)
        core.closeFile(unlinking: true)
    }

    /// Whether both threads have ended by themselves (tests: a journal that could not be made).
    var threadsEndedForTesting: Bool { core.locked { !core.running && !core.syncing } }

    /// Test hook: behaves like a crash of the owner. Stops the threads without writing what is
    /// queued and closes the file (releasing the lock) without deleting it.
    func abandonForTesting() {
        stopThreads(mode: .drop)
        core.closeFile(unlinking: false)
    }
}

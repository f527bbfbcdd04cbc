import Glibc
import PaintCore

/// The write-ahead journal of one open document: every committed operation is appended to a
/// file under the journal folder and made durable by a background thread, so that a crash, a
/// kill -9 or the loss of the X server never costs more than the stroke in progress.
///
/// `append` only enqueues (the event thread never waits on the disk); a background pthread
/// writes the queued records with one `pwrite` and then `fdatasync`s. The file is held under
/// `flock(LOCK_EX)` for the writer's whole life, so a journal whose lock can be taken belongs to
/// a program that is gone (see `JournalReader.orphans`).
///
/// Disk errors never crash or stop the program: they are kept in `lastError`, the records that
/// could not be written stay queued and are retried with the next append or `flush`.
///
/// Dropping the last reference without `discard()` writes what is queued, stops the thread and
/// closes the file, leaving the journal on disk to be found as an orphan.
public final class JournalWriter: @unchecked Sendable {
    private let core: Core
    private var thread: pthread_t

    private init(core: Core) throws(JournalError) {
        self.core = core
        guard let thread = BackgroundThread.start({ core.run() }) else {
            core.closeFile(unlinking: true)
            throw .cannotOpen(path: core.path, errno: errno)
        }
        self.thread = thread
    }

    deinit {
        // Not discarded: keep the work. Write what is queued, then stop; the file stays.
        if core.stop(mode: .drain) { pthread_join(thread, nil) }
        core.closeFile(unlinking: false)
    }

    // MARK: Creating

    /// Starts a new journal for a document in `folder` (created with mode 0700 if missing).
    ///
    /// The file is named `doc-<16 hex digits of the FNV-1a hash of the document path>-<pid>.spj`,
    /// or `untitled-<pid>-<created time>.spj`, with `-2`, `-3`, ... added if that name is taken.
    /// It is locked, and holds the magic and the header, synced, before this returns.
    ///
    /// `sizeLimit` is the most the file may grow to (by default the most a reader reads back,
    /// 2 GiB; smaller only in tests).
    ///
    /// With `baseFile` (and no `header.baseImage`), the header's base image is the picture file
    /// a document was decoded from, copied from that file into the journal through a small
    /// buffer and CRC-checked as it is copied: when the file no longer holds the bytes decoded
    /// (written over since), nothing is left behind and this fails with `.baseChanged`, so
    /// no journal ever starts from another picture than the one shown.
    ///
    /// `initial` records (a reopened picture's history) are written and synced with the header:
    /// the file becomes a journal (its signature, written last) only once it holds them all, so
    /// a crash while a journal starts over from a rebuilt history never leaves a newer journal
    /// holding part of it beside the whole one it replaces.
    ///
    /// A change longer than `recordLimit` bytes (by default, and at most, the 512 MiB a reader
    /// takes in one record) is written in parts the reader joins (`JournalParts`).
    public static func create(
        in folder: String, header: JournalHeader, baseFile: PictureFile? = nil, initial: [JournalRecord] = [],
        sizeLimit: Int? = nil, recordLimit: Int? = nil
    ) throws(JournalError) -> JournalWriter {
        let headerRecord = try framedHeader(header, baseCount: baseFile?.count)
        // The initial records as the file holds them, numbered after the header.
        var records: [UInt8] = []
        for (i, record) in initial.enumerated() {
            records += JournalParts.framed(
                record.encoded(), sequence: i + 1, version: JournalFormat.version,
                limit: recordLimit ?? JournalFormat.maxRecordBytes)
        }
        try JournalFormat.makeFolders(folder)
        let base = JournalFormat.baseName(for: header)
        var attempt = 1
        while true {
            let name = attempt == 1 ? base : "\(base)-\(attempt)"
            let path = join(folder, name + JournalFormat.fileExtension)
            let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
            if fd < 0 {
                let e = errno
                if e == EEXIST, attempt < 1000 {
                    attempt += 1
                    continue
                }
                throw .cannotOpen(path: path, errno: e)
            }
            // Blocking: the only other holders are orphan scans, which let go at once.
            var e: Int32 = 0
            while flock(fd, LOCK_EX) != 0 {
                if errno != EINTR {
                    e = errno
                    break
                }
            }
            // The base image (a whole picture file: megabytes) is written from the header's
            // own array, never copied into the record.
            var crc = headerRecord.crc
            let base = header.baseImage ?? []
            let baseCount = baseFile?.count ?? base.count
            let baseAt = JournalFormat.filePrefix.count + headerRecord.head.count + headerRecord.fields.count
            // A journal that would not be read back is not started: the caller says crash
            // protection stopped, as for a full disk.
            let limit = sizeLimit ?? JournalFormat.maxJournalBytes
            if baseAt + baseCount + records.count > limit {
                _ = unlink(path)
                _ = close(fd)
                throw .tooLarge(path: path, bytes: baseAt + baseCount + records.count, limit: limit)
            }
            var changed = false
            if let baseFile, e == 0 {
                // The picture file straight into the journal; its framing, whose CRC covers
                // these bytes, is written after them.
                switch baseFile.copy(to: fd, at: baseAt, seed: crc) {
                case .success(let copied?): crc = copied
                case .success(nil): changed = true
                case .failure(let failure): e = failure.errno
                }
            } else if e == 0 {
                e = JournalFormat.writeAll(base, to: fd, at: baseAt)
            }
            if e == 0 && !changed { e = JournalFormat.writeAll(records, to: fd, at: baseAt + baseCount) }
            let head = JournalFormat.recordHead(length: headerRecord.count, sequence: 0, crc: crc)
            if e == 0 && !changed {
                e = JournalFormat.writeAll(JournalFormat.filePrefix + head + headerRecord.fields, to: fd, at: 0)
            }
            if e == 0 && !changed { e = JournalFormat.dataSync(fd) }
            if e == 0 && !changed { e = JournalFormat.syncFolder(folder) }
            if e != 0 || changed {
                _ = unlink(path)
                _ = close(fd)
                if changed { throw .baseChanged(path: baseFile?.path ?? path) }
                throw .cannotWrite(path: path, errno: e)
            }
            let core = Core(
                fd: fd, path: path, folder: folder, header: header, fileEnd: baseAt + baseCount + records.count,
                recordCount: initial.count)
            core.sizeLimit = sizeLimit ?? JournalFormat.maxJournalBytes
            core.recordLimit = recordLimit ?? JournalFormat.maxRecordBytes
            if header.baseImage != nil || baseFile != nil {
                core.baseInFile = BaseInFile(
                    fieldsAt: JournalFormat.prefixSize + JournalFormat.recordOverhead,
                    fieldsCount: headerRecord.fields.count, count: baseCount, crc: crc)
            }
            return try JournalWriter(core: core)
        }
    }

    /// Takes over the journal at `path` left by a program that is gone: locks it (failing with
    /// `inUse` when its owner is still running), cuts off a torn last record, and continues
    /// appending after the last complete one.
    ///
    /// Adopt before reading the contents to restore, so that no other instance can take the
    /// same journal in between.
    public static func adopt(path: String) throws(JournalError) -> JournalWriter {
        let fd = open(path, O_RDWR | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .cannotOpen(path: path, errno: errno) }
        var ok = false
        defer { if !ok { _ = close(fd) } }
        // An orphan scan in another instance may hold the lock for a moment; a live owner holds
        // it for good.
        var tries = 0
        while true {
            let e = JournalFormat.tryLock(fd)
            if e == 0 { break }
            guard e == EWOULDBLOCK else { throw .cannotOpen(path: path, errno: e) }
            tries += 1
            guard tries < 10 else { throw .inUse(path: path) }
            usleep(20_000)
        }
        // Locked by its path: make sure the path still names this file (another window may
        // have deleted it after answering Discard), so no one ever writes to a deleted journal.
        guard JournalFormat.sameFile(fd, path) else { throw .cannotOpen(path: path, errno: ENOENT) }
        let parsed = try JournalParser.parse(fd: fd, path: path, collect: false)
        // Over its budget it could not be restored, and appending to it would only make it worse.
        if let refusal = parsed.refusal { throw .damagedHeader(path: path, reason: refusal) }
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
        ok = true
        return try JournalWriter(core: core)
    }

    // MARK: Using

    /// The journal file's path.
    public var path: String { core.path }

    /// The header of the current journal file (without its base image once
    /// `releaseBaseImage` has let it go: `readBaseImage` reads it back).
    public var header: JournalHeader { core.locked { core.header } }

    /// The base image this writer wrote into the file's header, read back from the file (or
    /// the header's own bytes while it keeps them) and checked against the header record's
    /// CRC; nil when it cannot be read, does not check out, or the journal is closed.
    public func readBaseImage() -> [UInt8]? {
        core.locked { () -> [UInt8]? in
            if let image = core.header.baseImage { return image }
            guard let stored = core.baseInFile, !core.closed else { return nil }
            guard let fields = JournalFormat.read(core.fd, at: stored.fieldsAt, count: stored.fieldsCount),
                let image = JournalFormat.read(core.fd, at: stored.fieldsAt + stored.fieldsCount, count: stored.count),
                JournalFormat.recordCRC(sequence: 0, payload: [fields, image]) == stored.crc
            else { return nil }
            return image
        }
    }

    /// Lets go of the header's base image, which the file holds (synced since `create`): a
    /// document keeps its starting picture's bytes (a whole picture file: megabytes) in its
    /// journal instead of in memory, and `readBaseImage` reads them back when a save needs them.
    /// Returns whether they were let go (not for an adopted journal, whose bytes stay).
    @discardableResult
    public func releaseBaseImage() -> Bool {
        core.locked {
            guard core.baseInFile != nil, !core.closed else { return false }
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

    /// Why changes wait for the disk, while they do: the error of the last write attempt when
    /// it failed and changes still wait for a retry (a full disk, the size limit); nil once the
    /// journal has caught up. The thread retries every 2 s by itself.
    public var failure: JournalError? { standing.failure }

    /// Changes appended and not yet durable, or a write that failed: whether to look again soon.
    public var isBehind: Bool { standing.isBehind }

    /// `failure` and `isBehind` read together, under one lock: the window looks at both on
    /// every turn of its loop.
    public var standing: (failure: JournalError?, isBehind: Bool) {
        core.locked {
            let behind = core.durableThrough < core.appended
            return (core.lastAttemptFailed && behind ? core.lastError : nil, behind)
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

    /// Blocks until every operation appended so far is durable, or until a write attempt that
    /// included all of them has failed (then `lastError` says why), or until `timeout` seconds
    /// have passed. Returns whether everything is durable.
    ///
    /// The writer's lock is never held across disk I/O, so this cannot wait on a lock forever;
    /// it only waits for the disk itself, and `timeout` bounds even that.
    @discardableResult
    public func flush(timeout: Double? = nil) -> Bool {
        core.locked {
            let target = core.appended
            if core.durableThrough >= target { return true }
            let startAttempts = core.attempts
            core.retryRequested = true
            pthread_cond_broadcast(core.condition)
            let deadline = timeout.map { JournalFormat.monotonic() + $0 }
            while core.durableThrough < target {
                if core.attempts > startAttempts, core.lastAttemptFailed, core.lastAttemptThrough >= target {
                    return false
                }
                if !core.running { return false }
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

    /// After a clean exit or close: stops the thread, closes and deletes the journal. Anything
    /// still queued is dropped. Calling it again does nothing.
    public func discard() {
        if core.stop(mode: .drop) { pthread_join(thread, nil) }
        core.closeFile(unlinking: true)
    }

    /// Test hook: behaves like a crash of the owner. Stops the thread without writing what is
    /// queued and closes the file (releasing the lock) without deleting it.
    func abandonForTesting() {
        if core.stop(mode: .drop) { pthread_join(thread, nil) }
        core.closeFile(unlinking: false)
    }

    // MARK: Helpers

    /// The header record, but for the base image's bytes that end it: the header's fields, the
    /// payload's length, and its CRC (sequence 0) when the base image is in `header`; with
    /// `baseCount`, the base image is that many bytes of a file, and the CRC covers only the
    /// framing and the fields: the copy continues it over the bytes it copies.
    private static func framedHeader(
        _ header: JournalHeader, baseCount: Int?
    ) throws(JournalError) -> (head: [UInt8], fields: [UInt8], count: Int, crc: UInt32) {
        let baseCount = header.baseImage?.count ?? baseCount
        let fields = header.encodedFields(baseCount: baseCount)
        let count = fields.count + (baseCount ?? 0)
        guard count <= JournalFormat.maxRecordBytes else {
            throw .recordTooLarge(bytes: count, limit: JournalFormat.maxRecordBytes)
        }
        let parts = header.baseImage.map { [fields, $0] } ?? [fields]
        let crc = JournalFormat.recordCRC(sequence: 0, length: count, payload: parts)
        return (JournalFormat.recordHead(length: count, sequence: 0, crc: crc), fields, count, crc)
    }

    private static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}

/// Where a journal's header record holds its fields and base image, and its CRC: enough to read
/// the base image back and know it is the one written.
struct BaseInFile {
    /// The offset of the header's fields (its payload) in the file.
    let fieldsAt: Int
    let fieldsCount: Int
    /// The base image's bytes, which follow the fields.
    let count: Int
    /// The header record's CRC (`JournalFormat.recordCRC`, sequence 0).
    let crc: UInt32
}

/// One record waiting to be written: a change or a save mark, framed by the writer's thread.
struct Pending {
    let record: JournalRecord
    /// The framed record (or its parts); nil until the thread has encoded it.
    var bytes: [UInt8]?
    /// CLOCK_MONOTONIC seconds at `append`.
    let appendedAt: Double
    /// 1 for the first record appended by this writer, and so on.
    let sequence: Int
    /// Its sequence number in the journal file (the header is 0).
    let recordNumber: Int
}

/// The state shared by a writer and its thread. Everything but the two pthread objects is
/// guarded by `mutex`, which is never held across disk I/O.
final class Core: @unchecked Sendable {
    static let latencyCapacity = 4096

    let mutex: UnsafeMutablePointer<pthread_mutex_t>
    let condition: UnsafeMutablePointer<pthread_cond_t>

    var fd: Int32
    let path: String
    /// The folder the journal is in (synced when it is deleted).
    let folder: String
    var header: JournalHeader
    /// Where the header's base image lies in the file, when this writer wrote it.
    var baseInFile: BaseInFile?
    /// The offset just past the last durable record.
    var fileEnd: Int
    var recordCount: Int
    /// The file's format version: an adopted version 1 journal goes on in version 1.
    var version: UInt8
    /// The most the file may grow to.
    var sizeLimit = JournalFormat.maxJournalBytes
    /// The longest record written whole; a longer change is written in parts.
    var recordLimit = JournalFormat.maxRecordBytes

    /// Appended, not yet taken by the thread.
    var queue: [Pending] = []
    /// Taken by the thread, failed to write; retried before the queue.
    var backlog: [Pending] = []
    /// The sequence number of the last appended record.
    var appended = 0
    /// Every record up to this sequence number is durable.
    var durableThrough = 0
    /// Write attempts completed, and what the last one covered and whether it failed.
    var attempts = 0
    var lastAttemptThrough = 0
    var lastAttemptFailed = false
    var retryRequested = false
    /// The thread is between taking a batch and recording the result.
    var writing = false
    var running = true
    var stopMode: StopMode? = nil
    var closed = false
    var lastError: JournalError? = nil
    var latencies: [Double] = []
    var latencyNext = 0

    enum StopMode { case drain, drop }

    init(
        fd: Int32, path: String, folder: String, header: JournalHeader, fileEnd: Int, recordCount: Int,
        version: UInt8 = JournalFormat.version
    ) {
        self.version = version
        self.fd = fd
        self.path = path
        self.folder = folder
        self.header = header
        self.fileEnd = fileEnd
        self.recordCount = recordCount
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        condition = .allocate(capacity: 1)
        condition.initialize(to: pthread_cond_t())
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func locked<T>(_ body: () throws(Never) -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Asks the thread to stop; returns whether it was running (and must be joined).
    func stop(mode: StopMode) -> Bool {
        locked {
            guard running, stopMode == nil else { return false }
            stopMode = mode
            if mode == .drop {
                queue.removeAll()
                backlog.removeAll()
            }
            pthread_cond_broadcast(condition)
            return true
        }
    }

    /// Closes the file (releasing its lock), deleting it first when `unlinking`. Once only.
    func closeFile(unlinking: Bool) {
        let target: (fd: Int32, path: String)? = locked {
            guard !closed else { return nil }
            closed = true
            queue.removeAll()
            backlog.removeAll()
            durableThrough = appended
            pthread_cond_broadcast(condition)
            return (self.fd, self.path)
        }
        guard let target else { return }
        // Deleted while still locked, so no scan ever sees it unlocked.
        if unlinking {
            _ = unlink(target.path)
            _ = JournalFormat.syncFolder(folder)
        }
        _ = close(target.fd)
    }

    /// The background thread: takes everything queued, writes it with one pwrite, syncs.
    func run() {
        pthread_mutex_lock(mutex)
        while true {
            while queue.isEmpty && !(retryRequested && !backlog.isEmpty) && stopMode == nil {
                if backlog.isEmpty {
                    pthread_cond_wait(condition, mutex)
                } else if waitTimedOut(seconds: Self.retryInterval) {
                    // Records wait on a disk error: try again now and then, so crash protection
                    // resumes by itself once there is room, even when nothing new is drawn.
                    retryRequested = true
                }
            }
            if stopMode != nil {
                // Draining makes one last attempt with whatever is waiting.
                if stopMode == .drop || (queue.isEmpty && backlog.isEmpty) || attemptsSinceStop > 0 { break }
                attemptsSinceStop += 1
            }
            var batch = backlog + queue
            backlog.removeAll()
            queue.removeAll()
            retryRequested = false
            writing = true
            let fd = self.fd
            let offset = fileEnd
            let path = self.path
            let version = self.version
            let sizeLimit = self.sizeLimit
            let recordLimit = self.recordLimit
            pthread_mutex_unlock(mutex)

            for i in batch.indices where batch[i].bytes == nil {
                batch[i].bytes = JournalParts.framed(
                    batch[i].record.encoded(), sequence: batch[i].recordNumber, version: version, limit: recordLimit)
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(batch.reduce(0) { $0 + ($1.bytes?.count ?? 0) })
            for record in batch { bytes += record.bytes ?? [] }
            // A journal past its size limit would not be read back: the records that fit are
            // written, the rest wait as on a full disk, and `failure` says why.
            var fitting = bytes.count
            let overLimit = offset + bytes.count > sizeLimit
            if overLimit {
                fitting = 0
                for record in batch {
                    let n = record.bytes?.count ?? 0
                    if offset + fitting + n > sizeLimit { break }
                    fitting += n
                }
            }
            let (written, writeError) =
                overLimit
                ? (fitting == 0 ? (0, 0) : JournalFormat.writeCounting(Array(bytes[..<fitting]), to: fd, at: offset))
                : JournalFormat.writeCounting(bytes, to: fd, at: offset)
            var e = writeError == 0 && overLimit ? EFBIG : writeError
            // How many records made it to the file whole.
            var whole = batch.count
            var end = offset + bytes.count
            if e != 0 {
                // A full disk usually takes part of a batch: keep the records written whole, cut
                // the file back to the last of them, and leave the rest for a retry.
                whole = 0
                end = offset
                while whole < batch.count, end + (batch[whole].bytes?.count ?? 0) <= offset + written {
                    end += batch[whole].bytes?.count ?? 0
                    whole += 1
                }
                _ = ftruncate(fd, off_t(end))
            }
            if whole > 0 {
                let syncError = JournalFormat.dataSync(fd)
                if syncError != 0 {
                    // Nothing of this batch is known to be on disk: rewrite it all next time.
                    e = syncError
                    whole = 0
                    end = offset
                    _ = ftruncate(fd, off_t(offset))
                }
            }
            let now = JournalFormat.monotonic()

            pthread_mutex_lock(mutex)
            writing = false
            attempts += 1
            lastAttemptThrough = batch.last?.sequence ?? lastAttemptThrough
            lastAttemptFailed = e != 0
            fileEnd = end
            if whole > 0 {
                durableThrough = max(durableThrough, batch[whole - 1].sequence)
                for record in batch[..<whole] { noteLatency(now - record.appendedAt) }
            }
            if e != 0 {
                lastError =
                    overLimit
                    ? .tooLarge(path: path, bytes: offset + bytes.count, limit: sizeLimit)
                    : .cannotWrite(path: path, errno: e)
                // Unless a close superseded them meanwhile, they wait for a retry.
                if !closed && stopMode != .drop { backlog = Array(batch[whole...]) }
            }
            pthread_cond_broadcast(condition)
        }
        running = false
        writing = false
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    private var attemptsSinceStop = 0

    /// Seconds between retries while records wait on a disk error.
    static let retryInterval = 2.0

    /// Waits on `condition` (the mutex held) for at most `seconds`; true when the time ran out.
    private func waitTimedOut(seconds: Double) -> Bool {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        let end = Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9 + seconds
        ts.tv_sec = time_t(end)
        ts.tv_nsec = Int((end - Double(ts.tv_sec)) * 1e9)
        return pthread_cond_timedwait(condition, mutex, &ts) == ETIMEDOUT
    }

    private func noteLatency(_ seconds: Double) {
        if latencies.count < Self.latencyCapacity {
            latencies.append(seconds)
        } else {
            latencies[latencyNext] = seconds
            latencyNext = (latencyNext + 1) % Self.latencyCapacity
        }
    }
}

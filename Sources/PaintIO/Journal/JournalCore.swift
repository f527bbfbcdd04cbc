import Glibc
import PaintCore

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

/// How far a journal file being made has got (`JournalWriter.making`).
public enum JournalMaking: Sendable {
    /// Its header and starting picture are still being written or synced; changes appended
    /// meanwhile wait, and go into the file once it is a journal.
    case inProgress
    /// The file is a journal, synced with its header and starting picture.
    case done
    /// It could not be made: nothing of it is left on disk, and nothing appended to it is kept.
    case failed(JournalError)
}

/// The state shared by a writer and its two threads: one writes (the file, then each batch of
/// records, with one `pwrite`), the other syncs what is written (`fdatasync`). Writing never
/// waits for a sync: a record reaches the file (the kernel's copy of it, which outlives a kill
/// -9 of the program) within a write, even while a slow disk takes seconds to sync the records
/// before it; it counts as durable once a sync that began after it returns.
///
/// Everything but the two pthread objects is guarded by `mutex`, which is never held across
/// disk I/O.
final class Core: @unchecked Sendable {
    static let latencyCapacity = 4096

    let mutex: UnsafeMutablePointer<pthread_mutex_t>
    let condition: UnsafeMutablePointer<pthread_cond_t>

    /// The file, once made (-1 before).
    var fd: Int32
    /// The file's path, once made ("" before).
    var path: String
    /// The folder the journal is in (synced when it is made and when it is deleted).
    let folder: String
    var header: JournalHeader
    /// Where the header's base image lies in the file, when this writer wrote it.
    var baseInFile: BaseInFile?
    /// What the writer's thread makes before anything else; nil once taken (or for an adopted
    /// journal).
    var plan: JournalWriter.Plan?
    var making: JournalMaking = .inProgress
    /// Made, and not yet synced with its header (the first sync also syncs its folder).
    var madeUnsynced = false
    /// While the file is the interim journal (its header names the picture file being copied
    /// into the whole one): the offset of its first record.
    var interimRecordsAt: Int?
    /// The thread copying the picture renames the whole journal over the interim one: the
    /// writing thread starts no write meanwhile.
    var switching = false
    /// The writing thread is writing a batch (the lock released).
    var writingBatch = false
    /// The syncing thread is syncing (the lock released), and the file it syncs.
    var syncBusy = false
    /// Counts the files this writer has written to: a sync of a file replaced meanwhile (the
    /// interim one) says nothing about the current one.
    var generation = 0
    /// The interim journal's descriptor, replaced while the syncing thread synced it: closed
    /// once that sync returns.
    var retiredFD: Int32?
    /// The offset just past the last record written whole.
    var fileEnd: Int
    /// The offset just past the last record known durable.
    var syncedEnd: Int
    var recordCount: Int
    /// The file's format version: an adopted version 1 journal goes on in version 1.
    var version: UInt8
    /// The most the file may grow to.
    var sizeLimit = JournalFormat.maxJournalBytes
    /// The longest record written whole; a longer change is written in parts.
    var recordLimit = JournalFormat.maxRecordBytes

    /// Appended, not yet taken by the writing thread.
    var queue: [Pending] = []
    /// Taken, failed to write; retried before the queue.
    var backlog: [Pending] = []
    /// Written whole, not yet synced: written again when a sync fails (after a failed
    /// `fdatasync` the kernel may have let go of pages it never wrote).
    var unsynced: [Pending] = []
    /// A sync failed: the writing thread writes `unsynced` again from `syncedEnd`.
    var rewrite = false
    /// The sequence number of the last appended record.
    var appended = 0
    /// Every record up to this sequence number is in the file.
    var writtenThrough = 0
    /// Every record up to this sequence number is durable.
    var durableThrough = 0
    /// Failed attempts (a write or a sync), and the last record the last of them covered.
    var failures = 0
    var failedThrough = 0
    /// The last write left records waiting (a full disk, the size limit).
    var writeFailed = false
    /// The last sync failed.
    var syncFailed = false
    var retryRequested = false
    /// The syncing thread is asked to try a failed first sync again now.
    var syncRetry = false
    /// The writing thread and the syncing thread have not ended.
    var running = true
    var syncing = true
    var stopMode: StopMode? = nil
    var closed = false
    var lastError: JournalError? = nil
    var latencies: [Double] = []
    var latencyNext = 0
    private var attemptsSinceStop = 0

    enum StopMode { case drain, drop }

    /// Seconds between retries while records wait on a disk error.
    static let retryInterval = 2.0

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
        self.syncedEnd = fileEnd
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

    /// Whether records wait for the disk (appended and not durable, or the file not yet made
    /// and synced).
    var isBehind: Bool {
        if makingFailed { return false }
        return durableThrough < appended || isMaking
    }

    /// The file is being made, or not yet synced with its header.
    var isMaking: Bool {
        if case .inProgress = making { return true }
        return false
    }

    var makingFailed: Bool {
        if case .failed = making { return true }
        return false
    }

    /// Asks the threads to stop; returns whether they were still running. (They are joined
    /// either way: see `JournalWriter.stopThreads`.)
    func stop(mode: StopMode) -> Bool {
        locked {
            guard running || syncing, stopMode == nil else { return false }
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
            unsynced.removeAll()
            durableThrough = appended
            pthread_cond_broadcast(condition)
            return fd >= 0 ? (self.fd, self.path) : nil
        }
        guard let target else { return }
        // Deleted while still locked, so no scan ever sees it unlocked.
        if unlinking {
            _ = unlink(target.path)
            _ = JournalFormat.syncFolder(folder)
        }
        _ = close(target.fd)
    }

    // MARK: The writing thread

    /// The writing thread: makes the file (when it has a plan), then takes everything queued
    /// and writes it with one pwrite, for the syncing thread to sync.
    func write() {
        if !makeFile() { return }
        pthread_mutex_lock(mutex)
        while true {
            while queue.isEmpty && !(retryRequested && !backlog.isEmpty) && !(rewrite && !unsynced.isEmpty)
                && stopMode == nil && !makingFailed
            {
                if backlog.isEmpty {
                    pthread_cond_wait(condition, mutex)
                } else if waitTimedOut(seconds: Self.retryInterval) {
                    // Records wait on a disk error: try again now and then, so crash protection
                    // resumes by itself once there is room, even when nothing new is drawn.
                    retryRequested = true
                }
            }
            // The whole journal is being renamed over the interim one: nothing is written to
            // either until it is the file.
            while switching { pthread_cond_wait(condition, mutex) }
            if makingFailed { break }
            if stopMode != nil {
                // Draining makes one last attempt with whatever is waiting.
                let nothing = queue.isEmpty && backlog.isEmpty && !(rewrite && !unsynced.isEmpty)
                if stopMode == .drop || nothing || attemptsSinceStop > 0 { break }
                attemptsSinceStop += 1
            }
            // After a failed sync, what it covered is written again first.
            let again = rewrite ? unsynced : []
            var batch = again + backlog + queue
            let offset = rewrite ? syncedEnd : fileEnd
            if rewrite {
                unsynced.removeAll()
                rewrite = false
            }
            backlog.removeAll()
            queue.removeAll()
            retryRequested = false
            let fd = self.fd
            let path = self.path
            let version = self.version
            let sizeLimit = self.sizeLimit
            let recordLimit = self.recordLimit
            writingBatch = true
            pthread_mutex_unlock(mutex)

            for i in batch.indices where batch[i].bytes == nil {
                batch[i].bytes = JournalParts.framed(
                    batch[i].record.encoded(), sequence: batch[i].recordNumber, version: version, limit: recordLimit)
            }
            let (whole, end, e, overLimit) = Self.writeBatch(batch, to: fd, at: offset, sizeLimit: sizeLimit)

            pthread_mutex_lock(mutex)
            writingBatch = false
            fileEnd = end
            if whole > 0 {
                writtenThrough = max(writtenThrough, batch[whole - 1].sequence)
                if !closed && stopMode != .drop { unsynced += batch[..<whole] }
            }
            writeFailed = e != 0
            if e != 0 {
                failures += 1
                failedThrough = batch.last?.sequence ?? failedThrough
                let total = batch.reduce(0) { $0 + ($1.bytes?.count ?? 0) }
                lastError =
                    overLimit
                    ? .tooLarge(path: path, bytes: offset + total, limit: sizeLimit)
                    : .cannotWrite(path: path, errno: e)
                // Unless a close superseded them meanwhile, they wait for a retry.
                if !closed && stopMode != .drop { backlog = Array(batch[whole...]) }
            }
            pthread_cond_broadcast(condition)
        }
        running = false
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Writes `batch` (framed) at `offset`: how many records made it whole, the file's end
    /// after them, the error, and whether the size limit stopped it. A journal past its size
    /// limit would not be read back: the records that fit are written, the rest wait as on a
    /// full disk. A full disk usually takes part of a batch: the records written whole are
    /// kept, the file is cut back to the last of them, and the rest wait for a retry.
    private static func writeBatch(
        _ batch: [Pending], to fd: Int32, at offset: Int, sizeLimit: Int
    ) -> (whole: Int, end: Int, errno: Int32, overLimit: Bool) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(batch.reduce(0) { $0 + ($1.bytes?.count ?? 0) })
        for record in batch { bytes += record.bytes ?? [] }
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
        let e = writeError == 0 && overLimit ? EFBIG : writeError
        guard e != 0 else { return (batch.count, offset + bytes.count, 0, false) }
        var whole = 0
        var end = offset
        while whole < batch.count, end + (batch[whole].bytes?.count ?? 0) <= offset + written {
            end += batch[whole].bytes?.count ?? 0
            whole += 1
        }
        _ = ftruncate(fd, off_t(end))
        return (whole, end, e, overLimit)
    }

    /// Makes the journal file from `plan`, if there is one; false when it could not be made
    /// (the thread then ends, and `making` says why).
    private func makeFile() -> Bool {
        guard let plan = locked({ self.plan }) else { return true }
        let result = JournalWriter.make(plan)
        return locked {
            self.plan = nil
            defer { pthread_cond_broadcast(condition) }
            switch result {
            case .failure(let error):
                making = .failed(error)
                lastError = error
                running = false
                queue.removeAll()
                return false
            case .success(let made):
                fd = made.fd
                path = made.path
                fileEnd = made.end
                syncedEnd = made.end
                baseInFile = made.baseInFile
                madeUnsynced = true
                interimRecordsAt = made.recordsAt
                if made.recordsAt != nil { startCopyingBase(plan) }
                return true
            }
        }
    }

    // MARK: The syncing thread

    /// The syncing thread: syncs what the writing thread has written (the first time, the
    /// file's folder too), and says which records are durable.
    func sync() {
        pthread_mutex_lock(mutex)
        var triedSinceStop = false
        outer: while true {
            while true {
                if makingFailed || closed || stopMode == .drop { break outer }
                if syncWanted || (madeUnsynced && syncFailed && syncRetry) { break }
                // Stopping (the writing thread has ended) with nothing left to sync.
                if stopMode != nil && !running { break outer }
                if syncFailed {
                    // A failed first sync is tried again now and then (a later one waits for
                    // what it covered to be written again).
                    if waitTimedOut(seconds: Self.retryInterval) { syncRetry = true }
                } else {
                    pthread_cond_wait(condition, mutex)
                }
            }
            if stopMode != nil && !running {
                // Draining makes one last attempt.
                if triedSinceStop { break }
                triedSinceStop = true
            }
            syncRetry = false
            let target = writtenThrough
            let targetEnd = fileEnd
            let first = madeUnsynced
            let fd = self.fd
            let path = self.path
            let generation = self.generation
            syncBusy = true
            pthread_mutex_unlock(mutex)

            var e = JournalFormat.dataSync(fd)
            if e == 0 && first { e = JournalFormat.syncFolder(folder) }
            let now = JournalFormat.monotonic()

            pthread_mutex_lock(mutex)
            syncBusy = false
            if let retired = retiredFD {
                _ = close(retired)
                retiredFD = nil
            }
            if generation != self.generation {
                // It synced the interim journal, since replaced by the whole one, which the
                // next turn syncs.
                pthread_cond_broadcast(condition)
                continue
            }
            if e == 0 {
                madeUnsynced = false
                if case .inProgress = making, interimRecordsAt == nil { making = .done }
                syncFailed = false
                syncedEnd = max(syncedEnd, targetEnd)
                durableThrough = max(durableThrough, target)
                while let record = unsynced.first, record.sequence <= target {
                    noteLatency(now - record.appendedAt)
                    unsynced.removeFirst()
                }
            } else {
                syncFailed = true
                failures += 1
                failedThrough = target
                lastError = .cannotWrite(path: path, errno: e)
                // After a failed fdatasync the kernel may have dropped pages it never wrote:
                // the records are written again, then synced.
                rewrite = !unsynced.isEmpty
            }
            pthread_cond_broadcast(condition)
        }
        syncing = false
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Something written is not yet synced (and no rewrite of it is pending): the file just
    /// made, or records.
    private var syncWanted: Bool {
        guard !isMaking || madeUnsynced || interimRecordsAt != nil, !rewrite else { return false }
        return madeUnsynced ? !syncFailed : writtenThrough > durableThrough
    }

    /// Waits on `condition` (the mutex held) for at most `seconds`; true when the time ran out.
    func waitTimedOut(seconds: Double) -> Bool {
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

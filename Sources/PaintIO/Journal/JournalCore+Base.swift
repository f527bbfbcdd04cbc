import Glibc
import PaintCore

/// The thread that copies an opened picture into its journal. The writer's threads write the
/// changes into the interim journal meanwhile (its header names the picture file, so a crash
/// during the copy loses none of them); this thread makes the whole journal beside it, copies
/// the interim journal's records after its header, syncs it, and renames it over the interim
/// one once it has caught up, so the name always holds a journal with every change written.
extension Core {
    /// Starts the copy on a thread of its own (detached: a discard does not wait for a slow
    /// disk; the thread tidies up after itself). Called with the lock held.
    func startCopyingBase(_ plan: JournalWriter.Plan) {
        if let thread = BackgroundThread.start({ self.copyBase(plan) }) {
            pthread_detach(thread)
        } else {
            failMaking(.cannotOpen(path: path, errno: errno))
        }
    }

    /// Making failed: nothing of it is left on disk (the interim journal is deleted; its
    /// descriptor is closed with the writer), and the threads end. Called with the lock held.
    private func failMaking(_ error: JournalError) {
        making = .failed(error)
        lastError = error
        queue.removeAll()
        backlog.removeAll()
        if interimRecordsAt != nil, !path.isEmpty {
            _ = unlink(path)
            path = ""
        }
        interimRecordsAt = nil
        pthread_cond_broadcast(condition)
    }

    private func copyBase(_ plan: JournalWriter.Plan) {
        let interimPath = locked { path }
        let whole: JournalWriter.Made
        switch JournalWriter.makeWhole(plan, beside: interimPath) {
        case .success(let made): whole = made
        case .failure(let error):
            locked { if stopMode == nil && !closed { failMaking(error) } }
            return
        }
        func abandon() {
            _ = unlink(whole.path)
            _ = close(whole.fd)
        }
        // Catch up with the interim journal's records, synced, until none was written since.
        var copiedEnd = locked { interimRecordsAt } ?? 0
        var wholeEnd = whole.end
        while true {
            pthread_mutex_lock(mutex)
            if stopMode != nil || closed || makingFailed {
                pthread_mutex_unlock(mutex)
                return abandon()
            }
            if fileEnd == copiedEnd && !writingBatch && !rewrite {
                switching = true
                pthread_mutex_unlock(mutex)
                break
            }
            let interimFD = fd
            let end = fileEnd
            pthread_mutex_unlock(mutex)
            var e = JournalFormat.copy(interimFD, from: copiedEnd, count: end - copiedEnd, to: whole.fd, at: wholeEnd)
            if e == 0 { e = JournalFormat.dataSync(whole.fd) }
            if e != 0 {
                locked { failMaking(.cannotWrite(path: interimPath, errno: e)) }
                return abandon()
            }
            wholeEnd += end - copiedEnd
            copiedEnd = end
        }
        // Nothing is written while the name changes hands; the syncing thread then syncs the
        // whole journal and the folder, and says the journal is made.
        let renamed = rename(whole.path, interimPath) == 0 ? 0 : errno
        pthread_mutex_lock(mutex)
        defer {
            pthread_cond_broadcast(condition)
            pthread_mutex_unlock(mutex)
        }
        switching = false
        guard renamed == 0 else {
            failMaking(.cannotWrite(path: interimPath, errno: renamed))
            return abandon()
        }
        // The records sit in the whole journal `shift` bytes further on than in the interim.
        let shift = wholeEnd - copiedEnd
        if syncBusy { retiredFD = fd } else { _ = close(fd) }
        fd = whole.fd
        fileEnd += shift
        syncedEnd += shift
        baseInFile = whole.baseInFile
        interimRecordsAt = nil
        generation += 1
        madeUnsynced = true
        syncFailed = false
    }
}

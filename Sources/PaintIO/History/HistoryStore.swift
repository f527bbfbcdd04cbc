import Glibc
import PaintCore

/// The editing history of saved pictures, kept on this computer instead of in the files
/// (DESIGN §3): a saved file holds what it shows, and reopening your own file, even renamed or
/// moved, gives back its whole history.
///
/// Each entry is one file, `<key>.sphist`, in a folder only this user can enter (0700; the
/// entries are 0600), `$XDG_DATA_HOME/swiftpaint/history` by default. The key is the SHA-256 of
/// the saved picture's pixels (`HistoryKey`), so a picture another program changed finds
/// nothing. Entries are written atomically (`AtomicFile`: temporary file, fsync, rename, folder
/// fsync): a crash or a kill at any moment leaves each entry whole or absent. The store keeps
/// under a size cap by dropping the least recently used entries (an entry's modification time
/// is when it was last saved or opened).
public struct HistoryStore: Sendable, Equatable {
    /// The folder holding the entries.
    public var folder: String
    /// The most bytes the entries may take together.
    public var capBytes: Int

    /// 1 GB.
    public static let defaultCapBytes = 1 << 30
    /// The file name extension of an entry.
    public static let fileExtension = ".sphist"
    /// A store in `folder` (by default `$XDG_DATA_HOME/swiftpaint/history`) keeping at most
    /// `capBytes`.
    public init(folder: String = HistoryStore.defaultFolder, capBytes: Int = HistoryStore.defaultCapBytes) {
        self.folder = folder
        self.capBytes = capBytes
    }

    /// `$XDG_DATA_HOME/swiftpaint/history`, or `~/.local/share/swiftpaint/history`.
    public static var defaultFolder: String {
        FileSystem.xdgFolder("XDG_DATA_HOME", fallback: ".local/share") + "/swiftpaint/history"
    }

    /// The path of `key`'s entry.
    public func path(for key: HistoryKey) -> String { folder + "/" + key.hex + Self.fileExtension }

    /// Whether the store keeps no history at all (no folder, or no entry in it): an opened
    /// picture then has none here to look for, and its pixels need not be hashed. One listing
    /// of the folder.
    public var isEmpty: Bool {
        guard let names = FileSystem.names(inFolder: folder) else { return true }
        return !names.contains { $0.hasSuffix(Self.fileExtension) }
    }

    // MARK: Keeping

    /// What `keep` did.
    public struct Kept: Equatable, Sendable {
        /// The entry's size in bytes.
        public var bytes: Int
        /// How many older entries were dropped to stay under the cap.
        public var dropped: Int
    }

    /// Keeps `archive` as the history of the file whose pixels have `key`, replacing what was
    /// kept for it, and then drops the least recently used other entries until the store fits
    /// its cap. `picture` names the picture that was encoded into the file, which replaying the
    /// archive gives (the same as `key` unless the format changed the pixels). An entry larger
    /// than the whole cap is not written.
    @discardableResult
    public func keep(_ archive: DocumentArchive, for key: HistoryKey, picture: HistoryKey? = nil)
        throws(HistoryStoreError) -> Kept
    {
        let staged = try stage(archive, for: key, picture: picture)
        return Kept(bytes: staged.bytes, dropped: commit(staged))
    }

    /// An entry written for a file not yet saved: `commit` once the file is, `rollBack` when
    /// it cannot be.
    public struct Staged: Equatable, Sendable {
        public let key: HistoryKey
        /// The entry's size in bytes.
        public let bytes: Int
        /// A second name of the entry it replaced (a hard link, no copy), to put back.
        let previous: String?
    }

    /// Writes `archive`'s entry, durably, as `keep` does, but drops nothing yet: the other
    /// pictures' histories stay until `commit`, and what it replaced can be put back
    /// (`rollBack`), so a save that fails leaves the store as it was.
    public func stage(_ archive: DocumentArchive, for key: HistoryKey, picture: HistoryKey? = nil)
        throws(HistoryStoreError) -> Staged
    {
        let sealed: [UInt8]
        do {
            sealed = try SealedArchive.seal(archive)
        } catch {
            throw .cannotSeal(error.reason)
        }
        let entry = StoreEntry.encode(key: key, picture: picture ?? key, sealed: sealed)
        guard entry.count <= capBytes else { throw .largerThanCap(bytes: entry.count, cap: capBytes) }
        try makeFolder()
        let previous = keepPrevious(key)
        do {
            try AtomicFile.write(entry, to: path(for: key), mode: 0o600)
        } catch {
            if let previous { _ = unlink(previous) }
            throw .cannotWrite(error)
        }
        markUsed(key)
        return Staged(key: key, bytes: entry.count, previous: previous)
    }

    /// The file `staged` belongs to is saved: the entry it replaced goes, and the least
    /// recently used other entries are dropped until the store fits its cap; returns how many.
    @discardableResult
    public func commit(_ staged: Staged) -> Int {
        if let previous = staged.previous { _ = unlink(previous) }
        return enforceCap(keeping: staged.key)
    }

    /// The file `staged` belongs to could not be saved: its entry goes, and the one it replaced
    /// (with its time of last use) comes back.
    public func rollBack(_ staged: Staged) {
        let path = path(for: staged.key)
        if let previous = staged.previous {
            if rename(previous, path) != 0 { _ = unlink(previous) }
        } else {
            _ = unlink(path)
        }
        JournalFormat.syncFolder(folder)
    }

    /// A second name for `key`'s entry, if it has one (`.<key>.sphist.<pid>-<n>.previous`,
    /// which `enforceCap` tidies away once it is 15 minutes old, should a crash leave it).
    private func keepPrevious(_ key: HistoryKey) -> String? {
        let entry = path(for: key)
        guard FileSystem.exists(entry) else { return nil }
        for attempt in 0..<100 {
            let previous =
                folder + "/." + key.hex + Self.fileExtension + ".\(getpid())-\(attempt)" + Self.previousSuffix
            if link(entry, previous) == 0 { return previous }
            if errno != EEXIST { return nil }
        }
        return nil
    }

    static let previousSuffix = ".previous"

    /// Removes the second names of replaced entries a save killed before it was done left
    /// behind: 15 minutes after they were made (their change time: the link's, not the
    /// entry's), when no save can still be using them.
    private func removeStalePrevious() {
        guard let names = FileSystem.names(inFolder: folder) else { return }
        let now = Int64(time(nil))
        for name in names where name.hasPrefix(".") && name.hasSuffix(Self.previousSuffix) {
            var info = stat()
            let path = folder + "/" + name
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
                now - Int64(info.st_ctim.tv_sec) > Int64(AtomicFile.staleTemporarySeconds)
            else { continue }
            _ = unlink(path)
        }
    }

    // MARK: Finding

    /// What the store keeps for a file's pixels.
    public enum Found: Sendable, Equatable {
        /// Nothing.
        case none
        /// The history, read and checked as far as bytes go, and the picture its replay must
        /// give before it is trusted.
        case entry(archive: DocumentArchive, picture: HistoryKey)
        /// There is an entry but it cannot be used; the reason is in words.
        case rejected(String)
    }

    /// The history kept for the file whose pixels have `key`. The entry is read like any
    /// file from elsewhere: its size is checked before it is read, its frame and checksum before
    /// it is opened, and the archive is decoded within the same limits as a PNG history chunk.
    /// A usable entry becomes the most recently used.
    public func find(_ key: HistoryKey) -> Found {
        let bytes: [UInt8]
        do {
            bytes = try ImageFile.readAll(path(for: key), limit: StoreEntry.maxLength)
        } catch {
            switch error {
            case .cannotRead(_, let e) where e == ENOENT || e == ENOTDIR: return .none
            case .fileTooBig(_, let bytes, let limit):
                return .rejected("its entry in the history store is too large (\(bytes) bytes, at most \(limit))")
            default: break
            }
            return .rejected("its entry in the history store cannot be read (\(error.description))")
        }
        let found = StoreEntry.decode(bytes, key: key)
        if case .entry = found { markUsed(key) }
        return found
    }

    // MARK: Forgetting

    /// Removes the history kept for `key`; false when there was none.
    @discardableResult
    public func forget(_ key: HistoryKey) throws(HistoryStoreError) -> Bool {
        let path = path(for: key)
        guard unlink(path) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return false }
            throw .cannotRemove(path: path, errno: errno)
        }
        // The user asked for it to be gone: make the removal durable.
        JournalFormat.syncFolder(folder)
        return true
    }

    /// Removes every entry (and any temporary file a crash left); returns how many entries and
    /// bytes went.
    @discardableResult
    public func forgetAll() throws(HistoryStoreError) -> (entries: Int, bytes: Int) {
        guard let names = FileSystem.names(inFolder: folder) else { return (0, 0) }
        var removed = (entries: 0, bytes: 0)
        for name in names
        where Self.key(fromName: name) != nil || AtomicFile.isTemporary(name)
            || (name.hasPrefix(".") && name.hasSuffix(Self.previousSuffix))
        {
            let path = folder + "/" + name
            var info = stat()
            let size = stat(path, &info) == 0 ? Int(info.st_size) : 0
            guard unlink(path) == 0 else {
                if errno == ENOENT { continue }
                throw .cannotRemove(path: path, errno: errno)
            }
            if Self.key(fromName: name) != nil {
                removed.entries += 1
                removed.bytes += size
            }
        }
        JournalFormat.syncFolder(folder)
        return removed
    }

    // MARK: The cap

    /// One entry as the store sees it.
    public struct Entry: Equatable, Sendable {
        public var key: HistoryKey
        public var bytes: Int
        /// When it was last saved or opened (nanoseconds since 1970).
        public var lastUsed: Int64
    }

    /// The entries, least recently used first.
    public func entries() -> [Entry] {
        guard let names = FileSystem.names(inFolder: folder) else { return [] }
        var entries: [Entry] = []
        for name in names {
            guard let key = Self.key(fromName: name) else { continue }
            var info = stat()
            guard lstat(folder + "/" + name, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { continue }
            let used = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            entries.append(Entry(key: key, bytes: Int(info.st_size), lastUsed: used))
        }
        return entries.sorted { ($0.lastUsed, $0.key.hex) < ($1.lastUsed, $1.key.hex) }
    }

    /// Drops the least recently used entries, never `keeping`, until the rest fit the cap, and
    /// removes temporary files a crash left behind; returns how many entries were dropped.
    @discardableResult
    func enforceCap(keeping: HistoryKey?) -> Int {
        AtomicFile.removeStaleTemporaries(in: folder)
        removeStalePrevious()
        let all = entries()
        var total = all.reduce(0) { $0 + $1.bytes }
        var dropped = 0
        for entry in all where total > capBytes && entry.key != keeping {
            // Another SwiftPaint may have dropped it already; either way it no longer counts.
            if unlink(path(for: entry.key)) == 0 { dropped += 1 }
            total -= entry.bytes
        }
        return dropped
    }

    // MARK: Helpers

    /// Creates the folder (0700, with the `swiftpaint` folder above it), or makes it private.
    private func makeFolder() throws(HistoryStoreError) {
        do {
            try PrivateFolder.make(folder, ownLevels: 2)
        } catch {
            throw .folder(error)
        }
    }

    /// Sets the entry's modification time to now, with the clock's full resolution (the time a
    /// write leaves can be a few milliseconds coarse, too coarse to order two quick saves).
    private func markUsed(_ key: HistoryKey) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        _ = utimensat(AT_FDCWD, path(for: key), [now, now], 0)
    }

    /// The key an entry file name stands for, or nil for any other name.
    static func key(fromName name: String) -> HistoryKey? {
        guard name.hasSuffix(fileExtension) else { return nil }
        return HistoryKey(hex: String(name.dropLast(fileExtension.count)))
    }
}

/// Why the history store could not keep or drop an entry, in words.
public enum HistoryStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The store's folder cannot be created, or is not private.
    case folder(PrivateFolder.Failure)
    /// The history cannot be packed into an entry.
    case cannotSeal(String)
    /// The entry alone is larger than the store's cap.
    case largerThanCap(bytes: Int, cap: Int)
    /// Writing the entry failed.
    case cannotWrite(ImageFileError)
    /// An entry could not be removed.
    case cannotRemove(path: String, errno: Int32)

    public var description: String {
        switch self {
        case .folder(let failure): return "the history store is unusable: \(failure.description)"
        case .cannotSeal(let reason): return "the history cannot be stored: \(reason)"
        case .largerThanCap(let bytes, let cap):
            return "the history (\(Self.size(bytes))) is larger than the history store's cap (\(Self.size(cap)))"
        case .cannotWrite(let error): return "the history store cannot be written: \(error.description)"
        case .cannotRemove(let path, let e): return "cannot remove “\(path)”: \(JournalError.words(e))"
        }
    }

    /// A byte count for people: "3.2 MB", "812 KB".
    public static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20 {
            let tenths = bytes * 10 / (1 << 20)
            return "\(tenths / 10).\(tenths % 10) MB"
        }
        return "\((bytes + 1023) / 1024) KB"
    }
}

import Glibc

/// Replaces a file's contents all at once: afterwards the file holds either the old bytes or the
/// new ones, never a mixture, even across a crash or a full disk.
///
/// The bytes go to a temporary file in the same folder (a rename is only atomic within one file
/// system), which is synced and then renamed over the target; the folder is synced so the rename
/// itself survives a power cut. A symlink is followed to its real target and the target is
/// replaced, so the link stays a link. The old file's permission bits are kept. The program's
/// own private files (written with a `mode`) are the exception: a symlink there is replaced,
/// never written through.
public enum AtomicFile {
    /// Writes `bytes` to `path` atomically, and returns what `fstat` says of the file written
    /// (a rename keeps its inode and modification time), with the status-change time the rename
    /// gave it: the version this write left, known without reading the path back, which another
    /// program may have replaced again by then.
    ///
    /// On any failure before the rename, the temporary file is removed, the old file is left
    /// byte-identical and an `ImageFileError` naming `path` (as given) is thrown.
    ///
    /// With `mode`, the file gets exactly those permission bits whatever was there before (the
    /// history store, the settings and the recent list write private files, 0600), and a
    /// symlink at `path` is replaced by the file rather than followed: a link planted where the
    /// program keeps its own files cannot make it write somewhere else (over `~/.bashrc`, or
    /// another picture). The temporary file is created 0600 either way, so the bytes are never
    /// readable by others on the way.
    @discardableResult
    public static func write(
        _ bytes: [UInt8], to path: String, mode forcedMode: mode_t? = nil
    ) throws(ImageFileError) -> FileVersion.Stat {
        guard !path.isEmpty else { throw .cannotWrite(path: path, errno: ENOENT) }

        let own = forcedMode != nil
        let (folder, name) = own ? try location(of: path) : try realLocation(of: path)
        let target = folder == "/" ? "/" + name : folder + "/" + name

        // Keep the old file's permissions; a new file gets what open(2) would have given it.
        var old = stat()
        var mode: mode_t
        var owner: (uid: uid_t, gid: gid_t)? = nil
        if (own ? lstat(target, &old) : stat(target, &old)) == 0 {
            if old.st_mode & S_IFMT == S_IFDIR { throw .cannotWrite(path: path, errno: EISDIR) }
            // Renaming over a device or a pipe would replace it with a plain file; a private
            // file's symlink is replaced (the rename takes the link's place, not its target's).
            guard old.st_mode & S_IFMT == S_IFREG || (own && old.st_mode & S_IFMT == S_IFLNK) else {
                throw .notAFile(path: path, saving: true)
            }
            mode = old.st_mode & 0o777
            if forcedMode == nil { owner = (old.st_uid, old.st_gid) }
        } else if errno == ENOENT {
            mode = forcedMode ?? 0o666 & ~currentUmask()
        } else {
            throw .cannotWrite(path: path, errno: errno)
        }
        if let forcedMode { mode = forcedMode }

        // ".NAME.XXXXXX.tmp": hidden, recognisable, and next to the target. The name part is cut
        // so that the temporary name stays under NAME_MAX (255 bytes) for long file names.
        var template = Array((folder == "/" ? "" : folder).utf8CString.dropLast())
        template += Array("/.".utf8CString.dropLast())
        template += name.utf8CString.dropLast().prefix(200)
        template += Array(".XXXXXX.tmp".utf8CString)  // keeps the terminating NUL
        let fd = mkstemps(&template, 4)
        guard fd >= 0 else {
            // The folder was just resolved, so it exists: ENOENT here means it takes no new
            // files (procfs, sysfs), not that it is missing.
            if errno == ENOENT { throw .folderRefusesFiles(path: path, folder: folder) }
            throw .cannotWrite(path: path, errno: errno)
        }
        // mkostemps (which takes O_CLOEXEC) is not visible through Glibc; set it right after.
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        let temp = template

        var isOpen = true
        /// Undoes everything: close, remove the temporary file, report the first errno.
        func failure(_ code: Int32) -> ImageFileError {
            if isOpen { _ = close(fd) }
            _ = unlink(temp)
            return .cannotWrite(path: path, errno: code)
        }

        let writeError = writeAll(bytes, to: fd)
        if writeError != 0 { throw failure(writeError) }

        // fchown first: it may clear set-id bits, and fchmod then sets exactly the old mode.
        // Changing the owner only works as root; as anyone else the file becomes ours, as with
        // any editor that saves by rename.
        if let owner, owner.uid != geteuid() || owner.gid != getegid() {
            _ = fchown(fd, owner.uid, owner.gid)
        }
        if fchmod(fd, mode) != 0 { throw failure(errno) }
        if syncRetrying(fd) != 0 { throw failure(errno) }
        var written = stat()
        if fstat(fd, &written) != 0 { throw failure(errno) }
        isOpen = false
        // A failing close can report a delayed write error (NFS); EINTR still closed the fd.
        if close(fd) != 0, errno != EINTR { throw failure(errno) }

        if rename(temp, target) != 0 { throw failure(errno) }
        // The rename sets the file's status-change time: the version this write left is the
        // file as it is now (or without that time, when it was replaced already).
        let left = FileVersion.Stat(written: written, renamedTo: target)

        // The new bytes are in place now; syncing the folder makes the rename durable. Some file
        // systems cannot sync a folder (EINVAL): nothing more can be done there, so that is fine.
        let dir = Glibc.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard dir >= 0 else { throw .cannotWrite(path: path, errno: errno) }
        defer { _ = close(dir) }
        if syncRetrying(dir) != 0, errno != EINVAL, errno != ENOTSUP {
            throw .cannotWrite(path: path, errno: errno)
        }
        // A write of this file killed before its rename (a crash, kill -9 during a save) left a
        // hidden whole copy next to it that nothing else would ever remove.
        removeStaleTemporaries(in: folder, of: name)
        return left
    }

    /// A temporary file older than this (15 minutes) is left over from a crash; a younger one
    /// may be another program's write in progress.
    static let staleTemporarySeconds = 15 * 60

    /// Removes the temporary files `write` makes (`.NAME.XXXXXX.tmp`) in `folder`, of the file
    /// `name` only or, with nil, of any file, that are older than `staleTemporarySeconds` and
    /// belong to this user: what a write killed between making its temporary file and renaming
    /// it leaves behind.
    public static func removeStaleTemporaries(in folder: String, of name: String? = nil) {
        guard let names = FileSystem.names(inFolder: folder) else { return }
        let now = Int64(time(nil))
        for candidate in names where isTemporary(candidate, of: name) {
            var info = stat()
            let path = folder == "/" ? "/" + candidate : folder + "/" + candidate
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(),
                now - Int64(info.st_mtim.tv_sec) > Int64(staleTemporarySeconds)
            else { continue }
            _ = unlink(path)
        }
    }

    /// Whether `candidate` is the name of a temporary file `write` makes: of the file `name`
    /// (the part of it that went into the temporary name), or with nil of any file.
    static func isTemporary(_ candidate: String, of name: String? = nil) -> Bool {
        let bytes = Array(candidate.utf8)
        // ".", at least one byte of the name, ".", six random characters, ".tmp".
        guard bytes.count >= 13, bytes[0] == UInt8(ascii: "."), bytes.suffix(4).elementsEqual(".tmp".utf8),
            bytes[bytes.count - 11] == UInt8(ascii: ".")
        else { return false }
        guard let name else { return true }
        return bytes[1..<(bytes.count - 11)].elementsEqual(name.utf8.prefix(200))
    }

    /// The real folder (absolute, symlinks resolved) and file name that `path` ends up at.
    ///
    /// Symlinks at the last component are followed one by one (relative targets against the
    /// link's folder), so a link to a file that does not exist yet still creates that file.
    private static func realLocation(of path: String) throws(ImageFileError) -> (folder: String, name: String) {
        var current = path
        var hops = 0
        while true {
            var info = stat()
            if lstat(current, &info) != 0 {
                guard errno == ENOENT else { throw .cannotWrite(path: path, errno: errno) }
                break  // a new file: the folder check below reports a missing folder
            }
            guard info.st_mode & S_IFMT == S_IFLNK else { break }
            hops += 1
            guard hops <= 40 else { throw .cannotWrite(path: path, errno: ELOOP) }
            guard let destination = readLink(current) else { throw .cannotWrite(path: path, errno: errno) }
            current = destination.hasPrefix("/") ? destination : split(current).folder + "/" + destination
        }

        return try location(of: current, asked: path)
    }

    /// The real folder (absolute, symlinks resolved) that `path` is in, and its last
    /// component, not followed: where a private file is written. `asked` is the path errors name.
    private static func location(
        of file: String, asked: String? = nil
    ) throws(ImageFileError) -> (folder: String, name: String) {
        let path = asked ?? file
        let (folder, name) = split(file)
        // "dir/", "." and ".." name a folder, not a file in it.
        guard !name.isEmpty, name != ".", name != ".." else { throw .cannotWrite(path: path, errno: EISDIR) }
        guard let real = realpath(folder, nil) else { throw .cannotWrite(path: path, errno: errno) }
        defer { free(real) }
        return (String(cString: real), name)
    }

    /// Splits at the last slash: "a/b/c" -> ("a/b", "c"), "c" -> (".", "c"), "/c" -> ("/", "c").
    private static func split(_ path: String) -> (folder: String, name: String) {
        guard let slash = path.lastIndex(of: "/") else { return (".", path) }
        return (FileSystem.parentFolder(path), String(path[path.index(after: slash)...]))
    }

    /// The destination stored in the symlink at `path`, or nil with errno set.
    private static func readLink(_ path: String) -> String? {
        var capacity = Int(PATH_MAX)
        while capacity <= 1 << 16 {
            var buffer = [CChar](repeating: 0, count: capacity)
            let n = readlink(path, &buffer, capacity)
            if n < 0 { return nil }
            // A full buffer may mean the name was cut; try again with more room.
            if n < capacity { return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
            capacity *= 2
        }
        errno = ENAMETOOLONG
        return nil
    }

    /// Writes every byte, looping over partial writes and EINTR; returns 0 or an errno.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> Int32 {
        bytes.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.baseAddress else { return 0 }
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, base + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                // write(2) returning 0 for a non-empty buffer means no progress is possible.
                if n == 0 { return EIO }
                offset += n
            }
            return 0
        }
    }

    /// fsync, retried on EINTR; returns fsync's result with errno set.
    private static func syncRetrying(_ fd: Int32) -> Int32 {
        while true {
            let result = fsync(fd)
            if result == 0 || errno != EINTR { return result }
        }
    }

    /// The process umask, read without changing it.
    ///
    /// umask(2) can only be read by setting it, which races with other threads creating files;
    /// Linux (4.7+) shows it in /proc/self/status, so that is tried first.
    private static func currentUmask() -> mode_t {
        if let status = fopen("/proc/self/status", "r") {
            defer { fclose(status) }
            var line = [CChar](repeating: 0, count: 256)
            while fgets(&line, Int32(line.count), status) != nil {
                let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if text.hasPrefix("Umask:"),
                    let value = mode_t(String(text.dropFirst(6).filter { !$0.isWhitespace }), radix: 8)
                {
                    return value
                }
            }
        }
        let mask = umask(0o022)
        umask(mask)
        return mask
    }
}

import Glibc

/// Folders only this user can enter (mode 0700): the history store, which holds everything ever
/// painted over, and the crash journal.
///
/// Missing folders on the way are created 0700, as the XDG base directory spec asks. The
/// program's own folders at the end of the path are also checked when they already exist: they
/// must belong to this user (a folder someone else made, say in a shared `$XDG_DATA_HOME`, is
/// refused), and group or other permission bits are taken away.
public enum PrivateFolder {
    /// Why a private folder cannot be had, in words.
    public struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        /// The folder at fault.
        public let path: String
        /// The system error, 0 when the folder belongs to another user.
        public let errno: Int32

        public var description: String {
            errno == 0
                ? "the folder “\(path)” belongs to another user"
                : "cannot create the folder “\(path)”: \(JournalError.words(errno))"
        }
    }

    /// Makes `path` (absolute) a folder, creating what is missing with mode 0700; its last
    /// `ownLevels` components (the program's own folders) must belong to this user and are set
    /// to 0700 if they allow more.
    public static func make(_ path: String, ownLevels: Int) throws(Failure) {
        var current = path.hasPrefix("/") ? "" : "."
        var made: [String] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            current += "/" + part
            made.append(current)
            if mkdir(current, 0o700) != 0 {
                let e = Glibc.errno
                guard e == EEXIST else { throw Failure(path: current, errno: e) }
            }
        }
        guard FileSystem.kind(path) == .folder else { throw Failure(path: path, errno: ENOTDIR) }
        for folder in made.suffix(ownLevels) {
            var info = stat()
            guard stat(folder, &info) == 0 else { throw Failure(path: folder, errno: Glibc.errno) }
            guard info.st_uid == geteuid() else { throw Failure(path: folder, errno: 0) }
            if info.st_mode & 0o077 != 0, chmod(folder, info.st_mode & 0o700) != 0 {
                throw Failure(path: folder, errno: Glibc.errno)
            }
        }
    }
}

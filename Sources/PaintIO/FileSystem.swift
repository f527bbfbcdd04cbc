import Glibc

/// The few file-system and process facts the program needs, straight from libc.
///
/// The program links no Foundation: it would add about 10 MB of resident memory and several
/// milliseconds of start-up for a handful of calls.
public enum FileSystem {
    /// What kind of thing is at a path, following symlinks.
    public enum Kind: Sendable { case missing, file, folder, other }

    /// The kind of `path`.
    public static func kind(_ path: String) -> Kind {
        var info = stat()
        guard stat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        default: return .other
        }
    }

    /// Whether anything exists at `path`.
    public static func exists(_ path: String) -> Bool { kind(path) != .missing }

    /// The names in a folder (without `.` and `..`, and without names that are not UTF-8:
    /// see `name(of:)`), or nil when it cannot be read.
    public static func names(inFolder path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            if let name = name(of: entry), name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// A folder entry's name; nil when it is not UTF-8. Such a name cannot be held as a Swift
    /// string: repaired, its bad bytes would become U+FFFD and the path would name another
    /// file, so the program leaves it alone rather than open or write the wrong one.
    static func name(of entry: UnsafeMutablePointer<dirent>) -> String? {
        withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(validating: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// An environment variable, or nil.
    public static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// An XDG base folder: `$variable` when it holds an absolute path (the XDG spec says
    /// relative values are invalid and must be ignored), else `fallback` under the home folder
    /// (`XDG_DATA_HOME`, `.local/share` → `/home/ana/.local/share`). No trailing slash, so
    /// `+ "/swiftpaint"` names a folder inside it (for `/`, the result is empty).
    ///
    /// `lookup` reads the variable (the process environment; a test passes its own, since
    /// `setenv` in a process whose other threads call `getenv` is unsafe: glibc frees the old
    /// variable array while they may be reading it).
    public static func xdgFolder(
        _ variable: String, fallback: String, lookup: (String) -> String? = FileSystem.environment
    ) -> String {
        if let value = lookup(variable), value.hasPrefix("/") {
            return value.hasSuffix("/") ? String(value.dropLast()) : value
        }
        let home = self.home
        return (home.hasSuffix("/") ? String(home.dropLast()) : home) + "/" + fallback
    }

    /// The current folder.
    public static var currentFolder: String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The user's home folder: $HOME, else the password database.
    public static var home: String {
        if let home = environment("HOME"), !home.isEmpty { return home }
        if let entry = getpwuid(getuid()), let dir = entry.pointee.pw_dir { return String(cString: dir) }
        return "/"
    }

    /// The last component of a path (`/a/b.png` → `b.png`).
    public static func lastComponent(_ path: String) -> String {
        let trimmed = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
        return trimmed.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? trimmed
    }

    /// The folder a path lies in (`/a/b.png` → `/a`, `b.png` → `.`, `/b.png` → `/`).
    public static func parentFolder(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Writes a line to standard error.
    public static func printError(_ line: String) {
        let text = line.hasSuffix("\n") ? line : line + "\n"
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}

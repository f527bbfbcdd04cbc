import Glibc

/// One thing in a folder as the file dialog lists it.
public struct FolderEntry: Sendable, Equatable {
    /// The name in its folder.
    public var name: String
    /// A folder (or a link to one), which the dialog enters.
    public var isFolder: Bool
    /// The size in bytes (files).
    public var size: Int
    /// When it was last modified, seconds since 1970.
    public var modified: Int

    /// Makes an entry.
    public init(name: String, isFolder: Bool, size: Int, modified: Int) {
        self.name = name
        self.isFolder = isFolder
        self.size = size
        self.modified = modified
    }
}

/// The sub-folders and pictures of a folder, for the file dialog: read with `readdir` and one
/// `fstatat` per entry that may be shown (files whose names are not pictures' are passed over
/// without a system call; names that are not UTF-8 are not listed, as no path SwiftPaint can
/// hold names them). Bounded: past `limit` entries the rest are counted, not listed.
public struct FolderListing: Sendable, Equatable {
    /// The folder, absolute.
    public var folder: String
    /// The sub-folders and pictures, in `readdir` order (the dialog sorts them).
    public var entries: [FolderEntry]
    /// Entries that would have been listed past the limit.
    public var leftOut: Int
    /// Sub-folders and pictures (by their names' extension) left out because their names are
    /// not UTF-8: the dialog says how many, rather than hide them silently.
    public var namesNotUTF8: Int

    /// Makes a listing.
    public init(folder: String, entries: [FolderEntry], leftOut: Int = 0, namesNotUTF8: Int = 0) {
        self.folder = folder
        self.entries = entries
        self.leftOut = leftOut
        self.namesNotUTF8 = namesNotUTF8
    }

    /// Lists at most this many entries of one folder.
    public static let defaultLimit = 20_000

    /// Whether a name is a picture's by its extension (what the dialog lists besides folders).
    public static func isPictureName(_ name: String) -> Bool {
        if case .known = ImageFormat.naming(of: name) { return true }
        return false
    }

    /// Reads `folder`: its sub-folders and pictures, hidden ones (a leading `.`) only when
    /// asked; the reason in words when it cannot be read.
    public static func read(
        _ folder: String, hidden: Bool = false, limit: Int = defaultLimit
    ) -> Result<FolderListing, FolderError> {
        guard let dir = opendir(folder) else { return .failure(FolderError(path: folder, errno: errno)) }
        defer { closedir(dir) }
        let fd = dirfd(dir)
        var entries: [FolderEntry] = []
        var leftOut = 0
        var namesNotUTF8 = 0
        while let entry = readdir(dir) {
            // A name that is not UTF-8 is left out: repaired into U+FFFD it would name another
            // file ("�.png"), which Open would open and Save would write. Counted when it would
            // have been listed.
            guard let name = FileSystem.name(of: entry) else {
                if wouldBeListed(entry, hidden: hidden) { namesNotUTF8 += 1 }
                continue
            }
            if name == "." || name == ".." || (!hidden && name.hasPrefix(".")) { continue }
            let type = entry.pointee.d_type
            // A plain file that is not a picture by name: not listed, not even looked at.
            if type == UInt8(DT_REG) && !isPictureName(name) { continue }
            if type != UInt8(DT_REG) && type != UInt8(DT_DIR) && type != UInt8(DT_LNK) && type != UInt8(DT_UNKNOWN) {
                continue
            }
            var info = stat()
            // Links are followed: a link to a folder is entered like one.
            guard fstatat(fd, name, &info, 0) == 0 else { continue }
            let isFolder = info.st_mode & S_IFMT == S_IFDIR
            guard isFolder || (info.st_mode & S_IFMT == S_IFREG && isPictureName(name)) else { continue }
            guard entries.count < limit else {
                leftOut += 1
                continue
            }
            entries.append(
                FolderEntry(
                    name: name, isFolder: isFolder, size: isFolder ? 0 : Int(info.st_size),
                    modified: Int(info.st_mtim.tv_sec)))
        }
        return .success(FolderListing(folder: folder, entries: entries, leftOut: leftOut, namesNotUTF8: namesNotUTF8))
    }

    /// Whether an entry whose name is not UTF-8 would be listed: not hidden (unless asked), a
    /// folder (or what may be one), or a file whose extension is a picture's.
    private static func wouldBeListed(_ entry: UnsafeMutablePointer<dirent>, hidden: Bool) -> Bool {
        let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
        if !hidden && bytes.first == UInt8(ascii: ".") { return false }
        guard entry.pointee.d_type == UInt8(DT_REG) else { return true }
        guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")),
            let ext = String(validating: bytes[(dot + 1)...], as: UTF8.self)
        else { return false }
        return isPictureName("x." + ext)
    }

    /// The entry for one path (links followed), or nil when nothing is there.
    public static func entry(at path: String) -> FolderEntry? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let isFolder = info.st_mode & S_IFMT == S_IFDIR
        return FolderEntry(
            name: FileSystem.lastComponent(path), isFolder: isFolder, size: isFolder ? 0 : Int(info.st_size),
            modified: Int(info.st_mtim.tv_sec))
    }
}

/// Why a folder cannot be listed.
public struct FolderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The folder.
    public let path: String
    /// The system's error number.
    public let errno: Int32

    public init(path: String, errno: Int32) {
        self.path = path
        self.errno = errno
    }

    public var description: String {
        let why: String
        switch errno {
        case ENOENT: why = "it does not exist"
        case EACCES, EPERM: why = "permission denied"
        case ENOTDIR: why = "it is not a folder"
        default: why = JournalError.words(errno)
        }
        return "Cannot open the folder “\(path)”: \(why)"
    }
}

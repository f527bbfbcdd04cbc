import PaintIO

/// What a document knows of its file on disk, to tell when another program changed it since
/// it was opened or saved here.
public enum DiskBaseline: Sendable, Equatable {
    /// Nothing to compare with (an untitled drawing, one restored before its file could be
    /// read): no question is asked.
    case unknown
    /// There was no file when the document was opened: a file there now was made by another
    /// program.
    case absent
    /// The file as it was read or written here.
    case version(FileVersion)
    /// The file as it is now, not read yet: a drawing restored from a crash journal that does
    /// not say which version of its file it knew. The window reads it off its thread
    /// (`Session.changeOnDisk`); a save waits for that read.
    case unread

    /// The file's version, when known.
    public var version: FileVersion? {
        if case .version(let version) = self { return version }
        return nil
    }

    /// The file at `path` as it is now.
    public static func now(_ path: String) -> DiskBaseline {
        guard FileSystem.exists(path) else { return .absent }
        return FileVersion.current(path: path).map(DiskBaseline.version) ?? .unknown
    }
}

import Glibc

/// Why the recovery journal could not be created, written or read, worded for a person.
public enum JournalError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The journal folder could not be created.
    case cannotCreateFolder(path: String, errno: Int32)
    /// A journal file could not be created, opened or locked.
    case cannotOpen(path: String, errno: Int32)
    /// Reading a journal failed with the system error `errno`.
    case cannotRead(path: String, errno: Int32)
    /// Writing or syncing a journal failed with the system error `errno` (ENOSPC: the disk is
    /// full). The document itself is unaffected; only its crash protection is behind.
    case cannotWrite(path: String, errno: Int32)
    /// Another running SwiftPaint holds the journal's lock.
    case inUse(path: String)
    /// The file does not start with the journal signature.
    case notAJournal(path: String)
    /// The journal was written by a newer SwiftPaint (file or header format `version`).
    case unsupportedVersion(path: String, version: Int)
    /// The journal's first record (the document description) is cut short or damaged.
    case damagedHeader(path: String, reason: String)
    /// The journal file holds `bytes` bytes, more than SwiftPaint reads (`limit`); it is left
    /// alone. A writer reports the same when its journal reaches the limit.
    case tooLarge(path: String, bytes: Int, limit: Int)
    /// A record of `bytes` bytes exceeds what a journal record may hold.
    case recordTooLarge(bytes: Int, limit: Int)
    /// The writer was discarded; nothing more can be written to it.
    case closed(path: String)
    /// The picture file at `path` no longer holds the bytes its picture was decoded from
    /// (another program wrote over it since): a journal cannot start from it.
    case baseChanged(path: String)
    /// A journal made while its starting picture was still being copied into it names the
    /// picture file at `path`, which no longer holds that picture (`reason`, e.g. "no longer
    /// exists"): its drawing cannot be restored now, and the journal is kept as it is.
    case baseMissing(path: String, reason: String)

    /// One sentence for a person.
    public var description: String {
        switch self {
        case .cannotCreateFolder(let path, let e):
            return "Cannot create the recovery folder “\(path)”: \(Self.words(e))"
        case .cannotOpen(let path, let e):
            return "Cannot open the recovery journal “\(path)”: \(Self.words(e))"
        case .cannotRead(let path, let e):
            return "Cannot read the recovery journal “\(path)”: \(Self.words(e))"
        case .cannotWrite(let path, let e):
            return "Cannot write the recovery journal “\(path)”: \(Self.words(e)); "
                + "recent changes are not protected against a crash until this is fixed"
        case .inUse(let path):
            return "The recovery journal “\(path)” is in use by another running SwiftPaint"
        case .notAJournal(let path):
            return "“\(path)” is not a SwiftPaint recovery journal"
        case .unsupportedVersion(let path, let version):
            return "The recovery journal “\(path)” was written by a newer SwiftPaint (format \(version))"
        case .damagedHeader(let path, let reason):
            return "The recovery journal “\(path)” is damaged at its start (\(reason)); it cannot be restored"
        case .tooLarge(let path, let bytes, let limit):
            return "The recovery journal “\(path)” is \(bytes / (1 << 20)) MB, more than SwiftPaint reads "
                + "(at most \(limit / (1 << 20)) MB)"
        case .recordTooLarge(let bytes, let limit):
            return "A change of \(bytes / (1 << 20)) MB is too large for the recovery journal "
                + "(at most \(limit / (1 << 20)) MB)"
        case .closed(let path):
            return "The recovery journal “\(path)” was already closed"
        case .baseChanged(let path):
            return "“\(path)” was changed by another program since it was opened"
        case .baseMissing(let path, let reason):
            return "the drawing started from “\(path)”, which \(reason); its journal is kept, "
                + "and it can be restored once that file holds the picture again"
        }
    }

    /// The errno, for the cases that carry one.
    public var errno: Int32? {
        switch self {
        case .cannotCreateFolder(_, let e), .cannotOpen(_, let e), .cannotRead(_, let e), .cannotWrite(_, let e):
            return e
        default:
            return nil
        }
    }

    /// Whether the error means the disk (or the quota) is full.
    public var isDiskFull: Bool { errno == ENOSPC || errno == EDQUOT }

    /// errno in words ("the disk is full").
    public static func words(_ e: Int32) -> String {
        switch e {
        case ENOENT: return "the folder does not exist"
        case EACCES, EPERM: return "permission denied"
        case EROFS: return "the disk is read-only"
        case ENOSPC, EDQUOT: return "the disk is full"
        case EISDIR: return "it is a folder"
        case ENOTDIR: return "a part of the path is not a folder"
        case EEXIST: return "a file of that name already exists"
        case ENAMETOOLONG: return "the name is too long"
        case EIO: return "the disk reported an input/output error"
        case EFBIG: return "the file is too large for the disk"
        case ENOMEM: return "out of memory"
        case EMFILE, ENFILE: return "too many files are open"
        case EWOULDBLOCK: return "another running SwiftPaint is using it"
        default:
            guard let c = strerror(e) else { return "error \(e)" }
            let text = String(cString: c)
            return text.prefix(1).lowercased() + text.dropFirst()
        }
    }
}

import Glibc
import PaintCore

/// Why an image file could not be opened or saved, with the path as the person typed it.
///
/// Every case renders as one sentence for the status bar (`message`), naming the file and the
/// reason in words rather than errno names, because a failed load or save must tell the person
/// what to do next while the document stays untouched.
public enum ImageFileError: Error, CustomStringConvertible, Equatable {
    /// Opening or reading the file failed with the system error `errno`.
    case cannotRead(path: String, errno: Int32)
    /// The path names a device, pipe or socket rather than an ordinary file.
    case notAFile(path: String, saving: Bool)
    /// The file holds `bytes` bytes, more than the `limit` SwiftPaint reads into memory.
    case fileTooBig(path: String, bytes: Int, limit: Int)
    /// The file is empty.
    case emptyFile(path: String)
    /// The file does not start with the PNG signature (where only PNG is expected).
    case notPNG(path: String)
    /// The file's content is none of the formats SwiftPaint opens.
    case unknownFormat(path: String)
    /// The file is damaged; `reason` says how, in the decoder's words or ours.
    case damaged(path: String, reason: String)
    /// The file ends before the picture does; `reason` says where.
    case cutShort(path: String, reason: String)
    /// The file's metadata (text, color profiles) needs more memory than `limit` bytes and
    /// could not be skipped (PNG decoding skips what it does not need before giving up).
    case metadataTooLarge(path: String, limit: Int)
    /// The image's header claims `width` x `height` pixels, more than `limits` allow.
    case tooLarge(path: String, width: Int, height: Int, limits: ImageLimits)
    /// The encoder could not encode the image; `reason` is its message.
    case cannotEncode(path: String, reason: String)
    /// Writing the file (or its temporary twin, or the folder) failed with `errno`.
    case cannotWrite(path: String, errno: Int32)
    /// The file name asks for a format SwiftPaint opens but does not write (`format`: "GIF").
    case cannotSave(path: String, format: String)
    /// The file name's extension `ext` names no format SwiftPaint writes.
    case unknownExtension(path: String, ext: String)
    /// The folder exists but refuses new files (a system folder such as /proc): the temporary
    /// file an atomic save writes first cannot be made there.
    case folderRefusesFiles(path: String, folder: String)

    /// A decode told to stop midway (`ReplayControl`: a paste cancelled): no file is at fault.
    public static func stopped(path: String) -> ImageFileError {
        .damaged(path: path, reason: "the decode was stopped")
    }

    /// The path the person asked to open or save (empty when encoding without a file).
    public var path: String {
        switch self {
        case .cannotRead(let path, _), .notAFile(let path, _), .fileTooBig(let path, _, _),
            .emptyFile(let path), .notPNG(let path), .unknownFormat(let path), .damaged(let path, _),
            .cutShort(let path, _), .metadataTooLarge(let path, _), .tooLarge(let path, _, _, _),
            .cannotEncode(let path, _), .cannotWrite(let path, _), .cannotSave(let path, _),
            .unknownExtension(let path, _), .folderRefusesFiles(let path, _):
            return path
        }
    }

    /// Whether the error happened while saving (as opposed to opening).
    public var isSaveError: Bool {
        switch self {
        case .cannotEncode, .cannotWrite, .cannotSave, .unknownExtension, .folderRefusesFiles: return true
        case .notAFile(_, let saving): return saving
        default: return false
        }
    }

    /// One sentence for a person, e.g. `Cannot open “/x/a.png”: no such file`.
    public var message: String {
        let verb = isSaveError ? "save" : "open"
        // An encode error has no file yet; name the image instead of printing empty quotes.
        // A long path is shortened in the middle, so the reason after it stays in view.
        let subject = path.isEmpty ? "the image" : "“\(Self.shortened(path))”"
        return "Cannot \(verb) \(subject): \(reason)"
    }

    /// One sentence for a paste from the clipboard that is no picture, e.g. `Cannot paste: the
    /// clipboard holds no picture SwiftPaint can read`: the clipboard is no file to
    /// open, so `message` ("Cannot open “the clipboard”: not a PNG file") reads wrong there.
    public var clipboardMessage: String {
        switch self {
        case .emptyFile: return "Cannot paste: the clipboard is empty"
        case .notPNG, .unknownFormat:
            return "Cannot paste: the clipboard holds no picture SwiftPaint can read (PNG, JPEG, BMP, WebP or GIF)"
        case .damaged(_, let detail): return "Cannot paste: the clipboard's picture is damaged (\(detail))"
        case .cutShort(_, let detail): return "Cannot paste: the clipboard's picture is cut short (\(detail))"
        default: return "Cannot paste the clipboard's picture: \(reason)"
        }
    }

    /// The message, so that `print(error)` and string interpolation read well.
    public var description: String { message }

    /// The same error about another path; the codec does not know the file name when encoding.
    func withPath(_ newPath: String) -> ImageFileError {
        switch self {
        case .cannotRead(_, let e): return .cannotRead(path: newPath, errno: e)
        case .notAFile(_, let saving): return .notAFile(path: newPath, saving: saving)
        case .fileTooBig(_, let bytes, let limit): return .fileTooBig(path: newPath, bytes: bytes, limit: limit)
        case .emptyFile: return .emptyFile(path: newPath)
        case .notPNG: return .notPNG(path: newPath)
        case .unknownFormat: return .unknownFormat(path: newPath)
        case .damaged(_, let reason): return .damaged(path: newPath, reason: reason)
        case .cutShort(_, let reason): return .cutShort(path: newPath, reason: reason)
        case .metadataTooLarge(_, let limit): return .metadataTooLarge(path: newPath, limit: limit)
        case .tooLarge(_, let w, let h, let limits):
            return .tooLarge(path: newPath, width: w, height: h, limits: limits)
        case .cannotEncode(_, let reason): return .cannotEncode(path: newPath, reason: reason)
        case .cannotWrite(_, let e): return .cannotWrite(path: newPath, errno: e)
        case .cannotSave(_, let format): return .cannotSave(path: newPath, format: format)
        case .unknownExtension(_, let ext): return .unknownExtension(path: newPath, ext: ext)
        case .folderRefusesFiles(_, let folder): return .folderRefusesFiles(path: newPath, folder: folder)
        }
    }

    /// The part after the colon.
    var reason: String {
        switch self {
        case .cannotRead(_, let e):
            return Self.words(forErrno: e, saving: false)
        case .cannotWrite(_, let e):
            return Self.words(forErrno: e, saving: true)
        case .notAFile:
            return "it is not an ordinary file"
        case .fileTooBig(_, let bytes, let limit):
            return "the file is \(Self.megabytes(bytes)), more than SwiftPaint reads (at most \(Self.megabytes(limit)))"
        case .emptyFile:
            return "the file is empty"
        case .notPNG:
            return "not a PNG file"
        case .unknownFormat:
            return "it is not a picture SwiftPaint can open (PNG, JPEG, WebP, GIF or BMP)"
        case .damaged(_, let detail):
            return "the file is damaged (\(detail))"
        case .cutShort(_, let detail):
            return "the file is cut short (\(detail))"
        case .metadataTooLarge(_, let limit):
            return
                "its metadata (text, color profiles) is more than SwiftPaint reads (at most \(Self.megabytes(limit)))"
        case .tooLarge(_, let w, let h, let limits):
            return "the image is \(w) x \(h) pixels, more than SwiftPaint can edit "
                + "(at most \(limits.maxSide) on a side and \(Self.millions(limits.maxPixels)) pixels)"
        case .cannotEncode(_, let detail):
            return "the image could not be encoded (\(detail))"
        case .cannotSave(_, let format):
            return "SwiftPaint opens \(format) pictures but does not write them; save as .png, .jpg or .webp"
        case .unknownExtension(_, let ext):
            return "“.\(ext)” is not a picture format SwiftPaint writes (.png, .jpg, .webp)"
        case .folderRefusesFiles(_, let folder):
            return "the folder “\(Self.shortened(folder))” does not accept new files"
        }
    }

    /// errno in words; the save wording differs because ENOENT then means the folder is missing.
    private static func words(forErrno e: Int32, saving: Bool) -> String {
        switch e {
        case ENOENT: return saving ? "the folder does not exist" : "no such file"
        case EACCES, EPERM: return "permission denied"
        case EROFS: return "the disk is read-only"
        case ENOSPC, EDQUOT: return "the disk is full"
        case EISDIR: return "it is a folder"
        case ENOTDIR: return "a part of the path is not a folder"
        case ELOOP: return "too many symbolic links"
        case ENAMETOOLONG: return "the name is too long"
        case EIO: return "the disk reported an input/output error"
        case EFBIG: return "the file is too large for the disk"
        case ENOMEM: return "out of memory"
        case EMFILE, ENFILE: return "too many files are open"
        default:
            // Anything rarer: the C library's sentence, lower-cased to fit after the colon.
            guard let c = strerror(e) else { return "error \(e)" }
            let text = String(cString: c)
            return text.prefix(1).lowercased() + text.dropFirst()
        }
    }

    /// `path` cut to at most `limit` characters by an ellipsis in the middle: its start (the
    /// folder it is in) and its end (the file name's end and extension) stay.
    public static func shortened(_ path: String, limit: Int = 120) -> String {
        guard path.count > limit else { return path }
        let head = (limit - 1) / 3
        return path.prefix(head) + "…" + path.suffix(limit - 1 - head)
    }

    /// 268435456 -> "268 million"; smaller counts are written out.
    private static func millions(_ n: Int) -> String {
        n >= 1_000_000 ? "\(n / 1_000_000) million" : "\(n)"
    }

    /// A byte count in whole megabytes (MiB, written MB as people read it).
    private static func megabytes(_ n: Int) -> String {
        "\(n / (1 << 20)) MB"
    }
}

extension ImageFileError {
    /// The reason given for a file whose `bytes` are too few for the `width` x `height`
    /// picture its header claims (each decoder bounds pixels per byte in its own way).
    static func tooFewBytes(_ bytes: Int, width: Int, height: Int) -> String {
        "it holds \(bytes) bytes, too few for a \(width) x \(height) picture"
    }
}

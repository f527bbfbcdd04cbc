import Glibc
import PaintCore

/// What shows through the paint layer of a journalled document: the `Background` cases a journal
/// can describe without pixels (an image background is stored as the base image instead).
public enum JournalBackground: Equatable, Sendable {
    case color(Color)
    case transparent

    /// Writes a tag byte (0 transparent, 1 color) and, for a color, its r, g, b.
    func encode(into out: inout ByteWriter) {
        switch self {
        case .transparent: out.backgroundColor(nil)
        case .color(let c): out.backgroundColor(c)
        }
    }

    /// Reads what `encode` wrote: nil when cut short, `.failure` for an unknown tag.
    static func decode(from input: inout ByteReader) -> Result<JournalBackground, BackgroundTagError>? {
        switch input.byte() {
        case 0: return .success(.transparent)
        case 1: return input.rgb().map { .success(.color($0)) }
        case nil: return nil
        default: return .failure(BackgroundTagError())
        }
    }
}

/// An unknown background tag.
struct BackgroundTagError: Error {}

/// The first record of a journal: everything needed to rebuild the document's starting state,
/// onto which the journal's operations are replayed.
public struct JournalHeader: Equatable, Sendable {
    /// The absolute path the document saves to; nil while it is untitled.
    public var documentPath: String?
    /// Canvas size in pixels.
    public var width: Int
    public var height: Int
    /// The background behind the paint layer.
    public var background: JournalBackground
    /// PNG bytes of the starting paint layer when the document started from a file or a save;
    /// nil for a blank (fully transparent) layer.
    public var baseImage: [UInt8]?
    /// When the journal was started, in unix seconds.
    public var createdAt: Int64
    /// The process that wrote the journal.
    public var pid: Int32
    /// The document's file as the window last read or wrote it when the journal started (nil
    /// when there was none, or it was not known): a restored drawing is saved over that file
    /// without asking only while it is still that version.
    public var documentVersion: FileVersion?
    /// While the opened picture is still being copied into the journal: the picture file the
    /// journal starts from, which a restore reads only while it still holds those bytes
    /// (`JournalBaseReference.read`). Never together with `baseImage`.
    public var baseReference: JournalBaseReference?
    /// What could be read of the damaged source of a picture the journal does not hold as its
    /// starting picture (a Paste as New Picture of a cut PNG: a blank canvas, then the paste),
    /// so that the restored drawing is still marked (`Document.damage`). A damaged file's
    /// bytes as the starting picture say it themselves when decoded; this is nil then.
    public var sourceDamage: PictureDamage?

    /// The version of the header's binary form written by `encoded()` for a header without a
    /// base reference (the form every SwiftPaint reads).
    public static let formatVersion: UInt8 = 1
    /// The version written for a header with a base reference: SwiftPaint builds that do not
    /// know references refuse it as written by a newer SwiftPaint, and never replay its
    /// changes on a blank canvas.
    public static let referenceFormatVersion: UInt8 = 2
    /// The version written for a header with a `sourceDamage` (and a base reference or not):
    /// builds that do not know it say the journal was written by a newer SwiftPaint and leave
    /// it for one that does, rather than call it damaged.
    public static let damageFormatVersion: UInt8 = 3

    public init(
        documentPath: String?, width: Int, height: Int, background: JournalBackground,
        baseImage: [UInt8]? = nil, createdAt: Int64 = JournalHeader.now(), pid: Int32 = getpid(),
        documentVersion: FileVersion? = nil, baseReference: JournalBaseReference? = nil,
        sourceDamage: PictureDamage? = nil
    ) {
        self.documentPath = documentPath
        self.sourceDamage = sourceDamage
        self.baseReference = baseReference
        self.documentVersion = documentVersion
        self.width = width
        self.height = height
        self.background = background
        self.baseImage = baseImage
        self.createdAt = createdAt
        self.pid = pid
    }

    /// The current time in unix seconds (CLOCK_REALTIME).
    public static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec)
    }

    /// Whether `path` may be where a restored document saves: absolute, without empty, `.` or
    /// `..` components, without control characters, and at most PATH_MAX bytes. A journal is
    /// data from disk: a path like `../../etc/passwd` in it must never become a save target.
    public static func isUsable(_ path: String) -> Bool {
        guard path.hasPrefix("/"), path.utf8.count < Int(PATH_MAX) else { return false }
        guard !path.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }) else {
            return false
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        return !parts.contains { $0.isEmpty || $0 == "." || $0 == ".." }
    }

    // MARK: Binary form
    //
    //   version           UInt8 (= formatVersion; referenceFormatVersion with a base reference;
    //                     damageFormatVersion with a source damage)
    //   flags             UInt8: bit 0 documentPath present, bit 1 baseImage present, bit 2
    //                     documentVersion present, bit 3 baseReference present (version 2 and
    //                     3 only, never with bit 1), bit 4 sourceDamage present (version 3 only)
    //   width, height     UInt32 each
    //   background        UInt8 tag (0 transparent, 1 color) + r, g, b for a color
    //   createdAt         UInt64 (Int64 bit pattern)
    //   pid               UInt32 (Int32 bit pattern)
    //   documentPath      UInt32 byte count + UTF-8, when present
    //   documentVersion   `FileVersion`'s 40 bytes, when present
    //   baseReference     UInt32 byte count + UTF-8 of the path, UInt64 size, UInt32 CRC-32,
    //                     when present
    //   sourceDamage      `PictureDamage.encode`'s form, when present
    //   baseImage         UInt32 byte count + bytes, when present
    //
    // All little-endian; nothing may follow.

    /// The header's binary form.
    public func encoded() -> [UInt8] {
        encodedFields() + (baseImage ?? [])
    }

    /// The binary form up to the base image's bytes, which end it (with their count): a writer
    /// writes those bytes from where they are instead of copying them into the record.
    ///
    /// `baseCount` stands for a base image of that many bytes written from elsewhere (a
    /// picture file) when the header holds none.
    func encodedFields(baseCount: Int? = nil) -> [UInt8] {
        let baseCount = baseImage?.count ?? baseCount
        var out = ByteWriter()
        let reference = baseCount == nil ? baseReference : nil
        out.byte(
            sourceDamage != nil
                ? Self.damageFormatVersion : reference == nil ? Self.formatVersion : Self.referenceFormatVersion)
        out.byte(
            (documentPath == nil ? 0 : 1) | (baseCount == nil ? 0 : 2) | (documentVersion == nil ? 0 : 4)
                | (reference == nil ? 0 : 8) | (sourceDamage == nil ? 0 : 16))
        out.uint32(UInt32(clamping: width))
        out.uint32(UInt32(clamping: height))
        background.encode(into: &out)
        out.uint64(UInt64(bitPattern: createdAt))
        out.uint32(UInt32(bitPattern: pid))
        if let documentPath {
            let utf8 = Array(documentPath.utf8)
            out.uint32(UInt32(utf8.count))
            out.append(utf8)
        }
        documentVersion?.encode(into: &out)
        if let reference {
            let utf8 = Array(reference.path.utf8)
            out.uint32(UInt32(utf8.count))
            out.append(utf8)
            out.uint64(UInt64(reference.count))
            out.uint32(reference.crc)
        }
        sourceDamage?.encode(into: &out)
        if let baseCount { out.uint32(UInt32(truncatingIfNeeded: baseCount)) }
        return out.bytes
    }

    /// Why `bytes` is not a header this build can read.
    enum DecodingProblem: Error, Equatable {
        case unsupportedVersion(UInt8)
        case malformed(String)
    }

    /// Decodes `encoded()`.
    static func decode(_ bytes: [UInt8]) throws(DecodingProblem) -> JournalHeader {
        var input = ByteReader(bytes)
        guard let version = input.byte() else { throw .malformed("it is empty") }
        guard (formatVersion...damageFormatVersion).contains(version) else { throw .unsupportedVersion(version) }
        // A reference, and only a reference, makes a version 2 header; a source damage a version
        // 3 one. A reference is never with a base image.
        let known: UInt8 = version == formatVersion ? 7 : version == referenceFormatVersion ? 8 | 5 : 16 | 8 | 7
        guard let flags = input.byte(), flags & ~known == 0, flags & 10 != 10,
            version != referenceFormatVersion || flags & 8 != 0, version != damageFormatVersion || flags & 16 != 0
        else { throw .malformed("unknown flags") }
        guard let width = input.uint32(), let height = input.uint32() else { throw .malformed("it is cut short") }
        let background: JournalBackground
        switch JournalBackground.decode(from: &input) {
        case .success(let b): background = b
        case .failure: throw .malformed("unknown background")
        case nil: throw .malformed("it is cut short")
        }
        guard let created = input.uint64(), let pid = input.uint32() else { throw .malformed("it is cut short") }
        var path: String? = nil
        if flags & 1 != 0 {
            guard let count = input.uint32(), let utf8 = input.take(Int(count)) else {
                throw .malformed("the document path is cut short")
            }
            guard let text = String(validating: utf8, as: UTF8.self) else {
                throw .malformed("the document path is not UTF-8")
            }
            path = text
        }
        var fileVersion: FileVersion?
        if flags & 4 != 0 {
            guard let read = FileVersion.decode(from: &input) else {
                throw .malformed("the file's version is cut short")
            }
            fileVersion = read
        }
        var reference: JournalBaseReference?
        if flags & 8 != 0 {
            guard let count = input.uint32(), let utf8 = input.take(Int(count)),
                let path = String(validating: utf8, as: UTF8.self), let size = input.uint64(), let crc = input.uint32(),
                size <= UInt64(JournalFormat.maxRecordBytes)
            else { throw .malformed("the starting picture's file is not described") }
            reference = JournalBaseReference(path: path, count: Int(size), crc: crc)
        }
        var damage: PictureDamage?
        if flags & 16 != 0 {
            guard let read = PictureDamage.decode(from: &input) else {
                throw .malformed("the damaged source is not described")
            }
            damage = read
        }
        var base: [UInt8]? = nil
        if flags & 2 != 0 {
            guard let count = input.uint32(), let image = input.take(Int(count)) else {
                throw .malformed("the base image is cut short")
            }
            base = image
        }
        guard input.isAtEnd else { throw .malformed("unexpected bytes after it") }
        return JournalHeader(
            documentPath: path, width: Int(width), height: Int(height), background: background,
            baseImage: base, createdAt: Int64(bitPattern: created), pid: Int32(bitPattern: pid),
            documentVersion: fileVersion, baseReference: reference, sourceDamage: damage)
    }
}

/// The picture formats SwiftPaint knows: all five open, PNG, JPEG and WebP also save.
///
/// Opening looks at the file's first bytes, never at its name: a JPEG called `photo.png` opens
/// as the JPEG it is. Saving goes by the name's extension, because that is what the person chose.
public enum ImageFormat: String, Sendable, CaseIterable {
    case png, jpeg, webp, gif, bmp

    /// The name people know, for messages: "PNG", "JPEG".
    public var name: String {
        switch self {
        case .png: "PNG"
        case .jpeg: "JPEG"
        case .webp: "WebP"
        case .gif: "GIF"
        case .bmp: "BMP"
        }
    }

    /// The usual file extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        default: rawValue
        }
    }

    /// Whether SwiftPaint writes this format.
    public var canSave: Bool { self == .png || self == .jpeg || self == .webp }

    /// Whether a saved file keeps transparency (JPEG has no alpha channel).
    public var keepsTransparency: Bool { self != .jpeg }

    /// Whether a saved file can carry SwiftPaint's editing history (only PNG has a place for it).
    public var keepsHistory: Bool { self == .png }

    /// The format `bytes` are in, by their signature; nil for anything else.
    public static func sniff(_ bytes: [UInt8]) -> ImageFormat? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && bytes[offset..<(offset + prefix.count)].elementsEqual(prefix)
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return .webp }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("BM".utf8)) && bytes.count >= 26 { return .bmp }
        return nil
    }

    /// What a file name's extension says about the format to save in.
    public enum Naming: Equatable, Sendable {
        /// The name has no extension (`drawing1`): the caller adds `.png`.
        case none
        /// The extension names a known format (`.jpg`, `.JPEG`, `.png`).
        case known(ImageFormat)
        /// The extension names nothing SwiftPaint knows (`.xyz`), without the dot.
        case unknown(String)
    }

    /// The format a file name asks for. Only the last path component counts, and a leading dot
    /// (`.hidden`) is a name, not an extension.
    public static func naming(of path: String) -> Naming {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return .none }
        let ext = String(name[name.index(after: dot)...])
        guard !ext.isEmpty else { return .none }
        switch ext.lowercased() {
        case "png": return .known(.png)
        case "jpg", "jpeg", "jpe", "jfif": return .known(.jpeg)
        case "webp": return .known(.webp)
        case "gif": return .known(.gif)
        case "bmp", "dib": return .known(.bmp)
        default: return .unknown(ext)
        }
    }
}

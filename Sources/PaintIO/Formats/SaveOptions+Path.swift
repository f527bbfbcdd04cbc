extension SaveOptions {
    /// The options for saving to `path`, by its extension; throws when the extension names a
    /// format SwiftPaint does not write or none it knows. A path without an extension is an
    /// error here too: the window adds `.png` before it gets this far (`ImageFormat.naming`).
    ///
    /// `quality` is a quality chosen (`init(format:chosen:)`: 1...100, and 100 is lossless for
    /// WebP); nil keeps the defaults (JPEG 90, WebP lossless).
    public static func forSaving(to path: String, quality: Int? = nil) throws(ImageFileError) -> SaveOptions {
        switch ImageFormat.naming(of: path) {
        case .known(let format) where format.canSave:
            return quality.map { SaveOptions(format: format, chosen: $0) } ?? SaveOptions(format: format)
        case .known(let format):
            throw .cannotSave(path: path, format: format.name)
        case .unknown(let ext):
            throw .unknownExtension(path: path, ext: ext)
        case .none:
            throw .unknownExtension(path: path, ext: "")
        }
    }
}

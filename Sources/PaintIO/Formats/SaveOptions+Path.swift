extension SaveOptions {
    /// The options for saving to `path`, by its extension; throws when the extension names a
    /// format SwiftPaint does not write or none it knows. A path without an extension is an
    /// error here too: the window adds `.png` before it gets this far (`ImageFormat.naming`).
    ///
    /// `quality` (1...100) is the JPEG quality and makes WebP lossy; nil keeps the defaults
    /// (JPEG 90, WebP lossless).
    public static func forSaving(to path: String, quality: Int? = nil) throws(ImageFileError) -> SaveOptions {
        switch ImageFormat.naming(of: path) {
        case .known(let format) where format.canSave:
            var options = SaveOptions(format: format)
            if let quality {
                options.quality = min(100, max(1, quality))
                options.lossless = false
            }
            return options
        case .known(let format):
            throw .cannotSave(path: path, format: format.name)
        case .unknown(let ext):
            throw .unknownExtension(path: path, ext: ext)
        case .none:
            throw .unknownExtension(path: path, ext: "")
        }
    }
}

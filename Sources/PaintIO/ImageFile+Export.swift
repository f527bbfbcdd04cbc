extension ImageFile {
    /// Converts the picture file `input` to `output`, in the format `output`'s extension names:
    /// what `swiftpaint --export OUT IN` does, without a window.
    ///
    /// The picture is opened exactly as the window opens it (by content, in sRGB, upright,
    /// transparency kept when the file has it) and saved as the window saves it: with alpha when
    /// the picture has it and the format keeps it, else flattened onto white, with the print
    /// resolution the file declares. `quality` as in `SaveOptions.forSaving(to:quality:)`; a
    /// JPEG saved from a JPEG keeps the file's quality and color sampling as Ctrl+S does, unless
    /// another `quality` is chosen (`SaveOptions.keep(_:chosen:)`), and a WebP saved from a
    /// lossy file (a JPEG, a lossy WebP) is lossy at the quality Save As offers for it, unless a
    /// `quality` is chosen (`SaveOptions.followLossySource()`). A damaged or cut-short
    /// file, which the window opens with what could be read of it (`PictureDamage`), is refused
    /// here with the reason: a conversion run by a script must not pass a part of a picture on
    /// as if it were the whole.
    public static func export(from input: String, to output: String, quality: Int? = nil) throws(ImageFileError) {
        // The target's format is checked first, so a bad name fails before any decoding.
        var options = try SaveOptions.forSaving(to: output, quality: quality)
        // Read up to the picture's end only (`readPicture`): junk after it is never held.
        let opened = try open(path: input)
        if let damage = opened.picture.damage { throw damage.error }
        options.resolution = opened.resolution
        let head = Array(opened.bytes.prefix(PictureResolution.headBytes))
        if quality == nil && opened.picture.format.storesLossy(head: head) { options.followLossySource() }
        if let source = JPEGSource(head: head) { options.keep(source, chosen: quality) }
        try save(opened.picture.image, to: output, options: options, withAlpha: opened.picture.hasAlpha)
    }
}

extension ImageFile {
    /// Converts the picture file `input` to `output`, in the format `output`'s extension names:
    /// what `swiftpaint --export OUT IN` does, without a window.
    ///
    /// The picture is opened exactly as the window opens it (by content, in sRGB, upright,
    /// transparency kept when the file has it) and saved as the window saves it: with alpha when
    /// the picture has it and the format keeps it, else flattened onto white, with the print
    /// resolution the file declares. `quality` as in `SaveOptions.forSaving(to:quality:)`.
    public static func export(from input: String, to output: String, quality: Int? = nil) throws(ImageFileError) {
        // The target's format is checked first, so a bad name fails before any decoding.
        var options = try SaveOptions.forSaving(to: output, quality: quality)
        // Read up to the picture's end only (`readPicture`): junk after it is never held.
        let opened = try open(path: input)
        options.resolution = opened.resolution
        try save(opened.picture.image, to: output, options: options, withAlpha: opened.picture.hasAlpha)
    }
}

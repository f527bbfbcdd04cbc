extension ImageFormat {
    /// Whether a file of this format whose first bytes are `head` (its first
    /// `PictureResolution.headBytes`) stores its picture lossy: a JPEG, or a WebP whose first
    /// image chunk is lossy (`WebPCodec.isLossy(head:)`). Its picture is then saved as WebP
    /// lossy unless a quality is chosen (`SaveOptions.followLossySource()`).
    public func storesLossy(head: [UInt8]) -> Bool {
        self == .jpeg || (self == .webp && WebPCodec.isLossy(head: head) == true)
    }
}

extension SaveOptions {
    /// The WebP quality a picture opened from a lossy file is saved at unless another is
    /// chosen, as GIMP's WebP export does: lossless would keep only the compression's noise,
    /// several times larger (a 1200 x 900 photo from a JPEG was 840 KB lossless, 163 KB at 90).
    /// The window's Save As offers it and `swiftpaint --export` writes it.
    public static let lossyWebPQuality = 90

    /// Options for `format` at a quality chosen: typed into Save As' question, offered by it, or
    /// given as `--quality`. It is clamped to 1...100; 100 is lossless for WebP, as the question
    /// says ("100 lossless").
    public init(
        format: ImageFormat, chosen quality: Int, sampling: JPEGSampling? = nil, resolution: PictureResolution? = nil
    ) {
        let quality = min(100, max(1, quality))
        self.init(
            format: format, quality: quality, lossless: format == .webp && quality == 100, sampling: sampling,
            resolution: resolution)
    }

    /// Makes WebP options for a picture opened from a lossy file (`ImageFormat.storesLossy`),
    /// with no quality chosen, lossy at `lossyWebPQuality`, as Save As offers for it; other
    /// formats are left as they are.
    public mutating func followLossySource() {
        guard format == .webp else { return }
        (quality, lossless) = (Self.lossyWebPQuality, false)
    }
}

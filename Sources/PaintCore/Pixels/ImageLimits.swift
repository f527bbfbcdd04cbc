/// The largest image SwiftPaint agrees to open or make, and the most a file's metadata may cost.
///
/// A file's header can claim any size (a PNG up to 2^31 - 1 on a side, which would need
/// exabytes); every decoder checks the claim against these limits before a single pixel buffer
/// is allocated, so a hostile or damaged file fails with words instead of an abort. The engine
/// checks a canvas resize or a scale against them the same way (a journal could ask for any
/// size), which is why they live here and not with the files. The same goes for metadata: a
/// text chunk or color profile may claim gigabytes in a file of a hundred bytes, and no decoder
/// keeps more than `maxMetadataBytes` of it.
public struct ImageLimits: Sendable, Equatable {
    /// The longest side in pixels.
    public var maxSide: Int
    /// The most pixels in total (width x height).
    public var maxPixels: Int
    /// The most bytes of metadata (text chunks, color profiles, EXIF) one picture may hold in
    /// memory while it is decoded, counted together, decompressed.
    public var maxMetadataBytes: Int

    /// Limits with the given longest side, pixel count and metadata size (8 MB by default).
    public init(maxSide: Int, maxPixels: Int, maxMetadataBytes: Int = 8 << 20) {
        self.maxSide = maxSide
        self.maxPixels = maxPixels
        self.maxMetadataBytes = maxMetadataBytes
    }

    /// 32768 on a side and 2^28 pixels: one gigabyte of packed pixels, before undo copies.
    public static let `default` = ImageLimits(maxSide: 32768, maxPixels: 1 << 28)

    /// Whether an image of `width` x `height` pixels fits within these limits.
    public func allows(width: Int, height: Int) -> Bool {
        guard width >= 0, height >= 0, width <= maxSide, height <= maxSide else { return false }
        // Both sides are at most maxSide here, so the product cannot overflow for any sane limit;
        // multipliedReportingOverflow keeps it correct for absurd custom limits too.
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        return !overflow && pixels <= maxPixels
    }
}

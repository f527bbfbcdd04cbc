/// The largest image SwiftPaint agrees to open or make.
///
/// A PNG header can claim any size up to libpng's own limit of a million by a million pixels,
/// which would need terabytes; the limits are checked against the header before a single pixel
/// buffer is allocated, so a hostile or damaged file fails with words instead of an abort. The
/// engine checks a canvas resize or a scale against them the same way (a journal could ask for
/// any size), which is why they live here and not with the files.
public struct ImageLimits: Sendable, Equatable {
    /// The longest side in pixels.
    public var maxSide: Int
    /// The most pixels in total (width x height).
    public var maxPixels: Int

    /// Limits with the given longest side and pixel count.
    public init(maxSide: Int, maxPixels: Int) {
        self.maxSide = maxSide
        self.maxPixels = maxPixels
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

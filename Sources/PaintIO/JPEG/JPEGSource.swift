/// What a JPEG was written with, as its header tells: its quality (`JPEGQuality`) and its
/// color sampling (`JPEGSampling`). A save as JPEG of the picture opened from it keeps both, as
/// GIMP's "use quality settings from original image" does: Ctrl+S in the window and
/// `swiftpaint --export OUT.jpg IN.jpg` alike, so a camera's quality-97 4:2:0 photo is not
/// written again at 90 (detail lost) nor at 4:4:4 (a third larger for color it never held).
public struct JPEGSource: Equatable, Sendable {
    /// The quality the file was written at; nil when its header holds no luminance table.
    public let quality: Int?
    /// The file's color sampling; nil for gray, CMYK, or chroma SwiftPaint would not write the
    /// same (the color then follows the quality saved at).
    public let sampling: JPEGSampling?

    /// A source with these settings.
    public init(quality: Int?, sampling: JPEGSampling?) {
        self.quality = quality
        self.sampling = sampling
    }

    /// The settings of the JPEG whose file starts with `head` (its header up to the first scan:
    /// `PictureResolution.headBytes` of the file hold it); nil when the head is no JPEG's.
    public init?(head: [UInt8]) {
        guard head.count >= 4, head[0] == 0xFF, head[1] == 0xD8 else { return nil }
        self.init(quality: JPEGQuality.estimate(head: head), sampling: JPEGSampling.read(head: head))
    }

    /// The quality a save writes, and Save As offers, when `set` is the quality set: the file's
    /// own when it is higher, else `set` (a file below it is saved at `set`, with its own
    /// sampling: its chroma is halved already).
    public func quality(over set: Int) -> Int { max(set, quality ?? 1) }

    /// What is kept once `chosen` is chosen as the quality (typed into Save As' question, or
    /// `--quality`) while `set` is set: the source when `chosen` is the quality offered
    /// (`quality(over: set)`: accepting the offer chooses nothing), else nil: another quality
    /// is the user's, and the color then follows it (4:4:4 from 90 up, 4:2:0 below).
    public func kept(choosing chosen: Int, set: Int) -> JPEGSource? {
        chosen == quality(over: set) ? self : nil
    }
}

extension SaveOptions {
    /// Keeps, in JPEG options, what the JPEG the picture was opened from was written with, as
    /// a save in the window keeps it (`JPEGSource`): its quality when higher than `quality`,
    /// and its sampling. With a quality `chosen` (`--quality`), as a quality typed into Save
    /// As' question: the one offered keeps the file's settings; another is written as chosen,
    /// its color by it.
    public mutating func keep(_ opened: JPEGSource, chosen: Int?) {
        guard format == .jpeg else { return }
        let source = chosen == nil ? opened : opened.kept(choosing: quality, set: Self.defaultQuality)
        guard let source else { return }
        quality = source.quality(over: quality)
        sampling = source.sampling
    }
}

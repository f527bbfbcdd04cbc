/// The picture as a save writes it, at one moment: the paint's tiles by reference and the
/// background, taken on the thread that draws in time proportional to the tile count, and
/// flattened on another (a save's thread). The engine copies a tile before it next writes into
/// it, so strokes drawn meanwhile never reach the snapshot.
public struct PictureSnapshot: Sendable {
    /// The paint layer (premultiplied), its tiles shared with the engine.
    public let paint: PackedPixels
    /// What shows through where the paint is not opaque.
    public let background: Background

    /// The canvas size.
    public var width: Int { paint.rect.width }
    public var height: Int { paint.rect.height }

    /// The picture as `StrokeEngine.flattenedImage` gives it: the paint over the background, or
    /// the paint alone when the background is transparent.
    public func flattened() -> PixelImage {
        var out = paint.image()
        background.flatten(&out, at: paint.rect)
        return out
    }
}

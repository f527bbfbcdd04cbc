import PaintCore

/// How to write a picture: the format and its settings.
public struct SaveOptions: Equatable, Sendable {
    /// The format to write; must be one that `canSave`.
    public var format: ImageFormat
    /// JPEG quality, and WebP quality when not lossless: 1...100.
    public var quality: Int
    /// WebP only: lossless (the default) or lossy at `quality`.
    public var lossless: Bool
    /// The print resolution to declare (PNG and JPEG; WebP has no place for one); nil: none.
    public var resolution: PictureResolution?

    /// The JPEG quality people get unless they choose another: 90, as in GIMP and Krita.
    public static let defaultQuality = 90

    /// Options for `format` with the default quality, WebP lossless.
    public init(
        format: ImageFormat, quality: Int = SaveOptions.defaultQuality, lossless: Bool = true,
        resolution: PictureResolution? = nil
    ) {
        self.format = format
        self.quality = quality
        self.lossless = lossless
        self.resolution = resolution
    }
}

/// Encoding pictures in the formats SwiftPaint writes.
public enum ImageEncoder {
    /// Encodes `image` as `options` say.
    ///
    /// With `withAlpha` (and a format that keeps transparency) the alpha channel is written;
    /// otherwise the picture must be opaque already (flatten it first, see `flattened(onto:)`),
    /// or its premultiplied channels come out as the picture over black.
    public static func encode(_ image: PixelImage, options: SaveOptions, withAlpha: Bool) throws(ImageFileError)
        -> [UInt8]
    {
        switch options.format {
        case .png: return try PNGCodec.encode(image, withAlpha: withAlpha, resolution: options.resolution)
        case .jpeg: return try JPEGCodec.encode(image, quality: options.quality, resolution: options.resolution)
        case .webp:
            return try WebPCodec.encode(image, quality: options.lossless ? nil : options.quality, withAlpha: withAlpha)
        case .gif, .bmp: throw .cannotSave(path: "", format: options.format.name)
        }
    }

    /// `image` flattened onto an opaque `backdrop` (packed, e.g. white `0xFFFFFFFF`): what a
    /// format without alpha must be given for a picture with transparency.
    public static func flattened(_ image: PixelImage, onto backdrop: UInt32) -> PixelImage {
        guard !image.isOpaque else { return image }
        var out = image
        out.pixels.withUnsafeMutableBufferPointer { pixels in
            for i in pixels.indices { pixels[i] = Pixel.over(pixels[i], backdrop: backdrop) }
        }
        return out
    }
}

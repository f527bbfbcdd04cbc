import PaintCore

/// How to write a picture: the format and its settings.
public struct SaveOptions: Equatable, Sendable {
    /// The format to write; must be one that `canSave`.
    public var format: ImageFormat
    /// JPEG quality, and WebP quality when not lossless: 1...100.
    public var quality: Int
    /// WebP only: lossless (the default) or lossy at `quality`.
    public var lossless: Bool
    /// JPEG only: the color's sampling (the opened JPEG's own, kept); nil: by `quality`, 4:4:4
    /// from 90 up, 4:2:0 below.
    public var sampling: JPEGSampling?
    /// The print resolution to declare (PNG and JPEG; WebP has no place for one); nil: none.
    public var resolution: PictureResolution?

    /// The JPEG quality people get unless they choose another: 90, as in GIMP and Krita.
    public static let defaultQuality = 90

    /// Options for `format` with the default quality, WebP lossless, JPEG color by quality.
    public init(
        format: ImageFormat, quality: Int = SaveOptions.defaultQuality, lossless: Bool = true,
        sampling: JPEGSampling? = nil, resolution: PictureResolution? = nil
    ) {
        self.format = format
        self.quality = quality
        self.lossless = lossless
        self.sampling = sampling
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
        case .jpeg:
            return try JPEGCodec.encode(
                image, quality: options.quality, sampling: options.sampling, resolution: options.resolution)
        case .webp:
            return try WebPCodec.encode(image, quality: options.lossless ? nil : options.quality, withAlpha: withAlpha)
        case .gif, .bmp: throw .cannotSave(path: "", format: options.format.name)
        }
    }

    /// The pixels a reader decodes from `encode(image, options:, withAlpha:)`, worked out
    /// without decoding it where the format keeps them exactly: a PNG and a lossless WebP hold
    /// 8-bit straight channels, which every decoder here premultiplies again (`Pixel.premultiply`;
    /// a premultiplied pixel comes back as it was), or, without alpha, the channels opaque. Nil
    /// for a lossy format (JPEG, lossy WebP): only a decode says what its file holds. A save with
    /// a history names it by these pixels (`SavedHistory.attach`), and a 12-megapixel decode
    /// took 0.34 to 0.76 s of it.
    public static func decodedExactly(_ image: PixelImage, options: SaveOptions, withAlpha: Bool) -> PixelImage? {
        switch options.format {
        case .png: break
        case .webp where options.lossless: break
        default: return nil
        }
        // What the encoder writes and the decoder reads back, pixel by pixel: the same pixel for
        // every valid premultiplied one, so the picture is copied only for one that is not.
        @inline(__always) func readBack(_ p: UInt32) -> UInt32 {
            withAlpha ? Pixel.premultiply(Pixel.unpremultiply(p)) : p | 0xFF00_0000
        }
        let first = image.pixels.withUnsafeBufferPointer { pixels in
            pixels.firstIndex { readBack($0) != $0 }
        }
        guard let first else { return image }
        var out = image
        out.pixels.withUnsafeMutableBufferPointer { pixels in
            for i in first..<pixels.count { pixels[i] = readBack(pixels[i]) }
        }
        return out
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

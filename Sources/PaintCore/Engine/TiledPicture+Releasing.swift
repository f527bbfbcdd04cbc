import Glibc

extension TiledPicture {
    /// The tiles of `image`, giving the image's memory back to the system band by band as it
    /// is cut: a decoder that can only make the whole picture at once (WebP, GIF, BMP, an
    /// interlaced PNG) then peaks at about one picture, not at the picture plus its tiles.
    ///
    /// Only whole pages of pixels already cut are given back (`MADV_DONTNEED`), inside a buffer
    /// this initializer owns: when `image` still shares its pixels with another value, they are
    /// copied first (no one else ever sees the released pages, which read as zero).
    public init(releasing image: consuming PixelImage) {
        let (width, height) = (image.width, image.height)
        var pixels = image.pixels
        _ = consume image
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        self = pixels.withUnsafeMutableBufferPointer { buffer in
            let writer = Writer(width: width, height: height)
            // A PixelImage's pixels are always width x height; an empty one has no tiles to cut.
            guard let base = buffer.baseAddress, buffer.count == width * height else { return writer.finish() }
            let start = Int(bitPattern: base)
            var released = (start + page - 1) / page * page
            for band in 0..<writer.bands {
                writer.cut(band, from: base + (band << Tile.shift) * width)
                // The pages wholly before the next band's first pixel are not read again.
                let end = (start + min(height, (band + 1) << Tile.shift) * width * 4) / page * page
                if page > 0, end > released {
                    _ = madvise(UnsafeMutableRawPointer(bitPattern: released), end - released, MADV_DONTNEED)
                    released = end
                }
            }
            return writer.finish()
        }
    }
}

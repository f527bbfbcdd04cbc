import PaintCore

extension PNGCodec {
    /// `image` as a palette PNG when it has at most 256 colours (nil otherwise): what a picture
    /// opened from a palette PNG (a screenshot, a GIF, pixel art) keeps as a history's starting
    /// picture, mostly a quarter of its RGBA encoding's size or less (`CleanBase.png(of:)` keeps
    /// the smaller of the two).
    ///
    /// Every byte comes from the pixels alone, so a file with the same pixels gives the same
    /// bytes: the palette holds exactly the colours used, those with transparency first (so
    /// `tRNS` covers only them) and each group in the order the colours first appear, row by
    /// row; the depth is the least that holds them (1, 2, 4 or 8 bits), the bits past a row's
    /// last pixel are 0, and the rows are not filtered (as is usual for palettes).
    static func encodeIndexed(_ image: PixelImage) -> [UInt8]? {
        guard image.width > 0, image.height > 0, image.width <= Int(Int32.max), image.height <= Int(Int32.max),
            let (colors, indices) = palette(of: image)
        else { return nil }
        let depth = colors.count <= 2 ? 1 : colors.count <= 4 ? 2 : colors.count <= 16 ? 4 : 8
        let rowBytes = (image.width * depth + 7) / 8
        var rows = [UInt8](repeating: 0, count: image.height * (1 + rowBytes))
        rows.withUnsafeMutableBufferPointer { out in
            indices.withUnsafeBufferPointer { indices in
                for y in 0..<image.height {
                    let row = y * (1 + rowBytes) + 1  // after the filter byte, 0: none
                    for x in 0..<image.width {
                        let bit = x * depth
                        out[row + bit / 8] |= indices[y * image.width + x] << (8 - depth - bit % 8)
                    }
                }
            }
        }
        guard let compressed = Zlib.compress(rows, level: 9) else { return nil }
        func be(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
        let straight = colors.map(Pixel.unpremultiply)
        var png = signature
        png += PNGChunks.makeChunk(
            type: Array("IHDR".utf8), data: be(image.width) + be(image.height) + [UInt8(depth), 3, 0, 0, 0])
        png += PNGChunks.makeChunk(type: Array("sRGB".utf8), data: [0])
        png += PNGChunks.makeChunk(
            type: Array("PLTE".utf8),
            data: straight.flatMap {
                [
                    UInt8(truncatingIfNeeded: $0 >> 16), UInt8(truncatingIfNeeded: $0 >> 8),
                    UInt8(truncatingIfNeeded: $0),
                ]
            })
        let alphas = straight.prefix { $0 >> 24 != 0xFF }.map { UInt8(truncatingIfNeeded: $0 >> 24) }
        if !alphas.isEmpty { png += PNGChunks.makeChunk(type: Array("tRNS".utf8), data: alphas) }
        png += PNGChunks.makeChunk(type: Array("IDAT".utf8), data: compressed)
        png += PNGChunks.makeChunk(type: Array("IEND".utf8), data: [])
        return png
    }

    /// The colours of `image` (premultiplied, at most 256) in palette order, and each pixel's
    /// index into them; nil when there are more.
    private static func palette(of image: PixelImage) -> (colors: [UInt32], indices: [UInt8])? {
        var seen: [UInt32: UInt8] = [:]
        var order: [UInt32] = []
        var indices = [UInt8](repeating: 0, count: image.pixels.count)
        // Indices in the order colours first appear; runs of one colour skip the lookup.
        let complete = image.pixels.withUnsafeBufferPointer { pixels in
            indices.withUnsafeMutableBufferPointer { out in
                var last = pixels[0]
                var lastIndex: UInt8 = 0
                seen[last] = 0
                order.append(last)
                for i in pixels.indices {
                    let p = pixels[i]
                    if p != last {
                        if let known = seen[p] {
                            lastIndex = known
                        } else {
                            guard order.count < 256 else { return false }
                            lastIndex = UInt8(order.count)
                            seen[p] = lastIndex
                            order.append(p)
                        }
                        last = p
                    }
                    out[i] = lastIndex
                }
                return true
            }
        }
        guard complete else { return nil }
        // Those with transparency first, so that tRNS needs to cover only them.
        let byPlace =
            order.indices.filter { order[$0] >> 24 != 0xFF } + order.indices.filter { order[$0] >> 24 == 0xFF }
        var place = [UInt8](repeating: 0, count: order.count)
        for (i, first) in byPlace.enumerated() { place[first] = UInt8(i) }
        indices.withUnsafeMutableBufferPointer { out in
            for i in out.indices { out[i] = place[Int(out[i])] }
        }
        return (byPlace.map { order[$0] }, indices)
    }
}

@testable import PaintCore

/// Pictures written as text, one character a pixel, for tests that read like the picture they
/// check: each letter stands for its own opaque color, `.` for transparent paint.
enum PixelPictures {
    /// The opaque pixel a letter stands for (`.`: transparent).
    static func pixel(_ c: Character) -> UInt32 {
        guard c != ".", let ascii = c.asciiValue else { return 0 }
        let v = UInt32(ascii)
        return 0xFF00_0000 | v << 16 | (v &* 7 & 0xFF) << 8 | (255 - v)
    }

    /// A picture from rows separated by newlines (leading and trailing spaces ignored).
    static func image(_ text: String) -> PixelImage {
        let rows = text.split(separator: "\n").map { $0.trimmingCharacters() }.filter { !$0.isEmpty }
        let width = rows.first?.count ?? 0
        precondition(rows.allSatisfy { $0.count == width }, "ragged picture")
        var image = PixelImage(width: width, height: rows.count)
        for (y, row) in rows.enumerated() {
            for (x, c) in row.enumerated() { image[x, y] = pixel(c) }
        }
        return image
    }

    /// The text of a picture made of letter pixels (`?` for a pixel no letter makes).
    static func text(_ image: PixelImage) -> String {
        var lookup: [UInt32: Character] = [0: "."]
        for v in UInt8(33)...UInt8(126) {
            let c = Character(UnicodeScalar(v))
            lookup[pixel(c)] = c
        }
        return (0..<image.height).map { y in
            String((0..<image.width).map { x in lookup[image[x, y]] ?? "?" })
        }.joined(separator: "\n")
    }

    /// The paint of an engine as text.
    static func text(_ engine: StrokeEngine) -> String { text(engine.paintImage()) }

    /// A picture of the given size with a different letter-like value in every pixel (for
    /// checking where each pixel went on pictures too big to write out).
    static func numbered(_ width: Int, _ height: Int) -> PixelImage {
        var image = PixelImage(width: width, height: height)
        for i in image.pixels.indices { image.pixels[i] = 0xFF00_0000 | UInt32(i & 0xFF_FFFF) }
        return image
    }
}

extension Substring {
    fileprivate func trimmingCharacters() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

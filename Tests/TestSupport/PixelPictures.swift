import PaintCore

/// Pictures written as text, one character a pixel, for tests that read like the picture they
/// check: each letter stands for its own opaque color, `.` for transparent paint.
public enum PixelPictures {
    /// The opaque pixel a letter stands for (`.`: transparent).
    public static func pixel(_ c: Character) -> UInt32 {
        guard c != ".", let ascii = c.asciiValue else { return 0 }
        let v = UInt32(ascii)
        return 0xFF00_0000 | v << 16 | (v &* 7 & 0xFF) << 8 | (255 - v)
    }

    /// A picture from rows separated by newlines (leading and trailing spaces ignored).
    public static func image(_ text: String) -> PixelImage {
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
    public static func text(_ image: PixelImage) -> String {
        var lookup: [UInt32: Character] = [0: "."]
        for v in UInt8(33)...UInt8(126) {
            let c = Character(UnicodeScalar(v))
            lookup[pixel(c)] = c
        }
        return (0..<image.height).map { y in
            String((0..<image.width).map { x in lookup[image[x, y]] ?? "?" })
        }.joined(separator: "\n")
    }

    /// The color a letter stands for (what a brush or fill paints it with).
    public static func color(_ c: Character) -> Color {
        let p = pixel(c)
        return Color(r: UInt8(p >> 16 & 0xFF), g: UInt8(p >> 8 & 0xFF), b: UInt8(p & 0xFF))
    }

    /// The view as text, one character per pixel by darkness (black on white): `.` white, `-`
    /// light, `+` mid, `#` dark (>= 75% ink).
    public static func shades(_ engine: StrokeEngine) -> String {
        (0..<engine.height).map { y in
            String(
                (0..<engine.width).map { x -> Character in
                    let ink = 255 - Int(engine.viewPixel(x: x, y: y).map { $0 >> 16 & 0xFF } ?? 0)
                    return ink == 0 ? "." : ink < 96 ? "-" : ink < 192 ? "+" : "#"
                })
        }.joined(separator: "\n")
    }

    /// The paint of an engine as text.
    public static func text(_ engine: StrokeEngine) -> String { text(engine.paintImage()) }

    /// A picture of the given size with a different letter-like value in every pixel (for
    /// checking where each pixel went on pictures too big to write out).
    public static func numbered(_ width: Int, _ height: Int) -> PixelImage {
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

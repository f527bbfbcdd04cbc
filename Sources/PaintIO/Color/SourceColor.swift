import Glibc

/// What a file says about the color space of its samples.
///
/// SwiftPaint works in sRGB, as the screen does; a file in another space is converted on open,
/// the way a color-managed viewer shows it. The order of preference is the PNG specification's
/// (and browsers'): an ICC profile, then an sRGB declaration, then gamma and chromaticities.
enum SourceColor: Equatable {
    /// sRGB already (declared, or nothing said): samples are used as they are.
    case sRGB
    /// An ICC profile (PNG iCCP, JPEG APP2, WebP ICCP), decompressed.
    case icc([UInt8])
    /// A power-law transfer: `sample = light ^ fileGamma` (PNG gAMA / 100000), with the
    /// primaries and white point when the file gives them (cHRM), else sRGB's.
    case gamma(Double, Chromaticities?)
    /// Primaries and white point without a gamma: the transfer is taken to be sRGB's.
    case chromaticities(Chromaticities)

    /// Chromaticities (x, y) of a white point and three primaries, as PNG's cHRM stores them.
    struct Chromaticities: Equatable {
        var white: (x: Double, y: Double)
        var red: (x: Double, y: Double)
        var green: (x: Double, y: Double)
        var blue: (x: Double, y: Double)

        static let sRGB = Chromaticities(
            white: (0.3127, 0.3290), red: (0.64, 0.33), green: (0.30, 0.60), blue: (0.15, 0.06))

        /// Whether these are sRGB's, to the 5 digits cHRM stores.
        var isSRGB: Bool {
            let pairs = [
                (white, Self.sRGB.white), (red, Self.sRGB.red), (green, Self.sRGB.green), (blue, Self.sRGB.blue),
            ]
            return pairs.allSatisfy { abs($0.0.x - $0.1.x) < 0.00002 && abs($0.0.y - $0.1.y) < 0.00002 }
        }

        static func == (a: Chromaticities, b: Chromaticities) -> Bool {
            a.white == b.white && a.red == b.red && a.green == b.green && a.blue == b.blue
        }
    }

    /// The sRGB encoding of linear light `v` in 0...1 (IEC 61966-2-1).
    static func sRGBEncode(_ v: Double) -> Double {
        let c = min(1, max(0, v))
        return c <= 0.003_130_8 ? 12.92 * c : 1.055 * pow(c, 1 / 2.4) - 0.055
    }
}

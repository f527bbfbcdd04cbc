import CLCMS2

/// The conversion of a matrix/TRC RGB profile (nearly every RGB profile in pictures: Adobe RGB,
/// Display P3, ProPhoto, camera and gAMA/cHRM ones) to sRGB, computed directly: each channel
/// through its tone curve to linear light, a 3 x 3 matrix from the profile's primaries to
/// sRGB's (both as lcms2 reads them, adapted to the D50 connection space, so the adaptations
/// cancel), clipped, and sRGB's encoding.
///
/// Why not lcms2 itself: at 16 bits its optimized transforms interpolate a lookup grid that is
/// off by up to 14 levels in the dark tones, and its exact, unoptimized pipeline takes about
/// 1.4 s of CPU for a 4K picture; this is exact to well under a level and about as fast as
/// decoding. Relative colorimetric, which is also what perceptual means for such a profile.
struct MatrixShaper {
    /// A 16-bit sample to linear light, per channel (65536 entries each).
    private let curves: [[Float]]
    /// Linear source RGB to linear sRGB, row-major.
    private let matrix: [Float]
    /// Linear light quantized to 16 bits to the 16-bit sRGB sample.
    private let encode: [UInt16]

    /// The conversion for `profile`, or nil when it is not a matrix/TRC RGB profile lcms2 can
    /// read the tags of.
    init?(_ profile: cmsHPROFILE) {
        guard cmsIsMatrixShaper(profile) != 0, cmsGetColorSpace(profile) == cmsSigRgbData,
            let source = Self.colorants(profile), let srgb = cmsCreate_sRGBProfile()
        else { return nil }
        defer { cmsCloseProfile(srgb) }
        guard let target = Self.colorants(srgb), let inverse = Self.inverse(target) else { return nil }
        var curves: [[Float]] = []
        for tag in [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag] {
            guard let raw = cmsReadTag(profile, tag) else { return nil }
            let curve = OpaquePointer(raw)
            curves.append((0...65535).map { cmsEvalToneCurveFloat(curve, Float($0) / 65535) })
        }
        self.curves = curves
        matrix = Self.product(inverse, source).map(Float.init)
        encode = (0...65535).map { UInt16((SourceColor.sRGBEncode(Double($0) / 65535) * 65535).rounded()) }
    }

    /// Converts `count` straight RGBA pixels of 16-bit samples at `samples`, in place; alpha stays.
    func apply(_ samples: UnsafeMutablePointer<UInt16>, count: Int) {
        curves[0].withUnsafeBufferPointer { red in
            curves[1].withUnsafeBufferPointer { green in
                curves[2].withUnsafeBufferPointer { blue in
                    encode.withUnsafeBufferPointer { encode in
                        let m = matrix
                        for i in 0..<count {
                            let p = samples + i * 4
                            let r = red[Int(p[0])]
                            let g = green[Int(p[1])]
                            let b = blue[Int(p[2])]
                            for c in 0..<3 {
                                let linear = m[c * 3] * r + m[c * 3 + 1] * g + m[c * 3 + 2] * b
                                let index = Int((min(1, max(0, linear)) * 65535).rounded())
                                p[c] = encode[index]
                            }
                        }
                    }
                }
            }
        }
    }

    /// The profile's RGB to XYZ matrix (its colorant tags, as columns), row-major.
    private static func colorants(_ profile: cmsHPROFILE) -> [Double]? {
        var columns: [cmsCIEXYZ] = []
        for tag in [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag] {
            guard let raw = cmsReadTag(profile, tag) else { return nil }
            columns.append(raw.assumingMemoryBound(to: cmsCIEXYZ.self).pointee)
        }
        return [
            columns[0].X, columns[1].X, columns[2].X, columns[0].Y, columns[1].Y, columns[2].Y,
            columns[0].Z, columns[1].Z, columns[2].Z,
        ]
    }

    private static func product(_ a: [Double], _ b: [Double]) -> [Double] {
        var out = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                var sum = 0.0
                for k in 0..<3 { sum += a[row * 3 + k] * b[k * 3 + column] }
                out[row * 3 + column] = sum
            }
        }
        return out
    }

    private static func inverse(_ m: [Double]) -> [Double]? {
        let det =
            m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6])
            + m[2] * (m[3] * m[7] - m[4] * m[6])
        guard abs(det) > 1e-12 else { return nil }
        let cofactors = [
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        return cofactors.map { $0 / det }
    }
}

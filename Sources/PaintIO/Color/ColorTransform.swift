import CLCMS2
import Glibc

/// Converts straight RGBA samples from a file's color space to sRGB, at 16 bits per sample.
///
/// Three ways, by what the conversion is: a per-channel table when each channel maps on its own
/// (a gamma with sRGB's primaries, or a gray profile), computed exactly in double precision; a
/// matrix and curves for matrix/TRC profiles (`MatrixShaper`, nearly every RGB profile);
/// otherwise Little CMS (lcms2) with the profile, unoptimized. All work on 16-bit samples, so
/// an 8-bit result is within one level of the exact conversion. Alpha is never changed.
final class ColorTransform {
    private enum Kind {
        /// 65536 entries: a 16-bit sample to its 16-bit sRGB value, the same for R, G and B.
        case table([UInt16])
        /// Tone curves and a matrix, for a matrix/TRC profile.
        case matrixShaper(MatrixShaper)
        /// An lcms2 transform from TYPE_RGBA_16 to TYPE_RGBA_16, alpha copied.
        case lcms(cmsHTRANSFORM)
    }

    private let kind: Kind

    private init(_ kind: Kind) { self.kind = kind }

    deinit {
        if case .lcms(let transform) = kind { cmsDeleteTransform(transform) }
    }

    /// The conversion for samples described by `source`, for a gray or a color picture; nil
    /// when there is nothing to convert (sRGB), or when the description cannot be used (a
    /// damaged profile, a gray profile on a color picture): then the samples are shown as sRGB,
    /// as viewers do.
    static func make(for source: SourceColor, gray: Bool) -> ColorTransform? {
        switch source {
        case .sRGB:
            return nil
        case .gamma(let fileGamma, let chromaticities):
            guard fileGamma > 0, fileGamma.isFinite else { return nil }
            if chromaticities.map({ $0.isSRGB }) ?? true || gray {
                return ColorTransform(.table(Self.table { SourceColor.sRGBEncode(pow($0, 1 / fileGamma)) }))
            }
            return chromaticities.flatMap { lcms(primaries: $0, gamma: 1 / fileGamma) }
        case .chromaticities(let chromaticities):
            guard !chromaticities.isSRGB, !gray else { return nil }
            return lcms(primaries: chromaticities, gamma: nil)
        case .icc(let bytes):
            return lcms(profile: bytes, gray: gray)
        }
    }

    /// A conversion of 8-bit CMYK (`inverted`: stored as Adobe writes it, 255 meaning no ink)
    /// through a CMYK ICC profile to 16-bit sRGB (`convert(cmyk:to:count:)`); nil when lcms2
    /// cannot use the profile.
    static func cmyk(profile bytes: [UInt8], inverted: Bool) -> ColorTransform? {
        guard bytes.count >= 132, bytes.count <= Int(UInt32.max) else { return nil }
        guard let input = bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }) else {
            return nil
        }
        defer { cmsCloseProfile(input) }
        guard cmsGetColorSpace(input) == cmsSigCmykData, let output = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(output) }
        guard
            let t = cmsCreateTransform(
                input, inverted ? clcms_TYPE_CMYK_8_REV : clcms_TYPE_CMYK_8, output, clcms_TYPE_RGB_16,
                intent(of: input), UInt32(cmsFLAGS_NOOPTIMIZE))
        else { return nil }
        return ColorTransform(.lcms(t))
    }

    /// Converts `count` pixels of 8-bit CMYK at `cmyk` to 16-bit RGB at `rgb` (a transform
    /// made by `cmyk(profile:inverted:)`).
    func convert(cmyk: UnsafeRawPointer, to rgb: UnsafeMutablePointer<UInt16>, count: Int) {
        if case .lcms(let transform) = kind { cmsDoTransform(transform, cmyk, rgb, UInt32(count)) }
    }

    /// Converts `count` straight RGBA pixels of 16-bit samples at `samples`, in place.
    func apply(_ samples: UnsafeMutablePointer<UInt16>, count: Int) {
        switch kind {
        case .table(let table):
            table.withUnsafeBufferPointer { t in
                for i in 0..<count {
                    let p = samples + i * 4
                    p[0] = t[Int(p[0])]
                    p[1] = t[Int(p[1])]
                    p[2] = t[Int(p[2])]
                }
            }
        case .matrixShaper(let shaper):
            shaper.apply(samples, count: count)
        case .lcms(let transform):
            cmsDoTransform(transform, samples, samples, UInt32(count))
        }
    }

    /// A table of `f` (0...1 to 0...1) over every 16-bit value.
    private static func table(_ f: (Double) -> Double) -> [UInt16] {
        (0...65535).map { UInt16((min(1, max(0, f(Double($0) / 65535))) * 65535).rounded()) }
    }

    // MARK: lcms2

    /// Flags for every transform: alpha copied as it is; no precalculated lookup grid, whose
    /// interpolation costs more than a level in the dark tones (the pipeline is evaluated
    /// exactly instead; only pictures with such profiles pay for it).
    private static let flags = UInt32(cmsFLAGS_COPY_ALPHA | cmsFLAGS_NOOPTIMIZE)

    /// A transform from an ICC profile to sRGB, or nil when lcms2 cannot read the profile or it
    /// does not describe this kind of picture.
    private static func lcms(profile bytes: [UInt8], gray: Bool) -> ColorTransform? {
        guard bytes.count >= 132, bytes.count <= Int(UInt32.max) else { return nil }
        guard let input = bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }) else {
            return nil
        }
        defer { cmsCloseProfile(input) }
        let space = cmsGetColorSpace(input)
        if gray {
            // A gray picture maps one value to one value: tabulate lcms2's answer for every
            // 16-bit gray, then convert by table.
            guard space == cmsSigGrayData else { return nil }
            return grayTable(input)
        }
        guard space == cmsSigRgbData else { return nil }
        return transform(from: input, intent: intent(of: input))
    }

    /// A transform from primaries and a gamma (nil: sRGB's transfer) to sRGB.
    private static func lcms(primaries c: SourceColor.Chromaticities, gamma: Double?) -> ColorTransform? {
        var white = cmsCIExyY(x: c.white.x, y: c.white.y, Y: 1)
        var triple = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: c.red.x, y: c.red.y, Y: 1), Green: cmsCIExyY(x: c.green.x, y: c.green.y, Y: 1),
            Blue: cmsCIExyY(x: c.blue.x, y: c.blue.y, Y: 1))
        guard let curve = toneCurve(gamma: gamma) else { return nil }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        guard let input = cmsCreateRGBProfile(&white, &triple, &curves) else { return nil }
        defer { cmsCloseProfile(input) }
        return transform(from: input, intent: UInt32(INTENT_PERCEPTUAL))
    }

    private static func toneCurve(gamma: Double?) -> OpaquePointer? {
        guard let gamma else {
            // IEC 61966-2-1 as lcms2's parametric type 4: (a x + b)^g above d, c x below.
            let parameters: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.040_45]
            return cmsBuildParametricToneCurve(nil, 4, parameters)
        }
        return cmsBuildGamma(nil, gamma)
    }

    private static func transform(from input: cmsHPROFILE, intent: UInt32) -> ColorTransform? {
        if intent != UInt32(INTENT_ABSOLUTE_COLORIMETRIC), let shaper = MatrixShaper(input) {
            return ColorTransform(.matrixShaper(shaper))
        }
        guard let output = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(output) }
        guard
            let t = cmsCreateTransform(
                input, clcms_TYPE_RGBA_16, output, clcms_TYPE_RGBA_16, intent, flags)
        else { return nil }
        return ColorTransform(.lcms(t))
    }

    private static func grayTable(_ input: cmsHPROFILE) -> ColorTransform? {
        guard let output = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(output) }
        guard
            let t = cmsCreateTransform(
                input, clcms_TYPE_GRAY_16, output, clcms_TYPE_RGB_16, intent(of: input),
                UInt32(cmsFLAGS_NOOPTIMIZE))
        else { return nil }
        defer { cmsDeleteTransform(t) }
        let grays = (0...65535).map { UInt16($0) }
        var rgb = [UInt16](repeating: 0, count: 65536 * 3)
        cmsDoTransform(t, grays, &rgb, 65536)
        // A gray profile gives neutral sRGB; green carries the most weight if it does not quite.
        return ColorTransform(.table((0..<65536).map { rgb[$0 * 3 + 1] }))
    }

    /// The profile's own rendering intent when it supports it, else perceptual.
    private static func intent(of profile: cmsHPROFILE) -> UInt32 {
        let wanted = cmsGetHeaderRenderingIntent(profile)
        // The header's intent is the file's word, not ICC's four: lcms2 2.14 looks it up in a
        // table of four without checking (`cmsIsCLUT`), and a damaged profile's intent of
        // 0xd83da90b read far past it and killed the program.
        guard wanted <= UInt32(INTENT_ABSOLUTE_COLORIMETRIC) else { return UInt32(INTENT_PERCEPTUAL) }
        return cmsIsIntentSupported(profile, wanted, UInt32(LCMS_USED_AS_INPUT)) != 0
            ? wanted : UInt32(INTENT_PERCEPTUAL)
    }
}

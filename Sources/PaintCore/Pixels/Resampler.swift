import CPixman
import Glibc

/// Scales premultiplied pictures through pixman's separable-convolution filters, the
/// resampling the X server and cairo use.
///
/// Along each axis the filter is the Mitchell–Netravali cubic (pixman's `CUBIC`), the choice
/// ImageMagick makes for pictures with alpha: it rings far less than Lanczos, so a stroke's
/// anti-aliased rim grows no halo. Enlarging, it interpolates between source pixels; shrinking,
/// it is stretched over as many source pixels as one destination pixel covers (pixman's sample
/// filter), which is what keeps detail finer than the new pixels from aliasing into moiré: a
/// one-pixel checkerboard shrunk to a quarter becomes an even gray. An axis that keeps its size
/// is copied as it is.
///
/// The destination is made in tiles of at most 256 x 256 pixels, each from just the source
/// pixels its filter reaches: pixman's 16.16 fixed-point coordinates then stay small (they
/// cannot address past 32,767), and the position error of stepping across a tile stays far
/// below a pixel.
public enum Resampler {
    /// How many times one side may shrink in one scale (past it a filter would span more source
    /// pixels than pixman's coordinates can hold).
    public static let maxShrink = 2048

    /// Whether a width x height picture can be scaled to newWidth x newHeight.
    public static func canScale(width: Int, height: Int, toWidth newWidth: Int, height newHeight: Int) -> Bool {
        width > 0 && height > 0 && newWidth > 0 && newHeight > 0 && width <= newWidth * maxShrink
            && height <= newHeight * maxShrink
    }

    /// pixman's reconstruction and sample kernels for one axis shrunk by `scale` (source
    /// pixels per destination pixel).
    static func kernels(scale: Double) -> (reconstruct: pixman_kernel_t, sample: pixman_kernel_t) {
        if scale > 1 { return (PIXMAN_KERNEL_IMPULSE, PIXMAN_KERNEL_CUBIC) }
        if scale < 1 { return (PIXMAN_KERNEL_CUBIC, PIXMAN_KERNEL_IMPULSE) }
        return (PIXMAN_KERNEL_BOX, PIXMAN_KERNEL_IMPULSE)
    }

    /// Scales the width x height pixels at `source` into the newWidth x newHeight buffer at
    /// `destination` (both row-major, no padding); false when the sizes cannot be scaled
    /// (`canScale`) or pixman refuses. The result is premultiplied: a channel the cubic's small
    /// overshoot lifted above its alpha is brought back to it.
    public static func scale(
        _ source: UnsafePointer<UInt32>, width: Int, height: Int, into destination: UnsafeMutablePointer<UInt32>,
        width newWidth: Int, height newHeight: Int
    ) -> Bool {
        guard canScale(width: width, height: height, toWidth: newWidth, height: newHeight) else { return false }
        let sx = Double(width) / Double(newWidth)
        let sy = Double(height) / Double(newHeight)
        let kx = kernels(scale: sx)
        let ky = kernels(scale: sy)
        var count: Int32 = 0
        guard
            let params = pixman_filter_create_separable_convolution(
                &count, fixed(sx), fixed(sy), kx.reconstruct, ky.reconstruct, kx.sample, ky.sample, 4, 4)
        else { return false }
        defer { free(params) }
        // Taps either side of a sample position (params 0 and 1 are the filter's widths).
        let reachX = Int(params[0] >> 16) / 2 + 2
        let reachY = Int(params[1] >> 16) / 2 + 2
        // Tiles small enough that their source windows stay well inside pixman's coordinates.
        let tileX = max(1, min(256, 8192 / max(1, Int(sx.rounded(.up)))))
        let tileY = max(1, min(256, 8192 / max(1, Int(sy.rounded(.up)))))
        let source = UnsafeMutablePointer(mutating: source)
        var ok = true
        for ty in stride(from: 0, to: newHeight, by: tileY) {
            let th = min(tileY, newHeight - ty)
            let y0 = max(0, Int((Double(ty) * sy).rounded(.down)) - reachY)
            let y1 = min(height, Int((Double(ty + th) * sy).rounded(.up)) + reachY)
            for tx in stride(from: 0, to: newWidth, by: tileX) {
                let tw = min(tileX, newWidth - tx)
                let x0 = max(0, Int((Double(tx) * sx).rounded(.down)) - reachX)
                let x1 = min(width, Int((Double(tx + tw) * sx).rounded(.up)) + reachX)
                guard
                    let src = pixman_image_create_bits(
                        PIXMAN_a8r8g8b8, Int32(x1 - x0), Int32(y1 - y0), source + y0 * width + x0, Int32(width * 4)),
                    let dst = pixman_image_create_bits(
                        PIXMAN_a8r8g8b8, Int32(tw), Int32(th), destination + ty * newWidth + tx, Int32(newWidth * 4))
                else { return false }
                // Destination pixel centre (x + 0.5) of the tile maps to source x
                // (tx + x + 0.5) * sx of the whole picture, less the window's origin.
                var transform = pixman_transform(
                    matrix: (
                        (fixed(sx), 0, fixed(Double(tx) * sx - Double(x0))),
                        (0, fixed(sy), fixed(Double(ty) * sy - Double(y0))),
                        (0, 0, fixed(1))
                    ))
                // Beyond the picture's edges its edge pixels continue (not transparency, which
                // would darken the border of an opaque picture).
                pixman_image_set_repeat(src, PIXMAN_REPEAT_PAD)
                if pixman_image_set_transform(src, &transform) == 0
                    || pixman_image_set_filter(src, PIXMAN_FILTER_SEPARABLE_CONVOLUTION, params, count) == 0
                {
                    ok = false
                } else {
                    pixman_image_composite32(PIXMAN_OP_SRC, src, nil, dst, 0, 0, 0, 0, 0, 0, Int32(tw), Int32(th))
                }
                pixman_image_unref(src)
                pixman_image_unref(dst)
                guard ok else { return false }
            }
        }
        let out = UnsafeMutableBufferPointer(start: destination, count: newWidth * newHeight)
        for i in out.indices { out[i] = Pixel.clampedPremultiplied(out[i]) }
        return true
    }

    /// `value` in pixman's 16.16 fixed point, rounded to the nearest.
    static func fixed(_ value: Double) -> pixman_fixed_t {
        pixman_fixed_t((value * 65536).rounded())
    }
}

extension PixelImage {
    /// The image scaled to newWidth x newHeight (see `Resampler`); nil when it cannot be.
    public func scaled(toWidth newWidth: Int, height newHeight: Int) -> PixelImage? {
        guard Resampler.canScale(width: width, height: height, toWidth: newWidth, height: newHeight) else {
            return nil
        }
        var ok = false
        let out = [UInt32](unsafeUninitializedCapacity: newWidth * newHeight) { buffer, count in
            pixels.withUnsafeBufferPointer { source in
                if let from = source.baseAddress, let to = buffer.baseAddress {
                    to.initialize(repeating: 0, count: newWidth * newHeight)
                    ok = Resampler.scale(
                        from, width: width, height: height, into: to, width: newWidth, height: newHeight)
                }
            }
            count = newWidth * newHeight
        }
        return ok ? PixelImage(width: newWidth, height: newHeight, pixels: out) : nil
    }
}

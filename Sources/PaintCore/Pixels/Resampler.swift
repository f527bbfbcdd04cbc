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
/// pixman applies a separable filter as a full two-dimensional kernel, one tap per source pixel
/// under it (64 for a halving); the two axes are therefore scaled one after the other, each
/// with the other axis left alone (8 + 8 taps), through an intermediate of 8-bit pixels. The
/// destination is made in bands of rows, each from just the source rows its filter reaches, so
/// the intermediate is a few megabytes whatever the picture; and in columns of at most 2,048,
/// so pixman's 16.16 fixed-point coordinates (which cannot address past 32,767) stay small.
public enum Resampler {
    /// How many times one side may shrink in one scale (past it a filter would span more source
    /// pixels than a band can hold).
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

    /// One axis's filter for pixman: its parameters (with the other axis a single tap) and how
    /// many source pixels it reaches either side of a sample.
    struct Filter {
        let params: UnsafeMutablePointer<pixman_fixed_t>
        let count: Int32
        let reach: Int

        /// The filter scaling along x (`horizontal`) or y by `scale`; nil when pixman fails.
        init?(scale: Double, horizontal: Bool) {
            let k = Resampler.kernels(scale: scale)
            let one = Resampler.kernels(scale: 1)
            var n: Int32 = 0
            let made =
                horizontal
                ? pixman_filter_create_separable_convolution(
                    &n, fixed(scale), fixed(1), k.reconstruct, one.reconstruct, k.sample, one.sample, 4, 0)
                : pixman_filter_create_separable_convolution(
                    &n, fixed(1), fixed(scale), one.reconstruct, k.reconstruct, one.sample, k.sample, 0, 4)
            guard let made else { return nil }
            params = made
            count = n
            reach = Int(made[horizontal ? 0 : 1] >> 16) / 2 + 2
        }
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
        guard let fx = Filter(scale: sx, horizontal: true) else { return false }
        defer { free(fx.params) }
        guard let fy = Filter(scale: sy, horizontal: false) else { return false }
        defer { free(fy.params) }
        // Bands of destination rows, each needing source rows y0..<y1: scaled across into the
        // intermediate (newWidth wide), then down into the band.
        let bandRows = max(1, min(newHeight, 256, 4096 / max(1, Int(sy.rounded(.up)))))
        let maxSourceRows = min(height, Int((Double(bandRows) * sy).rounded(.up)) + 2 * fy.reach + 2)
        let intermediate = UnsafeMutablePointer<UInt32>.allocate(capacity: maxSourceRows * newWidth)
        defer { intermediate.deallocate() }
        let source = UnsafeMutablePointer(mutating: source)
        for by in stride(from: 0, to: newHeight, by: bandRows) {
            let rows = min(bandRows, newHeight - by)
            let y0 = max(0, Int((Double(by) * sy).rounded(.down)) - fy.reach)
            let y1 = min(height, Int((Double(by + rows) * sy).rounded(.up)) + fy.reach)
            let across = pass(
                fx, scale: sx, from: source + y0 * width, width: width, height: y1 - y0, stride: width,
                into: intermediate, width: newWidth, height: y1 - y0, stride: newWidth, offset: 0, horizontal: true)
            let down = pass(
                fy, scale: sy, from: intermediate, width: newWidth, height: y1 - y0, stride: newWidth,
                into: destination + by * newWidth, width: newWidth, height: rows, stride: newWidth,
                offset: Double(by) * sy - Double(y0), horizontal: false)
            guard across, down else { return false }
        }
        let out = UnsafeMutableBufferPointer(start: destination, count: newWidth * newHeight)
        for i in out.indices { out[i] = Pixel.clampedPremultiplied(out[i]) }
        return true
    }

    /// One pass along one axis: destination pixel centre c (along the axis) samples the source
    /// at `offset + c * scale`; the other axis is copied. Made in columns of at most 2,048
    /// pixels, each from the source columns its filter reaches.
    private static func pass(
        _ filter: Filter, scale: Double, from source: UnsafeMutablePointer<UInt32>, width: Int, height: Int,
        stride: Int, into destination: UnsafeMutablePointer<UInt32>, width newWidth: Int, height newHeight: Int,
        stride newStride: Int, offset: Double, horizontal: Bool
    ) -> Bool {
        let columns = max(1, min(2048, 8192 / max(1, Int(scale.rounded(.up)))))
        for tx in Swift.stride(from: 0, to: newWidth, by: horizontal ? columns : 2048) {
            let tw = min(horizontal ? columns : 2048, newWidth - tx)
            // The source columns this tile reads: scaled across, its filter's reach; copied
            // down, the same columns.
            let x0 = horizontal ? max(0, Int((Double(tx) * scale).rounded(.down)) - filter.reach) : tx
            let x1 = horizontal ? min(width, Int((Double(tx + tw) * scale).rounded(.up)) + filter.reach) : tx + tw
            guard
                let src = pixman_image_create_bits(
                    PIXMAN_a8r8g8b8, Int32(x1 - x0), Int32(height), source + x0, Int32(stride * 4)),
                let dst = pixman_image_create_bits(
                    PIXMAN_a8r8g8b8, Int32(tw), Int32(newHeight), destination + tx, Int32(newStride * 4))
            else { return false }
            defer {
                pixman_image_unref(src)
                pixman_image_unref(dst)
            }
            let zero: pixman_fixed_t = 0
            let matrix =
                horizontal
                ? (
                    (fixed(scale), zero, fixed(Double(tx) * scale - Double(x0))), (zero, fixed(1), zero),
                    (zero, zero, fixed(1))
                )
                : ((fixed(1), zero, zero), (zero, fixed(scale), fixed(offset)), (zero, zero, fixed(1)))
            var transform = pixman_transform(matrix: matrix)
            // Beyond the picture's edges its edge pixels continue (not transparency, which
            // would darken the border of an opaque picture). Inside a band the filter never
            // reaches the band's edges, so only the picture's own edges are padded.
            pixman_image_set_repeat(src, PIXMAN_REPEAT_PAD)
            guard pixman_image_set_transform(src, &transform) != 0,
                pixman_image_set_filter(src, PIXMAN_FILTER_SEPARABLE_CONVOLUTION, filter.params, filter.count) != 0
            else { return false }
            pixman_image_composite32(PIXMAN_OP_SRC, src, nil, dst, 0, 0, 0, 0, 0, 0, Int32(tw), Int32(newHeight))
        }
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

import CX11
import PaintCore

/// How the window's visual stores a pixel, and the conversion from the engine's B,G,R,X.
///
/// Depth 24/32 TrueColor with the usual masks takes the engine's pixels as they are; depth 16
/// (5-6-5) is converted per row at blit time.
struct PixelFormat {
    /// Bytes per pixel in an XImage of this visual.
    let bytesPerPixel: Int
    let depth: Int32
    let redMask: UInt
    let greenMask: UInt
    let blueMask: UInt

    /// Whether engine pixels can be copied without conversion.
    var isNative: Bool { bytesPerPixel == 4 && redMask == 0xFF0000 && greenMask == 0xFF00 && blueMask == 0xFF }

    /// The format of a TrueColor visual, or a sentence saying why it cannot be used.
    static func of(visual: UnsafeMutablePointer<Visual>, depth: Int32) -> Result<PixelFormat, DisplayError> {
        let v = visual.pointee
        guard v.`class` == TrueColor else {
            return .failure(.unsupportedVisual("the screen is not TrueColor (class \(v.`class`))"))
        }
        switch depth {
        case 24, 32:
            return .success(
                PixelFormat(
                    bytesPerPixel: 4, depth: depth, redMask: v.red_mask, greenMask: v.green_mask, blueMask: v.blue_mask)
            )
        case 15, 16:
            return .success(
                PixelFormat(
                    bytesPerPixel: 2, depth: depth, redMask: v.red_mask, greenMask: v.green_mask, blueMask: v.blue_mask)
            )
        default: return .failure(.unsupportedVisual("a \(depth)-bit screen is not supported (use 16, 24 or 32 bits)"))
        }
    }

    /// The visual's pixel value for a color.
    func pixel(_ c: Color) -> UInt {
        func place(_ value: UInt8, _ mask: UInt) -> UInt {
            guard mask != 0 else { return 0 }
            let shift = mask.trailingZeroBitCount
            let bits = min(8, (mask >> UInt(shift)).nonzeroBitCount)
            return (UInt(value) >> UInt(8 - bits)) << UInt(shift)
        }
        return place(c.r, redMask) | place(c.g, greenMask) | place(c.b, blueMask)
    }

    /// Converts `count` engine pixels to this format at `destination`.
    @inline(__always)
    func convert(_ source: UnsafePointer<UInt32>, to destination: UnsafeMutableRawPointer, count: Int) {
        if isNative {
            destination.copyMemory(from: source, byteCount: count * 4)
            return
        }
        if bytesPerPixel == 2 {
            let out = destination.assumingMemoryBound(to: UInt16.self)
            let rShift = redMask.trailingZeroBitCount
            let gShift = greenMask.trailingZeroBitCount
            let bShift = blueMask.trailingZeroBitCount
            let rBits = (redMask >> UInt(rShift)).nonzeroBitCount
            let gBits = (greenMask >> UInt(gShift)).nonzeroBitCount
            let bBits = (blueMask >> UInt(bShift)).nonzeroBitCount
            for i in 0..<count {
                let p = source[i]
                let r = (p >> 16 & 0xFF) >> UInt32(8 - rBits)
                let g = (p >> 8 & 0xFF) >> UInt32(8 - gBits)
                let b = (p & 0xFF) >> UInt32(8 - bBits)
                out[i] = UInt16(truncatingIfNeeded: r << UInt32(rShift) | g << UInt32(gShift) | b << UInt32(bShift))
            }
            return
        }
        let out = destination.assumingMemoryBound(to: UInt32.self)
        for i in 0..<count {
            let (r, g, b, _) = Pixel.unpack(source[i])
            out[i] = UInt32(truncatingIfNeeded: pixel(Color(r: r, g: g, b: b)))
        }
    }
}

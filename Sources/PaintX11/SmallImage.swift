import CX11
import Glibc
import PaintCore

/// Plain XPutImage of a small chrome image (toolbar, status bar, tooltip) onto a drawable;
/// chrome is not on the hot path, so no shared memory here.
enum SmallImage {
    static func put(
        _ image: PixelImage, display: OpaquePointer, drawable: Drawable, gc: GC, visual: UnsafeMutablePointer<Visual>,
        depth: Int32, format: PixelFormat
    ) {
        let bytesPerLine = image.width * format.bytesPerPixel
        guard let data = malloc(max(1, bytesPerLine * image.height)) else { return }
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<image.height {
                format.convert(pixels.baseAddress! + y * image.width, to: data + y * bytesPerLine, count: image.width)
            }
        }
        guard
            let img = XCreateImage(
                display, visual, UInt32(depth), ZPixmap, 0, data.assumingMemoryBound(to: CChar.self),
                UInt32(image.width), UInt32(image.height), 8 * Int32(format.bytesPerPixel), Int32(bytesPerLine))
        else {
            free(data)
            return
        }
        img.pointee.byte_order = LSBFirst
        XPutImage(display, drawable, gc, img, 0, 0, 0, 0, UInt32(image.width), UInt32(image.height))
        _ = cx_destroy_image(img)
    }
}

import CX11
import Glibc
import PaintCore

/// Puts rectangles of pixels into the window: XShmPutImage from a shared-memory XImage, or plain
/// XPutImage when shared memory is not available.
///
/// The image is window-sized and addressed in window coordinates. With MIT-SHM the server
/// reads the segment after the request returns, so nothing writes into it before the server
/// has processed the previous put. That is known without completion events: every event and
/// reply carries the serial of the last request the server processed, and Xlib keeps the
/// newest (`XLastKnownRequestProcessed`). At drawing speed the next pointer event has already
/// told us; only when it has not does the blitter wait, with one `XSync`. (ShmCompletion
/// events cost a second wake-up of the event loop per pointer event.)
final class Blitter {
    let display: OpaquePointer
    let window: Window
    let gc: GC
    let format: PixelFormat
    let useShm: Bool
    private let visual: UnsafeMutablePointer<Visual>
    private var image: UnsafeMutablePointer<XImage>?
    /// The shared segment. XShmCreateImage keeps this address in the image (`obdata`) and
    /// every XShmPutImage reads it, so it lives in memory of its own: a Swift property passed
    /// with `&` is only guaranteed an address for the length of one call.
    private let segment: UnsafeMutablePointer<XShmSegmentInfo>
    private(set) var width = 0
    private(set) var height = 0
    /// Counts the images made (`resize`): pixel addresses from `storage` hold until it changes.
    private(set) var generation = 0
    /// The serial of the last XShmPutImage request.
    private var lastPutSerial: UInt = 0

    init(
        display: OpaquePointer, window: Window, visual: UnsafeMutablePointer<Visual>, format: PixelFormat, useShm: Bool
    ) {
        self.display = display
        self.window = window
        self.visual = visual
        self.format = format
        self.useShm = useShm
        gc = XCreateGC(display, window, 0, nil)
        segment = .allocate(capacity: 1)
        segment.initialize(to: XShmSegmentInfo())
    }

    deinit {
        release()
        segment.deallocate()
    }

    /// Decides once whether MIT-SHM can be used: not when `SWIFTPAINT_NO_SHM=1`, not on a
    /// remote display, not without the extension, and not when a trial attach fails.
    static func shmUsable(display: OpaquePointer, displayName: String) -> (Bool, String) {
        if getenv("SWIFTPAINT_NO_SHM").map({ String(cString: $0) }) == "1" { return (false, "SWIFTPAINT_NO_SHM=1") }
        let host =
            displayName.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
            ?? ""
        if !host.isEmpty && host != "unix" && host != "localhost" && !host.hasPrefix("/") {
            return (false, "remote display \(displayName)")
        }
        guard XShmQueryExtension(display) != 0 else { return (false, "no MIT-SHM extension") }
        // A trial attach of a one-page segment: a server in another IPC namespace refuses it.
        var info = XShmSegmentInfo()
        info.shmid = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0o600)
        guard info.shmid >= 0 else { return (false, "shmget failed") }
        defer { shmctl(info.shmid, IPC_RMID, nil) }
        guard let address = shmat(info.shmid, nil, 0), cx_shmat_failed(address) == 0 else {
            return (false, "shmat failed")
        }
        defer { shmdt(address) }
        info.shmaddr = address.assumingMemoryBound(to: CChar.self)
        info.readOnly = 1
        var attached = false
        let error = XErrorTrap.run(display) { attached = XShmAttach(display, &info) != 0 }
        guard attached, error == nil else { return (false, "XShmAttach refused") }
        _ = XErrorTrap.run(display) { XShmDetach(display, &info) }
        return (true, "MIT-SHM")
    }

    /// Makes the image at least the window's size.
    func resize(width w: Int, height h: Int) throws(DisplayError) {
        guard w != width || h != height || image == nil else { return }
        waitUntilServerRead()
        release()
        generation += 1
        width = max(1, w)
        height = max(1, h)
        let depth = UInt32(format.depth)
        if useShm {
            guard
                let img = XShmCreateImage(display, visual, depth, ZPixmap, nil, segment, UInt32(width), UInt32(height))
            else {
                throw .outOfMemory
            }
            let size = Int(img.pointee.bytes_per_line) * height
            segment.pointee.shmid = shmget(IPC_PRIVATE, size, IPC_CREAT | 0o600)
            guard segment.pointee.shmid >= 0, let address = shmat(segment.pointee.shmid, nil, 0),
                cx_shmat_failed(address) == 0
            else {
                if segment.pointee.shmid >= 0 { shmctl(segment.pointee.shmid, IPC_RMID, nil) }
                _ = cx_destroy_image(img)
                throw .outOfMemory
            }
            segment.pointee.shmaddr = address.assumingMemoryBound(to: CChar.self)
            segment.pointee.readOnly = 0
            img.pointee.data = segment.pointee.shmaddr
            XShmAttach(display, segment)
            XSync(display, 0)
            // Once both sides are attached the id can go: the segment is freed when we exit,
            // however we exit.
            shmctl(segment.pointee.shmid, IPC_RMID, nil)
            image = img
        } else {
            let pad: Int32 = 32
            let bytesPerLine = ((width * format.bytesPerPixel * 8 + Int(pad) - 1) / Int(pad)) * Int(pad) / 8
            guard let data = malloc(bytesPerLine * height) else { throw .outOfMemory }
            guard
                let img = XCreateImage(
                    display, visual, depth, ZPixmap, 0, data.assumingMemoryBound(to: CChar.self), UInt32(width),
                    UInt32(height), pad, Int32(bytesPerLine))
            else {
                free(data)
                throw .outOfMemory
            }
            image = img
        }
        // Our pixels are produced in host order; tell the server so.
        image?.pointee.byte_order = LSBFirst
    }

    /// Maps in every page of the image ahead of the first frame (one write a page), so
    /// composing into it does not stop at each page; done while the picture is still decoding.
    func touchPages() {
        guard let img = image, let data = img.pointee.data else { return }
        let bytes = Int(img.pointee.bytes_per_line) * height
        let raw = UnsafeMutableRawPointer(data)
        for offset in stride(from: 0, to: bytes, by: 4096) {
            raw.storeBytes(of: 0, toByteOffset: offset, as: UInt8.self)
        }
    }

    /// Frees the image (and detaches the shared segment); safe to call more than once.
    func release() {
        guard let img = image else { return }
        if useShm {
            XShmDetach(display, segment)
            XSync(display, 0)
            shmdt(segment.pointee.shmaddr)
            img.pointee.data = nil
        }
        _ = cx_destroy_image(img)
        image = nil
    }

    /// Returns once the server has processed the last put, so the shared image may be written.
    func waitUntilServerRead() {
        guard useShm, lastPutSerial != 0, XLastKnownRequestProcessed(display) < lastPutSerial else { return }
        // Events that arrive meanwhile stay queued in Xlib for the loop.
        XSync(display, 0)
    }

    /// Copies `size.width` x `size.height` pixels from `pixels` (its top-left pixel; row stride
    /// `stride`) to window position (`x`, `y`) in the image, then sends them to the window.
    func put(pixels base: UnsafePointer<UInt32>, stride: Int, size: IntRect, atX x: Int, y: Int) {
        guard let img = image, !size.isEmpty else { return }
        let target = IntRect(x: x, y: y, width: size.width, height: size.height).intersection(
            IntRect(x: 0, y: 0, width: width, height: height))
        guard !target.isEmpty else { return }
        waitUntilServerRead()
        let sx = target.x - x
        let sy = target.y - y
        let bytesPerLine = Int(img.pointee.bytes_per_line)
        let data = UnsafeMutableRawPointer(img.pointee.data)!
        for row in 0..<target.height {
            let from = base + (sy + row) * stride + sx
            let to = data + (target.y + row) * bytesPerLine + target.x * format.bytesPerPixel
            format.convert(from, to: to, count: target.width)
        }
        send(target)
    }

    /// The image's pixel at window position (x, y) and its row stride in pixels, when the image
    /// stores pixels exactly as the engine does (32-bit, host order): the engine then keeps its
    /// view right there, and showing a changed rectangle is one request, no copy. The pixels
    /// may be written only after `waitUntilServerRead`, and only until the next `resize`.
    func storage(atX x: Int, y: Int) -> (pixels: UnsafeMutablePointer<UInt32>, stride: Int)? {
        guard let img = image, format.isNative, x >= 0, y >= 0, x < width, y < height else { return nil }
        let bytesPerLine = Int(img.pointee.bytes_per_line)
        guard bytesPerLine % 4 == 0, let data = img.pointee.data else { return nil }
        let base = UnsafeMutableRawPointer(data).assumingMemoryBound(to: UInt32.self)
        return (base + y * (bytesPerLine / 4) + x, bytesPerLine / 4)
    }

    /// Sends a window rectangle whose pixels are already in the image.
    func show(_ rect: IntRect) {
        let r = rect.intersection(IntRect(x: 0, y: 0, width: width, height: height))
        guard !r.isEmpty else { return }
        send(r)
    }

    /// Fills a window rectangle of the image with one color and sends it.
    func fill(_ rect: IntRect, color: Color) {
        let r = rect.intersection(IntRect(x: 0, y: 0, width: width, height: height))
        guard let img = image, !r.isEmpty else { return }
        waitUntilServerRead()
        var row = [UInt32](repeating: color.pixel, count: r.width)
        let bytesPerLine = Int(img.pointee.bytes_per_line)
        let data = UnsafeMutableRawPointer(img.pointee.data)!
        row.withUnsafeMutableBufferPointer { buffer in
            for y in r.y..<r.maxY {
                format.convert(
                    buffer.baseAddress!, to: data + y * bytesPerLine + r.x * format.bytesPerPixel, count: r.width)
            }
        }
        send(r)
    }

    private func send(_ r: IntRect) {
        guard let img = image else { return }
        if useShm {
            XShmPutImage(
                display, window, gc, img, Int32(r.x), Int32(r.y), Int32(r.x), Int32(r.y), UInt32(r.width),
                UInt32(r.height), 0)
            lastPutSerial = cx_next_request(display) - 1
        } else {
            XPutImage(
                display, window, gc, img, Int32(r.x), Int32(r.y), Int32(r.x), Int32(r.y), UInt32(r.width),
                UInt32(r.height))
        }
    }
}

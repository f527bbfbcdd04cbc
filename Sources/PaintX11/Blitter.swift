import CX11
import Glibc
import PaintCore

/// Puts rectangles of pixels into the window: XShmPutImage from a shared-memory XImage, or plain
/// XPutImage when shared memory is not available.
///
/// The image is window-sized and addressed in window coordinates. With MIT-SHM the server
/// reads the segment after the request returns, so `image(for:)` first waits for the
/// ShmCompletion of the previous put before anything writes into it.
final class Blitter {
    let display: OpaquePointer
    let window: Window
    let gc: GC
    let format: PixelFormat
    let useShm: Bool
    private let visual: UnsafeMutablePointer<Visual>
    private var image: UnsafeMutablePointer<XImage>?
    private var segment = XShmSegmentInfo()
    private(set) var width = 0
    private(set) var height = 0
    /// Puts sent whose ShmCompletion has not come back yet.
    var pendingCompletions = 0
    /// The event type of ShmCompletion on this server (extension events are numbered at run time).
    let completionEventType: Int32

    init(
        display: OpaquePointer, window: Window, visual: UnsafeMutablePointer<Visual>, format: PixelFormat, useShm: Bool
    ) {
        self.display = display
        self.window = window
        self.visual = visual
        self.format = format
        self.useShm = useShm
        gc = XCreateGC(display, window, 0, nil)
        completionEventType = useShm ? XShmGetEventBase(display) + cx_shm_completion() : -1
    }

    deinit { release() }

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
        waitForCompletions()
        release()
        width = max(1, w)
        height = max(1, h)
        let depth = UInt32(format.depth)
        if useShm {
            guard
                let img = XShmCreateImage(display, visual, depth, ZPixmap, nil, &segment, UInt32(width), UInt32(height))
            else {
                throw .outOfMemory
            }
            let size = Int(img.pointee.bytes_per_line) * height
            segment.shmid = shmget(IPC_PRIVATE, size, IPC_CREAT | 0o600)
            guard segment.shmid >= 0, let address = shmat(segment.shmid, nil, 0), cx_shmat_failed(address) == 0 else {
                _ = cx_destroy_image(img)
                throw .outOfMemory
            }
            segment.shmaddr = address.assumingMemoryBound(to: CChar.self)
            segment.readOnly = 0
            img.pointee.data = segment.shmaddr
            XShmAttach(display, &segment)
            XSync(display, 0)
            // Once both sides are attached the id can go: the segment is freed when we exit,
            // however we exit.
            shmctl(segment.shmid, IPC_RMID, nil)
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

    private func release() {
        guard let img = image else { return }
        if useShm {
            XShmDetach(display, &segment)
            XSync(display, 0)
            shmdt(segment.shmaddr)
            img.pointee.data = nil
        }
        _ = cx_destroy_image(img)
        image = nil
    }

    /// Blocks until the server has finished reading the shared image.
    ///
    /// Events that arrive meanwhile are handed to `defer` so none is lost.
    func waitForCompletions(deferring: (XEvent) -> Void = { _ in }) {
        while pendingCompletions > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            if event.type == completionEventType {
                pendingCompletions -= 1
            } else {
                deferring(event)
            }
        }
    }

    /// Copies the image rectangle `source` of `pixels` (row stride `stride`) to window position
    /// (`x`, `y`) in the image, then sends it to the window.
    func put(
        pixels: UnsafeBufferPointer<UInt32>, stride: Int, source: IntRect, atX x: Int, y: Int,
        deferring: (XEvent) -> Void
    ) {
        guard let img = image, !source.isEmpty, let base = pixels.baseAddress else { return }
        let target = IntRect(x: x, y: y, width: source.width, height: source.height).intersection(
            IntRect(x: 0, y: 0, width: width, height: height))
        guard !target.isEmpty else { return }
        waitForCompletions(deferring: deferring)
        let sx = source.x + (target.x - x)
        let sy = source.y + (target.y - y)
        let bytesPerLine = Int(img.pointee.bytes_per_line)
        let data = UnsafeMutableRawPointer(img.pointee.data)!
        for row in 0..<target.height {
            let from = base + (sy + row) * stride + sx
            let to = data + (target.y + row) * bytesPerLine + target.x * format.bytesPerPixel
            format.convert(from, to: to, count: target.width)
        }
        send(target)
    }

    /// Fills a window rectangle of the image with one color and sends it.
    func fill(_ rect: IntRect, color: Color, deferring: (XEvent) -> Void) {
        let r = rect.intersection(IntRect(x: 0, y: 0, width: width, height: height))
        guard let img = image, !r.isEmpty else { return }
        waitForCompletions(deferring: deferring)
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
                UInt32(r.height), 1)
            pendingCompletions += 1
        } else {
            XPutImage(
                display, window, gc, img, Int32(r.x), Int32(r.y), Int32(r.x), Int32(r.y), UInt32(r.width),
                UInt32(r.height))
        }
    }
}

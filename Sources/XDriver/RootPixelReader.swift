import CX11

/// Reads single pixels of the screen as fast as the server allows, for a benchmark polling a
/// point until the program under test paints it: through a 3 x 3 MIT-SHM image when the server
/// offers MIT-SHM (no pixel data on the socket), else through XGetImage.
public final class RootPixelReader {
    private let client: XClient
    private var image: UnsafeMutablePointer<XImage>?
    private var info: UnsafeMutablePointer<XShmSegmentInfo>?
    /// Whether reads go through MIT-SHM.
    public var usesShm: Bool { image != nil }

    /// A reader on `client`'s screen; MIT-SHM only when `tryShm` and the server has it.
    public init(client: XClient, tryShm: Bool) {
        self.client = client
        let display = client.display
        guard tryShm, XShmQueryExtension(display) != 0 else { return }
        let info = UnsafeMutablePointer<XShmSegmentInfo>.allocate(capacity: 1)
        info.initialize(to: XShmSegmentInfo())
        guard
            let image = XShmCreateImage(
                display, XDefaultVisual(display, client.screen), UInt32(XDefaultDepth(display, client.screen)), ZPixmap,
                nil, info, 3, 3)
        else {
            info.deallocate()
            return
        }
        let size = Int(image.pointee.bytes_per_line) * Int(image.pointee.height)
        let id = shmget(0, size, IPC_CREAT | 0o600)
        guard id >= 0, let address = shmat(id, nil, 0), cx_shmat_failed(address) == 0 else {
            if id >= 0 { shmctl(id, IPC_RMID, nil) }
            cx_destroy_image(image)
            info.deallocate()
            return
        }
        info.pointee.shmid = id
        info.pointee.shmaddr = address.assumingMemoryBound(to: CChar.self)
        info.pointee.readOnly = 0
        image.pointee.data = info.pointee.shmaddr
        let attached = XShmAttach(display, info) != 0
        XSync(display, 0)
        // Removed at once: the segment goes when both sides detach, even if this process dies.
        shmctl(id, IPC_RMID, nil)
        guard attached else {
            shmdt(address)
            image.pointee.data = nil
            cx_destroy_image(image)
            info.deallocate()
            return
        }
        self.image = image
        self.info = info
    }

    deinit {
        guard let image, let info else { return }
        // A closed connection has detached the segment with it.
        if !client.closed {
            XShmDetach(client.display, info)
            XSync(client.display, 0)
        }
        shmdt(info.pointee.shmaddr)
        image.pointee.data = nil
        cx_destroy_image(image)
        info.deallocate()
    }

    /// The pixel at root (x, y) as the server's pixel value (0xRRGGBB on a depth-24 screen).
    public func pixel(x: Int, y: Int) -> UInt32? {
        let display = client.display
        if let image {
            guard XShmGetImage(display, client.root, image, Int32(x - 1), Int32(y - 1), UInt.max) != 0 else {
                return nil
            }
            return UInt32(truncatingIfNeeded: cx_get_pixel(image, 1, 1)) & 0xFF_FFFF
        }
        guard let image = XGetImage(display, client.root, Int32(x - 1), Int32(y - 1), 3, 3, UInt.max, ZPixmap) else {
            return nil
        }
        defer { cx_destroy_image(image) }
        return UInt32(truncatingIfNeeded: cx_get_pixel(image, 1, 1)) & 0xFF_FFFF
    }

    /// Whether every pixel of the 5 x 5 box centred on root (x, y) is white.
    public func isWhiteBox(x: Int, y: Int) -> Bool {
        guard let image = XGetImage(client.display, client.root, Int32(x - 2), Int32(y - 2), 5, 5, UInt.max, ZPixmap)
        else { return false }
        defer { cx_destroy_image(image) }
        for j in 0..<5 {
            for i in 0..<5
            where UInt32(truncatingIfNeeded: cx_get_pixel(image, Int32(i), Int32(j))) & 0xFF_FFFF != 0xFF_FFFF {
                return false
            }
        }
        return true
    }
}

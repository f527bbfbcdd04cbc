// paint-bench x11: the benchmark's own connection to its X server, which reads the screen and
// sends the pointer and keys through XTest.

import CX11
import CXTest
import Glibc

/// A connection to the benchmark's X server, with screen readers.
final class X11Probe {
    let display: OpaquePointer
    let screen: Int32
    let root: Window
    var shmImage: UnsafeMutablePointer<XImage>?
    var shmInfo: UnsafeMutablePointer<XShmSegmentInfo>?
    let usesShm: Bool

    init(display: OpaquePointer, tryShm: Bool) {
        self.display = display
        screen = XDefaultScreen(display)
        root = XRootWindow(display, screen)
        var ok = false
        if tryShm && XShmQueryExtension(display) != 0 {
            let info = UnsafeMutablePointer<XShmSegmentInfo>.allocate(capacity: 1)
            info.initialize(to: XShmSegmentInfo())
            if let image = XShmCreateImage(
                display, XDefaultVisual(display, screen), UInt32(XDefaultDepth(display, screen)), ZPixmap, nil, info, 3,
                3)
            {
                let size = Int(image.pointee.bytes_per_line) * Int(image.pointee.height)
                let id = shmget(0, size, IPC_CREAT | 0o600)
                if id >= 0, let address = shmat(id, nil, 0), cx_shmat_failed(address) == 0 {
                    info.pointee.shmid = id
                    info.pointee.shmaddr = address.assumingMemoryBound(to: CChar.self)
                    info.pointee.readOnly = 0
                    image.pointee.data = info.pointee.shmaddr
                    if XShmAttach(display, info) != 0 {
                        XSync(display, 0)
                        shmctl(id, IPC_RMID, nil)
                        shmImage = image
                        shmInfo = info
                        ok = true
                    }
                }
            }
        }
        usesShm = ok
    }

    /// The pixel at root (x, y) read through a 3x3 box (centre pixel), as 0xRRGGBB.
    func pixel(x: Int, y: Int) -> UInt32? {
        if let image = shmImage {
            guard XShmGetImage(display, root, image, Int32(x - 1), Int32(y - 1), UInt.max) != 0 else { return nil }
            return UInt32(truncatingIfNeeded: cx_get_pixel(image, 1, 1)) & 0xFFFFFF
        }
        guard let image = XGetImage(display, root, Int32(x - 1), Int32(y - 1), 3, 3, UInt.max, ZPixmap) else {
            return nil
        }
        defer { _ = cx_destroy_image(image) }
        return UInt32(truncatingIfNeeded: cx_get_pixel(image, 1, 1)) & 0xFFFFFF
    }

    /// True when every pixel of a 5x5 box centred on root (x, y) is white.
    func boxWhite(x: Int, y: Int) -> Bool {
        guard let image = XGetImage(display, root, Int32(x - 2), Int32(y - 2), 5, 5, UInt.max, ZPixmap) else {
            return false
        }
        defer { _ = cx_destroy_image(image) }
        for j in 0..<5 {
            for i in 0..<5
            where UInt32(truncatingIfNeeded: cx_get_pixel(image, Int32(i), Int32(j))) & 0xFFFFFF != 0xFFFFFF {
                return false
            }
        }
        return true
    }

    /// Top-level window whose _NET_WM_PID is `pid`.
    func findWindow(pid: pid_t) -> Window? {
        let atom = XInternAtom(display, "_NET_WM_PID", 1)
        if atom == 0 { return nil }
        var rootReturn: Window = 0
        var parent: Window = 0
        var children: UnsafeMutablePointer<Window>?
        var count: UInt32 = 0
        guard XQueryTree(display, root, &rootReturn, &parent, &children, &count) != 0, let children else { return nil }
        defer { XFree(children) }
        for i in 0..<Int(count) {
            let w = children[i]
            var type: Atom = 0
            var format: Int32 = 0
            var items: UInt = 0
            var after: UInt = 0
            var data: UnsafeMutablePointer<UInt8>?
            if XGetWindowProperty(display, w, atom, 0, 1, 0, 6, &type, &format, &items, &after, &data) == 0, let data {
                defer { XFree(data) }
                if items >= 1 && format == 32 {
                    let value = data.withMemoryRebound(to: UInt.self, capacity: 1) { $0.pointee }
                    if pid_t(truncatingIfNeeded: value) == pid { return w }
                }
            }
        }
        return nil
    }

    /// The window's root position, size and map state.
    func geometry(_ window: Window) -> (x: Int, y: Int, width: Int, height: Int, viewable: Bool)? {
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(display, window, &attributes) != 0 else { return nil }
        var rx: Int32 = 0
        var ry: Int32 = 0
        var child: Window = 0
        XTranslateCoordinates(display, window, root, 0, 0, &rx, &ry, &child)
        return (Int(rx), Int(ry), Int(attributes.width), Int(attributes.height), attributes.map_state == IsViewable)
    }

    func move(_ x: Int, _ y: Int) {
        XTestFakeMotionEvent(display, screen, Int32(x), Int32(y), 0)
        XFlush(display)
    }

    func button(_ down: Bool) {
        XTestFakeButtonEvent(display, 1, down ? 1 : 0, 0)
        XFlush(display)
    }

    func key(_ keysym: Int32, _ down: Bool) {
        let code = XKeysymToKeycode(display, KeySym(keysym))
        XTestFakeKeyEvent(display, UInt32(code), down ? 1 : 0, 0)
        XFlush(display)
    }

    func tap(_ keysym: Int32) {
        key(keysym, true)
        key(keysym, false)
    }
}

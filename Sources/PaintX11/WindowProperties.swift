import CX11
import Glibc

/// Properties window managers and task bars read: the class (which program this is), the
/// process, the smallest size.
enum WindowProperties {
    /// WM_CLASS (instance "swiftpaint", class "SwiftPaint", as the .desktop file's
    /// StartupWMClass) and _NET_WM_PID.
    static func setClassAndPID(display: OpaquePointer, window: Window) {
        let classHint = XAllocClassHint()
        let instance = strdup("swiftpaint")
        let className = strdup("SwiftPaint")
        classHint?.pointee.res_name = instance
        classHint?.pointee.res_class = className
        XSetClassHint(display, window, classHint)
        XFree(classHint)
        free(instance)
        free(className)
        var pid = UInt(getpid())
        let pidAtom = XInternAtom(display, "_NET_WM_PID", 0)
        _ = withUnsafeBytes(of: &pid) {
            XChangeProperty(
                display, window, pidAtom, XA_CARDINAL, 32, PropModeReplace, $0.bindMemory(to: UInt8.self).baseAddress, 1
            )
        }
    }

    /// WM_NORMAL_HINTS: the window is never made smaller than `minimum`.
    static func setMinimumSize(_ minimum: (width: Int, height: Int), display: OpaquePointer, window: Window) {
        var hints = XSizeHints()
        hints.flags = PMinSize
        hints.min_width = Int32(minimum.width)
        hints.min_height = Int32(minimum.height)
        XSetWMNormalHints(display, window, &hints)
    }
}

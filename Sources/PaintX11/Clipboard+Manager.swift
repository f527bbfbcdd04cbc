import CX11
import Glibc
import PaintIO

/// Handing the clipboard to a clipboard manager when the window closes (the freedesktop
/// ClipboardManager convention, as GTK and Qt programs do): X keeps no copy of a selection, so
/// what a program copied goes with it unless a manager has taken a copy first.
extension Clipboard {
    /// Whether this window still owns the clipboard with the picture (or text) it copied.
    var ownsPicture: Bool { offered != nil && XGetSelectionOwner(display, clipboard) == window }

    /// The window is closing: when a clipboard manager runs (a program owning the
    /// CLIPBOARD_MANAGER selection) and this window still owns the clipboard, the manager is
    /// asked to keep the picture (SAVE_TARGETS, with `image/png` as the target to save, or the
    /// text's targets for text copied from the text box) and
    /// its requests for it are answered until it says it has. A manager that stays silent for
    /// `patience` seconds, or takes more than `limit` in all, is given up on. Returns whether
    /// the manager took it; false at once when there is nothing to hand over or no manager,
    /// and then nothing is said: what was copied goes with the window, as in any X program.
    func handOver(time: Time, patience: Double = 3, limit: Double = 20) -> Bool {
        let manager = XInternAtom(display, "CLIPBOARD_MANAGER", 0)
        guard ownsPicture, XGetSelectionOwner(display, manager) != 0 else { return false }
        // No window turns come any more: a BMP is made here, at once, as a request asks.
        makesBMPElsewhere = false
        _ = takeBMPToMake()
        if awaitsBMP { fulfilBMP(offered.flatMap { BMPEncoder.encode(png: $0) }) }
        let saveTargets = XInternAtom(display, "SAVE_TARGETS", 0)
        let list = XInternAtom(display, "SWIFTPAINT_SAVE_TARGETS", 0)
        setAtoms(savedTargets, on: window, list, type: XA_ATOM)
        XConvertSelection(display, manager, saveTargets, list, window, time)
        XFlush(display)
        let start = Self.now()
        var quiet = start + patience
        var descriptor = pollfd(fd: XConnectionNumber(display), events: Int16(POLLIN), revents: 0)
        while true {
            while XPending(display) > 0 {
                var event = XEvent()
                XNextEvent(display, &event)
                switch event.type {
                case SelectionNotify where event.xselection.selection == manager:
                    // Property None: the manager could not keep it.
                    return event.xselection.property != 0
                case SelectionRequest, SelectionClear, PropertyNotify:
                    // The manager asking for the targets and the picture (in INCR chunks when
                    // it is large): a sign of life.
                    _ = handle(&event)
                    quiet = Self.now() + patience
                default:
                    break
                }
            }
            XFlush(display)
            let now = Self.now()
            let until = min(quiet, start + limit)
            guard now < until else { return false }
            descriptor.revents = 0
            _ = poll(&descriptor, 1, Int32(max(1, ((until - now) * 1000).rounded(.up))))
        }
    }
}

import CX11
import Testing
import XDriver

/// A clipboard manager as GNOME's was: owns CLIPBOARD_MANAGER; asked SAVE_TARGETS by a closing
/// program, it fetches the TARGETS and the PNG (or another `target`) in one MULTIPLE request,
/// then says it is done.
final class FakeClipboardManager {
    private let connection: SelectionConnection
    private let manager: Atom
    private let clipboard: Atom
    private let multiple: Atom
    private let pairs: Atom
    private let targetsProperty: Atom
    private let pngProperty: Atom
    /// The SAVE_TARGETS request being served.
    private var request: XSelectionRequestEvent?
    /// What it fetches: `image/png`, or `UTF8_STRING` for text.
    private let target: String
    /// The PNG (or text) the closing program handed over.
    private(set) var saved: [UInt8]?
    /// The targets it asked to have saved, and the ones it offered.
    private(set) var targetsAsked: [String] = []
    private(set) var offered: [String] = []

    init(displayName: String, target: String = "image/png") throws {
        connection = try SelectionConnection(displayName: displayName, selection: "CLIPBOARD_MANAGER")
        self.target = target
        manager = connection.atom("CLIPBOARD_MANAGER")
        clipboard = connection.atom("CLIPBOARD")
        multiple = connection.atom("MULTIPLE")
        pairs = connection.atom("TEST_PAIRS")
        targetsProperty = connection.atom("TEST_TARGETS")
        pngProperty = connection.atom("TEST_PNG")
    }

    /// Serves requests until some window owns the CLIPBOARD (the program's Ctrl+C took it);
    /// false if none did in the time-out.
    func waitForClipboardOwner() -> Bool {
        Wait.until(poll: .milliseconds(50)) {
            serve()
            return XGetSelectionOwner(connection.display, clipboard) != 0
        }
    }

    /// Closes `paint`'s window as a user does, whose picture changed: the close asks, and the
    /// user discards. Expects the closing program to hand the clipboard over (served here) and
    /// to exit cleanly.
    func closeDiscarding(_ paint: PaintWindow, sourceLocation: SourceLocation = #_sourceLocation) throws {
        paint.client.sendCloseRequest(paint.window)
        try paint.waitForCloseQuestion()
        try paint.key("d")
        let kept = Wait.until(poll: .milliseconds(5)) {
            serve()
            return saved != nil
        }
        #expect(kept, "the manager was never asked: \(paint.app.outputSummary)", sourceLocation: sourceLocation)
        #expect(paint.app.waitForExit() == 0, "\(paint.app.outputSummary)", sourceLocation: sourceLocation)
    }

    /// Answers what has arrived.
    func serve() {
        let c = connection
        c.drain { event in
            switch event.type {
            case SelectionRequest where event.xselectionrequest.target == c.atom("SAVE_TARGETS"):
                let r = event.xselectionrequest
                request = r
                targetsAsked = c.atoms(c.read(r.requestor, r.property, delete: false).bytes).map(c.name)
                var list = [c.atom("TARGETS"), targetsProperty, c.atom(target), pngProperty]
                _ = list.withUnsafeMutableBytes {
                    XChangeProperty(
                        c.display, c.window, pairs, c.atom("ATOM_PAIR"), 32, PropModeReplace,
                        $0.baseAddress?.assumingMemoryBound(to: UInt8.self), 4)
                }
                XConvertSelection(c.display, clipboard, multiple, pairs, c.window, r.time)
            case SelectionNotify where event.xselection.target == multiple:
                guard let r = request else { return }
                let answered = c.atoms(c.read(c.window, pairs, delete: true).bytes)
                offered = c.atoms(c.read(c.window, targetsProperty, delete: true).bytes).map(c.name)
                // A None in the pairs: that target was refused.
                if answered.count == 4 && answered[3] != 0 { saved = c.read(c.window, pngProperty, delete: true).bytes }
                c.reply(to: r, property: saved == nil ? 0 : r.property, selection: manager)
                request = nil
            default:
                break
            }
        }
    }
}

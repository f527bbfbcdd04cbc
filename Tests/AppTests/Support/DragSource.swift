import CX11
import Foundation
import XDriver

/// Another program dragging files onto a window, as a file manager does (XDND version 5): it
/// owns XdndSelection, sends XdndEnter, XdndPosition and, once the target accepts, XdndDrop,
/// answers the target's request for `text/uri-list`, and waits for XdndFinished. It has its own
/// connection. It can also misbehave as a source whose program hangs or quits at the drop.
final class DragSource {
    /// How it answers the target's request for its list.
    enum Behaviour {
        /// At once.
        case answers
        /// Never (a hung program): only the target's giving up ends the drop. The request is
        /// kept for `answerLate`.
        case silent
        /// Its window is gone with the drop (the program quit as the button came up): nobody owns
        /// XdndSelection any more, and nothing waits for XdndFinished.
        case quitsAtDrop
    }

    private let connection: SelectionConnection
    private let uris: String
    private let behaviour: Behaviour
    /// The server time its XdndDrop names (CurrentTime unless given), which the target's request
    /// for the list carries.
    var time = Time(CurrentTime)
    /// The request a silent source kept.
    private var held: XSelectionRequestEvent?
    /// Run when the target's request for the list arrives, before it is answered (the user
    /// letting go of Ctrl while the list is on its way).
    var beforeAnswering: (() throws -> Void)?
    private var display: OpaquePointer { connection.display }
    private var window: Window { connection.window }
    private func atom(_ name: String) -> Atom { connection.atom(name) }

    init(displayName: String, uris: String, behaviour: Behaviour = .answers) throws {
        connection = try SelectionConnection(displayName: displayName, selection: "XdndSelection")
        self.uris = uris
        self.behaviour = behaviour
    }

    /// Drags onto `target` at its (x, y) and drops; returns whether the target accepted (its
    /// XdndStatus) and finished with success (its XdndFinished; false at once for
    /// `quitsAtDrop`). Throws when it never answers.
    func drop(on target: Window, x: Int, y: Int) throws -> (accepted: Bool, finished: Bool) {
        let uriList = atom("text/uri-list")
        send(atom("XdndEnter"), to: target, [Int(window), 5 << 24, Int(uriList), 0, 0])
        var child: Window = 0
        var rx: Int32 = 0
        var ry: Int32 = 0
        XTranslateCoordinates(display, target, XDefaultRootWindow(display), Int32(x), Int32(y), &rx, &ry, &child)
        send(
            atom("XdndPosition"), to: target,
            [Int(window), 0, Int(rx) << 16 | Int(ry), Int(CurrentTime), Int(atom("XdndActionCopy"))])
        guard let status = try wait(for: atom("XdndStatus")) else {
            throw HarnessError.timedOut("XdndStatus from the target")
        }
        let accepted = status.data.l.1 & 1 != 0
        guard accepted else { return (false, false) }
        send(atom("XdndDrop"), to: target, [Int(window), 0, Int(time), 0, 0])
        if behaviour == .quitsAtDrop {
            // The drop and the window's end reach the server in one flush: the window is gone
            // before the target can ask for anything.
            XDestroyWindow(display, window)
            XSync(display, 0)
            return (true, false)
        }
        guard let finished = try wait(for: atom("XdndFinished")) else {
            throw HarnessError.timedOut("XdndFinished from the target")
        }
        return (true, finished.data.l.1 & 1 != 0)
    }

    /// Serves the selection while waiting for a client message of `type`.
    private func wait(for type: Atom) throws -> XClientMessageEvent? {
        var found: XClientMessageEvent?
        var failure: Error?
        _ = Wait.until(poll: .milliseconds(5)) {
            connection.drain { event in
                if event.type == SelectionRequest, behaviour == .silent {
                    held = event.xselectionrequest
                } else if event.type == SelectionRequest, behaviour == .answers {
                    do {
                        try beforeAnswering?()
                    } catch {
                        failure = error
                    }
                    answer(event.xselectionrequest)
                } else if event.type == ClientMessage, event.xclient.message_type == type {
                    found = event.xclient
                }
            }
            return found != nil || failure != nil
        }
        if let failure { throw failure }
        return found
    }

    /// A silent source waking up: answers the request it kept, its list in the target's property
    /// (or a refusal when `refusing`), once the server has passed the answer on. False when it
    /// kept none.
    func answerLate(refusing: Bool = false) -> Bool {
        guard let request = held else { return false }
        held = nil
        answer(request, refusing: refusing)
        XSync(display, 0)
        return true
    }

    /// Hands the uri list to the target's property, or refuses (property None).
    private func answer(_ r: XSelectionRequestEvent, refusing: Bool = false) {
        var property: Atom = 0
        if r.target == atom("text/uri-list"), !refusing {
            let bytes = Array(uris.utf8)
            XChangeProperty(display, r.requestor, r.property, r.target, 8, PropModeReplace, bytes, Int32(bytes.count))
            property = r.property
        }
        connection.reply(to: r, property: property)
        XFlush(display)
    }

    private func send(_ type: Atom, to target: Window, _ values: [Int]) {
        sendClientMessage(display, type: type, to: target, values)
    }
}

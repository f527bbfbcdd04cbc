import CX11
import Glibc
import PaintIO

/// The desktop clipboard (the CLIPBOARD selection, ICCCM §2) for one window: offering a PNG of
/// the picture, and fetching a PNG (or, for a text field, UTF-8 text) from whichever program
/// owns the clipboard. Transfers larger than one request go in INCR chunks, both ways.
final class Clipboard {
    /// How a fetch ended.
    enum Fetched {
        case png([UInt8])
        case text(String)
        /// Why there is nothing to paste, in words.
        case nothing(String)
    }

    private let display: OpaquePointer
    private let window: Window
    private let clipboard: Atom
    private let targets: Atom
    private let timestamp: Atom
    private let png: Atom
    private let utf8String: Atom
    private let incr: Atom
    /// Our window's property that fetched data arrives in.
    private let property: Atom
    /// Bytes per property change: well under the server's request size limit.
    private let chunk: Int

    /// What we offer while we own the clipboard.
    private var offered: [UInt8]?
    /// When we took the clipboard (answers TIMESTAMP, and refuses older requests).
    private var ownedSince: Time = 0

    /// An INCR transfer to another program: what is left to send into its property.
    private struct Outgoing {
        let requestor: Window
        let property: Atom
        var remaining: ArraySlice<UInt8>
        var finished = false
    }
    private var outgoing: [Outgoing] = []

    /// A fetch in progress; `incoming` collects INCR chunks (appended in place: amortized
    /// linear however many chunks an owner sends).
    private var fetching = false
    /// What the fetch asked for: `png` or `utf8String`.
    private var fetchTarget: Atom = 0
    private var incoming: [UInt8]?
    /// No picture worth pasting is larger than this (the largest PNG file SwiftPaint opens):
    /// an owner that sends more, or announces more, stops the transfer.
    private let fetchLimit: Int
    /// Seconds an owner may stay silent (no answer, no chunk) before the paste is abandoned.
    private let patience: Double
    /// CLOCK_MONOTONIC seconds of the last sign of life from the owner during a fetch.
    private var lastProgress: Double = 0

    init(
        display: OpaquePointer, window: Window, fetchLimit: Int = ImageFile.maxFileBytes, patience: Double = 10
    ) {
        self.display = display
        self.window = window
        self.fetchLimit = fetchLimit
        self.patience = patience
        clipboard = XInternAtom(display, "CLIPBOARD", 0)
        targets = XInternAtom(display, "TARGETS", 0)
        timestamp = XInternAtom(display, "TIMESTAMP", 0)
        png = XInternAtom(display, "image/png", 0)
        utf8String = XInternAtom(display, "UTF8_STRING", 0)
        incr = XInternAtom(display, "INCR", 0)
        property = XInternAtom(display, "SWIFTPAINT_CLIPBOARD", 0)
        // XExtendedMaxRequestSize is 0 without BIG-REQUESTS; both count 4-byte units.
        let units = max(Int(XExtendedMaxRequestSize(display)), Int(XMaxRequestSize(display)))
        chunk = max(4096, min(256 << 10, units * 4 - 1024))
    }

    // MARK: Offering

    /// Takes the clipboard with `bytes` as its PNG; false when the server gave it to another.
    func offer(_ bytes: [UInt8], time: Time) -> Bool {
        offered = bytes
        ownedSince = time
        XSetSelectionOwner(display, clipboard, window, time)
        guard XGetSelectionOwner(display, clipboard) == window else {
            offered = nil
            return false
        }
        return true
    }

    /// Answers another program's request for the clipboard: the list of targets, the PNG (in
    /// one piece or, when large, as INCR), or a refusal.
    private func answer(_ request: XSelectionRequestEvent) {
        // Obsolete clients name no property: the target's name is used then (ICCCM §2.2).
        let target = request.target
        var property = request.property == 0 ? target : request.property
        if request.selection != clipboard || offered == nil
            || (request.time != CurrentTime && request.time < ownedSince)
        {
            property = 0
        } else if target == targets {
            var list: [Atom] = [targets, timestamp, png]
            let count = Int32(list.count)
            _ = list.withUnsafeMutableBytes {
                XChangeProperty(
                    display, request.requestor, property, XA_ATOM, 32, PropModeReplace,
                    $0.baseAddress?.assumingMemoryBound(to: UInt8.self), count)
            }
        } else if target == timestamp {
            // ICCCM §2.6.2: when we took the selection.
            var time = UInt(ownedSince)
            _ = withUnsafeBytes(of: &time) {
                XChangeProperty(
                    display, request.requestor, property, XA_INTEGER, 32, PropModeReplace,
                    $0.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
            }
        } else if target == png, let bytes = offered {
            if bytes.count <= chunk {
                put(bytes[...], on: request.requestor, property, type: png)
            } else {
                // Announce the size, then send a chunk each time the requestor deletes the
                // property it read (PropertyNotify, state Delete).
                XSelectInput(display, request.requestor, PropertyChangeMask)
                var size = UInt(bytes.count)
                _ = withUnsafeBytes(of: &size) {
                    XChangeProperty(
                        display, request.requestor, property, incr, 32, PropModeReplace,
                        $0.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
                }
                outgoing.removeAll { $0.requestor == request.requestor && $0.property == property }
                outgoing.append(Outgoing(requestor: request.requestor, property: property, remaining: bytes[...]))
            }
        } else {
            property = 0
        }
        var reply = XEvent()
        reply.xselection.type = SelectionNotify
        reply.xselection.display = display
        reply.xselection.requestor = request.requestor
        reply.xselection.selection = request.selection
        reply.xselection.target = target
        reply.xselection.property = property
        reply.xselection.time = request.time
        XSendEvent(display, request.requestor, 0, 0, &reply)
    }

    private func put(_ bytes: ArraySlice<UInt8>, on requestor: Window, _ property: Atom, type: Atom) {
        _ = bytes.withUnsafeBufferPointer {
            XChangeProperty(
                display, requestor, property, type, 8, PropModeReplace, $0.baseAddress, Int32($0.count))
        }
    }

    /// The requestor read (deleted) the property: the next chunk, or the empty one that ends
    /// the transfer.
    private func continueSending(_ event: XPropertyEvent) {
        guard event.state == PropertyDelete,
            let k = outgoing.firstIndex(where: { $0.requestor == event.window && $0.property == event.atom })
        else { return }
        if outgoing[k].finished {
            outgoing.remove(at: k)
            XSelectInput(display, event.window, 0)
            return
        }
        let piece = outgoing[k].remaining.prefix(chunk)
        outgoing[k].remaining = outgoing[k].remaining.dropFirst(piece.count)
        put(piece, on: event.window, event.atom, type: png)
        if piece.isEmpty { outgoing[k].finished = true }
    }

    // MARK: Fetching

    /// Asks the clipboard's owner for a PNG, or for UTF-8 text when `text`; the answer comes
    /// through `handle`. Nil when the request went out, else why there is nothing to fetch.
    func fetch(time: Time, text: Bool = false) -> Fetched? {
        if XGetSelectionOwner(display, clipboard) == 0 { return .nothing("The clipboard is empty") }
        if XGetSelectionOwner(display, clipboard) == window, let offered {
            // Our own picture: no round trip through the server.
            return text ? .nothing("The clipboard holds no text") : .png(offered)
        }
        fetching = true
        fetchTarget = text ? utf8String : png
        incoming = nil
        lastProgress = Self.now()
        XDeleteProperty(display, window, property)
        XConvertSelection(display, clipboard, fetchTarget, property, window, time)
        return nil
    }

    /// A finished transfer of `type`, as what the fetch asked for.
    private func fetched(_ bytes: [UInt8], type: Atom) -> Fetched {
        if fetchTarget == utf8String {
            return type == utf8String ? .text(String(decoding: bytes, as: UTF8.self)) : missing
        }
        return type == png ? .png(bytes) : missing
    }

    /// Why a fetch found nothing of its kind.
    private var missing: Fetched {
        .nothing(fetchTarget == utf8String ? "The clipboard holds no text" : "The clipboard holds no picture")
    }

    /// When a fetch in progress will be given up unless the owner shows life (monotonic
    /// seconds), for the event loop's poll time-out; nil when nothing is being fetched.
    var deadline: Double? { fetching ? lastProgress + patience : nil }

    /// Gives up a fetch whose owner has been silent for longer than the patience allows;
    /// returns why, once.
    func expire(now: Double = Clipboard.now()) -> Fetched? {
        guard let deadline, now >= deadline else { return nil }
        return abandon(
            "The program holding the clipboard stopped answering; the paste was abandoned after "
                + "\(Int(patience)) s")
    }

    /// Ends the fetch in progress and says why.
    private func abandon(_ why: String) -> Fetched {
        fetching = false
        incoming = nil
        XDeleteProperty(display, window, property)
        return .nothing(why)
    }

    /// CLOCK_MONOTONIC in seconds.
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    private var tooLarge: String { "The clipboard's picture is larger than \(fetchLimit >> 20) MB; nothing was pasted" }

    /// Reads and deletes our property; nil and type 0 when it is missing.
    private func takeProperty() -> (type: Atom, bytes: [UInt8])? {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        // The length is in 4-byte units; ask for everything (owners never send more than the
        // fetch limit, which is checked by the caller).
        let status = XGetWindowProperty(
            display, window, property, 0, fetchLimit / 4, 1, Atom(AnyPropertyType), &type, &format, &count,
            &after, &data)
        defer { if let data { XFree(data) } }
        guard status == Success, type != 0 else { return nil }
        let bytesPerItem = format == 32 ? MemoryLayout<UInt>.size : Int(format) / 8
        let length = Int(count) * max(1, bytesPerItem)
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? []
        return (type, bytes)
    }

    // MARK: Events

    /// Handles a selection or property event; returns a finished fetch, if this event ended
    /// one.
    func handle(_ event: inout XEvent) -> Fetched? {
        switch event.type {
        case SelectionRequest:
            answer(event.xselectionrequest)
        case SelectionClear:
            if event.xselectionclear.selection == clipboard {
                offered = nil
                outgoing.removeAll()
            }
        case SelectionNotify:
            guard fetching, event.xselection.requestor == window, event.xselection.selection == clipboard else {
                return nil
            }
            guard event.xselection.property != 0, let taken = takeProperty() else {
                fetching = false
                return missing
            }
            lastProgress = Self.now()
            if taken.type == incr {
                // The announced size (a lower bound, ICCCM §2.7.2) is refused before anything
                // arrives when it is already too much.
                var announced = 0
                for (i, byte) in taken.bytes.prefix(MemoryLayout<UInt>.size).enumerated() {
                    announced |= Int(byte) << (8 * i)
                }
                if announced > fetchLimit { return abandon(tooLarge) }
                // Chunks follow, each announced by PropertyNotify (NewValue) on our property.
                incoming = []
                incoming?.reserveCapacity(announced)
                return nil
            }
            fetching = false
            return fetched(taken.bytes, type: taken.type)
        case PropertyNotify:
            let e = event.xproperty
            if e.window != window {
                continueSending(e)
                return nil
            }
            guard fetching, e.atom == property, e.state == PropertyNewValue, let received = incoming?.count else {
                return nil
            }
            guard let (type, bytes) = takeProperty() else { return nil }
            lastProgress = Self.now()
            if bytes.isEmpty {
                let collected = incoming ?? []
                fetching = false
                incoming = nil
                return fetched(collected, type: type)
            }
            if received + bytes.count > fetchLimit { return abandon(tooLarge) }
            // In place: `incoming` is the only reference, so no chunk copies what came before.
            incoming?.append(contentsOf: bytes)
        default:
            break
        }
        return nil
    }
}

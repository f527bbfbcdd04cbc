import CX11
import Glibc
import PaintIO

/// The desktop clipboard (the CLIPBOARD selection, ICCCM §2) for one window: offering the
/// picture as PNG and BMP (the BMP made only when a program asks for it) or the text selected in
/// the text box, and fetching a picture (or, for a text field, UTF-8 text) from whichever
/// program owns the clipboard. A picture fetch asks the owner's TARGETS first and takes the
/// best it offers: a picture (PNG, BMP, WebP, JPEG, GIF, in that order), else a file copied in
/// a file manager (`text/uri-list`, `x-special/gnome-copied-files`); an owner that does not
/// answer TARGETS is asked for a PNG, as before. Transfers larger than one request go in INCR
/// chunks, both ways. When the window closes, a clipboard manager is asked to keep what it
/// offered (`handOver`, Clipboard+Manager.swift). The same class serves the PRIMARY selection
/// (text selected in the text box, pasted by a middle click), with a property of its own.
final class Clipboard {
    /// How a fetch ended.
    enum Fetched {
        /// A picture's bytes, in any format the decoders read (they go by content).
        case picture([UInt8])
        /// Files copied in a file manager: their paths, in order.
        case files([String])
        case text(String)
        /// Why there is nothing to paste, in words.
        case nothing(String)
    }

    let display: OpaquePointer
    let window: Window
    /// The selection served: CLIPBOARD, or PRIMARY.
    let clipboard: Atom
    private let targets: Atom
    private let timestamp: Atom
    private let png: Atom
    private let utf8String: Atom
    /// The other names text is asked for by: `text/plain;charset=utf-8` (Qt, browsers) and
    /// `TEXT` (answered as UTF-8); `STRING` is Latin-1 (ICCCM §2.6.2).
    private let plainUTF8: Atom
    private let text: Atom
    private let incr: Atom
    private let multiple: Atom
    private let atomPair: Atom
    /// The picture targets a fetch takes, best first: PNG keeps alpha and every pixel; BMP
    /// every pixel (GTK programs offer it beside PNG, some programs alone); WebP may be
    /// lossless; JPEG always loses a little and GIF keeps 256 colors, so they come last, as in
    /// GIMP's paste. An owner that converts on request (GTK offers every format it can write)
    /// so gives its exact pixels.
    private let pictureTargets: [Atom]
    /// The names a BMP is offered under: `image/bmp` (LibreOffice, Qt) and GTK's two others.
    private let bmpTargets: [Atom]
    /// A file copied in a file manager: the standard list, then GNOME's (`copy` or `cut`, then
    /// the URIs), which some file managers offer alone.
    private let uriList: Atom
    private let gnomeCopiedFiles: Atom
    /// Our window's property that fetched data arrives in.
    let property: Atom
    /// Bytes per property change: well under the server's request size limit.
    private let chunk: Int

    /// What we offer while we own the clipboard: a PNG, or UTF-8 text when `offersText`.
    private(set) var offered: [UInt8]?
    private(set) var offersText = false
    /// Whether the PNG offered is small enough to be offered as BMP too (`BMPEncoder.maxBytes`).
    private var offersBMP = false
    /// The BMP of the PNG offered, made at the first request for one and kept for the next
    /// (a clipboard manager asks again); nil until then, or when it could not be made.
    private var bmp: [UInt8]?
    /// When we took the clipboard (answers TIMESTAMP, and refuses older requests).
    private(set) var ownedSince: Time = 0
    /// Whether the clipboard is ours for a picture still being encoded (`claim`): requests
    /// for its bytes wait in `waiting` until `fulfil`.
    private(set) var awaitsPicture = false
    private var waiting: [XSelectionRequestEvent] = []
    /// Whether a BMP asked for is made off the window's thread: the window takes the PNG to
    /// make it from (`takeBMPToMake`) and gives the BMP back (`fulfilBMP`); requests for it wait
    /// meanwhile. False (tests, and the hand-over at close): made here, at the first request.
    var makesBMPElsewhere = false
    /// Whether requests wait in `waiting` for the BMP being made elsewhere.
    private(set) var awaitsBMP = false
    /// The PNG whose BMP a request waits for, until the window takes it to be made.
    private var bmpToMake: [UInt8]?

    /// An INCR transfer to another program: what is left to send into its property.
    private struct Outgoing {
        let requestor: Window
        let property: Atom
        let type: Atom
        var remaining: ArraySlice<UInt8>
        var finished = false
    }
    private var outgoing: [Outgoing] = []

    /// A fetch in progress; `incoming` collects INCR chunks (appended in place: amortized
    /// linear however many chunks an owner sends).
    private var fetching = false
    /// What the fetch asked for: `targets` (the list of what the owner offers, asked first for
    /// a picture), then one of `pictureTargets`, `uriList` or `gnomeCopiedFiles`; or
    /// `utf8String`.
    private var fetchTarget: Atom = 0
    /// The time the fetch was asked at: the second request (after TARGETS) carries it too.
    private var fetchTime: Time = 0
    private var incoming: [UInt8]?
    /// How many bytes `incoming` has room for (tests).
    var incomingCapacity: Int { incoming?.capacity ?? 0 }
    /// The most room made for INCR chunks before they arrive: an announced size is only what
    /// the owner says (ICCCM: a lower bound), so a claim of a gigabyte reserves no more than
    /// this; a larger transfer grows as its chunks come.
    static let mostReserved = 16 << 20
    /// No picture worth pasting is larger than this (the largest PNG file SwiftPaint opens):
    /// an owner that sends more, or announces more, stops the transfer.
    private let fetchLimit: Int
    /// Seconds an owner may stay silent (no answer, no chunk) before the paste is abandoned.
    private let patience: Double
    /// CLOCK_MONOTONIC seconds of the last sign of life from the owner during a fetch.
    private var lastProgress: Double = 0

    init(
        display: OpaquePointer, window: Window, selection: String = "CLIPBOARD",
        fetchLimit: Int = ImageFile.maxFileBytes,
        patience: Double = 10, makesBMPElsewhere: Bool = false
    ) {
        self.makesBMPElsewhere = makesBMPElsewhere
        self.display = display
        self.window = window
        self.fetchLimit = fetchLimit
        self.patience = patience
        clipboard = XInternAtom(display, selection, 0)
        targets = XInternAtom(display, "TARGETS", 0)
        timestamp = XInternAtom(display, "TIMESTAMP", 0)
        png = XInternAtom(display, "image/png", 0)
        func atoms(_ names: [String]) -> [Atom] { names.map { XInternAtom(display, $0, 0) } }
        bmpTargets = atoms(["image/bmp", "image/x-bmp", "image/x-MS-bmp"])
        pictureTargets = [png] + bmpTargets + atoms(["image/x-ms-bmp", "image/webp", "image/jpeg", "image/gif"])
        uriList = XInternAtom(display, "text/uri-list", 0)
        gnomeCopiedFiles = XInternAtom(display, "x-special/gnome-copied-files", 0)
        utf8String = XInternAtom(display, "UTF8_STRING", 0)
        plainUTF8 = XInternAtom(display, "text/plain;charset=utf-8", 0)
        text = XInternAtom(display, "TEXT", 0)
        incr = XInternAtom(display, "INCR", 0)
        multiple = XInternAtom(display, "MULTIPLE", 0)
        atomPair = XInternAtom(display, "ATOM_PAIR", 0)
        property = XInternAtom(display, "SWIFTPAINT_" + selection, 0)
        // XExtendedMaxRequestSize is 0 without BIG-REQUESTS; both count 4-byte units.
        let units = max(Int(XExtendedMaxRequestSize(display)), Int(XMaxRequestSize(display)))
        chunk = max(4096, min(256 << 10, units * 4 - 1024))
    }

    // MARK: Offering

    /// Takes the clipboard with `bytes` as its PNG, or as UTF-8 text when `text`; false when the
    /// server gave it to another.
    func offer(_ bytes: [UInt8], text: Bool = false, time: Time) -> Bool {
        refuseWaiting()
        offered = bytes
        offersText = text
        bmp = nil
        offersBMP =
            !text && Self.pngSize(bytes).flatMap { BMPEncoder.byteCount(width: $0, height: $1, withAlpha: true) } != nil
        ownedSince = time
        XSetSelectionOwner(display, clipboard, window, time)
        guard XGetSelectionOwner(display, clipboard) == window else {
            offered = nil
            return false
        }
        return true
    }

    /// Takes the clipboard now for a `width` x `height` picture whose PNG is still being
    /// encoded: TARGETS is answered at once, requests for the picture wait for `fulfil` (ICCCM
    /// lets an owner answer when it can). False when the server gave it to another.
    func claim(width: Int, height: Int, time: Time) -> Bool {
        refuseWaiting()
        offered = nil
        offersText = false
        bmp = nil
        offersBMP = BMPEncoder.byteCount(width: width, height: height, withAlpha: true) != nil
        ownedSince = time
        XSetSelectionOwner(display, clipboard, window, time)
        awaitsPicture = XGetSelectionOwner(display, clipboard) == window
        return awaitsPicture
    }

    /// The PNG of the picture claimed for arrived (nil: there is none): the requests that
    /// waited for it are answered. Nothing changes when the clipboard was taken since, by
    /// another program or by another copy here.
    func fulfil(_ png: [UInt8]?) {
        guard awaitsPicture else { return }
        awaitsPicture = false
        offered = png
        let requests = waiting
        waiting = []
        for request in requests { answer(request) }
    }

    /// The BMP made elsewhere for the PNG offered arrived (nil: it could not be made, and no BMP
    /// is offered any more): the requests that waited for it are answered. Nothing changes
    /// when the clipboard was taken since.
    func fulfilBMP(_ made: [UInt8]?) {
        guard awaitsBMP else { return }
        awaitsBMP = false
        bmp = made
        if made == nil { offersBMP = false }
        let requests = waiting
        waiting = []
        for request in requests { answer(request) }
    }

    /// The PNG to make a BMP of for requests waiting (`makesBMPElsewhere`), once.
    func takeBMPToMake() -> [UInt8]? {
        defer { bmpToMake = nil }
        return bmpToMake
    }

    /// The requests waiting for a claimed picture (or a BMP) that will not come are refused.
    private func refuseWaiting() {
        awaitsPicture = false
        awaitsBMP = false
        bmpToMake = nil
        let requests = waiting
        waiting = []
        offered = nil
        for request in requests { answer(request) }
    }

    /// Gives the selection up when this window still owns it, as a text widget gives PRIMARY up
    /// once nothing is selected: the owner is set to None at the time it was taken, which the
    /// server ignores when another program took the selection since (ICCCM §2.1), so theirs is
    /// never taken away. Transfers already under way finish.
    func disown() {
        guard offered != nil else { return }
        offered = nil
        bmp = nil
        // Taken at an unknown server time (no event had a time yet): asked, one round trip.
        if ownedSince == CurrentTime, XGetSelectionOwner(display, clipboard) != window { return }
        XSetSelectionOwner(display, clipboard, 0, ownedSince)
    }

    /// Answers another program's request for the clipboard: the list of targets, the PNG or the
    /// text (in one piece or, when large, as INCR), several of them at once (MULTIPLE, as a clipboard
    /// manager asks), or a refusal.
    ///
    /// What is written goes to the other program's window, which may be gone by then (it quit,
    /// or never was: any client can send a request naming any window): the server's refusal is
    /// taken by `XErrorTrap`, where Xlib's default handler would end this program, and a
    /// transfer to it is dropped when the refusal arrives (`forget`). No round trip is made to
    /// learn it.
    private func answer(_ request: XSelectionRequestEvent) {
        XErrorTrap.tolerate(display, about: request.requestor) { answerTrapped(request) }
    }

    /// A program's window refused what was written to it (`XErrorTrap.takeRefusals`): the
    /// program is gone, and so is a transfer to it.
    func forget(requestor: Window) {
        outgoing.removeAll { $0.requestor == requestor }
        waiting.removeAll { $0.requestor == requestor }
    }

    private func answerTrapped(_ request: XSelectionRequestEvent) {
        // Obsolete clients name no property: the target's name is used then (ICCCM §2.2).
        let target = request.target
        var property = request.property == 0 ? target : request.property
        if awaitsPicture, request.selection == clipboard, target != targets, target != timestamp {
            // The picture's bytes are still being encoded: answered when they are (`fulfil`).
            waiting.append(request)
            return
        }
        if waitsForBMP(request) {
            // The BMP is made off the window's thread: answered when it is (`fulfilBMP`).
            waiting.append(request)
            if !awaitsBMP {
                awaitsBMP = true
                bmpToMake = offered
            }
            return
        }
        if request.selection != clipboard || (offered == nil && !awaitsPicture)
            || (request.time != CurrentTime && request.time < ownedSince)
        {
            property = 0
        } else if target == multiple, request.property != 0 {
            // ICCCM §2.6.2: the property holds (target, property) pairs; each is converted,
            // and the property of one that cannot be (or that names no property) is replaced by
            // None.
            var pairs = atoms(of: request.requestor, request.property)
            for k in stride(from: 0, to: pairs.count - 1, by: 2)
            where pairs[k + 1] == 0 || !convert(pairs[k], for: request.requestor, into: pairs[k + 1]) {
                pairs[k + 1] = 0
            }
            setAtoms(pairs, on: request.requestor, request.property, type: atomPair)
        } else if !convert(target, for: request.requestor, into: property) {
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

    /// Writes the clipboard as `target` into `requestor`'s `property`; false for a target we
    /// do not offer.
    private func convert(_ target: Atom, for requestor: Window, into property: Atom) -> Bool {
        if target == targets {
            setAtoms([targets, timestamp, multiple] + offeredTargets, on: requestor, property, type: XA_ATOM)
        } else if target == timestamp {
            // ICCCM §2.6.2: when we took the selection.
            var time = UInt(ownedSince)
            _ = withUnsafeBytes(of: &time) {
                XChangeProperty(
                    display, requestor, property, XA_INTEGER, 32, PropModeReplace,
                    $0.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
            }
        } else if let (type, bytes) = converted(to: target) {
            if bytes.count <= chunk {
                put(bytes[...], on: requestor, property, type: type)
            } else {
                // Announce the size, then send a chunk each time the requestor deletes the
                // property it read (PropertyNotify, state Delete).
                XSelectInput(display, requestor, PropertyChangeMask)
                var size = UInt(bytes.count)
                _ = withUnsafeBytes(of: &size) {
                    XChangeProperty(
                        display, requestor, property, incr, 32, PropModeReplace,
                        $0.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
                }
                outgoing.removeAll { $0.requestor == requestor && $0.property == property }
                outgoing.append(Outgoing(requestor: requestor, property: property, type: type, remaining: bytes[...]))
            }
        } else {
            return false
        }
        return true
    }

    /// The targets what is offered can be had as: the PNG (and BMP, when not too large), or the
    /// text's names.
    var offeredTargets: [Atom] {
        offersText ? [utf8String, plainUTF8, text, XA_STRING] : [png] + (offersBMP ? bmpTargets : [])
    }

    /// The targets a clipboard manager is asked to keep when the window closes: the PNG alone
    /// (the BMP is made only for a program that asks for one, not at every close), or the
    /// text's names.
    var savedTargets: [Atom] { offersText ? offeredTargets : [png] }

    /// The width and height in a PNG's header (ours: the IHDR chunk first), nil when it is none.
    static func pngSize(_ bytes: [UInt8]) -> (Int, Int)? {
        guard bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        func u32(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (u32(16), u32(20))
    }

    /// The offered PNG as a BMP, made once (`BMPEncoder.encode(png:)`); nil when it cannot be.
    private func offeredBMP() -> [UInt8]? {
        if let bmp { return bmp }
        guard offersBMP, let offered else { return nil }
        bmp = BMPEncoder.encode(png: offered)
        return bmp
    }

    /// Whether `request` (a BMP, or MULTIPLE with one among its pairs) must wait for the BMP
    /// to be made elsewhere: it is not made yet, and is to be made off the window's thread.
    private func waitsForBMP(_ request: XSelectionRequestEvent) -> Bool {
        guard makesBMPElsewhere, bmp == nil, offersBMP, !offersText, offered != nil, request.selection == clipboard,
            request.time == CurrentTime || request.time >= ownedSince
        else { return false }
        if bmpTargets.contains(request.target) { return true }
        guard request.target == multiple, request.property != 0 else { return false }
        let pairs = atoms(of: request.requestor, request.property)
        return stride(from: 0, to: pairs.count - 1, by: 2).contains { bmpTargets.contains(pairs[$0]) }
    }

    /// What is offered, as `target` asks for it, and the type to say it is; nil when it cannot
    /// be had as that.
    private func converted(to target: Atom) -> (type: Atom, bytes: [UInt8])? {
        guard let offered else { return nil }
        guard offersText else {
            if target == png { return (png, offered) }
            guard bmpTargets.contains(target), let bmp = offeredBMP() else { return nil }
            return (target, bmp)
        }
        switch target {
        case utf8String, text: return (utf8String, offered)
        case plainUTF8: return (plainUTF8, offered)
        case XA_STRING:
            // Latin-1: what it cannot hold becomes "?".
            return (
                XA_STRING,
                String(decoding: offered, as: UTF8.self).unicodeScalars.map {
                    $0.value < 0x100 ? UInt8($0.value) : UInt8(ascii: "?")
                }
            )
        default: return nil
        }
    }

    /// Sets `window`'s `property` to a list of atoms (format 32).
    func setAtoms(_ list: [Atom], on window: Window, _ property: Atom, type: Atom) {
        var list = list
        let count = Int32(list.count)
        _ = list.withUnsafeMutableBytes {
            XChangeProperty(
                display, window, property, type, 32, PropModeReplace,
                $0.baseAddress?.assumingMemoryBound(to: UInt8.self), count)
        }
    }

    /// The atoms in `window`'s `property` (a MULTIPLE request's pairs: a few hundred at most
    /// are read).
    private func atoms(of window: Window, _ property: Atom) -> [Atom] {
        guard let read = read(property, of: window, units: 512, delete: false), read.type != incr else { return [] }
        return Self.atoms(read.bytes)
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
            XErrorTrap.tolerate(display, about: event.window) { XSelectInput(display, event.window, 0) }
            return
        }
        let piece = outgoing[k].remaining.prefix(chunk)
        outgoing[k].remaining = outgoing[k].remaining.dropFirst(piece.count)
        let type = outgoing[k].type
        if piece.isEmpty { outgoing[k].finished = true }
        // The requestor's window may go mid-transfer (it quit): the transfer ends when the
        // refusal arrives (`forget`).
        XErrorTrap.tolerate(display, about: event.window) { put(piece, on: event.window, event.atom, type: type) }
    }

    // MARK: Fetching

    /// Asks the clipboard's owner for a picture (its TARGETS first), or for UTF-8 text when
    /// `text`; the answer comes through `handle`. Nil when the request went out, else why there
    /// is nothing to fetch.
    func fetch(time: Time, text: Bool = false) -> Fetched? {
        if XGetSelectionOwner(display, clipboard) == 0 { return .nothing("The clipboard is empty") }
        if XGetSelectionOwner(display, clipboard) == window, let offered {
            // Our own picture or text: no round trip through the server.
            if text != offersText {
                return .nothing(text ? "The clipboard holds no text" : "The clipboard holds no picture")
            }
            return text ? .text(String(decoding: offered, as: UTF8.self)) : .picture(offered)
        }
        fetching = true
        fetchTime = time
        request(text ? utf8String : targets)
        return nil
    }

    /// Asks the owner to convert the clipboard to `target` into our property.
    private func request(_ target: Atom) {
        fetchTarget = target
        incoming = nil
        lastProgress = Self.now()
        XDeleteProperty(display, window, property)
        XConvertSelection(display, clipboard, target, property, window, fetchTime)
    }

    /// The owner's TARGETS arrived (`list` nil: it did not answer them): asks for the best
    /// one this window can paste, a PNG when it did not say; nil when the request went out,
    /// else why there is nothing to paste.
    private func choose(from list: [Atom]?) -> Fetched? {
        guard let list else {
            request(png)
            return nil
        }
        let best = (pictureTargets + [uriList, gnomeCopiedFiles]).first { list.contains($0) }
        guard let best else {
            fetching = false
            return .nothing(
                list.contains(utf8String) || list.contains(XA_STRING)
                    ? "The clipboard holds text, no picture" : "The clipboard holds no picture")
        }
        request(best)
        return nil
    }

    /// The atoms of a TARGETS answer (format 32, read as `UInt`s).
    private static func atoms(_ bytes: [UInt8]) -> [Atom] {
        let size = MemoryLayout<UInt>.size
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { start in
            var value: UInt = 0
            for k in 0..<size { value |= UInt(bytes[start + k]) << (8 * k) }
            return Atom(value)
        }
    }

    /// A finished transfer of `type`, as what the fetch asked for.
    private func fetched(_ bytes: [UInt8], type: Atom) -> Fetched {
        if fetchTarget == utf8String {
            return type == utf8String ? .text(String(decoding: bytes, as: UTF8.self)) : missing
        }
        if fetchTarget == uriList || fetchTarget == gnomeCopiedFiles {
            // GNOME's list starts with a line saying `copy` or `cut`; a `text/uri-list` has no
            // such line (a `copy` there is no URI and would only be counted as another).
            var text = Substring(String(decoding: bytes, as: UTF8.self))
            if fetchTarget == gnomeCopiedFiles, let newline = text.firstIndex(of: "\n") {
                text = text[text.index(after: newline)...]
            }
            let (paths, others) = FileURI.paths(inURIList: String(text))
            if paths.isEmpty {
                return .nothing(
                    others > 0
                        ? "The clipboard holds a link to a file on another computer; nothing was pasted"
                        : "The clipboard holds no picture")
            }
            return .files(paths)
        }
        // Owners answer with the target as the type (xclip, GTK, Qt): anything else is not
        // what was asked for.
        return type == fetchTarget ? .picture(bytes) : missing
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

    /// Reads and deletes our property; nil when it is missing.
    private func takeProperty() -> (type: Atom, bytes: [UInt8])? {
        // The length is in 4-byte units; ask for everything (owners never send more than the
        // fetch limit, which is checked by the caller).
        read(property, of: window, units: fetchLimit / 4, delete: true)
    }

    /// `window`'s `property`, up to `units` 4-byte units of it (items of format 32 as `UInt`s),
    /// deleted once read when `delete`; nil when it is missing.
    private func read(_ property: Atom, of window: Window, units: Int, delete: Bool) -> (type: Atom, bytes: [UInt8])? {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        let status = XGetWindowProperty(
            display, window, property, 0, units, delete ? 1 : 0, Atom(AnyPropertyType), &type, &format, &count,
            &after, &data)
        defer { if let data { XFree(data) } }
        guard status == Success, type != 0 else { return nil }
        let bytesPerItem = format == 32 ? MemoryLayout<UInt>.size : Int(format) / 8
        let length = Int(count) * max(1, bytesPerItem)
        let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? []
        return (type, bytes)
    }

    // MARK: Events

    /// Whether `event` is this selection's to handle: a selection event names the selection,
    /// and a property event may belong to either's transfer (each looks for its own).
    func concerns(_ event: XEvent) -> Bool {
        switch event.type {
        case SelectionRequest: return event.xselectionrequest.selection == clipboard
        case SelectionClear: return event.xselectionclear.selection == clipboard
        case SelectionNotify: return event.xselection.selection == clipboard
        default: return true
        }
    }

    /// Handles a selection or property event; returns a finished fetch, if this event ended
    /// one.
    func handle(_ event: inout XEvent) -> Fetched? {
        switch event.type {
        case SelectionRequest:
            answer(event.xselectionrequest)
        case SelectionClear:
            if event.xselectionclear.selection == clipboard {
                refuseWaiting()
                offered = nil
                bmp = nil
                outgoing.removeAll()
            }
        case SelectionNotify:
            guard fetching, event.xselection.requestor == window, event.xselection.selection == clipboard else {
                return nil
            }
            if fetchTarget == targets {
                // The list of what the owner offers: refused or not a list, a PNG is asked
                // for as before TARGETS were asked.
                let taken = event.xselection.property != 0 ? takeProperty() : nil
                return choose(from: taken.flatMap { $0.type == XA_ATOM ? Self.atoms($0.bytes) : nil })
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
                incoming?.reserveCapacity(min(announced, Self.mostReserved))
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

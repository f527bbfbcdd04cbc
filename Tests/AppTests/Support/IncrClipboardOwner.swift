import CX11
import XDriver

/// Another program on the display that owns the CLIPBOARD with a PNG and hands it out only in
/// INCR chunks (ICCCM §2.7.2), as GTK and Qt programs send large pictures. It has its own
/// connection; `serve` answers whatever has arrived, so call it while waiting.
///
/// A hostile or hung owner is one `behaviour` away: `.endless` never sends the empty chunk that
/// ends a transfer (it sends its bytes over and over), `.silent` never answers at all; one that
/// announces another size than it sends is `announcing` away.
final class IncrClipboardOwner {
    enum Behaviour { case honest, endless, silent }
    private let behaviour: Behaviour
    private let connection: SelectionConnection
    private let bytes: [UInt8]
    private let chunk: Int
    /// The size announced before the chunks (the bytes' own when nil).
    private let announcing: Int?
    private let png: Atom
    private let incr: Atom
    /// Transfers in progress: the next offset to send into each requestor's property.
    private var transfers: [(requestor: Window, property: Atom, offset: Int)] = []
    /// How many chunks went out (the empty one that ends a transfer included).
    private(set) var chunksSent = 0

    init(
        displayName: String, png bytes: [UInt8], chunk: Int = 64 << 10, behaviour: Behaviour = .honest,
        announcing: Int? = nil
    ) throws {
        connection = try SelectionConnection(displayName: displayName, selection: "CLIPBOARD")
        self.behaviour = behaviour
        self.bytes = bytes
        self.chunk = chunk
        self.announcing = announcing
        png = connection.atom("image/png")
        incr = connection.atom("INCR")
    }

    /// Answers the requests and property deletions that have arrived.
    func serve() {
        let display = connection.display
        connection.drain { event in
            if behaviour == .silent { return }
            switch event.type {
            case SelectionRequest:
                let request = event.xselectionrequest
                var property = request.property
                if request.target == png && property != 0 {
                    // Announce the size; the chunks follow each deletion of the property.
                    XSelectInput(display, request.requestor, PropertyChangeMask)
                    var size = UInt(announcing ?? bytes.count)
                    _ = withUnsafeBytes(of: &size) {
                        XChangeProperty(
                            display, request.requestor, property, incr, 32, PropModeReplace,
                            $0.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
                    }
                    transfers.append((request.requestor, property, 0))
                } else {
                    property = 0
                }
                connection.reply(to: request, property: property)
            case PropertyNotify where event.xproperty.state == PropertyDelete:
                let e = event.xproperty
                guard let k = transfers.firstIndex(where: { $0.requestor == e.window && $0.property == e.atom }) else {
                    return
                }
                // The endless owner starts over instead of ending.
                if behaviour == .endless && transfers[k].offset == bytes.count { transfers[k].offset = 0 }
                let start = transfers[k].offset
                let end = min(bytes.count, start + chunk)
                _ = bytes[start..<end].withUnsafeBufferPointer {
                    XChangeProperty(
                        display, e.window, e.atom, png, 8, PropModeReplace, $0.baseAddress, Int32($0.count))
                }
                chunksSent += 1
                if start == end { transfers.remove(at: k) } else { transfers[k].offset = end }
            default:
                break
            }
        }
    }
}

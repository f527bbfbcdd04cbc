import CX11
import Foundation
import PaintCore
import PaintIO
import Testing
import XDriver

/// A copied picture asked for by other programs, each request checked against ICCCM: TARGETS
/// (GIMP and Qt programs ask it first), TIMESTAMP, image/png (GIMP, Krita, LibreOffice's GTK
/// back end), the BMP names (LibreOffice's older X back end, gdk-pixbuf), several at once in
/// MULTIPLE (clipboard managers), and what we do not offer (Qt's own application/x-qt-image, a
/// JPEG, text) refused with property None; a request from before the copy, one naming no
/// property and one from a window gone before the answer are handled without harm.
@Suite("Clipboard requests per ICCCM", .serialized)
struct ClipboardRequestsTests {
    static let size = (w: 64, h: 48)

    @Test("TARGETS, TIMESTAMP, PNG, BMP and MULTIPLE answered; other targets and stale requests refused")
    func requests() throws {
        let dir = try scratchFolder()
        let file = dir.file("noise.png")
        // Noise, so the pictures read back cannot match by chance; small enough for one property.
        let noise = ClipboardEndToEndTests.noise(width: Self.size.w, height: Self.size.h)
        try ImageFile.save(noise, to: file, withAlpha: false)
        let paint = try PaintWindow(
            ServerConfig.standard, arguments: [file], imageWidth: Self.size.w, imageHeight: Self.size.h)
        defer { paint.stop() }
        let r = try ClipboardRequestor(displayName: paint.session.server.displayName)
        try paint.key("c", modifiers: [.control])
        #expect(Wait.until(poll: .milliseconds(20)) { r.owner() != 0 }, "the program never took the clipboard")
        let none = Atom(0)
        let into = r.atom("SWIFTPAINT_TEST_ANSWER")
        let now = try r.serverTime()

        // TARGETS: a list of atoms (type ATOM), ours and the conversions every owner answers.
        let targets = try r.request(r.atom("TARGETS"), into: into, time: now)
        #expect(targets.property == into && targets.target == r.atom("TARGETS") && targets.time == now)
        #expect(targets.type == XA_ATOM && targets.format == 32)
        let names = r.connection.atoms(targets.bytes).map { r.name(Atom($0)) }
        for name in ["TARGETS", "TIMESTAMP", "MULTIPLE", "image/png", "image/bmp", "image/x-bmp", "image/x-MS-bmp"] {
            #expect(names.contains(name), "TARGETS lacks \(name): \(names)")
        }
        #expect(!names.contains("application/x-qt-image") && !names.contains("UTF8_STRING"), "\(names)")

        // TIMESTAMP: one INTEGER, the time the program took the clipboard (its Ctrl+C's).
        let stamp = try r.request(r.atom("TIMESTAMP"), into: into, time: now)
        #expect(stamp.property == into && stamp.type == XA_INTEGER && stamp.format == 32)
        let owned = try #require(r.connection.atoms(stamp.bytes).first)
        #expect(
            r.connection.atoms(stamp.bytes).count == 1 && owned > 0 && owned <= now, "owned at \(owned), now \(now)")

        // A request made before that time is not for this owner: refused (ICCCM §2.2); at it, answered.
        let stale = try r.request(r.atom("image/png"), into: into, time: Time(owned) - 1)
        #expect(stale.property == none && stale.bytes.isEmpty)
        let png = try r.request(r.atom("image/png"), into: into, time: Time(owned))
        #expect(png.property == into && png.type == r.atom("image/png") && png.format == 8)
        #expect((try? PNGCodec.decode(png.bytes, name: "clipboard")) == noise)

        // Each BMP name: the same picture, as a BMP, typed as asked.
        for name in ["image/bmp", "image/x-bmp", "image/x-MS-bmp"] {
            let bmp = try r.request(r.atom(name), into: into, time: now)
            #expect(bmp.property == into && bmp.type == r.atom(name) && bmp.bytes.starts(with: Array("BM".utf8)))
            let decoded = try? ImageDecoder.decode(bmp.bytes, name: name)
            #expect(decoded?.image == noise, "\(name) read back")
        }

        // What we do not offer is refused with property None, and nothing is written.
        for name in ["application/x-qt-image", "image/jpeg", "UTF8_STRING", "text/uri-list", "SAVE_TARGETS"] {
            let refused = try r.request(r.atom(name), into: into, time: now)
            #expect(refused.property == none && refused.target == r.atom(name), "\(name) not refused")
            #expect(r.take(into).bytes.isEmpty, "\(name) wrote the property")
        }

        // An obsolete requestor names no property: the answer goes in the target's own name.
        let obsolete = try r.request(r.atom("image/png"), into: none, time: now)
        #expect(obsolete.property == r.atom("image/png"))
        #expect((try? PNGCodec.decode(obsolete.bytes, name: "clipboard")) == noise)

        // MULTIPLE: (target, property) pairs in an ATOM_PAIR property; each converted, and
        // the property of one that cannot be (or names none) replaced by None (ICCCM §2.6.2).
        let pairs = r.atom("SWIFTPAINT_TEST_PAIRS")
        let (a, b, c, d) = (r.atom("TEST_A"), r.atom("TEST_B"), r.atom("TEST_C"), r.atom("TEST_D"))
        let asked: [Atom] = [
            r.atom("image/png"), a, r.atom("application/x-qt-image"), b, r.atom("TIMESTAMP"), c,
            r.atom("image/x-MS-bmp"), d, r.atom("image/png"), none, r.atom("MULTIPLE"), b,
        ]
        r.setAtoms(asked, pairs, type: r.atom("ATOM_PAIR"))
        let multiple = try r.request(r.atom("MULTIPLE"), into: pairs, time: now)
        #expect(multiple.property == pairs && multiple.type == r.atom("ATOM_PAIR") && multiple.format == 32)
        let answered = r.connection.atoms(multiple.bytes).map { Atom($0) }
        var expected = asked
        expected[3] = none
        expected[11] = none
        #expect(answered == expected, "\(answered.map(r.name)) for \(asked.map(r.name))")
        #expect((try? PNGCodec.decode(r.take(a).bytes, name: "clipboard")) == noise)
        #expect(r.take(b).bytes.isEmpty)
        #expect(r.connection.atoms(r.take(c).bytes) == [owned])
        #expect(r.take(d).bytes.starts(with: Array("BM".utf8)))
        // MULTIPLE with no property to hold its pairs: refused.
        #expect(try r.request(r.atom("MULTIPLE"), into: none, time: now).property == none)

        // A requestor whose window is gone before the answer (it quit): the program writes
        // into nothing, neither fails nor stops answering others.
        for target in ["image/png", "MULTIPLE", "image/bmp"] {
            let gone = try SelectionConnection(displayName: paint.session.server.displayName, selection: nil)
            if target == "MULTIPLE" {
                var list = [UInt(gone.atom("image/png")), UInt(gone.atom("TEST_A"))]
                _ = list.withUnsafeMutableBytes {
                    XChangeProperty(
                        gone.display, gone.window, gone.atom("TEST_PAIRS"), gone.atom("ATOM_PAIR"), 32,
                        PropModeReplace, $0.baseAddress?.assumingMemoryBound(to: UInt8.self), 2)
                }
            }
            XConvertSelection(
                gone.display, gone.atom("CLIPBOARD"), gone.atom(target),
                gone.atom(target == "MULTIPLE" ? "TEST_PAIRS" : "TEST_A"), gone.window, UInt(CurrentTime))
            XDestroyWindow(gone.display, gone.window)
            XSync(gone.display, 0)
        }
        let after = try r.request(r.atom("image/png"), into: into, time: now)
        #expect((try? PNGCodec.decode(after.bytes, name: "clipboard")) == noise, "answered after the gone requestors")
        #expect(paint.app.isRunning, "\(paint.app.outputSummary)")
        #expect(!paint.app.stderr.contains("X Error"), "\(paint.app.stderr)")
    }

    /// Another program asks a copy of 3000 x 2000 for image/bmp (LibreOffice, Wine programs).
    /// The BMP is made from the PNG offered only when asked; before, the window's thread made it
    /// there and then (819 ms for a 4000 x 3000 photo), answering nothing meanwhile. Now it is
    /// made on a thread: a ping sent to the window after the request (the server has the
    /// request first) is answered while the request still waits, and the BMP that comes after
    /// is the picture's pixels.
    @Test("image/bmp of a large copy: made off the window's thread, the window answers meanwhile")
    func bmpMadeOffTheWindowsThread() throws {
        let (w, h) = (3000, 2000)
        let dir = try scratchFolder()
        let file = dir.file("photo.png")
        var picture = PixelImage(width: w, height: h)
        for y in 0..<h {
            for x in 0..<w {
                picture[x, y] = Color(r: UInt8(x * 255 / w), g: UInt8(y * 255 / h), b: UInt8((x ^ y) & 0xFF)).pixel
            }
        }
        try ImageFile.save(picture, to: file, withAlpha: false)
        let paint = try PaintWindow(
            ServerConfig.standard, arguments: ["--no-journal", file], imageWidth: w, imageHeight: h)
        defer { paint.stop() }
        let r = try ClipboardRequestor(displayName: paint.session.server.displayName)
        try paint.key("c", modifiers: [.control])
        #expect(Wait.until(poll: .milliseconds(20)) { r.owner() != 0 }, "the program never took the clipboard")
        let into = r.atom("SWIFTPAINT_TEST_ANSWER")
        // The PNG first (encoded on its own thread since e114b4a): once it is read, it is offered.
        r.send(r.atom("image/png"), into: into, time: try r.serverTime())
        var pngReply: XSelectionEvent?
        _ = Wait.until(poll: .milliseconds(5)) {
            pngReply = r.answer()
            return pngReply != nil
        }
        let png = try r.receive(try #require(pngReply, "the PNG never came: \(paint.app.outputSummary)"))
        #expect(png.type == r.atom("image/png") && png.bytes.count > 1000, "\(png.bytes.count) bytes of PNG")

        r.send(r.atom("image/bmp"), into: into, time: try r.serverTime())
        try paint.roundTrip()
        let early = r.answer()
        #expect(early == nil, "the BMP came before the window answered a ping sent after the request")
        var reply = early
        _ = Wait.until(poll: .milliseconds(5)) {
            if reply == nil { reply = r.answer() }
            return reply != nil
        }
        let answered = try #require(reply, "the BMP never came: \(paint.app.outputSummary)")
        #expect(answered.property == into && answered.target == r.atom("image/bmp"))
        let bmp = try r.receive(answered)
        #expect(bmp.type == r.atom("image/bmp") && ImageFormat.sniff(bmp.bytes) == .bmp, "\(bmp.bytes.count) bytes")
        #expect((try? ImageDecoder.decode(bmp.bytes, name: "image/bmp"))?.image == picture, "the BMP read back")
        #expect(paint.app.isRunning, "\(paint.app.outputSummary)")
    }
}

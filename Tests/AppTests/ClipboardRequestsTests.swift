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
            ServerConfig(depth: 24, shm: true), arguments: [file], imageWidth: Self.size.w, imageHeight: Self.size.h)
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
}

import Foundation
import Glibc
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// Ctrl+C on a large picture: the clipboard is taken at once and the PNG encoded on a thread of
/// its own, so the window goes on and no other program pastes the picture copied before.
@Suite struct ClipboardEncodingTests {
    typealias T = SessionTests

    /// Waits (on the descriptor the window polls, not a sleep) until the copy is encoded, then
    /// takes it as the window does; returns the effects.
    static func encoded(_ s: Session) -> Effects {
        if let fd = s.clipboardEncoding?.descriptor {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 120_000)
        }
        s.takeBackgroundWork()
        return s.takeEffects()
    }

    /// A 1200 x 1000 picture (over `ClipboardEncoding.pixelsEncodedAtOnce`) with a stroke.
    static func drawn() -> Session {
        let s = T.makeSession(width: 1200, height: 1000, windowWidth: 1400, windowHeight: 900)
        T.drag(s, [(10, 10), (300, 200)])
        _ = s.takeEffects()
        return s
    }

    /// Before, Ctrl+C encoded the PNG on the window's thread (1 to 2.5 s for a 4000 x 3000
    /// photo) and only then took the clipboard: the window froze, and a paste elsewhere in
    /// that time got the picture copied before. Now Ctrl+C claims the clipboard with the
    /// picture's size at once, says it copied, and the PNG follows from the thread: the picture
    /// as saved.
    @Test func aLargeCopyIsClaimedAtOnceAndEncodedOffTheWindowsThread() throws {
        let s = Self.drawn()
        let copy = T.key(s, "c", .control).clipboard
        #expect(copy == [.claim(width: 1200, height: 1000)], "\(copy.count) requests")
        #expect(s.isEncodingForClipboard && s.clipboardEncoding?.descriptor != nil)
        #expect(s.shownMessage == "Copied the picture (1200 × 1000) to the clipboard")
        let done = Self.encoded(s).clipboard
        guard done.count == 1, case .fulfil(let png?) = done[0] else {
            Issue.record("the PNG never came: \(done.count) requests")
            return
        }
        #expect(try PNGCodec.decode(png, name: "clip") == s.engine.flattenedImage())
        #expect(!s.isEncodingForClipboard && s.takeEffects().clipboard.isEmpty, "given once")
    }

    /// Ctrl+V right after: the copy is finished first, so the paste finds the picture in this
    /// window rather than asking for it. A second copy gives the first up: its PNG never comes.
    /// A small selection is offered at once, as before.
    @Test func aPasteWaitsForTheCopyAndANewerCopyReplacesIt() throws {
        let s = Self.drawn()
        _ = T.key(s, "c", .control)
        let paste = T.key(s, "v", .control).clipboard
        guard paste.count == 2, case .fulfil(let png?) = paste[0], paste[1] == .fetch else {
            Issue.record("Ctrl+V asked \(paste.count) things")
            return
        }
        #expect(try PNGCodec.decode(png, name: "clip").width == 1200)
        _ = T.key(s, "c", .control)
        T.key(s, "s")
        T.drag(s, [(20, 20), (60, 50)])
        let small = T.key(s, "c", .control).clipboard
        guard small.count == 1, case .offer(let selected) = small[0] else {
            Issue.record("the selection was not offered at once: \(small.count) requests")
            return
        }
        #expect(try PNGCodec.decode(selected, name: "clip").width == 40)
        #expect(!s.isEncodingForClipboard && Self.encoded(s).clipboard.isEmpty, "the first copy's PNG came")
    }

    /// Another program asked the clipboard for the picture as BMP: before, the window's thread
    /// decoded the PNG offered and wrote the BMP (819 ms for a 4000 x 3000 photo). Now the
    /// session makes it on a thread, polled through the copy's descriptor, and gives it when it
    /// is done: the picture's pixels. A paste does not wait for it; a newer copy gives it up.
    @Test func aBMPAskedForIsMadeOffTheWindowsThread() throws {
        let s = Self.drawn()
        let png = try PNGCodec.encode(s.engine.flattenedImage(), withAlpha: false)
        s.makeClipboardBMP(fromPNG: png)
        #expect(s.takeEffects().clipboard.isEmpty, "nothing given on the window's thread")
        #expect(s.isEncodingForClipboard && s.clipboardEncoding?.descriptor != nil)
        let done = Self.encoded(s).clipboard
        guard done.count == 1, case .fulfilBMP(let bmp?) = done[0] else {
            Issue.record("the BMP never came: \(done.count) requests")
            return
        }
        #expect(ImageFormat.sniff(bmp) == .bmp)
        #expect(try ImageDecoder.decode(bmp, name: "clip").image == s.engine.flattenedImage())
        #expect(!s.isEncodingForClipboard && s.takeEffects().clipboard.isEmpty, "given once")

        // Ctrl+V while a BMP is made asks for the clipboard's picture at once.
        s.makeClipboardBMP(fromPNG: png)
        #expect(T.key(s, "v", .control).clipboard == [.fetch])
        // A newer copy: the BMP of the one before never comes, the new PNG does.
        #expect(T.key(s, "c", .control).clipboard == [.claim(width: 1200, height: 1000)])
        let next = Self.encoded(s).clipboard
        guard next.count == 1, case .fulfil(.some) = next[0] else {
            Issue.record("not the copy's PNG alone: \(next.count) requests")
            return
        }
    }
}

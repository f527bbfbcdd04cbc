import Foundation
import Glibc
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// A paste decoding and the file dialog's thumbnails are both work done off the window's
/// thread: each wakes the window when it is done, whatever the other is doing.
extension PasteDecodingTests {
    /// Before, the window polled the paste's descriptor instead of the thumbnails' while a
    /// paste decoded (`backgroundDescriptors`, not `pasteDecoding?.descriptor ?? thumbnailer?.descriptor`): a thumbnail finished then
    /// waited, unseen, for the paste's end or the next event.
    @Test func aThumbnailFinishedWhileAPasteDecodesWakesTheWindow() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let small = dir + "/small.png"
        try ImageFile.save(PixelImage(width: 8, height: 6, fill: Color.black.pixel), to: small, withAlpha: false)
        let s = T.makeSession(path: dir + "/doc.png", width: 60, height: 40, windowWidth: 1000, windowHeight: 700)
        // The paste's decode waits until the test lets it go.
        let gate = DispatchSemaphore(value: 0)
        s.decodePaste = { source, control in
            gate.wait()
            return PasteDecoding.decode(source, control: control)
        }
        defer { gate.signal() }
        s.handle(.pasted(picture: try PNGCodec.encode(PixelImage(width: 5, height: 5), withAlpha: true)))
        #expect(s.isDecodingPaste)
        T.key(s, "o", .control)
        #expect(s.fileDialog?.folder == dir, "\(s.mode)")
        // The thumbnail's job finishes the picture in view (its own descriptor says so).
        let loaderFD = try #require(s.thumbnailer?.descriptor)
        var done = pollfd(fd: loaderFD, events: Int16(POLLIN), revents: 0)
        #expect(poll(&done, 1, 120_000) == 1, "the thumbnail was never made")
        // What the window polls (`X11App.run`) with the paste still decoding: readable.
        #expect(s.isDecodingPaste)
        var fds = s.backgroundDescriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        #expect(poll(&fds, nfds_t(fds.count), 0) > 0, "the finished thumbnail did not wake the window")
        s.takeBackgroundWork()
        #expect(s.thumbnails[small]?.image?.width == 8)
        #expect(s.isDecodingPaste, "the paste is still to come")
    }
}

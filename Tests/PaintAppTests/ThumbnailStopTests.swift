import Foundation
import PaintCore
import Testing

@testable import PaintApp
@testable import PaintIO

/// The file dialog's thumbnails: one being made when the folder changes is stopped, not
/// finished before the new folder's.
@Suite struct ThumbnailStopTests {
    /// Polls `condition` every millisecond for up to `seconds` (generous: a loaded machine).
    static func wait(_ seconds: Double = 120, _ condition: () -> Bool) -> Bool {
        let end = Date(timeIntervalSinceNow: seconds)
        while Date() < end {
            if condition() { return true }
            usleep(1000)
        }
        return condition()
    }

    @Test func aThumbnailNoLongerAskedForIsStoppedAndNotHandedOver() throws {
        let dir = SessionTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // 16 million pixels: seconds of decoding, row by row, in a debug build.
        let big = dir + "/big.bmp"
        try Data(PasteDecodingTests.bmp(width: 4000, height: 4000)).write(to: URL(fileURLWithPath: big))
        let small = dir + "/small.png"
        try ImageFile.save(PixelImage(width: 8, height: 6, fill: Color.black.pixel), to: small, withAlpha: false)
        let loader = ThumbnailLoader()
        loader.request([big], side: 64)
        #expect(Self.wait { loader.making == big }, "the big one is never started")
        // The folder changes: only the small one is wanted now.
        loader.request([small], side: 64)
        var done: [ThumbnailLoader.Done] = []
        #expect(
            Self.wait {
                done += loader.take()
                return done.contains { $0.path == small }
            }, "the small one never came")
        #expect(!done.contains { $0.path == big }, "the big one was finished first: \(done.map(\.path))")
        #expect(done.first { $0.path == small }?.image?.width == 8)
        #expect(loader.making == nil)
    }
}

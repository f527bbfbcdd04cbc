import PaintCore
import Testing

@testable import PaintIO

/// The one walk of a JPEG's header (`JPEGSegments`) that its metadata (`JPEGMetadata`) and its
/// print resolution (`PictureResolution`) are read by: bounded by the bytes it is given, whatever
/// the lengths in them say.
@Suite struct JPEGSegmentsTests {
    /// A segment: marker, length (2 + the body's), body.
    static func segment(_ marker: UInt8, _ body: [UInt8], length: Int? = nil) -> [UInt8] {
        let length = length ?? body.count + 2
        return [0xFF, marker, UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + body
    }

    /// An APP1 EXIF segment's body saying orientation `value` (big-endian TIFF, one IFD entry).
    static func exif(orientation value: UInt8) -> [UInt8] {
        JPEGMetadata.exifSignature + Array("MM".utf8) + [0, 42, 0, 0, 0, 8] + [0, 1]
            + [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, value, 0, 0] + [0, 0, 0, 0]
    }

    /// A JFIF APP0 body declaring `dpi` dots per inch both ways.
    static func jfif(dpi: UInt8) -> [UInt8] { Array("JFIF".utf8) + [0, 1, 2, 1, 0, dpi, 0, dpi, 0, 0] }

    static let soi: [UInt8] = [0xFF, 0xD8]
    static let sos: [UInt8] = [0xFF, 0xDA, 0, 2]

    @Test func segmentsComeInOrderFillBytesAndStandaloneMarkersSteppedOver() {
        let bytes =
            Self.soi + Self.segment(0xE0, Self.jfif(dpi: 72)) + [0xFF, 0xFF] + Self.segment(0xE1, [1, 2, 3])
            + [0xFF, 0xD0] + [0xFF, 0x01] + Self.segment(0xFE, []) + Self.sos + Self.segment(0xE1, [9])
        let walked = Array(JPEGSegments(bytes))
        let markers = walked.map(\.marker)
        let lengths = walked.map(\.length)
        let bodies = walked.map { Array($0.body) }
        #expect(markers == [0xE0, 0xE1, 0xFE], "nothing after the scan starts")
        #expect(lengths == [16, 5, 2])
        #expect(bodies.count == 3 && bodies[1] == [1, 2, 3] && bodies[2].isEmpty)
        let allWhole = walked.allSatisfy(\.isWhole)
        #expect(allWhole)
    }

    /// A segment whose length runs past the end of the bytes is given as far as they go and ends
    /// the walk; the metadata reads nothing from it (an EXIF orientation, an ICC profile cut
    /// short), the resolution reads a JFIF density that is there (the 64 KB head a file's
    /// resolution is read from can end inside a long JFIF segment).
    @Test func aLengthRunningPastTheEndEndsTheWalkInsideItsSegment() throws {
        let exif = Self.exif(orientation: 6)
        let whole = Self.soi + Self.segment(0xE1, exif) + Self.sos
        #expect(JPEGMetadata(whole, maxProfileBytes: 1 << 20).orientation == .rotateRight)
        for claimed in [exif.count + 3, 0xFFFF] {
            let cut = Self.soi + Self.segment(0xE1, exif, length: claimed)
            let segments = Array(JPEGSegments(cut))
            #expect(segments.count == 1)
            #expect(segments.first?.isWhole == false && segments.first?.body.count == exif.count)
            #expect(JPEGMetadata(cut, maxProfileBytes: 1 << 20).orientation == .identity, "claimed \(claimed)")
        }
        let profile = JPEGMetadata.iccSignature + [1, 1] + [UInt8](repeating: 7, count: 300)
        let icc = Self.soi + Self.segment(0xE2, profile) + Self.sos
        #expect(JPEGMetadata(icc, maxProfileBytes: 1 << 20).iccProfile?.count == 300)
        let iccCut = Self.soi + Self.segment(0xE2, profile, length: 0xFFFF)
        #expect(JPEGMetadata(iccCut, maxProfileBytes: 1 << 20).iccProfile == nil)

        let jfif = Self.soi + Self.segment(0xE0, Self.jfif(dpi: 150), length: 0xFFFF)
        #expect(PictureResolution(fileHead: jfif) == PictureResolution(x: 150, y: 150))
        // Too little of it for the density: none.
        #expect(PictureResolution(fileHead: Array(jfif.prefix(15))) == nil)
    }

    @Test func aLengthUnderTwoOrAByteThatIsNoMarkerEndsTheWalk() {
        let after = Self.segment(0xE1, Self.exif(orientation: 3)) + Self.sos
        for broken in [[0xFF, 0xE0, 0, 1], [0xFF, 0xE0, 0, 0], [0x00, 0xE0, 0, 4, 1, 2]] as [[UInt8]] {
            let bytes = Self.soi + broken + after
            #expect(JPEGSegments(bytes).map(\.marker).isEmpty, "\(broken)")
            #expect(JPEGMetadata(bytes, maxProfileBytes: 1 << 20).orientation == .identity, "\(broken)")
        }
        // Too short for a marker and its length: nothing.
        for bytes in [[], [0xFF], Self.soi, Self.soi + [0xFF, 0xE1, 0]] as [[UInt8]] {
            #expect(JPEGSegments(bytes).map(\.marker).isEmpty)
            #expect(JPEGMetadata(bytes, maxProfileBytes: 1 << 20).orientation == .identity)
            #expect(PictureResolution(fileHead: bytes) == nil)
        }
    }

    /// The JFIF density is looked for only before the frame header (SOF): one after it is not
    /// the file's; the metadata goes on to the scan.
    @Test func theResolutionStopsAtTheFrameHeaderTheMetadataAtTheScan() {
        let sof = Self.segment(0xC0, [8, 0, 1, 0, 1, 1, 1, 0x11, 0])
        let bytes =
            Self.soi + Self.segment(0xC4, [0]) + sof + Self.segment(0xE0, Self.jfif(dpi: 200))
            + Self.segment(0xE1, Self.exif(orientation: 8)) + Self.sos
        #expect(PictureResolution(fileHead: bytes) == nil)
        #expect(JPEGMetadata(bytes, maxProfileBytes: 1 << 20).orientation == .rotateLeft)
        // Before it (after a DHT, which is no frame header), it is read.
        let before =
            Self.soi + Self.segment(0xC4, [0]) + Self.segment(0xE0, Self.jfif(dpi: 200)) + sof + Self.sos
        #expect(PictureResolution(fileHead: before) == PictureResolution(x: 200, y: 200))
    }

    /// Thousands of segments claiming 64 KB each in a file of a few: the walk ends at the bytes'
    /// end after as many steps as the bytes allow.
    @Test func lengthsThatClaimMoreThanTheFileHoldsAreBoundedByIt() {
        var bytes = Self.soi
        for _ in 0..<10_000 { bytes += Self.segment(0xEC, [UInt8](repeating: 0, count: 2)) }
        bytes += Self.segment(0xE1, [0, 0], length: 0xFFFF)
        let segments = Array(JPEGSegments(bytes))
        #expect(segments.count == 10_001)
        #expect(segments.last?.isWhole == false)
        #expect(JPEGMetadata(bytes, maxProfileBytes: 1 << 20).orientation == .identity)
    }
}

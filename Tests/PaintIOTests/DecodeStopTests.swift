import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// A decode nobody waits for any more (a paste cancelled with Escape, a second paste, another
/// picture opened) ends midway in every format, not only PNG: each decoder asks its
/// `ReplayControl` at every step (a row; a row of a progressive JPEG's scan; a chunk of a WebP's
/// data), and one told to stop ends the decode there with `ImageFileError.stopped`.
@Suite struct DecodeStopTests {
    /// Every format's files: Pillow's and the hand-written ones (formats.py: baseline,
    /// progressive, gray and CMYK JPEG; GIF, interlaced and animated; every BMP, run-length
    /// coded too; small WebPs), and WebPs large enough to take several chunks of data.
    static func files() throws -> [(name: String, bytes: [UInt8])] {
        let fixtures = FormatDecodingTests.fixtures
        var files = fixtures.entries.map { ($0.name, Support.get(fixtures.folder + "/" + $0.file) ?? []) }
        let picture = Support.opaqueImage(width: 640, height: 480)
        files.append(("webp-lossy-large", try WebPCodec.encode(picture, quality: 100, withAlpha: false)))
        files.append(("webp-lossless-large", try WebPCodec.encode(picture, quality: nil, withAlpha: false)))
        files.append(("png", try PNGCodec.encode(picture, withAlpha: false)))
        files.append(("jpeg", try JPEGCodec.encode(picture, quality: 90)))
        return files
    }

    @Test func aStoppedDecodeEndsMidwayInEveryFormat() throws {
        let files = try Self.files()
        #expect(Set(files.compactMap { ImageFormat.sniff($0.bytes) }) == [.png, .jpeg, .webp, .gif, .bmp])
        for (name, bytes) in files {
            // Watched to its end, a decode gives the same pixels as one nobody can stop, in
            // several steps.
            let watched = ReplayControl()
            let whole = try ImageDecoder.decode(bytes, name: name, control: watched)
            let plain = try ImageDecoder.decode(bytes, name: name)
            #expect(whole.image == plain.image && whole.hasAlpha == plain.hasAlpha, "\(name)")
            let steps = watched.decodeSteps
            // A few-kilobyte WebP is one chunk of data; every other file is many rows.
            guard steps >= 4 else {
                #expect(name.hasPrefix("webp-") && !name.hasSuffix("-large"), "\(name): \(steps) steps")
                continue
            }
            // Told to stop at its third step, it ends there, long before its last.
            let stopping = ReplayControl(decodeSteps: 3)
            #expect(throws: ImageFileError.stopped(path: name), "\(name)") {
                try ImageDecoder.decode(bytes, name: name, control: stopping)
            }
            #expect(stopping.decodeSteps == 3, "\(name): \(stopping.decodeSteps) of \(steps) steps")
        }
    }

    /// A control told to stop before the decode starts ends it at its first step, whatever the
    /// format (a paste cancelled at once).
    @Test func aControlStoppedBeforehandEndsEveryFormatsDecodeAtOnce() throws {
        for (name, bytes) in try Self.files() {
            let control = ReplayControl()
            control.stop()
            #expect(throws: ImageFileError.stopped(path: name), "\(name)") {
                try ImageDecoder.decode(bytes, name: name, control: control)
            }
            #expect(control.decodeSteps == 1, "\(name): \(control.decodeSteps) steps")
        }
    }
}

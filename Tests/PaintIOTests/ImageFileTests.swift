import Foundation
import Glibc
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

@Suite struct ImageFileTests {
    @Test func saveThenLoadGivesTheSamePixels() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let image = Support.opaqueImage(width: 97, height: 61)
        let path = folder.file("picture.png")

        try ImageFile.save(image, to: path, withAlpha: false)
        #expect(try ImageFile.load(path: path) == image)
        // Saving again replaces the file in place, still without leftovers.
        var changed = image
        changed[0, 0] = 0xFF00_0000
        try ImageFile.save(changed, to: path, withAlpha: true)
        #expect(try ImageFile.load(path: path) == changed)
        #expect(folder.entries() == ["picture.png"])
    }

    @Test func saveOverA0600FileKeeps0600() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let path = folder.file("private.png")
        try ImageFile.save(Support.opaqueImage(width: 4, height: 4), to: path, withAlpha: false)
        chmod(path, 0o600)

        try ImageFile.save(Support.opaqueImage(width: 9, height: 9), to: path, withAlpha: false)
        #expect(Support.mode(path) == 0o600)
        #expect(try ImageFile.load(path: path).width == 9)
    }

    @Test func saveThroughASymlinkReplacesTheTarget() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let target = folder.file("target.png")
        try ImageFile.save(Support.opaqueImage(width: 4, height: 4), to: target, withAlpha: false)
        #expect(symlink(target, folder.file("link.png")) == 0)

        let image = Support.opaqueImage(width: 6, height: 5)
        try ImageFile.save(image, to: folder.file("link.png"), withAlpha: false)
        #expect(try ImageFile.load(path: target) == image)
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.file("link.png"))
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink)
        #expect(folder.entries() == ["link.png", "target.png"])
    }

    @Test func saveIntoAReadOnlyFolderFailsAndKeepsTheOldFile() throws {
        let oldPNG = try PNGCodec.encode(Support.opaqueImage(width: 3, height: 3), withAlpha: false)
        let readOnly = try Support.readOnlyFolder(holding: oldPNG)
        defer { readOnly.cleanup() }
        let before = Support.get(readOnly.file)

        let error = #expect(throws: ImageFileError.self, "folder made read-only by \(readOnly.how)") {
            try ImageFile.save(Support.opaqueImage(), to: readOnly.file, withAlpha: false)
        }
        #expect(error?.path == readOnly.file)
        #expect(error?.isSaveError == true)
        #expect(Support.get(readOnly.file) == before)
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: readOnly.path))?.filter {
            $0.hasSuffix(".tmp")
        }
        #expect(leftovers == [])
    }

    @Test func saveToAFolderFails() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let error = #expect(throws: ImageFileError.self) {
            try ImageFile.save(Support.opaqueImage(), to: folder.path, withAlpha: false)
        }
        #expect(error?.message == "Cannot save “\(folder.path)”: it is a folder")
        #expect(folder.entries() == [])
    }

    @Test func saveOfAnEmptyImageNamesTheFile() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let path = folder.file("empty.png")
        let error = #expect(throws: ImageFileError.self) {
            try ImageFile.save(PixelImage(width: 0, height: 0), to: path, withAlpha: true)
        }
        #expect(error?.path == path)
        #expect(error?.message.hasPrefix("Cannot save “\(path)”: the image could not be encoded") == true)
        #expect(folder.entries() == [])
    }

    @Test func loadOfAMissingFileSaysSo() {
        let path = "/nonexistent-\(UUID().uuidString)/a.png"
        let error = #expect(throws: ImageFileError.self) { _ = try ImageFile.load(path: path) }
        #expect(error == .cannotRead(path: path, errno: ENOENT))
        #expect(error?.message == "Cannot open “\(path)”: no such file")
    }

    @Test func loadOfTextSaysNotAPicture() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let path = folder.file("a.txt")
        Support.put(Array("hello".utf8), path)
        let error = #expect(throws: ImageFileError.unknownFormat(path: path)) { _ = try ImageFile.load(path: path) }
        #expect(
            error?.message
                == "Cannot open “\(path)”: it is not a picture SwiftPaint can open (PNG, JPEG, WebP, GIF or BMP)")
    }

    @Test func loadOfATruncatedFileSaysCutShort() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let path = folder.file("cut.png")
        let whole = try PNGCodec.encode(Support.opaqueImage(), withAlpha: false)
        Support.put(Array(whole[..<(whole.count / 2)]), path)

        let error = #expect(throws: ImageFileError.self) { _ = try ImageFile.load(path: path) }
        #expect(
            error?.message.hasPrefix("Cannot open “\(path)”: the file is cut short") == true,
            "\(String(describing: error))")
    }

    @Test func loadOfAFolderOrDeviceIsRefused() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        #expect(throws: ImageFileError.cannotRead(path: folder.path, errno: EISDIR)) {
            try ImageFile.load(path: folder.path)
        }
        #expect(throws: ImageFileError.notAFile(path: "/dev/zero", saving: false)) {
            try ImageFile.load(path: "/dev/zero")
        }
    }

    @Test func loadOfAnEmptyFileSaysSo() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let path = folder.file("zero.png")
        Support.put([], path)
        let error = #expect(throws: ImageFileError.self) { _ = try ImageFile.load(path: path) }
        #expect(error?.message == "Cannot open “\(path)”: the file is empty")
    }

    @Test func filesOverTheSizeCapAreNotRead() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let path = folder.file("big.png")
        Support.put(Array(repeating: 0, count: 5000), path)
        #expect(throws: ImageFileError.fileTooBig(path: path, bytes: 5000, limit: 4096)) {
            try ImageFile.readAll(path, limit: 4096)
        }
        #expect(try ImageFile.readAll(path, limit: 5000).count == 5000)
    }
}

import Foundation
import Glibc
import TestSupport
import Testing

@testable import PaintIO

/// Every save error names its real cause, and stays readable in a status bar.
@Suite struct SaveMessageTests {
    @Test func aSystemFolderThatTakesNoFilesSaysSoNotThatItIsMissing() {
        for target in ["/proc/self/mem", "/proc/self/new.png"] {
            do {
                try AtomicFile.write([1, 2, 3], to: target)
                Issue.record("saving to \(target) succeeded")
            } catch {
                #expect(!error.message.contains("does not exist"), "\(error.message)")
                #expect(error.message.contains("does not accept new files"), "\(error.message)")
            }
        }
        // A folder that really is missing still says so.
        #expect(throws: ImageFileError.cannotWrite(path: "/nonexistent-folder-x/a.png", errno: ENOENT)) {
            try AtomicFile.write([1], to: "/nonexistent-folder-x/a.png")
        }
        #expect(
            ImageFileError.cannotWrite(path: "/nonexistent-folder-x/a.png", errno: ENOENT).message
                == "Cannot save “/nonexistent-folder-x/a.png”: the folder does not exist")
    }

    @Test func aLongNameIsShortenedSoTheReasonStaysInView() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let target = folder.file(String(repeating: "a", count: 300) + ".png")
        do {
            try AtomicFile.write([1], to: target)
            Issue.record("a 300-byte name was accepted")
        } catch {
            #expect(error.message.hasSuffix(": the name is too long"), "\(error.message)")
            #expect(error.message.count <= 160, "\(error.message.count) characters: \(error.message)")
            // The start of the folder and the end of the name are still there.
            #expect(error.message.contains("aaa.png”"))
            #expect(error.message.contains("“" + String(folder.path.prefix(10))))
        }
        #expect(ImageFileError.shortened("/short/name.png") == "/short/name.png")
        #expect(ImageFileError.shortened(String(repeating: "x", count: 300)).count == 120)
    }
}

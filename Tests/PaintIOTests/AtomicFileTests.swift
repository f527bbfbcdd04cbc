import Foundation
import Glibc
import TestSupport
import Testing

@testable import PaintIO

@Suite struct AtomicFileTests {
    @Test func createsANewFileWithTheUsualModeAndNoLeftovers() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        // What open(2) with 0666 gives under the current umask, made the ordinary way.
        let reference = folder.file("reference")
        let fd = open(reference, O_CREAT | O_WRONLY, 0o666)
        close(fd)

        try AtomicFile.write([1, 2, 3], to: folder.file("new.bin"))
        #expect(Support.get(folder.file("new.bin")) == [1, 2, 3])
        #expect(Support.mode(folder.file("new.bin")) == Support.mode(reference))
        #expect(folder.entries() == ["new.bin", "reference"])
    }

    @Test func aSaveRemovesTheTemporaryCopyAnEarlierSaveKilledBeforeItsRenameLeft() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let path = folder.file("picture.png")
        Support.put([1], path)
        // What a save killed between writing its temporary file and renaming it leaves (a
        // hidden whole copy of the picture), an hour ago and a moment ago (another program's
        // save may still be writing that one), and a temporary file of another picture.
        let hourAgo = [timespec(tv_sec: time(nil) - 3600, tv_nsec: 0), timespec(tv_sec: time(nil) - 3600, tv_nsec: 0)]
        for name in [".picture.png.Ab3dE9.tmp", ".other.png.Zz09aB.tmp", ".picture.png.old"] {
            Support.put([7, 7, 7], folder.file(name))
            #expect(utimensat(AT_FDCWD, folder.file(name), hourAgo, 0) == 0)
        }
        Support.put([8], folder.file(".picture.png.q1W2e3.tmp"))

        try AtomicFile.write([9, 8], to: path)
        #expect(Support.get(path) == [9, 8])
        #expect(
            folder.entries() == [
                ".other.png.Zz09aB.tmp", ".picture.png.old", ".picture.png.q1W2e3.tmp", "picture.png",
            ],
            "only this picture's stale temporary copy goes")
    }

    @Test func replacesContentsAndKeepsMode0600() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let path = folder.file("secret.png")
        Support.put(Array(repeating: 7, count: 5000), path)
        chmod(path, 0o600)

        try AtomicFile.write([9, 8], to: path)
        #expect(Support.get(path) == [9, 8])
        #expect(Support.mode(path) == 0o600)
        #expect(folder.entries() == ["secret.png"])
    }

    @Test func writesThroughARelativeSymlinkAndTheLinkStaysALink() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("real"), withIntermediateDirectories: true)
        let target = folder.file("real/target.png")
        Support.put([1, 1, 1], target)
        chmod(target, 0o640)
        #expect(symlink("real/target.png", folder.file("link.png")) == 0)

        try AtomicFile.write([2, 2], to: folder.file("link.png"))

        #expect(Support.get(target) == [2, 2])
        #expect(Support.mode(target) == 0o640)
        let destination = try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("link.png"))
        #expect(destination == "real/target.png")
        // The temporary file was made next to the target, and renamed away.
        #expect(folder.entries() == ["link.png", "real"])
        #expect(folder.entries("real") == ["target.png"])
    }

    /// The program's own private files (written with a mode: the history store, the settings,
    /// the recent list) replace a symlink planted at their place instead of writing through it.
    @Test func aPrivateFileReplacesASymlinkPlantedAtItsPlace() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let victim = folder.file("victim.txt")
        Support.put([7, 7, 7], victim)
        chmod(victim, 0o644)
        #expect(symlink(victim, folder.file("entry")) == 0)
        #expect(symlink(folder.file("nowhere"), folder.file("dangling")) == 0)

        try AtomicFile.write([1, 2], to: folder.file("entry"), mode: 0o600)
        try AtomicFile.write([3], to: folder.file("dangling"), mode: 0o600)

        #expect(Support.get(victim) == [7, 7, 7] && Support.mode(victim) == 0o644)
        #expect(Support.get(folder.file("entry")) == [1, 2] && Support.mode(folder.file("entry")) == 0o600)
        var info = stat()
        #expect(lstat(folder.file("entry"), &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
        #expect(Support.get(folder.file("dangling")) == [3])
        #expect(folder.entries() == ["dangling", "entry", "victim.txt"])
    }

    @Test func aChainOfLinksToAMissingFileCreatesIt() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        #expect(symlink(folder.file("final.png"), folder.file("b")) == 0)  // absolute, dangling
        #expect(symlink("b", folder.file("a")) == 0)  // relative, to the link above

        try AtomicFile.write([5], to: folder.file("a"))
        #expect(Support.get(folder.file("final.png")) == [5])
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: folder.file("a"))) == "b")
        #expect(folder.entries() == ["a", "b", "final.png"])
    }

    @Test func aFolderIsRefusedInWords() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let dir = folder.file("dir")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)

        let error = #expect(throws: ImageFileError.self) { try AtomicFile.write([1], to: dir) }
        #expect(error == .cannotWrite(path: dir, errno: EISDIR))
        #expect(error?.message == "Cannot save “\(dir)”: it is a folder")
        #expect(folder.entries() == ["dir"])
        #expect(folder.entries("dir") == [])
        // A trailing slash names the folder too.
        #expect(throws: ImageFileError.cannotWrite(path: dir + "/", errno: EISDIR)) {
            try AtomicFile.write([1], to: dir + "/")
        }
    }

    @Test func aMissingFolderIsReported() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let path = folder.file("nope/a.png")
        let error = #expect(throws: ImageFileError.self) { try AtomicFile.write([1], to: path) }
        #expect(error == .cannotWrite(path: path, errno: ENOENT))
        #expect(error?.message == "Cannot save “\(path)”: the folder does not exist")
    }

    @Test func aDeviceIsNotReplaced() {
        let error = #expect(throws: ImageFileError.self) { try AtomicFile.write([1], to: "/dev/null") }
        #expect(error == .notAFile(path: "/dev/null", saving: true))
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    @Test func aReadOnlyFolderFailsAndKeepsTheOldFile() throws {
        let old = Array("the old picture".utf8)
        let readOnly = try Support.readOnlyFolder(holding: old)
        defer { readOnly.cleanup() }
        let before = Support.get(readOnly.file)
        let entriesBefore = try? FileManager.default.contentsOfDirectory(atPath: readOnly.path)

        let error = #expect(throws: ImageFileError.self, "folder made read-only by \(readOnly.how)") {
            try AtomicFile.write(Array(repeating: 0xAB, count: 10_000), to: readOnly.file)
        }
        guard case .cannotWrite(let path, let code)? = error else {
            Issue.record("expected .cannotWrite, got \(String(describing: error))")
            return
        }
        #expect(path == readOnly.file)
        #expect([EROFS, EPERM, EACCES, ENOENT].contains(code))
        #expect(error?.message.hasPrefix("Cannot save “\(readOnly.file)”: ") == true)
        #expect(Support.get(readOnly.file) == before)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: readOnly.path)) == entriesBefore)
    }

    @Test(.enabled(if: Support.canMount, "needs root and mount(8) for a tiny tmpfs"))
    func aFullDiskFailsAndKeepsTheOldFile() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        #expect(Support.run("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", folder.path]))
        defer { Support.run("/usr/bin/umount", [folder.path]) }
        let path = folder.file("a.png")
        let old = Array(repeating: UInt8(1), count: 1000)
        Support.put(old, path)

        var noise = Support.Noise(state: 3)
        let big = (0..<(1 << 20)).map { _ in UInt8(truncatingIfNeeded: noise.next()) }
        let error = #expect(throws: ImageFileError.self) { try AtomicFile.write(big, to: path) }
        #expect(error == .cannotWrite(path: path, errno: ENOSPC))
        #expect(error?.message == "Cannot save “\(path)”: the disk is full")
        #expect(Support.get(path) == old)
        #expect(folder.entries() == ["a.png"])
    }
}

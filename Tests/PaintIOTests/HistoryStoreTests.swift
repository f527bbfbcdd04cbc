import Foundation
import Glibc
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

@Suite struct HistoryStoreTests {
    /// A picture of its own for each seed, and its key.
    static func picture(_ seed: Int) -> (image: PixelImage, key: HistoryKey) {
        var image = Support.opaqueImage(width: 9, height: 7)
        image.pixels[0] = Pixel.pack(r: UInt8(seed & 0xFF), g: UInt8(seed >> 8 & 0xFF), b: 1, a: 255)
        return (image, HistoryKey(of: image))
    }

    static func archive(_ seed: Int, strokes: Int = 20) throws -> DocumentArchive {
        try HistoryChunkTests.archive(strokes: strokes, image: picture(seed).image)
    }

    /// A store two folders down a fresh folder, as `$XDG_DATA_HOME/swiftpaint/history` is.
    static func store(in folder: TemporaryDirectory, cap: Int = HistoryStore.defaultCapBytes) -> HistoryStore {
        HistoryStore(folder: folder.file("data/swiftpaint/history"), capBytes: cap)
    }

    @Test func anEntryComesBackAsItWasKept() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let store = Self.store(in: folder)
        let archive = try Self.archive(1)
        let key = Self.picture(1).key
        #expect(store.find(key) == .none)
        let kept = try store.keep(archive, for: key)
        #expect(store.find(key) == .entry(archive: archive, picture: key))
        #expect(kept.dropped == 0)
        #expect(kept.bytes == Support.get(store.path(for: key))?.count)
        // Another picture has nothing.
        #expect(store.find(Self.picture(2).key) == .none)
        // Keeping again replaces the entry.
        let newer = try Self.archive(1, strokes: 3)
        try store.keep(newer, for: key)
        #expect(store.find(key) == .entry(archive: newer, picture: key))
        #expect(store.entries().count == 1)
        #expect(folder.entries("data/swiftpaint/history") == [key.hex + ".sphist"])
    }

    /// A symlink planted where an entry is written is replaced, never written through: the
    /// file it points to (another picture, `~/.bashrc`) keeps its bytes.
    @Test func aSymlinkPlantedAtAnEntrysPlaceIsReplacedNotWrittenThrough() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let store = Self.store(in: folder)
        try store.keep(try Self.archive(2), for: Self.picture(2).key)
        let victim = folder.file("victim.png")
        Support.put([1, 2, 3], victim)
        let key = Self.picture(1).key
        #expect(symlink(victim, store.path(for: key)) == 0)
        let archive = try Self.archive(1)
        try store.keep(archive, for: key)
        #expect(Support.get(victim) == [1, 2, 3])
        #expect(store.find(key) == .entry(archive: archive, picture: key))
    }

    @Test func entriesArePrivateFilesInPrivateFolders() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        // The folders exist already, open to everyone; the entry must not stay readable.
        try FileManager.default.createDirectory(
            atPath: folder.file("data/swiftpaint/history"), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o777])
        chmod(folder.file("data/swiftpaint"), 0o755)
        chmod(folder.file("data"), 0o755)
        let store = Self.store(in: folder)
        let key = Self.picture(1).key
        // An old entry with loose permissions is replaced by a private one.
        Support.put([1, 2, 3], store.path(for: key))
        chmod(store.path(for: key), 0o644)
        try store.keep(try Self.archive(1), for: key)
        #expect(Support.mode(store.path(for: key)) == 0o600)
        #expect(Support.mode(store.folder) == 0o700)
        #expect(Support.mode(folder.file("data/swiftpaint")) == 0o700)
        // $XDG_DATA_HOME itself is the user's business.
        #expect(Support.mode(folder.file("data")) == 0o755)

        // Folders the store creates are 0700 all the way down.
        let fresh = HistoryStore(folder: folder.file("new/a/swiftpaint/history"))
        try fresh.keep(try Self.archive(2), for: Self.picture(2).key)
        for path in ["new", "new/a", "new/a/swiftpaint", "new/a/swiftpaint/history"] {
            #expect(Support.mode(folder.file(path)) == 0o700, "\(path)")
        }
    }

    @Test func aFolderOfAnotherUserIsRefused() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let store = Self.store(in: folder)
        try FileManager.default.createDirectory(atPath: store.folder, withIntermediateDirectories: true)
        // The tests run as root, which may give the folder away.
        #expect(chown(folder.file("data/swiftpaint"), 54321, 54321) == 0)
        #expect(throws: HistoryStoreError.folder(PrivateFolder.Failure(path: folder.file("data/swiftpaint"), errno: 0)))
        {
            try store.keep(try Self.archive(1), for: Self.picture(1).key)
        }
        #expect(store.entries().isEmpty)
    }

    @Test func theJournalFolderIsMadePrivateToo() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let journals = folder.file("state/swiftpaint")
        try FileManager.default.createDirectory(
            atPath: journals, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let writer = try JournalWriter.create(
            in: journals, header: JournalHeader(documentPath: nil, width: 4, height: 4, background: .transparent))
        defer { writer.discard() }
        #expect(Support.mode(journals) == 0o700)
        #expect(Support.mode(writer.path) == 0o600)
    }

    @Test func theDefaultFolderFollowsXDGDataHome() {
        // The variable is looked up through the test's own function, not set with setenv: other
        // tests' threads call getenv meanwhile, and glibc's setenv frees the variable array
        // they may be reading (a heap use-after-free in the test process).
        func folder(_ value: String?) -> String {
            FileSystem.xdgFolder(
                "XDG_DATA_HOME", fallback: ".local/share", lookup: { $0 == "XDG_DATA_HOME" ? value : nil })
        }
        #expect(folder("/srv/data/") == "/srv/data")
        #expect(folder("/srv/data") == "/srv/data")
        #expect(folder("relative/data") == FileSystem.home + "/.local/share")
        #expect(folder(nil) == FileSystem.home + "/.local/share")
        #expect(folder("") == FileSystem.home + "/.local/share")
        #expect(HistoryStore.defaultFolder.hasSuffix("/swiftpaint/history"))
    }

    @Test func theLeastRecentlyUsedEntriesGoFirstUnderATinyCap() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let probe = Self.store(in: folder)
        let size = try probe.keep(try Self.archive(1), for: Self.picture(1).key).bytes
        try probe.forgetAll()
        // Room for two entries of this size, not three (the four below are within a few bytes of
        // each other: the archives differ only in their pixel hash).
        let store = Self.store(in: folder, cap: size * 2 + size / 2)
        let (a, b, c, d) = (Self.picture(1).key, Self.picture(2).key, Self.picture(3).key, Self.picture(4).key)
        try store.keep(try Self.archive(1), for: a)
        try store.keep(try Self.archive(2), for: b)
        #expect(Set(store.entries().map(\.key)) == [a, b])
        let kept = try store.keep(try Self.archive(3), for: c)
        #expect(kept.dropped == 1)
        #expect(Set(store.entries().map(\.key)) == [b, c])
        #expect(store.find(a) == .none)
        // Opening b makes it the most recently used: d pushes c out, not b.
        guard case .entry = store.find(b) else {
            Issue.record("b was not found")
            return
        }
        try store.keep(try Self.archive(4), for: d)
        #expect(store.entries().map(\.key) == [b, d])
        #expect(store.entries().reduce(0) { $0 + $1.bytes } <= store.capBytes)
    }

    @Test func anEntryLargerThanTheCapIsNotWritten() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let store = Self.store(in: folder, cap: 1000)
        let small = try HistoryChunkTests.archive(strokes: 0, image: Self.picture(1).image, base: false)
        try store.keep(small, for: Self.picture(1).key)
        let big = try Self.archive(2, strokes: 200)
        #expect(throws: HistoryStoreError.self) { try store.keep(big, for: Self.picture(2).key) }
        // Nothing was dropped to make room for an entry that could never fit.
        #expect(store.entries().map(\.key) == [Self.picture(1).key])
    }

    @Test func forgetRemovesOneEntryAndForgetAllEveryEntry() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let store = Self.store(in: folder)
        for seed in 1...3 { try store.keep(try Self.archive(seed), for: Self.picture(seed).key) }
        #expect(try store.forget(Self.picture(2).key))
        #expect(try !store.forget(Self.picture(2).key))
        #expect(store.find(Self.picture(2).key) == .none)
        #expect(Set(store.entries().map(\.key)) == [Self.picture(1).key, Self.picture(3).key])
        let total = store.entries().reduce(0) { $0 + $1.bytes }
        // A file that is not the store's stays.
        Support.put([1], store.folder + "/notes.txt")
        let removed = try store.forgetAll()
        #expect(removed.entries == 2)
        #expect(removed.bytes == total)
        #expect(folder.entries("data/swiftpaint/history") == ["notes.txt"])
        // An empty or missing store forgets nothing, without an error.
        #expect(try HistoryStore(folder: folder.file("nowhere")).forgetAll().entries == 0)
    }

    @Test func temporaryFilesACrashLeftAreSweptWhenOld() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let store = Self.store(in: folder)
        try store.keep(try Self.archive(1), for: Self.picture(1).key)
        let old = store.folder + "/.\(Self.picture(2).key.hex).sphist.Ab12Cd.tmp"
        let young = store.folder + "/.\(Self.picture(3).key.hex).sphist.Ef34Gh.tmp"
        Support.put([UInt8](repeating: 7, count: 100), old)
        Support.put([UInt8](repeating: 7, count: 100), young)
        let hourAgo = timespec(tv_sec: time(nil) - 3600, tv_nsec: 0)
        #expect(utimensat(AT_FDCWD, old, [hourAgo, hourAgo], 0) == 0)
        try store.keep(try Self.archive(4), for: Self.picture(4).key)
        #expect(!FileManager.default.fileExists(atPath: old))
        // A young one may be another SwiftPaint's save in progress.
        #expect(FileManager.default.fileExists(atPath: young))
    }

    // MARK: Reading is distrustful

    @Test func aDamagedEntryIsRefusedWithAReasonNeverTrusted() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let store = Self.store(in: folder)
        let key = Self.picture(1).key
        let archive = try Self.archive(1, strokes: 30)
        try store.keep(archive, for: key)
        let good = try #require(Support.get(store.path(for: key)))
        var noise = Support.Noise(state: 5)
        for round in 0..<300 {
            var bad = good
            switch round % 3 {
            case 0: bad[Int(noise.next()) % bad.count] ^= UInt8(1 << (noise.next() % 8))
            case 1: bad.removeLast(1 + Int(noise.next()) % (bad.count - 1))
            default: bad.insert(UInt8(truncatingIfNeeded: noise.next()), at: Int(noise.next()) % bad.count)
            }
            Support.put(bad, store.path(for: key))
            guard case .rejected(let reason) = store.find(key) else {
                Issue.record("round \(round): a damaged entry was accepted")
                continue
            }
            #expect(reason.contains("history"), "round \(round): \(reason)")
        }
        // Whole again, it is found again.
        Support.put(good, store.path(for: key))
        #expect(store.find(key) == .entry(archive: archive, picture: key))
    }

    @Test func anEntryUnderAnotherPicturesNameIsRefused() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let store = Self.store(in: folder)
        try store.keep(try Self.archive(1), for: Self.picture(1).key)
        let other = Self.picture(2).key
        #expect(rename(store.path(for: Self.picture(1).key), store.path(for: other)) == 0)
        #expect(store.find(other) == .rejected("its entry in the history store belongs to another picture"))
    }

    @Test func aHugeEntryIsRefusedBeforeItIsRead() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let store = Self.store(in: folder)
        try store.keep(try Self.archive(1), for: Self.picture(1).key)
        // A sparse file larger than any entry may be: refused by its size, not read.
        let path = store.path(for: Self.picture(1).key)
        #expect(truncate(path, off_t(StoreEntry.maxLength + 1)) == 0)
        guard case .rejected(let reason) = store.find(Self.picture(1).key) else {
            Issue.record("a huge entry was accepted")
            return
        }
        #expect(reason.contains("too large"), "\(reason)")
        // A folder where an entry should be is refused too, without a crash.
        #expect(unlink(path) == 0)
        #expect(mkdir(path, 0o700) == 0)
        guard case .rejected = store.find(Self.picture(1).key) else {
            Issue.record("a folder was read as an entry")
            return
        }
    }

    @Test func anEntryDeclaringAHugeHistoryIsRefusedBeforeDecompressing() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let store = Self.store(in: folder)
        let key = Self.picture(1).key
        // A well-framed entry (right magic, key, length and CRC) whose archive claims 4 GB.
        let body = Zlib.compress([UInt8](repeating: 0, count: 1000)) ?? []
        let sealed = [DocumentArchive.formatVersion] + [0, 0, 0, 0, 1, 0, 0, 0] + body
        try FileManager.default.createDirectory(atPath: store.folder, withIntermediateDirectories: true)
        Support.put(StoreEntry.encode(key: key, picture: key, sealed: sealed), store.path(for: key))
        guard case .rejected(let reason) = store.find(key) else {
            Issue.record("a 4 GB history was accepted")
            return
        }
        #expect(reason.contains("too large"), "\(reason)")
    }

    @Test func atomicWriteWithAModeReplacesLoosePermissions() throws {
        let folder = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { folder.remove() }
        let path = folder.file("f")
        Support.put([1], path)
        chmod(path, 0o664)
        try AtomicFile.write([2, 3], to: path, mode: 0o600)
        #expect(Support.mode(path) == 0o600)
        #expect(Support.get(path) == [2, 3])
        try AtomicFile.write([4], to: folder.file("g"), mode: 0o600)
        #expect(Support.mode(folder.file("g")) == 0o600)
    }
}

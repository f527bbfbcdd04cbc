import Foundation
import PaintCore
import TestSupport
import Testing

@testable import PaintIO

/// What the file dialog reads from disk: folder listings (pictures and folders only), picture
/// headers without decoding, the recent pictures' file, the desktop's folders, and the
/// `text/uri-list` a drag and drop hands over.
@Suite struct DialogFilesTests {
    @Test func aListingHoldsFoldersAndPicturesOnlyHiddenOnesWhenAsked() throws {
        let dir = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { dir.remove() }
        try FileManager.default.createDirectory(atPath: dir.file("sub"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir.file(".secret"), withIntermediateDirectories: true)
        for name in ["a.png", "b.JPG", "c.webp", "notes.txt", "archive.tar", ".hidden.png"] {
            #expect(FileManager.default.createFile(atPath: dir.file(name), contents: Data([1, 2, 3])))
        }
        let shown = try FolderListing.read(dir.path).get()
        #expect(Set(shown.entries.map(\.name)) == ["sub", "a.png", "b.JPG", "c.webp"])
        #expect(shown.entries.first { $0.name == "sub" }?.isFolder == true)
        #expect(shown.entries.first { $0.name == "a.png" }.map { !$0.isFolder && $0.size == 3 } == true)
        let all = try FolderListing.read(dir.path, hidden: true).get()
        #expect(Set(all.entries.map(\.name)) == ["sub", ".secret", "a.png", "b.JPG", "c.webp", ".hidden.png"])
        // Bounded: past the limit entries are counted, not listed.
        let few = try FolderListing.read(dir.path, limit: 2).get()
        #expect(few.entries.count == 2 && few.leftOut == 2)
        // A folder that is not there says so.
        guard case .failure(let error) = FolderListing.read(dir.file("missing")) else {
            Issue.record("listed a missing folder")
            return
        }
        #expect(!error.description.isEmpty)
    }

    /// A file whose name is not UTF-8 (Latin-1 "\xff.png") is not listed: repaired into
    /// U+FFFD its name became "�.png", another file's, which Open then opened and Save wrote.
    @Test func aNameThatIsNotUTF8IsNotListedUnderAnotherFilesName() throws {
        let dir = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { dir.remove() }
        #expect(FileManager.default.createFile(atPath: dir.file("ok.png"), contents: Data([1, 2, 3])))
        #expect(FileManager.default.createFile(atPath: dir.file("\u{FFFD}.png"), contents: Data([4])))
        // Made by its bytes: Swift's strings cannot hold the name.
        let raw: [UInt8] = Array(dir.path.utf8) + [UInt8(ascii: "/"), 0xFF] + Array(".png".utf8) + [0]
        let fd = raw.withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { $0.baseAddress.map { open($0, O_CREAT | O_WRONLY, 0o600) } ?? -1 }
        }
        #expect(fd >= 0)
        close(fd)
        let shown = try FolderListing.read(dir.path).get()
        #expect(shown.entries.map(\.name).sorted() == ["ok.png", "\u{FFFD}.png"], "\(shown.entries.map(\.name))")
        #expect(shown.entries.first { $0.name == "\u{FFFD}.png" }?.size == 1, "the real “�.png” is listed, once")
        #expect(FileSystem.names(inFolder: dir.path)?.sorted() == ["ok.png", "\u{FFFD}.png"])
        // Counted, so the dialog can say so: the picture, not a text file or a hidden one.
        #expect(shown.namesNotUTF8 == 1)
        for name in [Array("notes".utf8) + [0xFF] + Array(".txt".utf8), [0x2E, 0xFF] + Array(".png".utf8)] {
            let path = Array(dir.path.utf8) + [UInt8(ascii: "/")] + name + [0]
            let fd = path.withUnsafeBufferPointer { p in
                p.withMemoryRebound(to: CChar.self) { $0.baseAddress.map { open($0, O_CREAT | O_WRONLY, 0o600) } ?? -1 }
            }
            #expect(fd >= 0)
            close(fd)
        }
        #expect(try FolderListing.read(dir.path).get().namesNotUTF8 == 1)
        #expect(try FolderListing.read(dir.path, hidden: true).get().namesNotUTF8 == 2)
    }

    @Test func aHeaderGivesTheFormatAndSizeWithoutDecoding() throws {
        let dir = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { dir.remove() }
        try ImageFile.save(
            PixelImage(width: 37, height: 11, fill: Color.black.pixel), to: dir.file("x.png"), withAlpha: false)
        #expect(PictureHeader.read(path: dir.file("x.png")) == PictureHeader(format: .png, width: 37, height: 11))
        // The signature decides, not the name; a file that is no picture has no header.
        try FileManager.default.copyItem(atPath: dir.file("x.png"), toPath: dir.file("named.jpg"))
        #expect(PictureHeader.read(path: dir.file("named.jpg"))?.format == .png)
        #expect(FileManager.default.createFile(atPath: dir.file("junk.png"), contents: Data("not a picture".utf8)))
        #expect(PictureHeader.read(path: dir.file("junk.png")) == nil)
        #expect(PictureHeader.read(path: dir.path) == nil, "a folder")
        // A truncated PNG (signature only) says no size.
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.file("x.png"))))
        #expect(PictureHeader.parse(Array(bytes.prefix(12))) == nil)
        #expect(PictureHeader.parse(bytes)?.width == 37)
    }

    @Test func recentPicturesAreNewestFirstTenAtMostAndSurviveOddNames() throws {
        let dir = try TemporaryDirectory(prefix: "PaintIOTests")
        defer { dir.remove() }
        let store = RecentFiles(path: dir.file("state/swiftpaint/recent"))
        #expect(store.load().paths.isEmpty && store.load().problem == nil, "no file yet: an empty list")
        for n in 1...12 { store.add("/pictures/\(n).png") }
        let odd = "/pictures/100% sure\nsecond line.png"
        let (paths, problem) = store.add(odd)
        #expect(problem == nil)
        #expect(paths.count == RecentFiles.capacity && paths.first == odd && paths[1] == "/pictures/12.png")
        #expect(paths.last == "/pictures/4.png")
        // Adding one again moves it to the front, once.
        let again = store.add("/pictures/8.png").paths
        #expect(again.first == "/pictures/8.png" && again.filter { $0 == "/pictures/8.png" }.count == 1)
        #expect(store.load().paths == again, "read back as written")
        // A damaged line is left out and named; the others stand.
        let text = try String(contentsOfFile: store.path, encoding: .utf8)
        try (text + "not a path\n").write(toFile: store.path, atomically: true, encoding: .utf8)
        let damaged = store.load()
        #expect(damaged.paths == again && damaged.problem?.contains("line 12") == true, "\(damaged)")
        // A file that is not text is ignored with a word.
        try Data([0x89, 0, 0xFF]).write(to: URL(fileURLWithPath: store.path))
        #expect(store.load().paths.isEmpty && store.load().problem != nil)
    }

    @Test func theDesktopsFoldersComeFromUserDirs() {
        let text = """
            # written by xdg-user-dirs-update
            XDG_DESKTOP_DIR="$HOME/Schreibtisch"
            XDG_PICTURES_DIR="/data/Bilder"
            XDG_MUSIC_DIR="$HOME/Musik"
            """
        let folders = UserFolders.parse(text, home: "/home/ana")
        #expect(folders == UserFolders(home: "/home/ana", desktop: "/home/ana/Schreibtisch", pictures: "/data/Bilder"))
        // None written: the English defaults; set to the home folder: none.
        #expect(
            UserFolders.parse("XDG_DESKTOP_DIR=\"$HOME/\"", home: "/home/ana")
                == UserFolders(home: "/home/ana", desktop: nil, pictures: "/home/ana/Pictures"))
    }

    @Test func aURIListGivesTheLocalFilesDecoded() {
        let list =
            "# from a file manager\r\nfile:///home/ana/My%20Pictures/a%C3%A9.png\r\nfile://localhost/tmp/b.png\r\n"
            + "http://example.com/c.png\r\nfile://elsewhere.example/d.png\r\nfile:///bad%ZZ.png\r\nfile:/e.png\n"
        let (paths, others) = FileURI.paths(inURIList: list)
        #expect(paths == ["/home/ana/My Pictures/aé.png", "/tmp/b.png", "/e.png"])
        #expect(others == 3)
        #expect(FileURI.path(of: "file:///a%00b.png") == nil, "a NUL is no path")
    }

    /// A dropped name that is not UTF-8, escaped (`%FF`) or sent as it is, is counted (the
    /// drop says why it cannot be opened) and never repaired into another name (`�.png`); a
    /// list cut where it was read leaves out its last line, which may end mid-name.
    @Test func aURIListsNamesThatAreNotUTF8AreCountedAndACutLastLineIsLeftOut() {
        let list: [UInt8] =
            Array("file:///tmp/%FF.png\r\nfile:///tmp/".utf8) + [0xFF] + Array(".png\r\nfile:///tmp/".utf8)
            + [0xC3, 0xA9] + Array(".png\r\nfile:///tmp/picture.png.bak".utf8)
        let whole = FileURI.text(ofURIList: list, cut: false)
        #expect(FileURI.paths(inURIList: whole).paths == ["/tmp/é.png", "/tmp/picture.png.bak"])
        #expect(FileURI.namesNotUTF8(inURIList: whole) == 2)
        #expect(!FileURI.paths(inURIList: whole).paths.contains { $0.contains("\u{FFFD}") })
        // Read up to 1 MB: the last line may be the start of a longer name.
        let cut = FileURI.text(ofURIList: list, cut: true)
        #expect(FileURI.paths(inURIList: cut).paths == ["/tmp/é.png"])
        #expect(FileURI.text(ofURIList: Array("file:///tmp/a.pn".utf8), cut: true).isEmpty)
        #expect(FileURI.namesNotUTF8(inURIList: "file:///tmp/a.png\r\nhttp://x/%FF.png\r\n") == 0)
    }
}

import Foundation
import PaintApp
import PaintCore
import PaintIO
import Testing

/// What is remembered between runs: read from and written to the settings file, taken up by a
/// session.
@Suite struct StoredSettingsTests {
    static func session(width: Int = 200, height: Int = 100) -> Session {
        SessionTests.makeSession(width: width, height: height, windowWidth: 1400, windowHeight: 600)
    }

    @Test("every setting survives a trip through the file's text")
    func roundTrip() {
        var stored = StoredSettings()
        stored.settings.tool = .ellipse
        stored.settings.primary = Color(r: 0x1A, g: 0x7F, b: 0x3C)
        stored.settings.secondary = Color(r: 0xFE, g: 0xDC, b: 0xBA)
        stored.settings.remember(.black)
        stored.settings.remember(Color(r: 255, g: 0, b: 0))
        stored.settings.setWidth(37)
        stored.settings.setOpacity(42)
        stored.settings.setTolerance(9)
        stored.settings.shapeFilled = true
        stored.settings.lineDashed = true
        stored.settings.textFont = TextFont(family: "DejaVu Serif Condensed", size: 72, bold: true, italic: true)
        stored.settings.pressureWidth = false
        stored.settings.pressureOpacity = true
        stored.settings.roundStrokes = false
        stored.settings.setStabilizer(8)
        stored.settings.setJPEGQuality(37)
        stored.settings.setWebPQuality(1)
        stored.window = .init(width: 900, height: 640)
        stored.folder = "/home/ana/Pictures/with = sign"
        stored.fitLargePictures = true
        let text = stored.file.text(header: ["x"])
        let (back, problems) = StoredSettings.read(SettingsFile.parse(text))
        #expect(problems.isEmpty)
        #expect(back == stored, "\(text)")
        #expect(text.contains("recent = #ff0000 #000000\n"), "most recent first")
        #expect(text.contains("tool = ellipse\n") && text.contains("width = 37\n") && text.contains("filled = yes\n"))
        #expect(text.contains("font = DejaVu Serif Condensed\n") && text.contains("text-size = 72\n"))
        #expect(text.contains("pressure-opacity = yes\n") && text.contains("stabilizer = 8\n"))
        #expect(text.contains("round-strokes = no\n"))
        #expect(text.contains("jpeg-quality = 37\n") && text.contains("webp-quality = 1\n"))
    }

    /// The qualities last chosen are kept between runs; a hostile file cannot set one outside
    /// 1...100 (which would reach the encoder) nor stop the start: each such line is reported
    /// and the default offered.
    @Test func qualitiesOutsideOneToAHundredAreRefused() {
        for bad in [
            "0", "101", "-5", "1000", "99999999999999999999999", "9223372036854775808", "-9223372036854775809",
            "50.5", "0x32", "1e2", "", "ninety", " 50 %", "５０",
        ] {
            let (stored, problems) = StoredSettings.read(
                SettingsFile.parse("jpeg-quality = \(bad)\nwebp-quality = \(bad)\n"))
            #expect(stored.settings.jpegQuality == SaveOptions.defaultQuality, "“\(bad)”")
            #expect(stored.settings.webpQuality == 100, "“\(bad)”")
            #expect(problems.count == 2, "“\(bad)”: \(problems)")
            #expect(problems.allSatisfy { $0.hasSuffix("expected a quality of 1 to 100") }, "\(problems)")
        }
        for (text, jpeg, webp) in [("1", 1, 1), ("100", 100, 100), ("+75", 75, 75), ("042", 42, 42)] {
            let (stored, problems) = StoredSettings.read(
                SettingsFile.parse("jpeg-quality = \(text)\nwebp-quality = \(text)\n"))
            #expect(problems.isEmpty && stored.settings.jpegQuality == jpeg && stored.settings.webpQuality == webp)
        }
    }

    @Test("values that do not read are reported and left at their defaults; the good ones are kept")
    func damagedValues() {
        let text = """
            tool = airbrush
            primary = red
            width = 0
            opacity = 50%
            filled = maybe
            window = huge
            folder = Pictures
            secondary = #00ff00
            garbage line
            """
        let (stored, problems) = StoredSettings.read(SettingsFile.parse(text))
        #expect(problems.count == 7, "\(problems)")
        #expect(problems.contains("“tool = airbrush”: no such tool"))
        #expect(problems.contains("line 9 has no “=”"))
        var expected = Settings()
        expected.setOpacity(50)
        expected.secondary = Color(r: 0, g: 255, b: 0)
        #expect(stored.settings == expected)
        #expect(stored.window == nil && stored.folder == nil && !stored.fitLargePictures)
    }

    @Test("a key this version does not know is written back as it was")
    func unknownKeysSurvive() {
        let (stored, problems) = StoredSettings.read(SettingsFile.parse("font = DejaVu Serif\nwidth = 8\n"))
        #expect(problems.isEmpty)
        let written = stored.file
        #expect(written["font"] == "DejaVu Serif" && written["width"] == "8")
    }

    @Test("a damaged file gives one sentence for the status bar; a missing one none")
    func loadMessage() throws {
        let dir = NSTemporaryDirectory() + "stored-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let missing = StoredSettings.load(from: dir + "/none.conf")
        #expect(missing.settings == StoredSettings() && missing.problem == nil)
        try Data([0xFF, 0xFE, 0, 0x41]).write(to: URL(fileURLWithPath: dir + "/bad.conf"))
        let bad = StoredSettings.load(from: dir + "/bad.conf")
        #expect(bad.settings == StoredSettings())
        #expect(bad.problem?.hasPrefix("Cannot use all of the settings in") == true, "\(bad.problem ?? "")")
        #expect(bad.problem?.contains("bad.conf is not text") == true)
    }

    @Test("a session takes up the remembered settings and paints with them; what it remembers follows it")
    func session() {
        var stored = StoredSettings()
        stored.settings.setWidth(9)
        stored.settings.primary = Color(r: 0, g: 0, b: 255)
        stored.folder = "/tmp"
        let s = Self.session()
        s.restore(stored)
        #expect(s.settings.brushWidth == 9 && s.settings.primary == Color(r: 0, g: 0, b: 255))
        #expect(s.lastFolder == "/tmp")
        let o = s.layout.imageOrigin
        s.handle(.press(x: o.x + 50, y: o.y + 50, button: .left, modifiers: []))
        s.handle(.release(x: o.x + 50, y: o.y + 50, button: .left, modifiers: []))
        #expect(s.engine.viewPixel(x: 50, y: 50) == Color(r: 0, g: 0, b: 255).pixel)
        #expect(s.engine.viewPixel(x: 54, y: 50) == Color(r: 0, g: 0, b: 255).pixel, "a 9 px disc reaches 4 px out")
        #expect(s.engine.viewPixel(x: 56, y: 50) == Color.white.pixel)
        let remembered = s.stored
        #expect(remembered.settings == s.settings && remembered.folder == "/tmp")
        #expect(remembered.window == .init(width: 1400, height: 600))
    }

    @Test("with fit-large-pictures a picture larger than the window opens fitted; a small one at 100 %")
    func fitOnOpen() {
        let s = Self.session()
        s.fitLargePictures = true
        s.install(
            Document(engine: StrokeEngine(width: 5000, height: 3500), history: History(base: nil), path: nil),
            message: "", journal: nil, anotherPicture: true)
        #expect(s.layout.zoom < .actualSize)
        #expect(s.layout.horizontalScrollbar == nil && s.layout.verticalScrollbar == nil, "the whole picture in view")
        let area = s.layout.canvasArea
        let shown = s.layout.visibleImage
        #expect(shown.width >= area.width - 2 || shown.height >= area.height - 2, "as large as fits")
        s.install(
            Document(engine: StrokeEngine(width: 300, height: 200), history: History(base: nil), path: nil),
            message: "", journal: nil, anotherPicture: true)
        #expect(s.layout.zoom == .actualSize)
    }

    /// A picture larger than the window opens at 100 % on a first start (fitting it costs the
    /// first frame and every stroke on it: `StoredSettings.fitLargePictures`);
    /// `large-pictures = fitted` (the View menu's item ticked), or the older
    /// `fit-large-pictures = yes`, opens it fitted. (2000 x 1500 is larger than the 1400 x 600
    /// window both ways, as a photo is; at 4000 x 3000, opening it five times in a debug build
    /// took 14 s.)
    @Test func aLargePictureOpensFittedWhenTheSettingsSaySo() throws {
        let dir = SessionTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let photo = dir + "/photo.png"
        let png = try PNGCodec.encode(PixelImage(width: 2000, height: 1500, fill: Color.white.pixel), withAlpha: false)
        #expect(FileManager.default.createFile(atPath: photo, contents: Data(png)))
        func opened(settings text: String) -> Session {
            let s = Self.session()
            s.restore(StoredSettings.read(SettingsFile.parse(text)).settings)
            s.opener = DocumentOpener(options: CommandLineOptions(), journalFolder: nil)
            SessionTests.key(s, "o", .control)
            NewAndOpenTests.type(s, photo)
            #expect(s.engine.width == 2000)
            return s
        }
        for text in ["fit-large-pictures = yes\n", "large-pictures = fitted\n"] {
            let s = opened(settings: text)
            #expect(s.fitLargePictures && s.layout.zoom == s.layout.fitZoom(), "“\(text)”: at \(s.layout.zoom)")
            #expect(s.layout.horizontalScrollbar == nil && s.layout.verticalScrollbar == nil, "“\(text)”")
            #expect(s.stored.file["large-pictures"] == "fitted" && s.stored.file["fit-large-pictures"] == nil)
        }
        for text in ["", "fit-large-pictures = no\n", "large-pictures = actual-size\n"] {
            let s = opened(settings: text)
            #expect(!s.fitLargePictures && s.layout.zoom == .actualSize, "“\(text)”: at \(s.layout.zoom)")
            #expect(s.stored.file["large-pictures"] == "actual-size", "“\(text)”")
        }
        let (_, problems) = StoredSettings.read(SettingsFile.parse("large-pictures = maybe\n"))
        #expect(problems == ["“large-pictures = maybe”: expected fitted or actual-size"])
    }

    /// The settings are written as the window closes, when nobody sees stderr: a save that
    /// fails leaves a note, and the next start says so on the status bar, once, in red.
    @Test func settingsTheCloseCouldNotSaveAreReportedAtTheNextStart() throws {
        let folder = SessionTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/settings.conf"
        var before = StoredSettings()
        before.settings.setWidth(7)
        #expect(before.save(to: path) == nil)
        let saved = try #require(FileManager.default.contents(atPath: path))
        // The settings file's name is taken by a folder for a moment: the save cannot rename
        // over it.
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.createDirectory(atPath: path + "/x", withIntermediateDirectories: true)
        var changed = StoredSettings()
        changed.settings.setWidth(19)
        let problem = try #require(changed.save(to: path))
        #expect(FileSystem.exists(SettingsFile.unsavedNotePath(for: path)))
        try FileManager.default.removeItem(atPath: path)
        #expect(FileManager.default.createFile(atPath: path, contents: saved))

        let (stored, said) = StoredSettings.load(from: path)
        #expect(stored.settings.brushWidth == 7)
        #expect(said == "Your settings from last time could not be saved: \(problem); these are the ones saved before")
        let s = Self.session()
        s.show(try #require(said))
        let status = s.renderStatus().texts.first { $0.text.hasPrefix("Your settings") }
        #expect(status?.color == Theme.errorText && status?.bold == true)
        // Said once.
        #expect(StoredSettings.load(from: path).problem == nil)

        // Saved again: no note left to say anything.
        try FileManager.default.removeItem(atPath: path)
        #expect(changed.save(to: path) == nil)
        #expect(!FileSystem.exists(SettingsFile.unsavedNotePath(for: path)))
        #expect(StoredSettings.load(from: path).settings.settings.brushWidth == 19)
    }

    /// On a full disk the note is an empty file (a name needs no data block): the next start
    /// still says the settings were lost, and the ones saved before are used.
    @Test(.enabled(if: CrashProtectionTests.canMount, "mounting a tmpfs needs root with CAP_SYS_ADMIN"))
    func settingsLostToAFullDiskAreReportedAtTheNextStart() throws {
        let folder = try CrashProtectionTests.smallDisk()
        defer { CrashProtectionTests.unmount(folder) }
        let path = folder + "/settings.conf"
        var before = StoredSettings()
        before.settings.setWidth(7)
        #expect(before.save(to: path) == nil)
        // Fill the disk.
        let filler = [UInt8](repeating: 1, count: 4096)
        let fd = open(folder + "/filler", O_WRONLY | O_CREAT, 0o600)
        while write(fd, filler, filler.count) > 0 {}
        close(fd)
        var changed = StoredSettings()
        changed.settings.setWidth(19)
        let problem = try #require(changed.save(to: path))
        #expect(problem.contains("full"))

        let (stored, said) = StoredSettings.load(from: path)
        #expect(stored.settings.brushWidth == 7)
        let sentence = try #require(said)
        #expect(sentence.hasPrefix("Your settings from last time could not be saved"))
        #expect(sentence.hasSuffix("; these are the ones saved before"))
        #expect(StoredSettings.load(from: path).problem == nil)
    }
}

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
            message: "", journal: nil)
        #expect(s.layout.zoom < .actualSize)
        #expect(s.layout.horizontalScrollbar == nil && s.layout.verticalScrollbar == nil, "the whole picture in view")
        let area = s.layout.canvasArea
        let shown = s.layout.visibleImage
        #expect(shown.width >= area.width - 2 || shown.height >= area.height - 2, "as large as fits")
        s.install(
            Document(engine: StrokeEngine(width: 300, height: 200), history: History(base: nil), path: nil),
            message: "", journal: nil)
        #expect(s.layout.zoom == .actualSize)
    }
}

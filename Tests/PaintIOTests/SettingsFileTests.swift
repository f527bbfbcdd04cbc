import Foundation
import PaintIO
import Testing

/// The settings file: key = value lines, damage reported line by line, atomic writes.
@Suite struct SettingsFileTests {
    @Test("key = value lines, comments and blank lines ignored, spaces around both trimmed, the last of a key wins")
    func parses() {
        let file = SettingsFile.parse(
            "# SwiftPaint settings\n\ntool = line\r\n  width=12  \nprimary = #ff0000\nfolder = /a b/c = d\nwidth = 13\n"
        )
        #expect(file.problems.isEmpty)
        #expect(file["tool"] == "line" && file["width"] == "13" && file["primary"] == "#ff0000")
        #expect(file["folder"] == "/a b/c = d", "only the first = separates")
        #expect(file["missing"] == nil)
    }

    @Test("a damaged line is reported by number and left out; the good ones stay")
    func damagedLines() {
        var file = SettingsFile.parse("tool = brush\nthis is not a setting\n= 4\nwidth = 7\n")
        #expect(file.problems == ["line 2 has no “=”", "line 3 has no setting name before “=”"])
        #expect(file["tool"] == "brush" && file["width"] == "7")
        file.reject("width", "must be 1 to 200")
        #expect(file["width"] == nil && file.problems.last == "“width” must be 1 to 200")
    }

    @Test("missing: nothing, no problem; binary, too large or a folder: nothing, and why")
    func unreadableFiles() throws {
        let dir = NSTemporaryDirectory() + "settings-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let missing = SettingsFile.load(path: dir + "/none.conf")
        #expect(missing.entries.isEmpty && missing.problems.isEmpty)
        try Data([0x89, 0x50, 0x4E, 0x47, 0, 1, 2, 0xFF]).write(to: URL(fileURLWithPath: dir + "/png.conf"))
        let binary = SettingsFile.load(path: dir + "/png.conf")
        #expect(binary.entries.isEmpty && binary.problems == ["png.conf is not text"])
        try Data(repeating: 0x61, count: SettingsFile.maxBytes + 1).write(to: URL(fileURLWithPath: dir + "/big.conf"))
        #expect(
            SettingsFile.load(path: dir + "/big.conf").problems == [
                "big.conf is larger than 64 KB: not a settings file"
            ])
        let folder = SettingsFile.load(path: dir)
        #expect(folder.entries.isEmpty && folder.problems.count == 1)
    }

    @Test("save writes the header and the entries, creating the folder; load reads back the same")
    func roundTrip() throws {
        let dir = NSTemporaryDirectory() + "settings-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/swiftpaint/settings.conf"
        let file = SettingsFile(entries: [
            .init(key: "tool", value: "fill"), .init(key: "recent", value: "#010203 #0a0b0c"),
        ])
        try file.save(to: path, header: ["SwiftPaint settings"])
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text == "# SwiftPaint settings\ntool = fill\nrecent = #010203 #0a0b0c\n")
        #expect(SettingsFile.load(path: path) == file)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test("the default place follows XDG_CONFIG_HOME")
    func defaultPath() {
        #expect(SettingsFile.defaultPath.hasSuffix("/swiftpaint/settings.conf"))
    }
}

import CX11
import Foundation
import PaintApp
import PaintCore
import PaintIO
import TestSupport
import Testing
import XDriver

/// SwiftPaint as a desktop application: the window's icon, the `.desktop` file, the man page,
/// `make install`, and several files opened at once (the `.desktop` file's `%F`).
@Suite("Desktop integration: icon, .desktop file, man page, install", .serialized)
struct DesktopIntegrationTests {
    /// The package's root folder (this file is `<root>/Tests/AppTests/DesktopIntegrationTests.swift`).
    static let root: String = {
        var path = #filePath
        for _ in 0..<3 { path = (path as NSString).deletingLastPathComponent }
        return path
    }()

    /// The sizes `make icons` embeds for `_NET_WM_ICON`, smallest first (WINDOW_ICON_SIZES).
    static let windowIconSizes = [16, 24, 32, 48, 64, 128]
    /// Every size installed into the hicolor theme (ICON_SIZES).
    static let themeIconSizes = [16, 22, 24, 32, 48, 64, 128, 256, 512]

    /// Runs `executable` with `arguments`; returns its exit status, stdout and stderr.
    func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> (status: ExitStatus?, out: String, err: String) {
        // A `make test` above us exports its flags (and jobserver descriptors, closed in the
        // child): a make started here must not take itself for a sub-make.
        var env = ChildProcess.cleanEnvironment().filter { !["MAKEFLAGS", "MFLAGS", "MAKELEVEL"].contains($0.key) }
        env.merge(environment) { _, new in new }
        let ran = try ChildProcess.run(executable, arguments, environment: env, timeout: Wait.defaultTimeout)
        return (ran.status, ran.stdoutText, ran.stderrText)
    }

    /// The premultiplied pixels of a committed icon PNG, decoded as the program decodes them.
    func iconPNG(_ size: Int) throws -> PixelImage {
        let path = "\(Self.root)/resources/icons/swiftpaint-\(size).png"
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        return try PNGCodec.decode(bytes, name: path)
    }

    @Test("_NET_WM_ICON, read with xprop, holds the icon in every embedded size, pixel for pixel the committed PNGs")
    func windowIcon() throws {
        let session = try AppSession(arguments: ["--no-journal", "--size", "200x150"])
        defer { session.stop() }
        // 32c: the raw numbers, where xprop would otherwise draw the icon as text art.
        let (status, out, err) = try run(
            "/usr/bin/xprop",
            [
                "-display", session.server.displayName, "-id", String(session.window), "-f", "_NET_WM_ICON", "32c",
                "_NET_WM_ICON",
            ])
        #expect(status == .exited(0), "xprop: \(err)")
        let prefix = "_NET_WM_ICON(CARDINAL) = "
        #expect(out.hasPrefix(prefix), "xprop printed: \(out.prefix(200))")
        let numbers = out.dropFirst(prefix.count).split(separator: ",").compactMap {
            UInt32($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        var index = 0
        var sizes: [Int] = []
        while index + 2 <= numbers.count {
            let width = Int(numbers[index])
            let height = Int(numbers[index + 1])
            index += 2
            guard width > 0, height > 0, index + width * height <= numbers.count else {
                Issue.record("an icon of \(width) x \(height) does not fit the \(numbers.count) values")
                return
            }
            sizes.append(width)
            #expect(width == height)
            let expected = try iconPNG(width)
            #expect(expected.width == width && expected.height == height)
            // The property is straight ARGB; premultiplied it must be exactly the decoded PNG.
            var mismatches = 0
            var opaque = 0
            for i in 0..<(width * height) {
                let argb = numbers[index + i]
                if argb >> 24 == 255 { opaque += 1 }
                if Pixel.premultiply(argb) != expected.pixels[i] { mismatches += 1 }
            }
            #expect(mismatches == 0, "\(width) x \(width): \(mismatches) pixels differ from swiftpaint-\(width).png")
            // Not a blank square: the palette covers most of it.
            #expect(opaque > width * height / 3, "\(width) x \(width): only \(opaque) opaque pixels")
            index += width * height
        }
        #expect(sizes == Self.windowIconSizes)
        #expect(index == numbers.count)
    }

    @Test("the .desktop file validates, and names the icon, %F and every format that opens")
    func desktopFile() throws {
        let path = "\(Self.root)/resources/swiftpaint.desktop"
        let (status, out, err) = try run("/usr/bin/desktop-file-validate", [path])
        #expect(status == .exited(0), "\(out)\(err)")
        #expect((out + err).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(out)\(err)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var entries: [String: String] = [:]
        for line in text.split(separator: "\n") where line.contains("=") {
            let parts = line.split(separator: "=", maxSplits: 1)
            entries[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        #expect(entries["Exec"] == "swiftpaint %F")
        #expect(entries["Icon"] == "swiftpaint")
        #expect(entries["StartupWMClass"] == "SwiftPaint")
        let types = Set((entries["MimeType"] ?? "").split(separator: ";").map(String.init))
        #expect(types == ["image/png", "image/jpeg", "image/webp", "image/bmp", "image/gif"])
        // The icon it names is installed in every theme size (see the install test), so check
        // the committed files are what their names say.
        for size in Self.themeIconSizes {
            let header = try [UInt8](
                Data(contentsOf: URL(fileURLWithPath: "\(Self.root)/resources/icons/swiftpaint-\(size).png")).prefix(24)
            )
            #expect(Array(header.prefix(8)) == [137, 80, 78, 71, 13, 10, 26, 10], "swiftpaint-\(size).png")
            let width = header[16..<20].reduce(0) { $0 << 8 | Int($1) }
            let height = header[20..<24].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == size && height == size, "swiftpaint-\(size).png is \(width) x \(height)")
        }
    }

    @Test(
        "make install honours PREFIX and DESTDIR: binary, .desktop, every icon size, man page; uninstall removes them")
    func installAndUninstall() throws {
        let stage = try TemporaryDirectory(prefix: "swiftpaint-install")
        let binary = try SwiftPaintBinary.locate()
        // -o build: install what the tests were built from instead of building a release here.
        let variables = ["DESTDIR=\(stage.path)", "PREFIX=/opt/sp", "BIN=\(binary)"]
        let (status, out, err) = try run("/usr/bin/make", ["-C", Self.root, "-o", "build", "install"] + variables)
        #expect(status == .exited(0), "make install: \(out)\(err)")

        let prefix = "\(stage.path)/opt/sp"
        var expected = [
            "bin/swiftpaint", "share/applications/swiftpaint.desktop", "share/man/man1/swiftpaint.1",
            "share/icons/hicolor/scalable/apps/swiftpaint.svg",
        ]
        expected += Self.themeIconSizes.map { "share/icons/hicolor/\($0)x\($0)/apps/swiftpaint.png" }
        let installed = Set(
            (FileManager.default.enumerator(atPath: stage.path)?.allObjects as? [String] ?? []).filter {
                var isFolder: ObjCBool = false
                return FileManager.default.fileExists(atPath: "\(stage.path)/\($0)", isDirectory: &isFolder)
                    && !isFolder.boolValue
            })
        #expect(installed == Set(expected.map { "opt/sp/\($0)" }), "installed: \(installed.sorted())")
        #expect(FileManager.default.isExecutableFile(atPath: "\(prefix)/bin/swiftpaint"))
        // Each file is the one from the source tree, byte for byte.
        #expect(
            FileManager.default.contentsEqual(
                atPath: "\(prefix)/share/icons/hicolor/48x48/apps/swiftpaint.png",
                andPath: "\(Self.root)/resources/icons/swiftpaint-48.png"))
        #expect(
            FileManager.default.contentsEqual(
                atPath: "\(prefix)/share/applications/swiftpaint.desktop",
                andPath: "\(Self.root)/resources/swiftpaint.desktop"))
        #expect(FileManager.default.contentsEqual(atPath: "\(prefix)/bin/swiftpaint", andPath: binary))
        // The installed program runs.
        let (version, versionOut, _) = try run("\(prefix)/bin/swiftpaint", ["--version"])
        #expect(version == .exited(0) && versionOut.contains(CommandLineOptions.version))

        let (removed, rmOut, rmErr) = try run("/usr/bin/make", ["-C", Self.root, "uninstall"] + variables)
        #expect(removed == .exited(0), "make uninstall: \(rmOut)\(rmErr)")
        let left = (FileManager.default.enumerator(atPath: stage.path)?.allObjects as? [String] ?? []).filter {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: "\(stage.path)/\($0)", isDirectory: &isFolder)
                && !isFolder.boolValue
        }
        #expect(left.isEmpty, "left after uninstall: \(left)")
    }

    /// The options `CommandLineOptions.parse` accepts, read from its source: a new option
    /// must be documented in --help and in the man page before this test passes.
    func acceptedOptions() throws -> Set<String> {
        let source = try String(
            contentsOfFile: "\(Self.root)/Sources/PaintApp/CommandLineOptions.swift", encoding: .utf8)
        var options = Set<String>()
        for line in source.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("case \"-") else { continue }
            // case "--help", "-h": ...
            let labels = trimmed.dropFirst(5).prefix { $0 != ":" }
            for label in labels.split(separator: ",") {
                let name = label.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: ["\""])
                if name.hasPrefix("-") { options.insert(name) }
            }
        }
        return options
    }

    @Test("--help lists every option and points to the man page; the man page documents them all, without warnings")
    func helpAndManPage() throws {
        let options = try acceptedOptions()
        #expect(options.isSuperset(of: ["--help", "--version", "--size", "--background", "--recover"]), "\(options)")

        let usage = CommandLineOptions.usage
        for option in options {
            #expect(usage.contains(option), "--help does not mention \(option)")
        }
        #expect(usage.contains("man swiftpaint"))

        let page = "\(Self.root)/resources/swiftpaint.1"
        // -ww: every warning; -z: no output, only the diagnostics.
        let (status, _, warnings) = try run("/usr/bin/groff", ["-man", "-ww", "-z", page])
        #expect(status == .exited(0))
        #expect(warnings.isEmpty, "groff: \(warnings)")
        let (rendered, text, renderErr) = try run(
            "/usr/bin/groff", ["-man", "-Tutf8", "-P", "-cbou", page])
        #expect(rendered == .exited(0), "\(renderErr)")
        // groff writes the ASCII hyphen of an option as U+2010 in UTF-8 output.
        let plain = text.replacingOccurrences(of: "\u{2010}", with: "-").replacingOccurrences(of: "\u{2212}", with: "-")
        for option in options {
            #expect(plain.contains(option), "the man page does not mention \(option)")
        }
        for section in ["NAME", "SYNOPSIS", "OPTIONS", "KEYS", "FILES", "ENVIRONMENT"] {
            #expect(plain.contains("\n\(section)\n"), "no \(section) section")
        }
        #expect(plain.contains("$XDG_STATE_HOME/swiftpaint/"))
        #expect(plain.contains("SwiftPaint \(CommandLineOptions.version)"), "the man page names another version")

        let dir = try scratchFolder()
        let (help, helpOut, _) = try run(
            try SwiftPaintBinary.locate(), ["--help"], environment: ["HOME": dir.path])
        #expect(help == .exited(0))
        #expect(helpOut == usage + "\n")
    }

    @Test("several files on the command line open in a window each, with the same options")
    func severalFiles() throws {
        let dir = try scratchFolder()
        let names = ["first.png", "second.png", "third.png"]
        let session = try AppSession(
            arguments: ["--no-journal", "--size", "120x90"] + names.map { dir.file($0) }, home: dir.path)
        defer { session.stop() }
        var others: [(pid: pid_t, window: Window)] = []
        defer {
            // The other windows are processes of their own (re-parented to init): stop any left.
            for other in others where session.client.exists(other.window) { kill(other.pid, SIGKILL) }
        }
        // Each window's title as it is now, read once it is viewable. (A title read before the
        // window was found viewable, and kept, could be the one a window had before it was named
        // and mapped: the test once saw "Untitled" for third.png's window.)
        var windows: [String: Window] = [:]
        _ = session.client.waitUntil {
            windows = [:]
            for w in session.client.allWindows() where session.client.windowClass(w)?.className == "SwiftPaint" {
                if session.client.isViewable(w), let title = session.client.windowTitle(w) { windows[title] = w }
            }
            return Set(windows.keys) == Set(names.map { "\($0) — SwiftPaint" })
        }
        others = windows.values.compactMap { w in session.client.windowPID(w).map { ($0, w) } }
            .filter { $0.pid != session.app.pid }
        #expect(Set(windows.keys) == Set(names.map { "\($0) — SwiftPaint" }), "windows: \(windows.keys.sorted())")
        #expect(session.client.windowTitle(session.window) == "first.png — SwiftPaint")
        #expect(Set(others.map(\.pid)).count == names.count - 1, "one process per other file: \(others)")
        // The same options in each: a white 120 x 90 canvas inside the gray surround. Without a
        // window manager the windows overlap at the origin: raise each before reading it.
        for (title, window) in windows {
            XRaiseWindow(session.client.display, window)
            session.client.sync()
            guard let frame = session.client.geometry(window) else { continue }
            let layout = Layout(windowWidth: frame.width, windowHeight: frame.height, imageWidth: 120, imageHeight: 90)
            var box: IntRect?
            _ = session.client.waitUntil {
                let area = try? session.client.capture(window, rect: layout.canvasArea)
                box = area?.boundingBox { $0 == .white }
                return box?.width == 120 && box?.height == 90
            }
            #expect(box?.width == 120 && box?.height == 90, "\(title): the white canvas is \(String(describing: box))")
        }
        for other in others { #expect(kill(other.pid, SIGTERM) == 0) }
        #expect(session.client.waitUntil { others.allSatisfy { !session.client.exists($0.window) } })
    }

    @Test(
        "each window of several files is named with its own file's name from its creation and keeps it (as a window manager and a taskbar see it)"
    )
    func titlesFromTheFirstFrame() throws {
        let dir = try scratchFolder()
        // Files that do not exist yet (new canvases Ctrl+S saves there), as in `severalFiles`.
        let names = ["first.png", "second.png", "third.png"]
        let seen = try watchTitles(["--no-journal", "--size", "120x90"] + names.map { dir.file($0) }, windows: 3)
        #expect(Set(seen) == Set(names.map { WindowNames(file: $0) }), "names since created: \(seen)")
    }

    @Test(
        "a window never has another name than its document's, from CreateNotify on: an existing file, a new one with --size",
        arguments: [true, false])
    func namedFromCreation(existing: Bool) throws {
        let dir = try scratchFolder()
        let path = dir.file("first.png")
        if existing { try ImageFile.save(PixelImage(width: 64, height: 48), to: path, withAlpha: false) }
        let arguments = existing ? [path] : ["--size", "120x90", path]
        let seen = try watchTitles(["--no-journal"] + arguments, windows: 1)
        #expect(seen == [WindowNames(file: "first.png")], "names since created: \(seen)")
    }

    /// Every name a window had, as the watcher recorded it.
    struct WindowNames: Hashable, CustomStringConvertible {
        var titles: [String?]
        var wmNames: [String?]
        var createdWith: String?
        var mappedWith: String?

        /// Named `file` when created, mapped with it, and never anything else.
        init(file: String) {
            titles = ["\(file) — SwiftPaint"]
            wmNames = ["\(file) - SwiftPaint"]
            createdWith = "\(file) — SwiftPaint"
            mappedWith = "\(file) — SwiftPaint"
        }

        init(titles: [String?], wmNames: [String?], createdWith: String?, mappedWith: String?) {
            self.titles = titles
            self.wmNames = wmNames
            self.createdWith = createdWith
            self.mappedWith = mappedWith
        }

        var description: String {
            "\(titles) WM_NAME \(wmNames) created as \(createdWith ?? "nil") mapped as \(mappedWith ?? "nil")"
        }
    }

    /// Runs swiftpaint with `arguments` under a `TitleWatcher` until it has mapped `windows`
    /// windows and each is done starting; returns every name each had since it was created.
    func watchTitles(_ arguments: [String], windows count: Int) throws -> [WindowNames] {
        let server = try XvfbServer(width: 1600, height: 1200)
        defer { server.stop() }
        // Before the program starts: every window it creates is seen, and maps through the watcher.
        let watcher = try TitleWatcher(displayName: server.displayName)
        let app = try AppProcess(
            executable: try SwiftPaintBinary.locate(), arguments: arguments, display: server.displayName)
        defer { app.killAndReap() }
        let client = try XClient(display: server.displayName)
        defer { client.close() }
        var windows: [Window] = []
        defer {
            // The other windows are processes of their own (re-parented to init).
            for w in windows { if let pid = client.windowPID(w), pid != app.pid { kill(pid, SIGKILL) } }
        }
        // Served often: a name the window has only for a moment is read before it changes.
        _ = Wait.until(poll: .milliseconds(1)) {
            watcher.serve()
            windows = watcher.titles.keys.filter {
                watcher.mapped($0) && client.windowClass($0)?.className == "SwiftPaint"
            }
            return windows.count == count || !app.isRunning
        }
        try #require(windows.count == count, "windows mapped: \(watcher.titles)\n\(app.outputSummary)")
        // Each window has answered a ping sent once it was mapped: its start-up is done and
        // drawn, a rename in it already sent. Then every change the server made is read.
        for w in windows { try client.roundTrip(with: w) }
        watcher.client.sync()
        watcher.serve()
        return windows.map {
            WindowNames(
                titles: watcher.titles[$0] ?? [], wmNames: watcher.wmNames[$0] ?? [],
                createdWith: watcher.createdTitles[$0] ?? nil, mappedWith: watcher.mappedTitles[$0] ?? nil)
        }
    }
}

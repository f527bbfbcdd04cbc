import Foundation
import PaintCore
import PaintIO
import Testing

@testable import PaintApp

/// The file dialog without a window: what it lists and in which order, the keys and clicks
/// people use in a file chooser, completion, Save as's name and format, and the session
/// opening and saving through it.
@Suite struct FileDialogTests {
    typealias T = SessionTests

    /// A folder with two sub-folders, pictures named to test the order, a file that is not a
    /// picture and a hidden picture.
    static func folder() throws -> String {
        let dir = T.temporaryFolder()
        for sub in ["Zebra", "albums"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + sub, withIntermediateDirectories: true)
        }
        for (name, w) in [("img10.png", 10), ("img2.png", 2), ("Beach.png", 5), ("beach-2.png", 6), (".hidden.png", 1)]
        {
            try ImageFile.save(
                PixelImage(width: w, height: 3, fill: Color.black.pixel), to: dir + "/" + name, withAlpha: false)
        }
        #expect(FileManager.default.createFile(atPath: dir + "/notes.txt", contents: Data("x".utf8)))
        return dir
    }

    static func dialog(_ purpose: FileDialog.Purpose, _ folder: String, name: String = "") -> FileDialog {
        FileDialog(
            purpose: purpose, folder: folder, name: name, places: [], recent: [], windowWidth: 1000,
            windowHeight: 700)
    }

    /// A picture whose name is not UTF-8 is not listed (it cannot be named without naming
    /// another file), and the dialog says so instead of counting one picture less in silence.
    @Test func aPictureWhoseNameIsNotUTF8IsCountedInANote() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        #expect(Self.dialog(.open, dir).note == nil)
        let raw: [UInt8] = Array(dir.utf8) + [UInt8(ascii: "/"), 0xE9] + Array(".png".utf8) + [0]
        let fd = raw.withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { $0.baseAddress.map { open($0, O_CREAT | O_WRONLY, 0o600) } ?? -1 }
        }
        #expect(fd >= 0)
        close(fd)
        let d = Self.dialog(.open, dir)
        #expect(d.rows.count == 6 && d.summary == "2 folders, 4 pictures", "\(d.summary)")
        #expect(d.note == "1 name here is not valid UTF-8 and is not shown: rename it (convmv -f latin1 -t utf-8)")
    }

    @Test func foldersComeFirstThenPicturesInTheOrderPeopleRead() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var d = Self.dialog(.open, dir)
        #expect(d.rows.map(\.name) == ["albums", "Zebra", "beach-2.png", "Beach.png", "img2.png", "img10.png"])
        #expect(d.header(of: d.rows[5]) == PictureHeader(format: .png, width: 10, height: 3), "read for rows in view")
        #expect(d.summary == "2 folders, 4 pictures")
        // Ctrl+H lists the hidden picture too, and again hides it.
        _ = d.key(.character("h"), .control)
        #expect(d.rows.map(\.name).contains(".hidden.png"))
        _ = d.key(.character("h"), .control)
        #expect(!d.rows.map(\.name).contains(".hidden.png"))
    }

    @Test func arrowsEnterBackspaceAndTypingToFilter() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try ImageFile.save(
            PixelImage(width: 4, height: 4, fill: Color.white.pixel), to: dir + "/albums/inside.png", withAlpha: false)
        var d = Self.dialog(.open, dir)
        // Down chooses the first row (a folder); Enter enters it.
        #expect(d.key(.down) == nil && d.selected == 0)
        #expect(d.key(.enter) == nil && d.folder == dir + "/albums" && d.rows.map(\.name) == ["inside.png"])
        // Backspace in the empty field goes up, choosing the folder it came from.
        #expect(d.key(.backspace) == nil && d.folder == dir && d.selected == 0 && d.rows[0].name == "albums")
        // Typing filters (any case, anywhere in the name) and chooses the best match; Enter opens it.
        for c in "BEA" { _ = d.key(.character(c)) }
        #expect(d.rows.map(\.name) == ["beach-2.png", "Beach.png"] && d.selected == 0)
        #expect(d.summary == "2 of 6 match “BEA”")
        _ = d.key(.down)
        #expect(d.key(.enter) == .open(dir + "/Beach.png"))
        // Page Down goes to the last row; Escape cancels.
        var e = Self.dialog(.open, dir)
        _ = e.key(.pageDown)
        #expect(e.selected == e.rows.count - 1)
        #expect(e.key(.escape) == .cancel)
        // Nothing matches: Enter says so and acts on nothing.
        for c in "zzz" { _ = e.key(.character(c)) }
        #expect(e.rows.isEmpty && e.key(.enter) == .open(dir + "/zzz"))
    }

    @Test func tabCompletesNamesAndPathsAndEntersTheOneFolder() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var d = Self.dialog(.open, dir)
        // "im" + Tab: what img2.png and img10.png share; the candidates are shown.
        for c in "im" { _ = d.key(.character(c)) }
        _ = d.key(.tab)
        #expect(d.field.text == "img")
        #expect(d.note?.contains("img2.png") == true && d.note?.contains("img10.png") == true)
        // "alb" + Tab: the one folder is entered, the field emptied.
        var e = Self.dialog(.open, dir)
        for c in "alb" { _ = e.key(.character(c)) }
        _ = e.key(.tab)
        #expect(e.folder == dir + "/albums" && e.field.text.isEmpty)
        // A path completes from the folder it names (here to the one folder, which is entered).
        var f = Self.dialog(.open, "/")
        for c in dir + "/Zeb" { _ = f.key(.character(c)) }
        _ = f.key(.tab)
        #expect(f.folder == dir + "/Zebra" && f.field.text.isEmpty)
        var g = Self.dialog(.open, "/")
        for c in dir + "/img1" { _ = g.key(.character(c)) }
        _ = g.key(.tab)
        #expect(g.field.text == dir + "/img10.png" && g.folder == "/")
    }

    @Test func saveAsKeepsTheExtensionTheFormatAndEntersFoldersTyped() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var d = Self.dialog(.save(then: nil), dir, name: "untitled.png")
        #expect(d.field.text == "untitled.png" && d.field.selection == 0..<8 && d.format == .png)
        // Typing replaces the stem; the extension stays.
        for c in "trip" { _ = d.key(.character(c)) }
        #expect(d.field.text == "trip.png")
        // A click on WebP renames it; typing .jpg chooses JPEG.
        let webp = d.formatButton(.webp)
        _ = d.press(x: webp.x + 5, y: webp.y + 5, button: .left)
        #expect(d.field.text == "trip.webp" && d.format == .webp)
        _ = d.key(.end)
        for _ in 0..<4 { _ = d.key(.backspace) }
        for c in "jpg" { _ = d.key(.character(c)) }
        #expect(d.format == .jpeg)
        #expect(d.key(.enter) == .save(dir + "/trip.jpg", .jpeg))
        // A folder typed is entered and the name offered comes back; a picture chosen in the
        // list gives its name.
        var e = Self.dialog(.save(then: nil), dir, name: "untitled.png")
        _ = e.key(.character("a"), .control)
        for c in "albums" { _ = e.key(.character(c)) }
        #expect(e.key(.enter) == nil && e.folder == dir + "/albums" && e.field.text == "untitled.png")
        var f = Self.dialog(.save(then: nil), dir, name: "untitled.png")
        _ = f.key(.down)
        _ = f.key(.down)
        _ = f.key(.down)
        #expect(f.field.text == "beach-2.png")
        // Enter on a picture chosen saves over it (the session asks first).
        #expect(f.key(.enter) == .save(dir + "/beach-2.png", .png))
    }

    @Test func theSessionOpensThroughTheDialogAndRemembersRecentPictures() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let picture = PixelImage(width: 30, height: 20, fill: Color(r: 200, g: 30, b: 90).pixel)
        try ImageFile.save(picture, to: dir + "/albums/red.png", withAlpha: false)
        let s = T.makeSession(path: dir + "/doc.png", width: 60, height: 40)
        s.makesThumbnails = false
        #expect(s.useRecentFiles(RecentFiles(path: dir + "/state/recent")) == nil)
        T.key(s, "o", .control)
        guard let opened = s.fileDialog else {
            Issue.record("no dialog")
            return
        }
        // In the document's folder, the mouse: a double click on the folder enters it, one on
        // the picture opens it.
        #expect(opened.folder == dir && opened.rows.first?.name == "albums")
        func doubleClick(row: Int) {
            guard let d = s.fileDialog else { return }
            let r = d.rowRect(row)
            let frame = s.fileDialogFrame
            let (x, y) = (frame.x + r.x + 40, frame.y + r.y + r.height / 2)
            s.handle([
                .press(x: x, y: y, button: .left, modifiers: []), .release(x: x, y: y, button: .left, modifiers: []),
                .press(x: x, y: y, button: .left, modifiers: []), .doubleClick(x: x, y: y),
                .release(x: x, y: y, button: .left, modifiers: []),
            ])
        }
        doubleClick(row: 0)
        #expect(s.fileDialog?.folder == dir + "/albums" && s.fileDialog?.rows.map(\.name) == ["red.png"])
        doubleClick(row: 0)
        #expect(s.fileDialog == nil && s.path == dir + "/albums/red.png")
        #expect(s.engine.flattenedImage() == picture)
        #expect(s.recentPictures == [dir + "/albums/red.png"])
        // Saved under another name: first in the list, in the file too.
        T.key(s, "s", [.control, .shift])
        T.typeInDialog(s, "copy.png")
        #expect(s.path == dir + "/albums/copy.png")
        // Written on a thread of its own.
        s.waitForRecentList()
        #expect(
            RecentFiles(path: dir + "/state/recent").load().paths == [
                dir + "/albums/copy.png", dir + "/albums/red.png",
            ])
        #expect(s.recentPicturesToShow == [dir + "/albums/copy.png", dir + "/albums/red.png"])
        // The dialog's Recent place lists them, and its folders are places of their own.
        T.key(s, "o", .control)
        guard let again = s.fileDialog, let recent = again.places.firstIndex(where: { $0.kind == .recent }) else {
            Issue.record("no Recent place")
            return
        }
        let place = again.placeRect(recent)
        let frame = s.fileDialogFrame
        s.handle([
            .press(x: frame.x + place.x + 10, y: frame.y + place.y + 10, button: .left, modifiers: []),
            .release(x: frame.x + place.x + 10, y: frame.y + place.y + 10, button: .left, modifiers: []),
        ])
        #expect(s.fileDialog?.showsRecent == true)
        #expect(s.fileDialog?.rows.map(\.path) == [dir + "/albums/copy.png", dir + "/albums/red.png"])
        s.handle(.key(.escape, modifiers: []))
        #expect(s.fileDialog == nil && s.message == "Open cancelled")
        // File ▸ Open Recent (Alt+F, R) opens the dialog on them; Enter opens the newest.
        s.handle([.key(.character("f"), modifiers: .alt), .key(.character("r"), modifiers: [])])
        #expect(s.fileDialog?.showsRecent == true && s.fileDialog?.rows.count == 2)
        s.handle([.key(.down, modifiers: []), .key(.enter, modifiers: [])])
        #expect(s.fileDialog == nil && s.path == dir + "/albums/copy.png")
    }

    @Test func openRecentIsGrayWhileNoPictureWasOpenedOrSaved() {
        let s = T.makeSession()
        #expect(s.recentPictures.isEmpty)
        s.handle([.key(.character("f"), modifiers: .alt), .key(.character("r"), modifiers: [])])
        #expect(s.fileDialog == nil)
    }

    /// Bold text is wider: a measurer that says so, to see a crumb measured as it is drawn.
    struct BoldWider: TextMeasuring {
        func width(of text: String, bold: Bool) -> Int { text.count * (bold ? 9 : 7) }
    }

    @Test func theCurrentCrumbRecentsTooIsWideEnoughForItsBoldTitle() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let measure = BoldWider()
        var d = FileDialog(
            purpose: .open, folder: dir, places: [], recent: [dir + "/img2.png"], windowWidth: 1000, windowHeight: 700)
        for recent in [false, true] {
            if recent { d.showRecent() }
            d.layOutPath(measure: measure)
            let crumb = try #require(d.crumbs.last)
            #expect(crumb.title == (recent ? "Recent" : FileSystem.lastComponent(dir)))
            // The title is drawn bold inside the crumb with 8 px either side (FileDialog+Drawing).
            #expect(crumb.rect.width - 16 >= measure.width(of: crumb.title, bold: true), "\(crumb.title) is cut short")
        }
    }

    @Test func theDialogFitsEveryWindowAndScale() {
        for scale in [UIScale.one, UIScale(1.5), UIScale(2)] {
            for (w, h) in [(640, 480), (1280, 900), (3840, 2160)] {
                let frame = FileDialog.frame(windowWidth: w, windowHeight: h, scale: scale)
                let d = FileDialog(
                    purpose: .save(then: nil), folder: "/", places: [], recent: [], windowWidth: w, windowHeight: h,
                    scale: scale)
                #expect(frame.width == d.width && frame.height == d.height)
                // Inside the window when the window is larger than the smallest dialog.
                if w >= scale.px(480) && h >= scale.px(360) {
                    #expect(frame.x >= 0 && frame.maxX <= w && frame.y >= 0 && frame.maxY <= h, "\(w)x\(h) at \(scale)")
                }
                // The buttons and the list do not overlap.
                #expect(d.cancelButton.maxX < d.acceptButton.x)
                #expect(d.rowRect(d.top).maxY <= d.formatButton(.png).y, "\(w)x\(h) at \(scale)")
                #expect(d.visibleRows >= 1)
            }
        }
    }

    /// A window smaller than the 640 x 480 the program asks for (no window manager holds it
    /// there): the panel stays inside it with every control, none over another, the list shows
    /// two rows and names that can be read; the places make way for the list. Before, the panel
    /// kept 480 x 360, and at 420 x 320 its Save and Cancel buttons were out of the window.
    @Test(arguments: [(420, 320), (400, 290), (500, 400), (600, 450)])
    func theDialogFitsAWindowSmallerThanAskedFor(width: Int, height: Int) {
        let measure = FixedWidthMeasurer()
        for purpose in [FileDialog.Purpose.open, .save(then: nil), .background] {
            var d = FileDialog(
                purpose: purpose, folder: "/",
                places: FileDialog.places(
                    user: UserFolders(home: "/root", desktop: nil, pictures: nil), documentFolder: nil, recent: []),
                recent: [], windowWidth: width, windowHeight: height)
            d.layOutPath(measure: measure)
            let frame = FileDialog.frame(windowWidth: width, windowHeight: height, scale: .one)
            #expect(
                frame.x >= 0 && frame.y >= 0 && frame.maxX <= width && frame.maxY <= height,
                "\(width) x \(height): the panel \(frame)")
            let panel = IntRect(x: 0, y: 0, width: d.width, height: d.height)
            let field = d.fieldBox(labelWidth: measure.width(of: d.fieldLabel, bold: false))
            var footer = [field, d.cancelButton, d.acceptButton]
            if purpose.isSave { footer = [field] + FileDialog.savedFormats.map { d.formatButton($0) } }
            var buttons = [d.cancelButton, d.acceptButton]
            if purpose.isSave { buttons.insert(d.historyBox, at: 0) }
            if purpose == .background { buttons.insert(d.transparentButton, at: 0) }
            for r in footer + buttons + [d.upButton, d.pathBar, d.list] {
                #expect(panel.contains(r.x, r.y) && r.maxX <= panel.maxX && r.maxY <= panel.maxY, "\(width): \(r)")
            }
            // Left to right without overlaps, each row.
            if purpose.isSave {
                #expect(field.maxX < d.formatButton(.png).x && field.width >= 60, "\(width): the name field \(field)")
            }
            #expect(zip(buttons, buttons.dropFirst()).allSatisfy { $0.maxX < $1.x }, "\(width): \(buttons)")
            #expect(d.list.maxY < field.y && d.visibleRows >= 2, "\(width) x \(height): \(d.visibleRows) rows")
            let names = d.columns.dimensions.x - d.rowRect(d.top).x
            #expect(names >= 150, "\(width): \(names) px for the names")
            #expect(d.showsPlaces == (d.width >= 560))
            if !d.showsPlaces, case .place = d.target(atX: d.pad + 20, y: d.bodyTop + 20) {
                Issue.record("\(width): a hidden place takes a click")
            }
        }
    }

    @Test func aDroppedPictureOpensAfterTheQuestionAndWithCtrlFloats() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let picture = PixelImage(width: 30, height: 20, fill: Color(r: 10, g: 200, b: 90).pixel)
        try ImageFile.save(picture, to: dir + "/drop.png", withAlpha: false)
        let s = T.makeSession(path: dir + "/doc.png", width: 60, height: 40)
        T.drag(s, [(5, 5), (50, 30)])
        // Unsaved changes: asked first; Discard opens the dropped picture.
        s.handle(.dropped(paths: [dir + "/notes.txt.missing", dir + "/drop.png"], paste: false))
        #expect(s.mode == .confirmLeave(.open(dir + "/drop.png")), "\(s.mode)")
        T.key(s, "d")
        #expect(s.path == dir + "/drop.png" && s.engine.flattenedImage() == picture)
        // With Ctrl: pasted, floating at the top-left, the document unchanged until put down.
        try ImageFile.save(
            PixelImage(width: 4, height: 4, fill: Color.black.pixel), to: dir + "/dot.png", withAlpha: false)
        s.handle(.dropped(paths: [dir + "/dot.png"], paste: true))
        s.finishPaste()
        #expect(s.placing?.rect == IntRect(x: 0, y: 0, width: 4, height: 4) && s.path == dir + "/drop.png")
        s.handle(.key(.enter, modifiers: []))
        #expect(s.engine.flattenedImage()[2, 2] == Color.black.pixel && s.isModified)
        // Nothing that is a file: a word, nothing else.
        s.handle(.dropped(paths: [dir + "/albums"], paste: false))
        #expect(s.message == "Nothing to open: not a file" && s.path == dir + "/drop.png")
        // A file whose name is not UTF-8 (left out of the paths): said, not "Only files…".
        s.handle(.dropped(paths: [], paste: false, namesNotUTF8: 1))
        #expect(s.message.hasPrefix("Cannot open the dropped file: its name is not valid UTF-8; rename it"))
        #expect(s.path == dir + "/drop.png")
    }
}

import PaintCore
import PaintIO

/// The file dialog in the window: Open (Ctrl+O), Save as (Ctrl+Shift+S, and the first Ctrl+S
/// of an untitled picture) and the background picture (Ctrl+B). Modal, centred in the window;
/// what it chooses goes where the status bar's prompts went (`open`, `commitSaveName`,
/// `choseFormat`, `setBackground(fromText:)`), so the questions that follow (Save / Discard /
/// Cancel, Replace, the JPEG quality) are the same.
extension Session {
    // MARK: Opening

    /// Opens the dialog to save under a name; after a successful save the user goes on to
    /// `then`. It starts in the document's folder (an untitled one: the folder last used, else
    /// Pictures), the name chosen but its extension, which sets the format.
    public func promptSaveAs(then: Leaving?) {
        let format = document.format.flatMap { $0.canSave ? $0 : nil } ?? .png
        var name = path.map(FileSystem.lastComponent) ?? "untitled.png"
        if document.damage != nil { name = Self.recoveredName(name, format: format) }
        openFileDialog(
            .save(then: then), folder: startingFolder, name: name, format: format, withHistory: historyInsideNextSave)
    }

    /// `photo.png` -> `photo (recovered).png`: the name suggested for a picture read from a
    /// damaged file, beside it; the extension `format`'s when the file's is one not written.
    static func recoveredName(_ name: String, format: ImageFormat) -> String {
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[name.index(after: $0)...]) }
        let kept = ext.flatMap { ImageFormat.naming(of: name) == .known(format) ? $0 : nil }
        return "\(stem) (recovered).\(kept ?? format.fileExtension)"
    }

    /// Opens the dialog to choose a picture to open, in the document's folder.
    public func promptOpen() {
        openFileDialog(.open, folder: startingFolder)
    }

    /// Opens the dialog on the recent pictures (File ▸ Open Recent), newest first.
    public func promptOpenRecent() {
        openFileDialog(.open, folder: startingFolder)
        fileDialog?.showRecent()
        requestThumbnails()
    }

    /// Opens the dialog for a background picture (its field also takes `#rrggbb` or
    /// `transparent`).
    public func promptBackground() {
        openFileDialog(.background, folder: startingFolder)
    }

    /// Where the dialog starts: the document's folder, for an untitled one the folder last used,
    /// else Pictures, else the current folder.
    var startingFolder: String {
        let candidates = [path.map(FileSystem.parentFolder), lastFolder, userFolders.pictures]
        return candidates.compactMap { $0 }.first { FileSystem.kind($0) == .folder } ?? FileSystem.currentFolder
    }

    func openFileDialog(
        _ purpose: FileDialog.Purpose, folder: String, name: String = "", format: ImageFormat = .png,
        withHistory: Bool = false
    ) {
        commitStroke()
        colorEditor = nil
        closeFontChooser(accepting: true)
        let recent = loadRecentPictures()
        fileDialog = FileDialog(
            purpose: purpose, folder: folder, name: name, format: format, withHistory: withHistory,
            places: FileDialog.places(
                user: userFolders, documentFolder: path.map(FileSystem.parentFolder), recent: recent),
            recent: recent, windowWidth: layout.windowWidth, windowHeight: layout.windowHeight, scale: layout.ui)
        preedit = nil
        effects.editor = true
        requestThumbnails()
    }

    /// Where the dialog sits: centred in the window.
    public var fileDialogFrame: IntRect {
        guard let dialog = fileDialog else { return IntRect(x: 0, y: 0, width: 0, height: 0) }
        return FileDialog.frame(windowWidth: layout.windowWidth, windowHeight: layout.windowHeight, scale: dialog.scale)
    }

    /// The dialog drawn (its path bar laid out for `measure` first); its field is kept, in window
    /// coordinates, for clicks and the input method.
    func renderFileDialog(measure: TextMeasuring) -> ChromeStrip? {
        guard var dialog = fileDialog else { return nil }
        dialog.layOutPath(measure: measure)
        fileDialog = dialog
        let side = dialog.iconSide
        let (strip, field) = dialog.render(measure: measure, preedit: preedit, now: FileFacts.now) { path in
            thumbnails[path].flatMap { $0.side == side ? $0.image : nil }
        }
        let frame = fileDialogFrame
        fileDialogField = field.moved(byX: frame.x, y: frame.y)
        return strip
    }

    // MARK: Input

    func keyFileDialog(_ key: Key, _ modifiers: Modifiers) {
        guard var dialog = fileDialog else { return }
        if key == .character("v") && modifiers == .control { return requestTextPaste() }
        preedit = nil
        let action = dialog.key(key, modifiers)
        update(dialog, then: action)
    }

    /// A press in the dialog at window position (x, y): the field places its cursor, the rest is
    /// the dialog's.
    func pressFileDialog(_ x: Int, _ y: Int, _ button: PointerButton, _ modifiers: Modifiers) {
        guard var dialog = fileDialog else { return }
        if button == .left, let view = fileDialogField, view.frame.contains(x, y) {
            preedit = nil
            dialog.field.moveCursor(to: view.index(atX: x), extending: modifiers.contains(.shift))
            dialog.listActive = false
            return update(dialog, then: nil)
        }
        let frame = fileDialogFrame
        let action = dialog.press(x: x - frame.x, y: y - frame.y, button: button)
        if dialog.isDragging { gesture = .editor }
        update(dialog, then: action)
    }

    /// A double click in the dialog: a row opens, a word of the field is selected.
    func doubleClickFileDialog(_ x: Int, _ y: Int) {
        guard var dialog = fileDialog else { return }
        if let view = fileDialogField, view.frame.contains(x, y) {
            dialog.field.selectWord(at: view.stops.last { $0.x <= x }?.index ?? 0)
            return update(dialog, then: nil)
        }
        let frame = fileDialogFrame
        let action = dialog.doubleClick(x: x - frame.x, y: y - frame.y)
        update(dialog, then: action)
    }

    /// The pointer over the dialog: what it is over is lit; with the scrollbar's thumb held, the
    /// list follows.
    func hoverFileDialog(_ x: Int, _ y: Int) {
        guard var dialog = fileDialog else { return }
        let frame = fileDialogFrame
        if dialog.isDragging {
            dialog.drag(y: y - frame.y)
            return update(dialog, then: nil)
        }
        if dialog.hover(x: x - frame.x, y: y - frame.y) {
            fileDialog = dialog
            effects.editor = true
        }
    }

    func releaseFileDialog() {
        fileDialog?.release()
        effects.editor = true
    }

    /// Keeps the dialog's new state, asks for the thumbnails now in view, and carries out what
    /// it asked.
    private func update(_ dialog: FileDialog, then action: FileDialog.Action?) {
        fileDialog = dialog
        effects.editor = true
        requestThumbnails()
        if let action { carryOut(action) }
    }

    /// What the dialog chose: a picture is opened (or used as the background) and a name saved
    /// under, the dialog closing first; a file that cannot be used keeps the dialog open and
    /// says why in it.
    func carryOut(_ action: FileDialog.Action) {
        guard let dialog = fileDialog else { return }
        switch action {
        case .cancel:
            closeFileDialog()
            switch dialog.purpose {
            case .open: setMessage("Open cancelled")
            case .save(let then):
                giveUpLeaving(then)
                setMessage("Save cancelled")
            case .background: setMessage("Background unchanged")
            }
        case .open(let target) where dialog.purpose == .background:
            // A picture is decoded off the window's thread, as a paste is (Escape stops it); a
            // file whose header is no picture's fails at once, and the dialog says why.
            if PictureHeader.read(path: target) != nil {
                closeFileDialog()
                return startPaste(.background(target))
            }
            do {
                let image = try ImageFile.load(path: target)
                closeFileDialog()
                setBackground(picture: image, from: target)
            } catch {
                fileDialog?.report(error.description)
            }
        case .open(let target):
            switch loadToOpen(target) {
            case .success(let loaded):
                closeFileDialog()
                pendingOpen = loaded
                requestLeave(to: .open(target))
            case .failure(let error):
                fileDialog?.report(error.description)
            }
        case .backgroundText(let text):
            closeFileDialog()
            setBackground(fromText: text, aside: true)
        case .save(let target, let format):
            closeFileDialog()
            guard case .save(let then) = dialog.purpose else { return }
            historyInsideNextSave = dialog.withHistory
            // A name without an extension takes the format chosen; a name's own extension is
            // the format (one SwiftPaint does not write is asked about, as before).
            if ImageFormat.naming(of: target) == .none {
                commitSaveName(target + "." + format.fileExtension, then: then)
            } else {
                commitSaveName(target, then: then)
            }
        }
    }

    func closeFileDialog() {
        fileDialog = nil
        fileDialogField = nil
        if case .editor = gesture { gesture = .idle }
        preedit = nil
        effects.editor = true
        thumbnailer?.request([], side: 0)
    }

    // MARK: Thumbnails

    /// Asks the loader for the thumbnails of the pictures in view that it has not made yet.
    func requestThumbnails() {
        guard makesThumbnails, let dialog = fileDialog else { return }
        // Each picture in view once at this size (again after the scale changed).
        let wanted = dialog.visibleRange.map { dialog.rows[$0] }.filter { row in
            !row.isFolder && thumbnails[row.path]?.side != dialog.iconSide
        }
        if !wanted.isEmpty && thumbnailer == nil { thumbnailer = ThumbnailLoader() }
        thumbnailer?.request(wanted.map(\.path), side: dialog.iconSide)
    }

    // MARK: Recent pictures

    /// Keeps the recent pictures in `store` (the program's list; without one, none are kept) and
    /// reads it; returns what was wrong with the file, for the status bar.
    public func useRecentFiles(_ store: RecentFiles) -> String? {
        recentFiles = store
        let (paths, problem) = store.load()
        recentPictures = paths
        return problem
    }

    /// The recent pictures as the list now holds them (another window may have added some).
    func loadRecentPictures() -> [String] {
        if let store = recentFiles {
            // What this window added and is still being written (a slow disk) comes first.
            let unwritten = recentWriting?.unwritten ?? []
            let written = store.load().paths.filter { !unwritten.contains($0) }
            recentPictures = Array((unwritten + written).prefix(RecentFiles.capacity))
        }
        return recentPictures
    }

    /// `picture` (absolute) was opened or saved: first in the list of recent pictures.
    public func rememberRecent(_ picture: String) {
        recentPictures = [picture] + recentPictures.filter { $0 != picture }.prefix(RecentFiles.capacity - 1)
        // The file (synced) on a thread of its own: never in the way.
        guard let store = recentFiles else { return }
        recentWriting = RecentWriting(adding: picture, to: store, after: recentWriting)
    }

    /// Waits until the recent list is written (on the way out; tests).
    public func waitForRecentList() {
        recentWriting?.wait()
    }

    /// The recent pictures that still exist, newest first: what the menu's "Open Recent" lists.
    public var recentPicturesToShow: [String] {
        loadRecentPictures().filter { FileSystem.kind($0) == .file }
    }

    /// Opens a recent picture (as Open does: read first, then asked about unsaved changes).
    public func openRecent(_ picture: String) {
        commitStroke()
        open(picture)
    }
}

extension TextFieldView {
    /// The same field drawn `dx`, `dy` further (a panel's field in window coordinates).
    func moved(byX dx: Int, y dy: Int) -> TextFieldView {
        TextFieldView(
            frame: IntRect(x: frame.x + dx, y: frame.y + dy, width: frame.width, height: frame.height),
            stops: stops.map { Stop(x: $0.x + dx, index: $0.index) },
            cursor: IntRect(x: cursor.x + dx, y: cursor.y + dy, width: cursor.width, height: cursor.height))
    }
}

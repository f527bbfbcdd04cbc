import PaintCore
import PaintIO

/// The file dialog in the window (Open, Save as, the background picture): a folder's sub-folders
/// and pictures with their size, dimensions (from each file's header, read only for the rows in
/// view) and date, places on the left (home, desktop, pictures, the document's folder, recent
/// pictures and their folders), a name field, and for Save as the format.
///
/// It works as the dialogs people know: Up and Down (Page Up / Down) move through the list,
/// Enter opens the folder or picture chosen, Backspace in an empty field (or Alt+Up) goes to the
/// parent folder, typing filters the list (Open) or names the file (Save as), Tab completes,
/// Ctrl+H shows hidden files, Escape cancels; a click selects, a double click opens, the wheel
/// and the scrollbar scroll. A path typed into the field (`~/shots/a.png`, `/tmp/b.jpg`) and
/// Enter goes straight there. A value type the session drives, like `SizeDialog`; coordinates
/// are local to its panel.
public struct FileDialog: Equatable {
    /// What the dialog is for.
    public enum Purpose: Equatable, Sendable {
        /// A picture to open (Ctrl+O).
        case open
        /// A name to save under; `then` is where the user goes after the save (leaving an untitled
        /// document).
        case save(then: Leaving?)
        /// A picture for the background, or a color typed (Ctrl+B).
        case background

        var title: String {
            switch self {
            case .open: "Open a picture"
            case .save: "Save as"
            case .background: "Background picture"
            }
        }
        var acceptLabel: String {
            switch self {
            case .open: "Open"
            case .save: "Save"
            case .background: "Use"
            }
        }
        var isSave: Bool {
            if case .save = self { return true }
            return false
        }
    }

    /// What a key or click asks of the session.
    public enum Action: Equatable, Sendable {
        /// Open this picture (absolute path); for the background, use it.
        case open(String)
        /// Save to this name (absolute; its extension may be one SwiftPaint does not write) in
        /// this format.
        case save(String, ImageFormat)
        /// The background field's text that is not a file: a color or "transparent".
        case backgroundText(String)
        case cancel
    }

    /// Where the scrollbar's thumb was grabbed: the pointer's y and the first row then.
    struct ThumbDrag: Equatable {
        let y: Int
        let top: Int
    }

    /// One sub-folder or picture in the list.
    public struct Row: Equatable, Sendable {
        public var name: String
        /// Absolute.
        public var path: String
        public var isFolder: Bool
        /// Bytes (pictures).
        public var size: Int
        /// Seconds since 1970.
        public var modified: Int
        /// In the recent pictures: the folder it is in, shown after the name.
        public var folderNote: String?
    }

    public let purpose: Purpose
    /// How large it is drawn.
    public let scale: UIScale
    /// The panel's size (it fits the window).
    public internal(set) var width: Int
    public internal(set) var height: Int
    /// The folder shown (absolute); while the recent pictures are shown, the folder to go back to.
    public internal(set) var folder: String
    /// Whether the list shows the recent pictures instead of a folder.
    public internal(set) var showsRecent = false
    /// Every row of the folder, folders first, then by name (numbers by value: 2 before 10).
    public internal(set) var allRows: [Row] = []
    /// The rows the filter lets through, in that order.
    public internal(set) var rows: [Row] = []
    /// The chosen row (an index into `rows`).
    public internal(set) var selected: Int?
    /// The first row shown.
    public internal(set) var top = 0
    /// The name field: the file name (Save as), or what filters the list and may be a path.
    public internal(set) var field: TextField
    /// The format chosen (Save as).
    public internal(set) var format: ImageFormat
    /// Save as: "Save with history" ticked, the file carries its editing history inside.
    public internal(set) var withHistory = false
    /// The width of that box's label as last laid out (`layOutPath`).
    var historyLabelWidth = 0
    /// The places on the left.
    public internal(set) var places: [Place]
    /// A sentence under the list: why a folder cannot be shown, completions, a hint.
    public internal(set) var note: String?
    /// Whether `note` reports a problem (drawn in the error color).
    public internal(set) var noteIsProblem = false
    /// Hidden files (a leading `.`) are listed.
    public internal(set) var showsHidden = false
    /// What the pointer is over.
    public internal(set) var hovered: Target?
    /// The list was used last (arrows, a click) rather than the field: Enter then acts on the
    /// chosen row, not on the name typed.
    var listActive = false
    /// Pictures' headers read so far (a path missing here has not been read).
    var headers: [String: PictureHeader?] = [:]
    /// The scrollbar's thumb held: the pointer y at the press and the first row then.
    var thumbDrag: ThumbDrag?
    /// The path bar as last laid out (`layOutPath`), and whether folders at its start were left
    /// out.
    public internal(set) var crumbs: [Crumb] = []
    var crumbsStartCut = false
    /// The recent pictures (absolute paths, newest first).
    let recent: [String]
    /// The name Save as offered, for going back to after a folder name was typed.
    let suggestedName: String

    /// A dialog for `purpose` in a window of `windowWidth` x `windowHeight`, showing `folder`
    /// (`name` in the field for Save as, its extension choosing the format, else `format`).
    public init(
        purpose: Purpose, folder: String, name: String = "", format: ImageFormat = .png, withHistory: Bool = false,
        places: [Place], recent: [String], windowWidth: Int, windowHeight: Int, scale: UIScale = .one
    ) {
        self.purpose = purpose
        self.withHistory = withHistory && purpose.isSave
        self.scale = scale
        self.places = places
        self.recent = recent
        (width, height) = Self.size(windowWidth: windowWidth, windowHeight: windowHeight, scale: scale)
        self.folder = Self.normalized(folder)
        suggestedName = name
        field = TextField(purpose.isSave ? name : "")
        if case .known(let named) = ImageFormat.naming(of: name), named.canSave {
            self.format = named
        } else {
            self.format = format.canSave ? format : .png
        }
        if purpose.isSave { field.selectStem() }
        if !go(to: self.folder) { rows = [] }
    }

    // MARK: Folders

    /// Shows `path` (absolute); `select` names the row to choose (the folder just left, going
    /// up). False, with the reason in `note`, when it cannot be listed (the dialog stays where it
    /// was).
    @discardableResult
    mutating func go(to path: String, select: String? = nil) -> Bool {
        let target = Self.normalized(path)
        switch FolderListing.read(target, hidden: showsHidden) {
        case .failure(let error):
            setNote(error.description, problem: true)
            return false
        case .success(let listing):
            folder = target
            showsRecent = false
            allRows = listing.entries.map {
                Row(
                    name: $0.name, path: Self.join(target, $0.name), isFolder: $0.isFolder, size: $0.size,
                    modified: $0.modified)
            }
            .sorted(by: Self.listOrder)
            if !purpose.isSave { field = TextField("") }
            listActive = false
            applyFilter(choosing: select)
            var notes: [String] = []
            if listing.leftOut > 0 {
                notes.append("\(listing.leftOut) more entries are not listed; type a name to open one")
            }
            // Hidden silently, a name not UTF-8 made the summary count one picture less than the
            // file manager shows, with no word why.
            switch listing.namesNotUTF8 {
            case 0: break
            case 1:
                notes.append("1 name here is not valid UTF-8 and is not shown: rename it (convmv -f latin1 -t utf-8)")
            case let n: notes.append("\(n) names here are not valid UTF-8 and are not shown: rename them (convmv)")
            }
            setNote(notes.isEmpty ? nil : notes.joined(separator: "; "), problem: false)
            return true
        }
    }

    /// Shows the recent pictures that still exist.
    mutating func showRecent() {
        showsRecent = true
        allRows = recent.compactMap { path in
            guard let entry = FolderListing.entry(at: path), !entry.isFolder else { return nil }
            return Row(
                name: entry.name, path: path, isFolder: false, size: entry.size, modified: entry.modified,
                folderNote: PathDisplay.abbreviatingHome(FileSystem.parentFolder(path)))
        }
        if !purpose.isSave { field = TextField("") }
        listActive = false
        applyFilter(choosing: nil)
        setNote(allRows.isEmpty ? "No recent pictures yet: pictures you open or save appear here" : nil)
    }

    /// Goes to the folder above, choosing the one it came from.
    mutating func goUp() {
        if showsRecent {
            go(to: folder)
            return
        }
        guard folder != "/" else { return }
        go(to: FileSystem.parentFolder(folder), select: FileSystem.lastComponent(folder))
    }

    /// Lists hidden files too, or no longer.
    mutating func toggleHidden() {
        showsHidden.toggle()
        let chosen = selected.map { rows[$0].name }
        if !showsRecent { go(to: folder, select: chosen) }
        setNote(showsHidden ? "Hidden files are shown (Ctrl+H hides them)" : "Hidden files are hidden", problem: false)
    }

    // MARK: Filtering and choosing

    /// The text that filters the list: the field's, unless it is a path or the dialog saves.
    var filter: String {
        guard !purpose.isSave else { return "" }
        let text = field.text.trimmingSpaces
        return Self.isPath(text) ? "" : text
    }

    /// Whether typed text names a path rather than a name in the folder shown.
    static func isPath(_ text: String) -> Bool { text.contains("/") || text.hasPrefix("~") }

    /// Keeps the rows whose names contain the filter (any case) and chooses `name`, or the best
    /// match: a name that starts with what was typed.
    mutating func applyFilter(choosing name: String?) {
        let typed = filter.lowercased()
        rows = typed.isEmpty ? allRows : allRows.filter { $0.name.lowercased().contains(typed) }
        top = 0
        hovered = nil
        if let name, let i = rows.firstIndex(where: { $0.name == name }) {
            selected = i
        } else if !typed.isEmpty, !rows.isEmpty {
            selected = rows.firstIndex { $0.name.lowercased().hasPrefix(typed) } ?? 0
        } else {
            selected = nil
        }
        if let selected { scrollIntoView(selected) }
        readVisibleHeaders()
    }

    /// Chooses row `index` (clamped); for Save as, a picture's name goes into the field.
    mutating func choose(_ index: Int) {
        guard !rows.isEmpty else { return }
        let i = min(max(index, 0), rows.count - 1)
        selected = i
        listActive = true
        scrollIntoView(i)
        if purpose.isSave && !rows[i].isFolder {
            field = TextField(rows[i].name)
            followExtension()
            field.selectStem()
        }
        readVisibleHeaders()
    }

    mutating func scrollIntoView(_ row: Int) {
        if row < top { top = row }
        if row >= top + visibleRows { top = row - visibleRows + 1 }
        top = min(max(top, 0), max(0, rows.count - visibleRows))
    }

    /// Scrolls by `rows` (negative: up).
    mutating func scroll(by count: Int) {
        top = min(max(top + count, 0), max(0, rows.count - visibleRows))
        readVisibleHeaders()
    }

    /// The header of a picture row, once read (nil for a folder, or a file that says no size).
    public func header(of row: Row) -> PictureHeader? { headers[row.path] ?? nil }

    /// Reads the headers of the pictures in view that were not read yet: a few small reads each
    /// (`PictureHeader`), at most one screenful of files per change.
    mutating func readVisibleHeaders() {
        for row in visibleRange.map({ rows[$0] }) where !row.isFolder && headers[row.path] == nil {
            headers[row.path] = .some(PictureHeader.read(path: row.path))
        }
    }

    /// The rows in view.
    var visibleRange: Range<Int> { top..<min(rows.count, top + visibleRows) }

    // MARK: Save as: the format

    /// Chooses `new` as the format: a name ending in a picture extension gets the new one, a
    /// name without one gets it added.
    mutating func setFormat(_ new: ImageFormat) {
        guard new.canSave else { return }
        format = new
        var name = field.text
        if case .known = ImageFormat.naming(of: name), let dot = name.lastIndex(of: ".") { name = String(name[..<dot]) }
        guard !name.trimmingSpaces.isEmpty else { return }
        field = TextField(name + "." + new.fileExtension)
        field.selectStem()
    }

    /// Ticks or clears "Save with history" (a click on it, Alt+H).
    mutating func toggleHistory() {
        guard purpose.isSave else { return }
        withHistory.toggle()
    }

    /// After an edit of Save as's name: an extension typed just before the one the name kept
    /// replaces it, then the format follows the name. Typing `annot.webp` over the selected stem
    /// of `photo.jpg` gives `annot.webp.jpg`, which saved a JPEG under that name; the person
    /// named a WebP (Windows' save dialog reads it so too). An extension SwiftPaint does not
    /// know (`annot.xyz`) keeps the one after it: that is a name, saved in the format shown.
    mutating func nameEdited() {
        let text = field.text
        let split = text.index(text.startIndex, offsetBy: min(field.cursor, text.count))
        let typed = String(text[..<split])
        let kept = text[split...]
        if field.selection == nil, kept.first == ".", !kept.dropFirst().contains("."), !kept.contains("/"),
            case .known = ImageFormat.naming(of: "x" + kept), case .known = ImageFormat.naming(of: typed)
        {
            field = TextField(typed)
        }
        followExtension()
    }

    /// The format follows an extension typed into the name.
    mutating func followExtension() {
        if case .known(let named) = ImageFormat.naming(of: field.text), named.canSave { format = named }
    }

    // MARK: Accepting

    /// What Enter (or the accept button) does now: enters a folder, or gives the session a file
    /// to open or a name to save under.
    mutating func accept() -> Action? {
        let text = field.text.trimmingSpaces
        let chosen = selected.flatMap { rows.indices.contains($0) ? $0 : nil }
        if purpose.isSave {
            // A folder chosen in the list is entered; a picture chosen put its name in the field.
            if listActive, let i = chosen, rows[i].isFolder { return activate(i) }
        } else if case .background = purpose, Self.isBackgroundWord(text) {
            return .backgroundText(text)
        } else if !Self.isPath(text), let i = chosen {
            // What the filter chose ("be" + Enter opens beach.png), or the row chosen.
            return activate(i)
        }
        guard !text.isEmpty else {
            setNote(
                purpose.isSave ? "Type a name for the picture" : "Choose a picture, or type its name", problem: true)
            return nil
        }
        let path = resolve(text)
        if FileSystem.kind(path) == .folder {
            if go(to: path), purpose.isSave { restoreName() }
            return nil
        }
        return purpose.isSave ? .save(path, format) : .open(path)
    }

    /// Acts on row `index`: a folder is entered, a picture opened (or, for Save as, saved over,
    /// which the session asks about first).
    mutating func activate(_ index: Int) -> Action? {
        let row = rows[index]
        if row.isFolder {
            if go(to: row.path), purpose.isSave { restoreName() }
            return nil
        }
        if purpose.isSave {
            field = TextField(row.name)
            followExtension()
            return .save(row.path, format)
        }
        return .open(row.path)
    }

    /// After a folder name was typed into Save as: the name offered before.
    private mutating func restoreName() {
        var name = suggestedName
        if case .known = ImageFormat.naming(of: name), let dot = name.lastIndex(of: ".") { name = String(name[..<dot]) }
        field = TextField(name.isEmpty ? "" : name + "." + format.fileExtension)
        field.selectStem()
    }

    /// Typed text as an absolute path: `~` is home, a relative name is in the folder shown.
    func resolve(_ text: String) -> String {
        let expanded = PathDisplay.expandingTilde(text)
        return Self.normalized(expanded.hasPrefix("/") ? expanded : Self.join(folder, expanded))
    }

    /// The background field's words that are not file names.
    static func isBackgroundWord(_ text: String) -> Bool {
        ["transparent", "none", "white", "black"].contains(text.lowercased()) || Color(hex: text) != nil
    }

    // MARK: Completion

    /// Tab: completes the name typed from the folder's entries (a path from the folder it names)
    /// to what all matches share; one folder matching is entered. Returns the matches when
    /// several remain (shown under the list).
    mutating func complete() -> [String] {
        let text = field.text
        if Self.isPath(text) {
            var completing = field
            let matches = completing.complete(relativeTo: folder)
            field = completing
            if matches.isEmpty, field.text.hasSuffix("/"), FileSystem.kind(resolve(field.text)) == .folder {
                enterTypedFolder()
            }
            return matches
        }
        let typed = text.lowercased()
        let matches = allRows.filter { $0.name.lowercased().hasPrefix(typed) }
        guard let first = matches.first else { return [] }
        if matches.count == 1 {
            if first.isFolder {
                if go(to: first.path), purpose.isSave { restoreName() }
                return []
            }
            field = TextField(first.name)
        } else {
            // What every match shares, in the first one's spelling.
            var common = Array(first.name)
            for other in matches.dropFirst().map({ Array($0.name.lowercased()) }) {
                var n = 0
                while n < min(common.count, other.count), Character(common[n].lowercased()) == other[n] { n += 1 }
                common = Array(common[..<n])
            }
            if common.count > text.count { field = TextField(String(common)) }
        }
        followExtension()
        if !purpose.isSave { applyFilter(choosing: matches.count == 1 ? first.name : nil) }
        return matches.count > 1 ? matches.map(\.name) : []
    }

    /// The field names a folder (with a trailing `/`): go there, the field cleared (or, for
    /// Save as, the name offered).
    private mutating func enterTypedFolder() {
        if go(to: resolve(field.text)) {
            if purpose.isSave { restoreName() } else { field = TextField("") }
        }
    }

    // MARK: Notes

    mutating func setNote(_ text: String?, problem: Bool = false) {
        note = text
        noteIsProblem = text != nil && problem
    }

    /// Says why the file chosen could not be used; the dialog stays open.
    public mutating func report(_ problem: String) { setNote(problem, problem: true) }

    // MARK: Paths

    /// `folder/name` without a doubled slash.
    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// An absolute path without `.`, `..`, doubled or trailing slashes (links are not resolved:
    /// `..` goes back the way the user came, as in a file manager).
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                _ = parts.popLast()
            } else {
                parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Folders before files; names in the order people read them: any case, numbers by value.
    static func listOrder(_ a: Row, _ b: Row) -> Bool {
        if a.isFolder != b.isFolder { return a.isFolder }
        return naturalLess(a.name, b.name)
    }

    /// `img2` before `img10`, `Beach` next to `beach`: runs of digits compare by value, the
    /// rest by character, ignoring case.
    static func naturalLess(_ a: String, _ b: String) -> Bool {
        let x = Array(a.lowercased().unicodeScalars)
        let y = Array(b.lowercased().unicodeScalars)
        func isDigit(_ c: Unicode.Scalar) -> Bool { ("0"..."9").contains(c) }
        var i = 0
        var j = 0
        while i < x.count && j < y.count {
            if isDigit(x[i]) && isDigit(y[j]) {
                var i2 = i
                var j2 = j
                while i2 < x.count && isDigit(x[i2]) { i2 += 1 }
                while j2 < y.count && isDigit(y[j2]) { j2 += 1 }
                // Leading zeros aside, the longer run is the larger number.
                let m = x[i..<i2].drop { $0 == "0" }
                let n = y[j..<j2].drop { $0 == "0" }
                if m.count != n.count { return m.count < n.count }
                if let k = zip(m, n).first(where: { $0 != $1 }) { return k.0.value < k.1.value }
                i = i2
                j = j2
                continue
            }
            if x[i] != y[j] { return x[i].value < y[j].value }
            i += 1
            j += 1
        }
        if (i < x.count) != (j < y.count) { return j < y.count }
        return a < b
    }
}

extension TextField {
    /// Selects a file name's stem (`untitled` of `untitled.png`), so typing renames it and keeps
    /// the extension, as desktop save dialogs do.
    mutating func selectStem() {
        let name = text
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else {
            selectAll()
            return
        }
        anchor = 0
        cursor = name.distance(from: name.startIndex, to: dot)
    }
}

import PaintCore
import PaintIO

/// The dialog's geometry, designed at 96 dpi and scaled; panel coordinates.
extension FileDialog {
    /// What is at a point of the panel (hovered, or pressed).
    public enum Target: Equatable, Sendable {
        case place(Int)
        /// A folder of the path bar (an index into `crumbs`).
        case crumb(Int)
        case up
        case row(Int)
        case scrollbar
        case format(ImageFormat)
        case accept, cancel, transparent
        /// Save as: "Save with history".
        case history
        case field
    }

    /// One folder of the path bar, as laid out for the text's width.
    public struct Crumb: Equatable, Sendable {
        public var title: String
        public var path: String
        public var rect: IntRect
    }

    /// The panel's size in a window of this size: the design size, smaller in a small window,
    /// never smaller than fits the controls: the buttons' row, and two rows of the list. A
    /// window smaller than the 640 x 480 the program asks for (no window manager holds it
    /// there) keeps the whole panel inside it down to about 400 x 290 (two rows of the list); the panel's least size
    /// was 480 x 360, so at 420 x 320 its buttons were out of the window.
    static func size(windowWidth: Int, windowHeight: Int, scale s: UIScale) -> (width: Int, height: Int) {
        let margin = s.px(12)
        let width = max(min(s.px(860), windowWidth - 2 * margin), s.px(376))
        let height = max(min(s.px(580), windowHeight - 2 * margin), s.px(284))
        return (width, height)
    }

    /// Whether the places show on the left: not in a panel too narrow for them beside a list
    /// whose names can still be read (the path bar, the folder above and a typed path still go
    /// anywhere).
    var showsPlaces: Bool { width >= s.px(560) }

    /// Where the panel sits in a window of that size: centred.
    public static func frame(windowWidth: Int, windowHeight: Int, scale: UIScale) -> IntRect {
        let (w, h) = size(windowWidth: windowWidth, windowHeight: windowHeight, scale: scale)
        return IntRect(x: max(0, (windowWidth - w) / 2), y: max(0, (windowHeight - h) / 2), width: w, height: h)
    }

    /// The window changed size: the panel follows.
    mutating func resize(windowWidth: Int, windowHeight: Int) {
        (width, height) = Self.size(windowWidth: windowWidth, windowHeight: windowHeight, scale: scale)
        crumbs = []
        if let selected { scrollIntoView(selected) }
        top = min(top, max(0, rows.count - visibleRows))
        readVisibleHeaders()
    }

    private var s: UIScale { scale }
    var pad: Int { s.px(16) }
    var titleBaseline: Int { s.px(28) }

    /// The button that goes to the parent folder, left of the path bar.
    var upButton: IntRect { IntRect(x: pad, y: s.px(44), width: s.px(32), height: s.px(28)) }
    /// Where the path's folders are laid out.
    var pathBar: IntRect {
        let x = upButton.maxX + s.px(8)
        return IntRect(x: x, y: upButton.y, width: width - pad - x, height: upButton.height)
    }

    /// The top of the places and the list.
    var bodyTop: Int { s.px(84) }
    /// The top of the name field's row.
    var footerTop: Int { height - s.px(92) }

    var sidebar: IntRect {
        IntRect(x: pad, y: bodyTop, width: showsPlaces ? s.px(172) : 0, height: footerTop - s.px(12) - bodyTop)
    }

    /// The list with its column headings.
    var list: IntRect {
        let x = showsPlaces ? sidebar.maxX + s.px(12) : pad
        return IntRect(x: x, y: bodyTop, width: width - pad - x, height: sidebar.height)
    }
    var headingHeight: Int { s.px(26) }
    public var rowHeight: Int { s.px(34) }
    /// The rows' area, inside the list's border.
    var rowsArea: IntRect {
        IntRect(
            x: list.x + 1, y: list.y + headingHeight, width: list.width - 2, height: list.height - headingHeight - 1)
    }
    /// Rows the list shows at once.
    public var visibleRows: Int { max(1, rowsArea.height / rowHeight) }
    /// The side of a row's icon or thumbnail.
    public var iconSide: Int { s.px(28) }

    /// The list's scrollbar, when the rows do not fit (offset and lengths in rows).
    public var scrollbar: Scrollbar? {
        guard rows.count > visibleRows else { return nil }
        let w = s.px(12)
        return Scrollbar(
            axis: .vertical,
            track: IntRect(x: rowsArea.maxX - w, y: rowsArea.y, width: w, height: visibleRows * rowHeight),
            content: rows.count, viewport: visibleRows, offset: top, minimumThumb: s.px(24))
    }

    /// Row `index` of `rows` (when in view).
    public func rowRect(_ index: Int) -> IntRect {
        let width = rowsArea.width - (scrollbar == nil ? 0 : s.px(12))
        return IntRect(x: rowsArea.x, y: rowsArea.y + (index - top) * rowHeight, width: width, height: rowHeight)
    }

    /// The columns right of the name: size, dimensions and date, each where there is room.
    var columns: (size: IntRect?, dimensions: IntRect, modified: IntRect?) {
        let area = rowRect(top)
        let right = area.maxX - s.px(10)
        let modifiedWidth = s.px(112)
        let dimensionsWidth = s.px(112)
        let sizeWidth = s.px(80)
        // The name keeps at least 220 px: the date goes first, then the size.
        let roomy = area.width - s.px(220 + 36) >= sizeWidth + dimensionsWidth + modifiedWidth
        let sizable = area.width - s.px(220 + 36) >= sizeWidth + dimensionsWidth
        let modified = roomy ? IntRect(x: right - modifiedWidth, y: 0, width: modifiedWidth, height: 0) : nil
        let dimensionsRight = modified?.x ?? right
        let dimensions = IntRect(x: dimensionsRight - dimensionsWidth, y: 0, width: dimensionsWidth, height: 0)
        let size = sizable ? IntRect(x: dimensions.x - sizeWidth, y: 0, width: sizeWidth, height: 0) : nil
        return (size, dimensions, modified)
    }

    /// Place `index` on the left (a heading above it takes room too).
    public func placeRect(_ index: Int) -> IntRect {
        var y = sidebar.y + s.px(4)
        for i in 0..<index {
            if places[i].heading != nil { y += s.px(26) }
            y += s.px(30)
        }
        if places[index].heading != nil { y += s.px(26) }
        return IntRect(x: sidebar.x, y: y, width: sidebar.width, height: s.px(30))
    }

    /// The name field's label and box.
    var fieldLabel: String {
        switch purpose {
        case .open: "File name:"
        case .save: "Name:"
        case .background: "Picture or color:"
        }
    }
    func fieldBox(labelWidth: Int) -> IntRect {
        let x = pad + labelWidth + s.px(10)
        let right = purpose.isSave ? formatButton(.png).x - s.px(16) : width - pad
        return IntRect(x: x, y: footerTop + s.px(4), width: right - x, height: s.px(28))
    }

    /// The format buttons of Save as, right of the name.
    public func formatButton(_ format: ImageFormat) -> IntRect {
        let formats = Self.savedFormats
        let w = s.px(60)
        let index = formats.firstIndex(of: format) ?? 0
        let x = width - pad - w * (formats.count - index)
        return IntRect(x: x, y: footerTop + s.px(4), width: w, height: s.px(28))
    }
    static let savedFormats: [ImageFormat] = [.png, .jpeg, .webp]

    public var acceptButton: IntRect {
        IntRect(x: width - pad - s.px(96), y: height - pad - s.px(30), width: s.px(96), height: s.px(30))
    }
    public var cancelButton: IntRect {
        IntRect(x: acceptButton.x - s.px(104), y: acceptButton.y, width: s.px(96), height: acceptButton.height)
    }
    /// Background only: no picture, a transparent background.
    var transparentButton: IntRect {
        IntRect(x: cancelButton.x - s.px(128), y: acceptButton.y, width: s.px(120), height: acceptButton.height)
    }
    /// Save as: the "Save with history" box and its label, left on the buttons' row.
    public var historyBox: IntRect {
        let h = s.px(20)
        return IntRect(
            x: pad, y: acceptButton.y + (acceptButton.height - h) / 2, width: s.px(22) + historyLabelWidth, height: h)
    }
    static let historyLabel = "Save with history"

    /// The note's baseline, left of the buttons.
    var noteBaseline: Int { acceptButton.y + s.px(20) }

    /// What is at panel position (x, y).
    func target(atX x: Int, y: Int) -> Target? {
        if upButton.contains(x, y) { return .up }
        if let i = crumbs.firstIndex(where: { $0.rect.contains(x, y) }) { return .crumb(i) }
        if sidebar.contains(x, y) {
            return places.indices.first { placeRect($0).contains(x, y) }.map { .place($0) }
        }
        if let bar = scrollbar, bar.track.contains(x, y) { return .scrollbar }
        if rowsArea.contains(x, y) {
            let index = top + (y - rowsArea.y) / rowHeight
            return rows.indices.contains(index) && index < top + visibleRows ? .row(index) : nil
        }
        if purpose.isSave, let format = Self.savedFormats.first(where: { formatButton($0).contains(x, y) }) {
            return .format(format)
        }
        if purpose.isSave && historyBox.contains(x, y) { return .history }
        if acceptButton.contains(x, y) { return .accept }
        if cancelButton.contains(x, y) { return .cancel }
        if purpose == .background && transparentButton.contains(x, y) { return .transparent }
        return nil
    }

    /// Lays the path bar out for `measure`: the folders from the top (the home folder as Home),
    /// the first ones dropped when they do not all fit.
    mutating func layOutPath(measure: TextMeasuring) {
        historyLabelWidth = measure.width(of: Self.historyLabel, bold: false)
        var parts: [(title: String, path: String)] = []
        if showsRecent {
            parts = [("Recent", "")]
        } else {
            let home = FileSystem.home
            var path = folder
            while true {
                let isHome = path == home && home != "/"
                parts.insert((isHome ? "Home" : path == "/" ? "Computer" : FileSystem.lastComponent(path), path), at: 0)
                if isHome || path == "/" { break }
                path = FileSystem.parentFolder(path)
            }
        }
        let bar = pathBar
        let gap = s.px(4)
        // Measured as drawn: the current one (Recent's too, whose path is "") is bold.
        let current = showsRecent ? "" : folder
        var widths = parts.map { measure.width(of: $0.title, bold: $0.path == current) + s.px(20) }
        // Drop folders from the front until the rest fits after the "…".
        let ellipsis = measure.width(of: "…", bold: false) + s.px(12)
        var first = 0
        func total(_ from: Int) -> Int { widths[from...].reduce(0) { $0 + $1 + gap } + (from > 0 ? ellipsis : 0) }
        while first < parts.count - 1 && total(first) > bar.width { first += 1 }
        widths[parts.count - 1] = min(widths[parts.count - 1], bar.width - (first > 0 ? ellipsis : 0))
        var x = bar.x + (first > 0 ? ellipsis : 0)
        crumbs = parts.indices.dropFirst(first).map { i in
            defer { x += widths[i] + gap }
            return Crumb(
                title: parts[i].title, path: parts[i].path,
                rect: IntRect(x: x, y: bar.y, width: widths[i], height: bar.height))
        }
        crumbsStartCut = first > 0
    }
}

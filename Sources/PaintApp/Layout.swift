import PaintCore

/// Something on the toolbar that the pointer can hit.
public enum ToolbarItem: Sendable, Equatable, Hashable {
    case tool(Tool)
    case swatch(Int)
    /// One of the last colors used (0 = most recent).
    case recent(Int)
    /// The primary/secondary color indicator; a click swaps them.
    case currentColors
    /// Shape style toggles: rectangles and ellipses filled, lines and arrows dashed.
    case filledToggle
    case dashedToggle
    /// Pen toggles: a tablet pen's pressure sets the width, the opacity.
    case pressureWidthToggle
    case pressureOpacityToggle
    case widthSlider
    case opacitySlider
    case undo
    case redo
    /// Sets the background (a color; Ctrl+B or a middle click asks for an image).
    case background
    case clear
    /// A blank canvas (Ctrl+N).
    case newDocument
    /// Open a picture (Ctrl+O).
    case open
    case save
    /// The font button (the text tool's; the width preview box of the other tools).
    case font
    /// "»": shows or hides the groups a narrow window has no room for (`ToolbarLayout`).
    case more
}

/// Where everything sits in the window, for a window size, an image size, a scroll offset, a
/// zoom and an interface scale.
///
/// Pure geometry: the window layer draws from it and the tests use it to aim the pointer.
/// From the top: the toolbar (one or more rows, `ToolbarLayout`), the canvas area with a
/// scrollbar along its bottom and right edges when the shown picture is larger than it, and
/// the status bar.
public struct Layout: Sendable, Equatable {
    /// Recent colors: two rows of four after the palette.
    static let recentCount = 8
    /// 96-dpi heights and widths.
    static let menuBarHeight = 26.0
    static let statusBarHeight = 28.0
    static let scrollbarThickness = 14.0

    public let windowWidth: Int
    public let windowHeight: Int
    public let imageWidth: Int
    public let imageHeight: Int
    /// Window pixels of the shown image scrolled out of view at the left and top (0 when the
    /// image fits).
    public let scrollX: Int
    public let scrollY: Int
    /// How large the image is shown (window pixels per image pixel).
    @inline(__always) public var zoom: Zoom { placement.zoom }
    /// How large the controls and text are drawn.
    public let ui: UIScale
    /// The toolbar's controls.
    public let controls: ToolbarLayout
    /// The area between toolbar and status bar where the image is shown (less the scrollbars).
    public let canvasArea: IntRect
    /// The scrollbars, when the shown picture is wider or taller than the canvas area.
    public let horizontalScrollbar: Scrollbar?
    public let verticalScrollbar: Scrollbar?
    /// Window position of image pixel (0, 0): centred when the shown image fits, else scrolled.
    /// Computed with the layout: every pointer event and every blit of the canvas asks.
    @inline(__always) public var imageOrigin: (x: Int, y: Int) { (placement.originX, placement.originY) }
    /// The part of the window showing image pixels (computed with the layout).
    @inline(__always) public var visibleImage: IntRect { placement.visibleImage }
    /// The zoom, the image origin and the visible part together (computed with the layout).
    public let placement: Placement

    /// Computes a layout; the zoom is clamped to the zoom range and the scroll offset to what
    /// the shown image's size allows.
    public init(
        windowWidth: Int, windowHeight: Int, imageWidth: Int, imageHeight: Int, scrollX: Int = 0, scrollY: Int = 0,
        zoom: Zoom = .actualSize, ui: UIScale = .one
    ) {
        let controls = ToolbarLayout(width: max(1, windowWidth), scale: ui, top: ui.px(Self.menuBarHeight))
        self.init(
            windowWidth: windowWidth, windowHeight: windowHeight, imageWidth: imageWidth, imageHeight: imageHeight,
            scrollX: scrollX, scrollY: scrollY, zoom: zoom, ui: ui, controls: controls)
    }

    /// A layout with its toolbar already laid out (scrolling and zooming keep it).
    private init(
        windowWidth: Int, windowHeight: Int, imageWidth: Int, imageHeight: Int, scrollX: Int, scrollY: Int,
        zoom: Zoom, ui: UIScale, controls: ToolbarLayout
    ) {
        self.windowWidth = max(1, windowWidth)
        self.windowHeight = max(1, windowHeight)
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        let zoom = zoom.clamped
        self.ui = ui
        self.controls = controls
        let top = controls.frame.maxY
        let bottom = self.windowHeight - ui.px(Self.statusBarHeight)
        let shown = Self.shown(imageWidth, imageHeight, zoom: zoom)
        // A scrollbar along an edge takes room from the other direction, which can make the
        // other bar necessary too.
        let thickness = ui.px(Self.scrollbarThickness)
        var width = self.windowWidth
        var height = max(0, bottom - top)
        var across = false
        var down = false
        for _ in 0..<2 {
            across = shown.width > width && height > thickness
            down = shown.height > height && width > thickness
            width = self.windowWidth - (down ? thickness : 0)
            height = max(0, bottom - top - (across ? thickness : 0))
        }
        let area = IntRect(x: 0, y: top, width: width, height: height)
        canvasArea = area
        self.scrollX = min(max(0, scrollX), max(0, shown.width - area.width))
        self.scrollY = min(max(0, scrollY), max(0, shown.height - area.height))
        let x = shown.width <= area.width ? (area.width - shown.width) / 2 : -self.scrollX
        let y = shown.height <= area.height ? area.y + (area.height - shown.height) / 2 : area.y - self.scrollY
        placement = Placement(
            zoom: zoom, originX: x, originY: y,
            visibleImage: IntRect(x: x, y: y, width: shown.width, height: shown.height).intersection(area))
        let minimumThumb = ui.px(20)
        horizontalScrollbar =
            across
            ? Scrollbar(
                axis: .horizontal, track: IntRect(x: area.x, y: area.maxY, width: area.width, height: thickness),
                content: shown.width, viewport: area.width, offset: self.scrollX, minimumThumb: minimumThumb) : nil
        verticalScrollbar =
            down
            ? Scrollbar(
                axis: .vertical, track: IntRect(x: area.maxX, y: area.y, width: thickness, height: area.height),
                content: shown.height, viewport: area.height, offset: self.scrollY, minimumThumb: minimumThumb) : nil
    }

    /// The same layout for a new window size, keeping the scroll offset where it still fits.
    public func resized(width: Int, height: Int) -> Layout {
        Layout(
            windowWidth: width, windowHeight: height, imageWidth: imageWidth, imageHeight: imageHeight,
            scrollX: scrollX, scrollY: scrollY, zoom: zoom, ui: ui,
            controls: width == windowWidth
                ? controls
                : ToolbarLayout(
                    width: max(1, width), scale: ui, top: ui.px(Self.menuBarHeight), expanded: controls.expanded))
    }

    /// The same layout with the toolbar's groups behind "»" shown or hidden (the canvas area
    /// gives or takes the row they need).
    public func withToolbar(expanded: Bool) -> Layout {
        Layout(
            windowWidth: windowWidth, windowHeight: windowHeight, imageWidth: imageWidth, imageHeight: imageHeight,
            scrollX: scrollX, scrollY: scrollY, zoom: zoom, ui: ui, controls: controls.with(expanded: expanded))
    }

    /// The same layout scrolled to a new offset (clamped).
    public func scrolled(toX x: Int, y: Int) -> Layout {
        Layout(
            windowWidth: windowWidth, windowHeight: windowHeight, imageWidth: imageWidth, imageHeight: imageHeight,
            scrollX: x, scrollY: y, zoom: zoom, ui: ui, controls: controls)
    }

    /// The same layout for a picture of another size (New, Open, a restore), at the same zoom.
    public func showing(imageWidth: Int, imageHeight: Int) -> Layout {
        Layout(
            windowWidth: windowWidth, windowHeight: windowHeight, imageWidth: imageWidth, imageHeight: imageHeight,
            scrollX: 0, scrollY: 0, zoom: zoom, ui: ui, controls: controls)
    }

    /// The same layout at another zoom, scrolled so the image point under window pixel
    /// (x, y) stays under it where the image is larger than the window (else centred).
    public func zoomed(to newZoom: Zoom, keepingWindowX x: Int, y: Int) -> Layout {
        zoomed(to: newZoom, keeping: imagePoint(windowX: x, windowY: y), atWindowX: x, y: y)
    }

    /// The same layout at another zoom, scrolled so image point `anchor` shows at window pixel
    /// (x, y) where the image is larger than the window (else centred): the one way every zoom
    /// keeps a point still.
    public func zoomed(to newZoom: Zoom, keeping anchor: Point, atWindowX x: Int, y: Int) -> Layout {
        let unscrolled = Layout(
            windowWidth: windowWidth, windowHeight: windowHeight, imageWidth: imageWidth, imageHeight: imageHeight,
            scrollX: 0, scrollY: 0, zoom: newZoom, ui: ui, controls: controls)
        let scale = unscrolled.zoom.factor
        let area = unscrolled.canvasArea
        // Where the anchor lands with no scrolling, and how far that is from the pointer.
        let sx = Int((anchor.x * scale).rounded(.down)) - (x - area.x)
        let sy = Int((anchor.y * scale).rounded(.down)) - (y - area.y)
        return unscrolled.scrolled(toX: sx, y: sy)
    }

    /// The largest zoom (at most 100 % unless `enlarge`) that shows the whole picture in the
    /// canvas area, without scrollbars.
    public func fitZoom(enlarge: Bool = false) -> Zoom {
        let bottom = windowHeight - ui.px(Self.statusBarHeight)
        let width = Double(windowWidth)
        let height = Double(max(1, bottom - controls.frame.maxY))
        var factor = min(width / Double(max(1, imageWidth)), height / Double(max(1, imageHeight)))
        if !enlarge { factor = min(factor, 1) }
        // The nearest step at or below when that is close, so "fit" often reads as a round number.
        if let step = Zoom.steps.last(where: { $0.factor <= factor }), step.factor > factor * 0.97 { return step }
        return Zoom(approximately: factor)
    }

    /// The zoom in words for the status bar: "100%", "12.5%", "33%".
    public var zoomText: String { zoom.description }

    /// The image's size on screen at `zoom` (a partly covered last pixel counts).
    static func shown(_ width: Int, _ height: Int, zoom: Zoom) -> (width: Int, height: Int) {
        (zoom.scaledUp(width), zoom.scaledUp(height))
    }

    /// The smallest window the program asks for: 640 x 480 at 96 dpi, scaled.
    public static func minimumSize(_ ui: UIScale) -> (width: Int, height: Int) { (ui.px(640), ui.px(480)) }

    /// A window size that shows the whole image when the screen allows.
    public static func preferredWindowSize(
        imageWidth: Int, imageHeight: Int, screenWidth: Int, screenHeight: Int, ui: UIScale = .one
    ) -> (width: Int, height: Int) {
        // Wide enough for the image and, when the screen allows, a toolbar in one row; never
        // wider or taller than the screen.
        let minimum = minimumSize(ui)
        let oneRow = ToolbarLayout.oneRowWidth(ui)
        let wanted = max(imageWidth, oneRow, minimum.width)
        // A margin to the screen's edges, unless that would break the toolbar into two rows.
        let room = max(screenWidth - ui.px(40), min(oneRow, screenWidth))
        let width = max(min(wanted, room), min(minimum.width, screenWidth))
        let bars = ui.px(menuBarHeight) + ToolbarLayout(width: width, scale: ui).frame.height + ui.px(statusBarHeight)
        let height = max(
            min(max(imageHeight, ui.px(240)) + bars, screenHeight - ui.px(60)), min(minimum.height, screenHeight))
        return (width, height)
    }

    // MARK: Regions

    /// The menu bar strip at the top.
    public var menuBar: IntRect { IntRect(x: 0, y: 0, width: windowWidth, height: ui.px(Self.menuBarHeight)) }

    /// The toolbar strip below the menu bar.
    public var toolbar: IntRect { controls.frame }

    /// The status bar strip at the bottom.
    public var statusBar: IntRect {
        let height = ui.px(Self.statusBarHeight)
        return IntRect(x: 0, y: windowHeight - height, width: windowWidth, height: height)
    }

    /// The square between the two scrollbars, when both are shown.
    public var scrollbarCorner: IntRect {
        guard let h = horizontalScrollbar, let v = verticalScrollbar else { return .empty }
        return IntRect(x: v.track.x, y: h.track.y, width: v.track.width, height: h.track.height)
    }

    /// Image coordinates of the centre of the window pixel (x, y).
    @inline(__always) public func imagePoint(windowX x: Int, windowY y: Int) -> Point {
        let o = imageOrigin
        // 100 % (a zoom is kept reduced), without a call for `Zoom.actualSize`: inlined at each
        // pointer event, this reads the layout's fields where they are, not a copy of it.
        if zoom.numerator == zoom.denominator { return Point(x: Double(x - o.x) + 0.5, y: Double(y - o.y) + 0.5) }
        // (offset + 1/2) * d / n, in an order that is exact wherever the result can be.
        let d = Double(zoom.denominator)
        let n2 = Double(2 * zoom.numerator)
        return Point(x: Double(2 * (x - o.x) + 1) * d / n2, y: Double(2 * (y - o.y) + 1) * d / n2)
    }

    /// The picture's pixel edge nearest the pointer at window pixel (x, y), not clamped to the
    /// picture: where a selection's side goes. As in GIMP, the pointer is the top-left corner of
    /// its screen pixel, so at 100 % this is the edge left of (above) the pixel under it, and a
    /// drag of 200 screen pixels spans 200 picture pixels.
    public func imageEdge(windowX x: Int, windowY y: Int) -> (x: Int, y: Int) {
        let o = imageOrigin
        let (n, d) = (Double(zoom.numerator), Double(zoom.denominator))
        return (Int((Double(x - o.x) * d / n).rounded()), Int((Double(y - o.y) * d / n).rounded()))
    }

    /// The image pixel shown at window pixel (x, y); nil off the visible image.
    @inline(__always) public func imagePixel(windowX x: Int, windowY y: Int) -> (x: Int, y: Int)? {
        guard visibleImage.contains(x, y) else { return nil }
        // At 100 % the pixel is the offset itself, the floor of its centre: no call to libm's
        // `floor` (the baseline x86-64 target rounds through it) twice per motion event.
        if zoom.numerator == zoom.denominator { return (x - imageOrigin.x, y - imageOrigin.y) }
        let p = imagePoint(windowX: x, windowY: y)
        return (Int(p.x.rounded(.down)), Int(p.y.rounded(.down)))
    }

    /// The image point under a sub-pixel pointer sample, on the 1/64-pixel grid strokes are
    /// stored on. A sample at a pixel centre (a device without sub-pixel positions) lands on
    /// exactly the point `imagePoint(windowX:windowY:)` gives.
    @inline(__always) public func imagePoint(_ sample: PointerSample) -> Point {
        if let x = Self.whole(sample.x - 0.5), let y = Self.whole(sample.y - 0.5) {
            return imagePoint(windowX: x, windowY: y)
        }
        let o = imageOrigin
        let d = Double(zoom.denominator)
        let n = Double(zoom.numerator)
        func grid(_ v: Double) -> Double { (v * 64).rounded() / 64 }
        return Point(x: grid((sample.x - Double(o.x)) * d / n), y: grid((sample.y - Double(o.y)) * d / n))
    }

    /// `Int(exactly: v)`: `v` as an `Int` when it is a whole number in range, else nil. Written
    /// out because `Int(exactly:)` calls libm's `trunc` on the baseline x86-64 target, twice
    /// per motion event here; in range, the conversion truncates and converting back gives `v`
    /// exactly when nothing was cut off.
    @inline(__always) static func whole(_ v: Double) -> Int? {
        guard v >= -0x1p63, v < 0x1p63 else { return nil }
        let i = Int(v)
        return Double(i) == v ? i : nil
    }

    /// The window rectangle that shows a rectangle of image pixels, clipped to the canvas area
    /// (every window pixel any of them falls in or gives its color to).
    public func windowRect(forImageRect r: IntRect) -> IntRect { placement.windowRect(forImageRect: r) }

    /// The image pixels that window rectangle `w` shows (clipped to the image).
    public func imageRect(forWindowRect w: IntRect) -> IntRect {
        let o = imageOrigin
        let local = IntRect(x: w.x - o.x, y: w.y - o.y, width: w.width, height: w.height)
        guard !local.isEmpty else { return .empty }
        let r = IntRect(
            x0: zoom.unscaledDown(local.x), y0: zoom.unscaledDown(local.y), x1: zoom.unscaledUp(local.maxX) - 1,
            y1: zoom.unscaledUp(local.maxY) - 1)
        return r.intersection(IntRect(x: 0, y: 0, width: imageWidth, height: imageHeight))
    }

    // MARK: Toolbar items

    /// The rectangle of a toolbar item in window coordinates.
    public func rect(of item: ToolbarItem) -> IntRect { controls.rect(of: item) }

    /// The width preview box left of the width slider.
    public var widthPreview: IntRect { controls.widthPreview }

    /// Every toolbar item, in drawing order.
    public static var items: [ToolbarItem] { ToolbarLayout.allItems }

    /// The toolbar item under a window position, if any.
    public func item(atX x: Int, y: Int) -> ToolbarItem? { controls.item(atX: x, y: y) }

    /// Where a pointer x falls along a slider's track, 0...1 (`SliderScale` turns it into a
    /// value).
    public func sliderFraction(_ item: ToolbarItem, atX x: Int) -> Double {
        let r = rect(of: item)
        return min(max(Double(x - r.x) / Double(max(1, r.width - 1)), 0), 1)
    }
}

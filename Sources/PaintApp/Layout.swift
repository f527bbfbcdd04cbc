import PaintCore

/// Something on the toolbar that the pointer can hit.
public enum ToolbarItem: Sendable, Equatable, Hashable {
    case tool(Tool)
    case swatch(Int)
    /// One of the last colors used (0 = most recent).
    case recent(Int)
    /// The primary/secondary color indicator; a click swaps them.
    case currentColors
    /// Shape style toggles: rectangles and ellipses filled, lines dashed.
    case filledToggle
    case dashedToggle
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
}

/// Where everything sits in the window, for a window size, an image size and a scroll offset.
///
/// Pure geometry: the window layer draws from it and the tests use it to aim the pointer.
public struct Layout: Sendable, Equatable {
    public static let toolbarHeight = 64
    public static let statusHeight = 28
    static let button = 40
    static let swatch = 18
    static let swatchGap = 2
    /// Recent colors: two rows of four after the palette.
    static let recentCount = 8
    static let sliderWidth = 90

    public let windowWidth: Int
    public let windowHeight: Int
    public let imageWidth: Int
    public let imageHeight: Int
    /// Window pixels of the shown image scrolled out of view at the left and top (0 when the
    /// image fits).
    public let scrollX: Int
    public let scrollY: Int
    /// How large the image is shown (window pixels per image pixel).
    public let zoom: Zoom

    /// Computes a layout; the zoom is clamped to `zoomRange` and the scroll offset to what the
    /// shown image's size allows.
    public init(
        windowWidth: Int, windowHeight: Int, imageWidth: Int, imageHeight: Int, scrollX: Int = 0, scrollY: Int = 0,
        zoom: Zoom = .actualSize
    ) {
        self.windowWidth = max(1, windowWidth)
        self.windowHeight = max(1, windowHeight)
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.zoom = zoom.clamped
        let areaWidth = self.windowWidth
        let areaHeight = max(1, self.windowHeight - Self.toolbarHeight - Self.statusHeight)
        let shown = Self.shown(imageWidth, imageHeight, zoom: self.zoom)
        self.scrollX = min(max(0, scrollX), max(0, shown.width - areaWidth))
        self.scrollY = min(max(0, scrollY), max(0, shown.height - areaHeight))
    }

    /// The same layout for a new window size, keeping the scroll offset where it still fits.
    public func resized(width: Int, height: Int) -> Layout {
        Layout(
            windowWidth: width, windowHeight: height, imageWidth: imageWidth, imageHeight: imageHeight,
            scrollX: scrollX, scrollY: scrollY, zoom: zoom)
    }

    /// The same layout scrolled to a new offset (clamped).
    public func scrolled(toX x: Int, y: Int) -> Layout {
        Layout(
            windowWidth: windowWidth, windowHeight: windowHeight, imageWidth: imageWidth, imageHeight: imageHeight,
            scrollX: x, scrollY: y, zoom: zoom)
    }

    /// The same layout at another zoom, scrolled so the image point under window pixel
    /// (x, y) stays under it where the image is larger than the window (else centred).
    public func zoomed(to newZoom: Zoom, keepingWindowX x: Int, y: Int) -> Layout {
        let anchor = imagePoint(windowX: x, windowY: y)
        let unscrolled = Layout(
            windowWidth: windowWidth, windowHeight: windowHeight, imageWidth: imageWidth, imageHeight: imageHeight,
            zoom: newZoom)
        let scale = unscrolled.zoom.factor
        let area = canvasArea
        // Where the anchor lands with no scrolling, and how far that is from the pointer.
        let sx = Int((anchor.x * scale).rounded(.down)) - (x - area.x)
        let sy = Int((anchor.y * scale).rounded(.down)) - (y - area.y)
        return unscrolled.scrolled(toX: sx, y: sy)
    }

    /// The zoom in words for the status bar: "100%", "12.5%", "33%".
    public var zoomText: String { zoom.description }

    /// The image's size on screen at `zoom` (a partly covered last pixel counts).
    static func shown(_ width: Int, _ height: Int, zoom: Zoom) -> (width: Int, height: Int) {
        (zoom.scaledUp(width), zoom.scaledUp(height))
    }

    /// The narrowest window whose toolbar shows every item.
    public static var minimumWidth: Int { minimumActionsX + actionsWidth }
    /// The right-aligned actions: undo, redo | background over clear | new over open, save.
    static let actions: [ToolbarItem] = [.save, .open, .newDocument, .clear, .background, .redo, .undo]
    /// Undo, redo and save; the others are small buttons in two-row columns, like the tools.
    static let actionButton = 36
    /// Where each action sits: its left edge as a distance from the window's right edge, and
    /// its row in a column of small buttons (nil: a full-height button).
    static let actionSlots: [ToolbarItem: (fromRight: Int, row: Int?)] = {
        let save = 10 + actionButton
        let files = save + 4 + smallButton
        let edits = files + 8 + smallButton
        let redo = edits + 8 + actionButton
        return [
            .save: (save, nil), .newDocument: (files, 0), .open: (files, 1), .background: (edits, 0),
            .clear: (edits, 1), .redo: (redo, nil), .undo: (redo + 4 + actionButton, nil),
        ]
    }()
    /// From the left edge of the actions to the window's right edge.
    static var actionsWidth: Int { actionSlots.values.map(\.fromRight).max() ?? 0 }

    /// A window size that shows the whole image when the screen allows.
    public static func preferredWindowSize(imageWidth: Int, imageHeight: Int, screenWidth: Int, screenHeight: Int) -> (
        width: Int, height: Int
    ) {
        // Wide enough for the toolbar and the image, but never wider than the screen.
        let width = min(max(imageWidth, minimumWidth), max(minimumWidth, screenWidth - 40), max(1, screenWidth))
        let height = min(max(imageHeight, 240) + toolbarHeight + statusHeight, max(400, screenHeight - 60))
        return (width, height)
    }

    // MARK: Regions

    /// The toolbar strip at the top.
    public var toolbar: IntRect { IntRect(x: 0, y: 0, width: windowWidth, height: Self.toolbarHeight) }

    /// The status bar strip at the bottom.
    public var statusBar: IntRect {
        IntRect(x: 0, y: windowHeight - Self.statusHeight, width: windowWidth, height: Self.statusHeight)
    }

    /// The area between toolbar and status bar where the image is shown.
    public var canvasArea: IntRect {
        IntRect(
            x: 0, y: Self.toolbarHeight, width: windowWidth,
            height: max(0, windowHeight - Self.toolbarHeight - Self.statusHeight))
    }

    /// Window position of image pixel (0, 0): centred when the shown image fits, else scrolled.
    public var imageOrigin: (x: Int, y: Int) {
        let area = canvasArea
        let shown = Self.shown(imageWidth, imageHeight, zoom: zoom)
        let x = shown.width <= area.width ? (area.width - shown.width) / 2 : -scrollX
        let y = shown.height <= area.height ? area.y + (area.height - shown.height) / 2 : area.y - scrollY
        return (x, y)
    }

    /// The part of the window showing image pixels.
    public var visibleImage: IntRect {
        let o = imageOrigin
        let shown = Self.shown(imageWidth, imageHeight, zoom: zoom)
        return IntRect(x: o.x, y: o.y, width: shown.width, height: shown.height).intersection(canvasArea)
    }

    /// Image coordinates of the centre of the window pixel (x, y).
    public func imagePoint(windowX x: Int, windowY y: Int) -> Point {
        let o = imageOrigin
        if zoom == .actualSize { return Point(x: Double(x - o.x) + 0.5, y: Double(y - o.y) + 0.5) }
        // (offset + 1/2) * d / n, in an order that is exact wherever the result can be.
        let d = Double(zoom.denominator)
        let n2 = Double(2 * zoom.numerator)
        return Point(x: Double(2 * (x - o.x) + 1) * d / n2, y: Double(2 * (y - o.y) + 1) * d / n2)
    }

    /// The image point under a sub-pixel pointer sample, on the 1/64-pixel grid strokes are
    /// stored on. A sample at a pixel centre (a device without sub-pixel positions) lands on
    /// exactly the point `imagePoint(windowX:windowY:)` gives.
    public func imagePoint(_ sample: PointerSample) -> Point {
        let cx = sample.x - 0.5
        let cy = sample.y - 0.5
        if cx == cx.rounded(.down), cy == cy.rounded(.down), let x = Int(exactly: cx), let y = Int(exactly: cy) {
            return imagePoint(windowX: x, windowY: y)
        }
        let o = imageOrigin
        let d = Double(zoom.denominator)
        let n = Double(zoom.numerator)
        func grid(_ v: Double) -> Double { (v * 64).rounded() / 64 }
        return Point(x: grid((sample.x - Double(o.x)) * d / n), y: grid((sample.y - Double(o.y)) * d / n))
    }

    /// The window rectangle that shows a rectangle of image pixels, clipped to the canvas area
    /// (every window pixel any of them falls in or gives its color to).
    public func windowRect(forImageRect r: IntRect) -> IntRect {
        guard !r.isEmpty else { return .empty }
        let o = imageOrigin
        return IntRect(
            x0: zoom.scaledDown(r.x) + o.x, y0: zoom.scaledDown(r.y) + o.y, x1: zoom.scaledUp(r.maxX) - 1 + o.x,
            y1: zoom.scaledUp(r.maxY) - 1 + o.y
        ).intersection(visibleImage)
    }

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

    static let toolsX = 10
    static let smallButton = 28
    static let toolColumns = 5
    static let gridY = (toolbarHeight - 2 * smallButton - 2) / 2
    static var togglesX: Int { toolsX + toolColumns * (smallButton + 2) + 8 }
    static var colorsX: Int { togglesX + smallButton + 16 }
    static var paletteX: Int { colorsX + button + 12 }
    static var paletteWidth: Int { Palette.columns * (swatch + swatchGap) - swatchGap }
    static var recentX: Int { paletteX + paletteWidth + 10 }
    static var widthGroupX: Int { recentX + 4 * (swatch + swatchGap) - swatchGap + 18 }
    static let previewSize = 34
    static var opacityGroupX: Int { widthGroupX + previewSize + 8 + sliderWidth + 18 }
    static var minimumActionsX: Int { opacityGroupX + sliderWidth + 18 }

    static let buttonY = (toolbarHeight - button) / 2

    /// The rectangle of a toolbar item in window coordinates.
    public func rect(of item: ToolbarItem) -> IntRect {
        switch item {
        case .tool(let tool):
            // Two rows of small buttons, as paint programs lay out their tool grid.
            let index = Tool.allCases.firstIndex(of: tool) ?? 0
            return IntRect(
                x: Self.toolsX + (index % Self.toolColumns) * (Self.smallButton + 2),
                y: Self.gridY + (index / Self.toolColumns) * (Self.smallButton + 2), width: Self.smallButton,
                height: Self.smallButton)
        case .currentColors:
            return IntRect(x: Self.colorsX, y: Self.buttonY, width: Self.button, height: Self.button)
        case .filledToggle:
            return IntRect(x: Self.togglesX, y: Self.gridY, width: Self.smallButton, height: Self.smallButton)
        case .dashedToggle:
            return IntRect(
                x: Self.togglesX, y: Self.gridY + Self.smallButton + 2, width: Self.smallButton,
                height: Self.smallButton)
        case .recent(let index):
            let top = (Self.toolbarHeight - 2 * Self.swatch - Self.swatchGap) / 2
            return IntRect(
                x: Self.recentX + (index % 4) * (Self.swatch + Self.swatchGap),
                y: top + (index / 4) * (Self.swatch + Self.swatchGap),
                width: Self.swatch, height: Self.swatch)
        case .swatch(let index):
            let column = index % Palette.columns
            let row = index / Palette.columns
            let top = (Self.toolbarHeight - 2 * Self.swatch - Self.swatchGap) / 2
            return IntRect(
                x: Self.paletteX + column * (Self.swatch + Self.swatchGap),
                y: top + row * (Self.swatch + Self.swatchGap),
                width: Self.swatch, height: Self.swatch)
        case .widthSlider:
            return IntRect(x: Self.widthGroupX + Self.previewSize + 8, y: 30, width: Self.sliderWidth, height: 22)
        case .opacitySlider:
            return IntRect(x: Self.opacityGroupX, y: 30, width: Self.sliderWidth, height: 22)
        case .undo, .redo, .background, .clear, .newDocument, .open, .save:
            // Right-aligned; in a window narrower than the toolbar they stay reachable, over
            // the sliders.
            let slot = Self.actionSlots[item] ?? (Self.actionButton + 10, nil)
            let x = windowWidth - slot.fromRight
            guard let row = slot.row else {
                return IntRect(
                    x: x, y: (Self.toolbarHeight - Self.actionButton) / 2, width: Self.actionButton,
                    height: Self.actionButton)
            }
            return IntRect(
                x: x, y: Self.gridY + row * (Self.smallButton + 2), width: Self.smallButton, height: Self.smallButton)
        }
    }

    /// The width preview box left of the width slider.
    public var widthPreview: IntRect {
        IntRect(
            x: Self.widthGroupX, y: (Self.toolbarHeight - Self.previewSize) / 2, width: Self.previewSize,
            height: Self.previewSize)
    }

    /// Every toolbar item, in drawing order.
    public static var items: [ToolbarItem] {
        // The right-aligned actions first: in a narrow window they lie over the sliders and
        // must win the hit test.
        actions + Tool.allCases.map { .tool($0) } + [
            .filledToggle, .dashedToggle, .currentColors,
        ]
            + Palette.colors.indices.map { .swatch($0) } + (0..<recentCount).map { .recent($0) }
            + [.widthSlider, .opacitySlider]
    }

    /// The toolbar item under a window position, if any.
    public func item(atX x: Int, y: Int) -> ToolbarItem? {
        guard toolbar.contains(x, y) else { return nil }
        return Self.items.first { item in
            var r = rect(of: item)
            if item == .widthSlider || item == .opacitySlider {
                r = IntRect(x: r.x - 6, y: r.y - 20, width: r.width + 12, height: r.height + 22)
            }
            return r.contains(x, y)
        }
    }

    /// Where a pointer x falls along a slider's track, 0...1 (`SliderScale` turns it into a
    /// value).
    public func sliderFraction(_ item: ToolbarItem, atX x: Int) -> Double {
        let r = rect(of: item)
        return min(max(Double(x - r.x) / Double(max(1, r.width - 1)), 0), 1)
    }
}

import PaintCore
import PaintIO
import PaintText

/// A piece of text the window layer draws with its font over the chrome pixels.
public struct TextRun: Sendable, Equatable {
    public var text: String
    /// Window position of the text's left end and baseline.
    public var x: Int
    public var baseline: Int
    public var color: Color
    public var bold: Bool

    /// Makes a run.
    public init(text: String, x: Int, baseline: Int, color: Color, bold: Bool) {
        self.text = text
        self.x = x
        self.baseline = baseline
        self.color = color
        self.bold = bold
    }
}

/// Measures text in the window layer's font; the headless default assumes 7 px a character.
public protocol TextMeasuring {
    /// Width of `text` in pixels.
    func width(of text: String, bold: Bool) -> Int
}

/// The fallback measurer for tests and for a display without Xft.
public struct FixedWidthMeasurer: TextMeasuring {
    public init() {}
    public func width(of text: String, bold: Bool) -> Int { text.count * 7 }
}

/// A strip of chrome (toolbar or status bar), drawn: its pixels, plus text to draw on top in
/// window coordinates.
public struct ChromeStrip {
    public var pixels: PixelImage
    public var texts: [TextRun]

    /// A strip of `pixels` with `texts` on top.
    public init(pixels: PixelImage, texts: [TextRun] = []) {
        self.pixels = pixels
        self.texts = texts
    }
}

extension Session {
    /// Draws the toolbar for the current state.
    public func renderToolbar(measure: TextMeasuring = FixedWidthMeasurer()) -> ChromeStrip {
        var texts: [TextRun] = []
        let pixels = renderToolbar(&texts, measure)
        return ChromeStrip(pixels: pixels, texts: texts)
    }

    /// Draws the status bar for the current state.
    public func renderStatus(measure: TextMeasuring = FixedWidthMeasurer()) -> ChromeStrip {
        var texts: [TextRun] = []
        let pixels = renderStatus(&texts, measure)
        return ChromeStrip(pixels: pixels, texts: texts)
    }

    /// A box's outline of one (scaled) line width, drawn inside the rectangle's pixels so its
    /// edges stay sharp: inset by half the line width.
    private func outline(_ r: IntRect) -> (x: Double, y: Double, w: Double, h: Double, line: Double) {
        let line = Double(max(1, layout.ui.px(1)))
        return (Double(r.x) + line / 2, Double(r.y) + line / 2, Double(r.width) - line, Double(r.height) - line, line)
    }

    private func buttonState(_ item: ToolbarItem, selected: Bool, p: inout ChromePainter) {
        let b = outline(layout.rect(of: item))
        let radius = min(layout.ui.d(6), b.w / 5)
        if selected || pressed == item {
            p.fillRoundedRect(b.x, b.y, b.w, b.h, radius: radius, Theme.activeFill)
            p.strokeRoundedRect(b.x, b.y, b.w, b.h, radius: radius, lineWidth: b.line, Theme.activeBorder)
        } else if hovered == item {
            p.fillRoundedRect(b.x, b.y, b.w, b.h, radius: radius, Theme.hoverFill)
            p.strokeRoundedRect(b.x, b.y, b.w, b.h, radius: radius, lineWidth: b.line, Theme.hoverBorder)
        }
    }

    private func renderToolbar(_ texts: inout [TextRun], _ measure: TextMeasuring) -> PixelImage {
        let bar = layout.toolbar
        let s = layout.ui
        var p = ChromePainter(width: bar.width, height: bar.height, background: Theme.toolbarTop)
        p.offsetY = -Double(bar.y)
        p.gradient(bar, top: Theme.toolbarTop, bottom: Theme.toolbarBottom)
        p.fill(IntRect(x: 0, y: bar.maxY - 1, width: bar.width, height: 1), Theme.border)
        for line in layout.controls.separators { p.fill(line, Theme.separator) }

        for t in Tool.allCases {
            buttonState(.tool(t), selected: settings.tool == t, p: &p)
            Icons.draw(.tool(t), in: layout.rect(of: .tool(t)), painter: &p)
        }
        if settings.tool == .text {
            // The text tool's toggles: bold and italic, each a letter set in its own style.
            let font = settings.textFont
            for (toggle, on) in [(ToolbarItem.filledToggle, font.bold), (.dashedToggle, font.italic)] {
                buttonState(toggle, selected: on, p: &p)
                let label = TextFont(
                    family: "DejaVu Serif", size: s.px(17), bold: toggle == .filledToggle,
                    italic: toggle == .dashedToggle)
                drawLabel(toggle == .filledToggle ? "B" : "I", in: layout.rect(of: toggle), font: label, &p)
            }
        } else {
            for toggle in [ToolbarItem.filledToggle, .dashedToggle] {
                buttonState(
                    toggle, selected: toggle == .filledToggle ? settings.shapeFilled : settings.lineDashed, p: &p)
                Icons.draw(toggle, in: layout.rect(of: toggle), painter: &p)
            }
        }
        for (toggle, on) in [
            (ToolbarItem.pressureWidthToggle, settings.pressureWidth),
            (.pressureOpacityToggle, settings.pressureOpacity),
        ] {
            buttonState(toggle, selected: on, p: &p)
            Icons.draw(toggle, in: layout.rect(of: toggle), painter: &p)
        }

        // Current colors: secondary behind, primary in front, as in every paint program.
        // Designed in a 40 x 40 box, drawn at the button's size.
        let cc = layout.rect(of: .currentColors)
        buttonState(.currentColors, selected: false, p: &p)
        p.scale = Double(cc.width) / 40
        p.scaleOrigin = (Double(cc.x), Double(cc.y))
        let cx = Double(cc.x)
        let cy = Double(cc.y)
        p.fillRoundedRect(cx + 15, cy + 15, 20, 20, radius: 3, settings.secondary)
        p.strokeRoundedRect(cx + 15, cy + 15, 20, 20, radius: 3, lineWidth: 1, Theme.border)
        p.fillRoundedRect(cx + 5, cy + 5, 20, 20, radius: 3, settings.primary)
        p.strokeRoundedRect(cx + 5, cy + 5, 20, 20, radius: 3, lineWidth: 1.2, Theme.icon)
        p.scale = 1

        let radius = s.d(3)
        for (i, color) in Palette.colors.enumerated() {
            let b = outline(layout.rect(of: .swatch(i)))
            p.fillRoundedRect(b.x, b.y, b.w, b.h, radius: radius, color)
            let chosen = color == settings.primary || color == settings.secondary
            let edge = hovered == .swatch(i) ? Theme.activeBorder : Theme.border
            p.strokeRoundedRect(
                b.x, b.y, b.w, b.h, radius: radius, lineWidth: chosen ? 2 * b.line : b.line, chosen ? Theme.icon : edge)
        }
        // The last colors used; empty slots are drawn as faint outlines. A narrow window may
        // keep them behind "»" (no place).
        for i in 0..<Layout.recentCount where !layout.rect(of: .recent(i)).isEmpty {
            let b = outline(layout.rect(of: .recent(i)))
            if i < settings.recentColors.count {
                p.fillRoundedRect(b.x, b.y, b.w, b.h, radius: radius, settings.recentColors[i])
                p.strokeRoundedRect(
                    b.x, b.y, b.w, b.h, radius: radius, lineWidth: b.line,
                    hovered == .recent(i) ? Theme.activeBorder : Theme.border)
            } else {
                p.strokeRoundedRect(b.x, b.y, b.w, b.h, radius: radius, lineWidth: b.line, Theme.separator)
            }
        }

        // Width: a live preview of the brush tip (at its size on the canvas at 100 %; the fill's
        // color, which has no width), then the slider. The text tool has its font button there:
        // "Aa" in the chosen font, the font list under it.
        let preview = layout.widthPreview
        let box = outline(preview)
        let centreX = Double(preview.x) + Double(preview.width) / 2
        let centreY = Double(preview.y) + Double(preview.height) / 2
        let fontButton = settings.tool == .text
        let lit = fontButton && (fontChooser != nil || hovered == .font)
        // A tool without a width shows an empty box, greyed as its slider is: no brush tip.
        let hasWidth = settings.tool.hasWidth
        p.fillRoundedRect(
            box.x, box.y, box.w, box.h, radius: s.d(6),
            fontChooser != nil ? Theme.activeFill : lit ? Theme.hoverFill : hasWidth ? .white : Theme.toolbarBottom)
        p.strokeRoundedRect(
            box.x, box.y, box.w, box.h, radius: s.d(6), lineWidth: box.line,
            lit ? Theme.activeBorder : hasWidth ? Theme.border : Theme.separator)
        if fontButton {
            var sample = settings.textFont
            sample.size = s.px(17)
            drawLabel("Aa", in: preview, font: sample, &p)
            // A small caret: the button opens a list.
            let cx = Double(preview.maxX) - s.d(7)
            let cy = Double(preview.maxY) - s.d(6)
            p.fillPolygon(
                [(cx - s.d(3), cy - s.d(1.5)), (cx + s.d(3), cy - s.d(1.5)), (cx, cy + s.d(1.5))], Theme.dimText)
            slider(.widthSlider, label: "Size", value: "\(settings.textFont.size) px", &p, &texts, measure)
            slider(.opacitySlider, label: "Opacity", value: "\(settings.opacityPercent)%", &p, &texts, measure)
            drawActions(&p)
            return p.image
        }
        if settings.tool == .fill {
            // A fill has no width: the box shows what it pours, the primary color at the opacity,
            // a swatch the width does not change (it showed a brush tip of the width).
            let inset = s.d(7)
            let (x, y, w, h) = (box.x + inset, box.y + inset, box.w - 2 * inset, box.h - 2 * inset)
            p.fillRoundedRect(
                x, y, w, h, radius: s.d(3), settings.primary, alpha: Double(settings.opacityPercent) / 100)
            p.strokeRoundedRect(x, y, w, h, radius: s.d(3), lineWidth: box.line, Theme.dimText)
        } else if hasWidth {
            let shown = min(settings.brushWidth, box.w - s.d(6)) / 2
            let tipAlpha = settings.tool == .eraser ? 0.35 : Double(settings.opacityPercent) / 100
            p.fillCircle(
                centreX, centreY, radius: shown, settings.tool == .eraser ? Theme.icon : settings.primary,
                alpha: tipAlpha)
            if settings.tool == .eraser || settings.primary == .white {
                p.strokeCircle(centreX, centreY, radius: shown, lineWidth: box.line, Theme.dimText)
            }
        }
        let widthText =
            settings.tool == .fill
            ? ("Tolerance", "\(settings.fillTolerance)") : ("Width", "\(Int(settings.brushWidth)) px")
        slider(.widthSlider, label: widthText.0, value: widthText.1, &p, &texts, measure)
        slider(.opacitySlider, label: "Opacity", value: "\(settings.opacityPercent)%", &p, &texts, measure)
        drawActions(&p)
        return p.image
    }

    /// Undo, redo and the document buttons.
    private func drawActions(_ p: inout ChromePainter) {
        for item in [ToolbarItem.undo, .redo, .background, .clear, .newDocument, .open, .save]
        where !layout.rect(of: item).isEmpty {
            // While text is typed they are the box's undo and redo.
            let enabled = item == .undo ? canUndoNow : item == .redo ? canRedoNow : true
            if enabled { buttonState(item, selected: false, p: &p) }
            Icons.draw(item, in: layout.rect(of: item), painter: &p, enabled: enabled)
        }
        if !layout.rect(of: .more).isEmpty {
            buttonState(.more, selected: layout.controls.expanded, p: &p)
            Icons.draw(.more, in: layout.rect(of: .more), painter: &p)
        }
    }

    /// `text` set in `font` by the typesetter, centred in `rect` (the text tool's buttons show
    /// their letters in the font itself, which the chrome's font cannot).
    private func drawLabel(_ text: String, in rect: IntRect, font: TextFont, _ p: inout ChromePainter) {
        guard let typesetter else { return }
        let layout = typesetter.layout(text, font: font)
        let mask = typesetter.rasterize(layout, atX: 0, y: 0, clip: IntRect(x: -50, y: -50, width: 300, height: 300))
        guard mask.width > 0 else { return }
        // Centred on the ink, not the advance: an italic leans out of its box.
        let x = rect.x + (rect.width - mask.width) / 2
        let y = rect.y + (rect.height - mask.height) / 2
        p.blend(mask, atX: x, y: y, clip: rect, Theme.icon)
    }

    /// A slider with its label and value, the knob where its scale puts the value.
    private func slider(
        _ item: ToolbarItem, label: String, value: String, _ p: inout ChromePainter, _ texts: inout [TextRun],
        _ measure: TextMeasuring
    ) {
        // No scale: the tool has no width, the slider is drawn disabled where the width stands.
        let scale = settings.scale(of: item)
        let enabled = scale != nil
        let fraction = (scale ?? .width).fraction(of: settings.value(of: scale ?? .width))
        let s = layout.ui
        let r = layout.rect(of: item)
        let trackY = Double(r.y) + Double(r.height) / 2
        let x0 = Double(r.x) + 1
        let x1 = Double(r.maxX) - 1
        let knobX = x0 + (x1 - x0) * fraction
        p.line(x0, trackY, x1, trackY, width: s.d(4), enabled ? Theme.track : Theme.separator)
        if enabled { p.line(x0, trackY, knobX, trackY, width: s.d(4), Theme.trackFill) }
        let active = enabled && (pressed == item || hovered == item)
        p.fillCircle(knobX, trackY, radius: s.d(7), enabled ? Theme.knob : Theme.toolbarBottom)
        p.strokeCircle(
            knobX, trackY, radius: s.d(7), lineWidth: s.d(active ? 1.6 : 1),
            active ? Theme.activeBorder : enabled ? Theme.dimText : Theme.disabledText)
        let baseline = layout.controls.labelBaseline(of: item)
        texts.append(
            TextRun(
                text: label, x: r.x, baseline: baseline, color: enabled ? Theme.dimText : Theme.disabledText,
                bold: false))
        let valueWidth = measure.width(of: value, bold: false)
        texts.append(
            TextRun(
                text: value, x: r.maxX - valueWidth, baseline: baseline,
                color: enabled ? Theme.text : Theme.disabledText,
                bold: false))
    }

    /// The zoom in a box with a small arrow: a click opens the zoom presets.
    private func drawZoomField(
        _ field: IntRect, open: Bool, _ p: inout ChromePainter, _ texts: inout [TextRun], _ measure: TextMeasuring,
        baseline: Int
    ) {
        let s = layout.ui
        let b = outline(field)
        p.fillRoundedRect(b.x, b.y, b.w, b.h, radius: s.d(4), open ? Theme.activeFill : .white)
        p.strokeRoundedRect(
            b.x, b.y, b.w, b.h, radius: s.d(4), lineWidth: b.line, open ? Theme.activeBorder : Theme.border)
        texts.append(
            TextRun(text: layout.zoomText, x: field.x + s.px(8), baseline: baseline, color: Theme.text, bold: false))
        let ax = Double(field.maxX) - s.d(12)
        let ay = Double(field.y) + Double(field.height) / 2
        p.fillPolygon([(ax - s.d(4), ay - s.d(2)), (ax + s.d(4), ay - s.d(2)), (ax, ay + s.d(2.5))], Theme.dimText)
    }

    /// `text` as it fits `width` pixels: whole, or its longest beginning that fits with "…"
    /// after it; nil when not even one character does.
    static func elided(_ text: String, width: Int, bold: Bool, _ measure: TextMeasuring) -> String? {
        if measure.width(of: text, bold: bold) <= width { return text }
        let characters = Array(text)
        // The longest beginning that fits, found by halving (a message can be long).
        var fits = 0
        var tooLong = characters.count
        while tooLong - fits > 1 {
            let middle = (fits + tooLong) / 2
            if measure.width(of: String(characters[..<middle]) + "…", bold: bold) <= width {
                fits = middle
            } else {
                tooLong = middle
            }
        }
        var kept = characters[..<fits]
        while kept.last == " " { kept = kept.dropLast() }
        return kept.isEmpty ? nil : String(kept) + "…"
    }

    /// `text` broken at spaces into at most `lines` lines of `width` pixels each, the last one
    /// elided when the text needs more (a word wider than a line is elided on its own line).
    static func wrapped(_ text: String, width: Int, lines: Int, bold: Bool, _ measure: TextMeasuring) -> [String] {
        let words = text.split(separator: " ").map(String.init)
        var out: [String] = []
        var line = ""
        var i = 0
        while i < words.count {
            let longer = line.isEmpty ? words[i] : line + " " + words[i]
            if line.isEmpty || measure.width(of: longer, bold: bold) <= width {
                line = longer
                i += 1
                continue
            }
            if out.count == lines - 1 {
                // The last line takes the rest, cut short where it does not fit.
                line += " " + words[i...].joined(separator: " ")
                break
            }
            out.append(line)
            line = ""
        }
        if !line.isEmpty { out.append(line) }
        return out.compactMap { elided($0, width: width, bold: bold, measure) }
    }

    /// `text` whole, broken into lines of at most `width` pixels: at spaces; a word wider than a
    /// line (a long path) after a "/" in it, its first folders still on the line before, as GTK
    /// breaks a path; only a part with no "/" still wider than a line where it reaches the line's
    /// end. Unlike `wrapped`, nothing is left out: this is what a tooltip shows of a text cut
    /// short elsewhere. Before, a path broke wherever the line ended ("/home/someone/Pic" "tures").
    static func brokenIntoLines(_ text: String, width: Int, _ measure: TextMeasuring) -> [String] {
        func fits(_ s: String) -> Bool { measure.width(of: s, bold: false) <= width }
        var out: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            let longer = line.isEmpty ? word : line + " " + word
            if fits(longer) {
                line = longer
                continue
            }
            if fits(word) {
                // Whole on the next line (the line is not empty, or `longer` would have fit).
                out.append(line)
                line = word
                continue
            }
            // Too wide for any line: its parts up to each "/", the first ones on this line.
            var head = line.isEmpty ? "" : line + " "
            for part in Self.pathParts(word) {
                if fits(head + part) {
                    head += part
                    continue
                }
                if !head.isEmpty { out.append(head.hasSuffix(" ") ? String(head.dropLast()) : head) }
                // A part wider than a line on lines of its own, as many characters on each as
                // fit (at least one).
                var rest = Substring(part)
                while !fits(String(rest)) {
                    var count = 1
                    while count < rest.count, fits(String(rest.prefix(count + 1))) { count += 1 }
                    out.append(String(rest.prefix(count)))
                    rest = rest.dropFirst(count)
                }
                head = String(rest)
            }
            line = head
        }
        if !line.isEmpty || out.isEmpty { out.append(line) }
        return out
    }

    /// A word cut after each "/": "/home/a.png" is "/", "home/", "a.png".
    static func pathParts(_ word: String) -> [String] {
        var parts: [String] = []
        var part = ""
        for c in word {
            part.append(c)
            if c == "/" {
                parts.append(part)
                part = ""
            }
        }
        if !part.isEmpty { parts.append(part) }
        return parts
    }

    /// The part of a prompt's text that fits `width` pixels, with the cursor in it: the end of
    /// a long path (the file name matters most), or from the cursor on when it was moved left.
    /// Cut-off ends show as "…". Returns the text to draw, the cursor's index in it, and the
    /// index in the field of the first character shown.
    static func visibleSlice(
        of field: TextField, width: Int, _ measure: TextMeasuring
    ) -> (text: String, cursor: Int, start: Int) {
        let characters = Array(field.text)
        let cursor = min(field.cursor, characters.count)
        func fits(_ s: String) -> Bool { measure.width(of: s, bold: false) <= width }
        if fits(field.text) { return (field.text, cursor, 0) }
        // Drop characters from the front while the rest does not fit, but never past the cursor.
        var start = 0
        while start < cursor && !fits("…" + String(characters[start...])) { start += 1 }
        var end = characters.count
        let prefix = start > 0 ? "…" : ""
        while end > cursor && !fits(prefix + String(characters[start..<end]) + "…") { end -= 1 }
        let suffix = end < characters.count ? "…" : ""
        return (prefix + String(characters[start..<end]) + suffix, cursor - start + prefix.count, start)
    }

    private func renderStatus(_ texts: inout [TextRun], _ measure: TextMeasuring) -> PixelImage {
        let bar = layout.statusBar
        let asking: Bool
        switch mode {
        case .normal: asking = false
        case .confirmLeave, .offerRestore, .restoring, .confirmReplace, .chooseFormat, .qualityPrompt,
            .confirmOverwrite:
            asking = true
        }
        var p = statusPainter(width: bar.width, asking: asking)
        let s = layout.ui
        let baseline = statusBaseline
        promptView = nil
        stabilizerField = nil
        // The tooltip of a text cut short measures as the bar was drawn, whatever it shows.
        textMeasure = measure
        switch mode {
        case .normal:
            // The pointer position and the size in slots as wide as they get for this picture, so
            // the zoom and stabilizer fields after them stay put; then the file name.
            let gap = statusGap
            texts.append(positionRun)
            if statusShowsSize {
                texts.append(
                    TextRun(
                        text: "\(engine.width) × \(engine.height)", x: positionX + widestPositionWidth + gap,
                        baseline: baseline, color: Theme.dimText, bold: false))
            }
            let zoom = zoomField
            drawZoomField(zoom, open: zoomMenu.isOpen, &p, &texts, measure, baseline: baseline)
            // The stabilizer, a field that reads as a button: a click steps it.
            let stabilizer = settings.stabilizer == 0 ? "Stabilizer off" : "Stabilizer \(settings.stabilizer)"
            let field = stabilizerFieldRect(measure)
            let b = outline(field)
            p.strokeRoundedRect(b.x, b.y, b.w, b.h, radius: s.d(4), lineWidth: b.line, Theme.border)
            stabilizerField = field
            texts.append(
                TextRun(
                    text: stabilizer, x: field.x + s.px(8), baseline: baseline,
                    color: settings.stabilizer == 0 ? Theme.dimText : Theme.text, bold: false))
            // The name and the message (`statusTail`).
            texts += statusTail(measure).runs
        case .qualityPrompt(let field, _, _):
            // The label cut short so the field always shows, then the keys (`qualityPromptTail`).
            let (tail, frame) = qualityPromptTail(measure)
            texts += tail.runs
            promptView = TextFieldView.draw(
                field, preedit: preedit, frame: frame, baseline: baseline, painter: &p, texts: &texts, measure: measure)
        case .confirmLeave, .offerRestore, .restoring, .confirmReplace, .chooseFormat, .confirmOverwrite:
            // The question ends before its buttons (`questionTail`).
            texts += questionTail(measure).runs
            for (choice, r) in answerButtons() {
                let isDefault = choice == mode.answers.first
                let b = outline(r)
                p.fillRoundedRect(b.x, b.y, b.w, b.h, radius: s.d(4), isDefault ? Theme.activeFill : .white)
                p.strokeRoundedRect(
                    b.x, b.y, b.w, b.h, radius: s.d(4), lineWidth: b.line, isDefault ? Theme.activeBorder : Theme.border
                )
                let w = measure.width(of: choice.rawValue, bold: isDefault)
                texts.append(
                    TextRun(
                        text: choice.rawValue, x: r.x + (r.width - w) / 2, baseline: baseline, color: Theme.text,
                        bold: isDefault))
            }
        }
        return p.image
    }
}

import PaintCore

/// The pointer: a press starts a gesture, motion and release carry it on and end it (one
/// `switch` over `gesture` each), the wheel scrolls and zooms.
extension Session {
    /// The image point of a pointer event: its sub-pixel sample when it has one.
    func imagePoint(_ x: Int, _ y: Int, _ sample: PointerSample?) -> Point {
        // Not `sample.map(layout.imagePoint)`: that closure would copy the whole layout.
        guard let sample else { return layout.imagePoint(windowX: x, windowY: y) }
        return layout.imagePoint(sample)
    }

    /// The image point a brush, eraser or shape `width` wide paints at for a pointer event:
    /// zoomed in past 100 %, on the picture pixel under the pointer (`PixelSnap`), so a click
    /// at 1600 % paints the pixel clicked and not its right and lower neighbours too. The
    /// engine, the shape and the crash journal all get this one point.
    func paintPoint(_ x: Int, _ y: Int, _ sample: PointerSample?, width: Double) -> Point {
        PixelSnap.point(imagePoint(x, y, sample), width: width, zoom: layout.zoom)
    }

    /// The point a freehand stroke in `style` paints at for a pointer event whose stored pen
    /// pressure is `pressure` (nil: none): put on the picture pixel by the width drawn there,
    /// which pressure may make narrower than the style's (a 4 px brush pressed lightly draws
    /// 3 px, centred on the pixel as a 3 px one is, not on a corner as 4 px).
    func strokePoint(_ x: Int, _ y: Int, _ sample: PointerSample?, style: StrokeStyle, pressure: UInt16?) -> Point {
        let width = pressure.map { style.width(pressure: Operation.pressure([$0], 0)) } ?? style.width
        return paintPoint(x, y, sample, width: width)
    }

    func handlePress(
        _ x: Int, _ y: Int, _ button: PointerButton, _ modifiers: Modifiers, _ sample: PointerSample? = nil
    ) {
        // A press ends a run of edits in the text box: what it starts (a drag, a slider) is
        // its own step of the box's undo.
        liveText?.edits.endRun()
        if fileDialog != nil {
            // Modal: a press inside is the dialog's, outside nothing happens.
            if fileDialogFrame.contains(x, y), case .idle = gesture { pressFileDialog(x, y, button, modifiers) }
            return
        }
        if sizeDialog != nil {
            // A modal dialog: a press inside is its own, outside nothing but the wheel acts.
            if sizeDialogFrame.contains(x, y) {
                if button == .left, case .idle = gesture { pressSizeDialog(x, y) }
                return
            }
            guard [.wheelUp, .wheelDown, .wheelLeft, .wheelRight].contains(button) else { return }
        }
        if colorEditor != nil, colorEditorFrame.contains(x, y) {
            // The editor panel: its sliders and buttons, in its own coordinates.
            if button == .left, case .idle = gesture { pressEditor(x, y, modifiers) }
            return
        }
        if fontChooser != nil, fontChooserFrame.contains(x, y) {
            if case .idle = gesture { pressFontChooser(x, y, button) }
            return
        }
        lastPointer = (x, y)
        switch button {
        case .wheelUp, .wheelDown, .wheelLeft, .wheelRight:
            if modifiers.contains(.control) && (button == .wheelUp || button == .wheelDown) {
                // Ctrl+wheel zooms about the pointer, as in GIMP, Krita and browsers.
                zoom(by: button == .wheelUp ? 1 : -1, aroundWindowX: x, y: y)
            } else if button == .wheelUp || button == .wheelDown, let item = layout.item(atX: x, y: y),
                item == .widthSlider || item == .opacitySlider
            {
                // Over the width or opacity slider the wheel turns it, as in GIMP and Krita (a
                // disabled one takes the turn and changes nothing).
                stepSlider(item, down: button == .wheelDown)
            } else {
                scroll(button, modifiers)
            }
            return
        default: break
        }
        if colorEditor != nil {
            // A click outside the open editor closes it, as a popover does.
            finishEditing(.cancel)
            return
        }
        if fontChooser != nil {
            // The same for the font list; the family it shows stays chosen.
            closeFontChooser(accepting: true)
            return
        }
        // An open menu or panel, the menu bar, the status bar's zoom field.
        if case .idle = gesture, pressMenus(x, y, button) { return }
        if blocksCanvas {
            if let chosen = answerButtons().first(where: { $0.1.contains(x, y) })?.0 { answer(chosen) }
            return
        }
        if pressPromptField(x, y, modifiers) { return }
        if mode == .normal, button == .left || button == .right, let field = stabilizerField, field.contains(x, y) {
            stepStabilizer(back: button == .right)
            return
        }
        // One gesture at a time: another button pressed meanwhile does nothing.
        guard case .idle = gesture else { return }
        if let p = placing, layout.canvasArea.contains(x, y), button == .left || button == .right {
            // A pasted picture is waiting: grab it, or (outside it) put it down.
            let point = layout.imagePoint(windowX: x, windowY: y)
            let grabX = Int(point.x.rounded(.down)) - p.x
            let grabY = Int(point.y.rounded(.down)) - p.y
            if button == .left && p.rect.contains(p.x + grabX, p.y + grabY) {
                gesture = .dragFloating(grabX: grabX, grabY: grabY)
            } else {
                putDownPaste()
            }
            return
        }
        if let item = layout.item(atX: x, y: y) {
            pressToolbar(item, x: x, button: button)
            return
        }
        if button == .left && pressScrollbar(x, y) { return }
        guard layout.canvasArea.contains(x, y) else { return }
        if button == .middle {
            // In the text box a middle click pastes the PRIMARY selection there, as X text
            // widgets do; elsewhere it drags the picture.
            if pastePrimarySelection(atWindowX: x, y: y) { return }
            gesture = .pan(x: x, y: y, scrollX: layout.scrollX, scrollY: layout.scrollY)
            return
        }
        let point = imagePoint(x, y, sample)
        if modifiers.contains(.control) {
            pickColor(at: point, into: button)
            return
        }
        followStylusEnd(sample)
        let style = settings.strokeStyle(for: button)
        switch settings.tool {
        case .select:
            if button == .left { pressSelect(at: point, edge: layout.imageEdge(windowX: x, windowY: y)) }
        case .strokeEraser:
            removeStroke(at: point)
        case .picker:
            pickColor(at: point, into: button)
        case .fill:
            fill(at: point, style: style)
        case .line, .arrow, .rectangle, .ellipse:
            beginShape(
                style, button: button, at: paintPoint(x, y, sample, width: style.width), modifiers: modifiers)
        case .text:
            // Only the left button places, selects and moves: a right press does nothing, as the
            // select tool's (KolourPaint and GIMP open a context menu there), so it never moves
            // the caret, loses a selection or puts the box down by surprise.
            if button == .left { pressText(at: point, windowX: x, y: y, modifiers: modifiers) }
        case .brush, .eraser:
            let pressure = sample?.storedPressure
            let freehand = settings.freehandStyle(for: button, pressure: pressure != nil)
            let point = strokePoint(x, y, sample, style: freehand, pressure: pressure)
            if modifiers.contains(.shift), let from = lastPaintPoint {
                // Shift+click: a straight stroke from the last painted point (GIMP, Krita).
                beginStroke(freehand, button: button, at: from, pressure: pressure)
                extendStroke(to: point, pressure: pressure)
            } else {
                beginStroke(freehand, button: button, at: point, pressure: pressure)
            }
        }
    }

    func handleMotion(_ x: Int, _ y: Int, _ modifiers: Modifiers, _ sample: PointerSample? = nil) {
        lastPointer = (x, y)
        if popupOpen && moveInMenus(x, y) { return }
        // A question blocks the canvas: the pointer changes nothing, so nothing is redrawn
        // (only the pointer's shape, where it crosses into or out of the canvas).
        if blocksCanvas, case .idle = gesture { return }
        switch gesture {
        case .stroke(let live):
            // A pen's sample without pressure keeps the last one (`extendStroke`).
            let pressure = sample?.storedPressure ?? strokeSamples.pressure.last
            extendStroke(
                to: strokePoint(x, y, sample, style: live.style, pressure: pressure), pressure: sample?.storedPressure)
            // The position in the status bar follows (its redraws are throttled).
            updatePointerPixel(x, y)
        case .shape(let live):
            updateShape(from: live.from, to: paintPoint(x, y, sample, width: live.style.width), modifiers: modifiers)
            updatePointerPixel(x, y)
        case .slider(let item):
            setSlider(item, x: x)
        case .pan(let startX, let startY, let scrollX, let scrollY):
            setLayout(layout.scrolled(toX: scrollX - (x - startX), y: scrollY - (y - startY)))
        case .scrollbar(.horizontal, let startX, _, let offset):
            let moved = layout.horizontalScrollbar?.offset(from: offset, draggedBy: x - startX) ?? layout.scrollX
            setLayout(layout.scrolled(toX: moved, y: layout.scrollY))
        case .scrollbar(.vertical, _, let startY, let offset):
            let moved = layout.verticalScrollbar?.offset(from: offset, draggedBy: y - startY) ?? layout.scrollY
            setLayout(layout.scrolled(toX: layout.scrollX, y: moved))
        case .selecting(let anchorX, let anchorY):
            dragSelection(
                from: (anchorX, anchorY), to: layout.imageEdge(windowX: x, windowY: y),
                square: modifiers.contains(.shift))
            updatePointerPixel(x, y)
        case .dragFloating(let grabX, let grabY):
            let point = layout.imagePoint(windowX: x, windowY: y)
            movePlacing(toX: Int(point.x.rounded(.down)) - grabX, y: Int(point.y.rounded(.down)) - grabY)
            updatePointerPixel(x, y)
        case .editor:
            if fileDialog != nil {
                hoverFileDialog(x, y)
            } else if sizeDialog != nil {
                dragSizeDialog(x)
            } else {
                dragEditor(x)
            }
        case .textBox:
            dragText(toWindowX: x, y: y)
            updatePointerPixel(x, y)
        case .selectingText:
            dragTextSelection(toWindowX: x, y: y)
            updatePointerPixel(x, y)
        case .idle, .button:
            if fileDialog != nil { return hoverFileDialog(x, y) }
            if fontChooser != nil { hoverFontChooser(x, y) }
            setHovered(layout.item(atX: x, y: y))
            updateStrokeHover(x, y)
            updatePointerPixel(x, y)
        }
    }

    func handleRelease(_ x: Int, _ y: Int, _ button: PointerButton) {
        if popupOpen, case .idle = gesture, releaseInMenus(x, y) { return }
        switch gesture {
        case .stroke, .shape:
            guard gesture.paintingButton == button else { return }
            commitStroke()
            updatePointerPixel(x, y)
        case .slider:
            gesture = .idle
            effects.toolbar = true
        case .button(let item):
            gesture = .idle
            effects.toolbar = true
            if layout.item(atX: x, y: y) == item { activate(item) }
        case .pan:
            if button == .middle { gesture = .idle }
        case .scrollbar:
            guard button == .left else { return }
            gesture = .idle
            effects.layout = true
        case .selecting:
            guard button == .left else { return }
            gesture = .idle
            if let r = selection { setMessage("Selected \(r.width) × \(r.height) at \(r.x), \(r.y)") }
        case .dragFloating:
            if button == .left { gesture = .idle }
        case .editor:
            guard button == .left else { return }
            colorEditor?.release()
            sizeDialog?.release()
            if fileDialog != nil { releaseFileDialog() }
            gesture = .idle
        case .textBox:
            gesture = .idle
        case .selectingText:
            gesture = .idle
            // A drag's selection is offered once, when the button comes up.
            offerPrimarySelection()
        case .idle:
            break
        }
    }

    /// A stylus's eraser end selects the eraser, as turning a pencil over does; the pen's tip
    /// selects again the tool it had.
    func followStylusEnd(_ sample: PointerSample?) {
        guard let sample, sample.pressure != nil else { return }
        if sample.eraser {
            guard settings.tool != .eraser else { return }
            toolBeforeEraser = settings.tool
            select(.eraser)
        } else if let tool = toolBeforeEraser {
            toolBeforeEraser = nil
            select(tool)
        }
    }

    func updatePointerPixel(_ x: Int, _ y: Int) {
        let new = layout.imagePixel(windowX: x, windowY: y)
        if new?.x != pointerPixel?.x || new?.y != pointerPixel?.y {
            pointerPixel = new
            // Shown only in the plain status bar; the window throttles these redraws.
            if mode == .normal { effects.pointerPosition = true }
        }
    }

    // MARK: Toolbar

    func pressToolbar(_ item: ToolbarItem, x: Int, button: PointerButton) {
        switch item {
        case .tool(let t):
            select(t)
        case .swatch(let i):
            changeSettings { $0.setColor(Palette.colors[i], for: button) }
        case .recent(let i):
            guard i < settings.recentColors.count else { return }
            changeSettings { $0.setColor($0.recentColors[i], for: button) }
        case .currentColors:
            openColorEditor(button == .right ? .secondary : .primary)
        case .filledToggle where settings.tool == .text:
            changeSettings { $0.textFont.bold.toggle() }
        case .dashedToggle where settings.tool == .text:
            changeSettings { $0.textFont.italic.toggle() }
        case .filledToggle:
            changeSettings { $0.shapeFilled.toggle() }
        case .dashedToggle:
            changeSettings { $0.lineDashed.toggle() }
        case .font:
            guard settings.tool == .text else { return }
            if fontChooser != nil { closeFontChooser(accepting: true) } else { openFontChooser() }
        case .pressureWidthToggle:
            changeSettings { $0.pressureWidth.toggle() }
        case .pressureOpacityToggle:
            changeSettings { $0.pressureOpacity.toggle() }
        case .widthSlider, .opacitySlider:
            // A tool without a width: the slider is disabled.
            guard settings.scale(of: item) != nil else { return }
            gesture = .slider(item)
            effects.toolbar = true
            setSlider(item, x: x)
        case .background:
            if button == .middle {
                promptBackground()
            } else {
                setBackground(.color(button == .right ? settings.secondary : settings.primary))
            }
        case .undo, .redo, .clear, .newDocument, .open, .save, .more:
            gesture = .button(item)
            effects.toolbar = true
        }
    }

    func activate(_ item: ToolbarItem) {
        switch item {
        case .clear: clear()
        case .undo: undo()
        case .redo: redo()
        case .save: save()
        case .newDocument: requestLeave(to: .newDocument)
        case .open: promptOpen()
        case .more: showMoreOfToolbar(!layout.controls.expanded)
        default: break
        }
    }

    /// Shows or hides the toolbar's row of what a narrow window keeps behind "»".
    func showMoreOfToolbar(_ shown: Bool) {
        layout = layout.withToolbar(expanded: shown)
        effects.layout = true
        effects.toolbar = true
        effects.status = true
        refreshPointerPixel()
    }

    /// Sets what a slider controls from a pointer position along its track.
    func setSlider(_ item: ToolbarItem, x: Int) {
        guard let scale = settings.scale(of: item) else { return }
        let value = scale.value(atFraction: layout.sliderFraction(item, atX: x))
        changeSettings { $0.set(scale, to: value) }
    }

    // MARK: View

    /// The scrollbar whose thumb is being dragged, if any (drawn darker).
    public var draggedScrollbar: Scrollbar.Axis? {
        if case .scrollbar(let axis, _, _, _) = gesture { return axis }
        return nil
    }

    /// A left press on a scrollbar: on the thumb it starts a drag, on the track it scrolls a
    /// page that way. Returns whether it hit a scrollbar (or the corner between them).
    func pressScrollbar(_ x: Int, _ y: Int) -> Bool {
        if layout.scrollbarCorner.contains(x, y) { return true }
        for bar in [layout.horizontalScrollbar, layout.verticalScrollbar].compactMap({ $0 }) {
            guard let hit = bar.hit(x: x, y: y) else { continue }
            let across = bar.axis == .horizontal
            switch hit {
            case .thumb:
                gesture = .scrollbar(bar.axis, x: x, y: y, offset: across ? layout.scrollX : layout.scrollY)
                effects.layout = true
            case .pageBack, .pageForward:
                let step = hit == .pageBack ? -bar.page : bar.page
                setLayout(
                    layout.scrolled(
                        toX: layout.scrollX + (across ? step : 0), y: layout.scrollY + (across ? 0 : step)))
            }
            return true
        }
        return false
    }
}

import PaintCore

/// The picture itself: crop to the selection, autocrop, the size dialog, quarter turns and
/// mirrors (`ImageCommand`), each one step of the history.
extension Session {
    /// Carries out an image command: what its key does, and what an Image menu calls.
    public func run(_ command: ImageCommand) {
        if let orientation = command.orientation { return orient(orientation) }
        switch command {
        case .cropToSelection: cropToSelection()
        case .autocrop: autocrop()
        case .scale: openSizeDialog(.scale)
        case .canvasSize: openSizeDialog(.canvas)
        default: break
        }
    }

    /// Turns or mirrors what is selected: the floating picture, else the selection (lifted to
    /// float, so it can be moved before it is put down, as one step), else the whole picture.
    /// Everything selected (Ctrl+A) is the whole picture: it turns with its canvas, still all
    /// selected; lifted instead, a picture that is not square was turned inside its old
    /// canvas and lost the ends that stuck out.
    func orient(_ orientation: Orientation) {
        if placing == nil, selection == engine.bounds {
            changeCanvas(
                .orient(orientation),
                saying: String(orientation.description.prefix(1)).uppercased() + orientation.description.dropFirst())
            return setSelection(engine.bounds)
        }
        if placing == nil, let rect = selection { liftSelection(rect) }
        if var p = placing {
            p.orient(orientation)
            placing = p
            showPlacing()
            // Escape drops a paste but puts a lifted selection back where it was, unturned.
            let (what, escape) = p.liftedFrom == nil ? ("Pasted picture", "drop it") : ("Selection", "put it back")
            return setMessage("\(what) \(orientation) — Enter: put it down, Esc: \(escape)")
        }
        changeCanvas(
            .orient(orientation),
            saying: String(orientation.description.prefix(1)).uppercased() + orientation.description.dropFirst())
    }

    /// Crops the picture to the selection (or to the floating picture, put down first).
    func cropToSelection() {
        let rect: IntRect
        if let p = placing {
            // A paste reaching past the canvas (larger than it, or dragged over an edge) is
            // kept whole: the canvas becomes its rectangle.
            if p.liftedFrom == nil, p.rect.intersection(engine.bounds) != p.rect { return cropToFloatingPaste() }
            commitStroke()
            rect = p.rect.intersection(engine.bounds)
        } else if let selected = selection {
            rect = selected
        } else {
            return setMessage("Select a rectangle first (S), then Ctrl+Shift+X crops to it")
        }
        guard !rect.isEmpty else { return setMessage("Nothing of the picture is selected") }
        guard rect != engine.bounds else { return setMessage("The selection is the whole picture: nothing to crop") }
        changeCanvas(.resize(rect), saying: "Cropped to \(rect.width) × \(rect.height)")
    }

    /// Crops away a border of one color (the color of a corner), as alike as the fill
    /// tolerance asks: the one "color similarity" a user sets, which KolourPaint's autocrop
    /// follows too, so a JPEG's noisy margin goes as a flat one does, and 0 asks for the exact
    /// color. A transparent border is always matched exactly (`StrokeEngine.autocropRect`).
    func autocrop() {
        commitStroke()
        let tolerance = settings.fillTolerance
        guard let rect = engine.autocropRect(tolerance: tolerance) else {
            return setMessage("No border of one color to crop (fill tolerance \(tolerance))")
        }
        changeCanvas(
            .resize(rect), saying: "Cropped the border: \(rect.width) × \(rect.height) (fill tolerance \(tolerance))")
    }

    /// Changes the canvas as one step, after checking the new size against the limits (the
    /// engine would refuse it too, but a step that changes nothing is not worth recording).
    func changeCanvas(_ change: CanvasChange, saying done: String) {
        commitStroke()
        let (w, h) = change.size(width: engine.width, height: engine.height)
        let limits = ImageLimits.default
        guard limits.allows(width: w, height: h) else {
            return setMessage(
                "Too large: at most \(limits.maxSide) pixels a side and \(limits.maxPixels / 1_000_000) megapixels"
            )
        }
        if case .scale = change, !Resampler.canScale(width: engine.width, height: engine.height, toWidth: w, height: h)
        {
            return setMessage("\(w) × \(h) is too small: a side shrinks at most \(Resampler.maxShrink) times at once")
        }
        setSelection(nil)
        perform(.canvas(change))
        setMessage(done + " (Ctrl+Z undoes it)")
    }
}

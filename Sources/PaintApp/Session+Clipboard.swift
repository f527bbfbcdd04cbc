import Glibc
import PaintCore
import PaintIO

/// The clipboard: copying the picture, and a pasted picture floating until it is put down.
extension Session {
    // MARK: Clipboard

    /// Copies the whole picture, as it would be saved, to the clipboard (Ctrl+C).
    public func copy() {
        commitStroke()
        if offerToClipboard(engine.flattenedImage()) {
            setMessage("Copied the picture (\(engine.width) × \(engine.height)) to the clipboard")
        }
    }

    /// Offers `picture` on the clipboard as PNG: a small one at once, a larger one claimed now
    /// and encoded on a thread of its own (`ClipboardEncoding`), the PNG given to the window
    /// when it is done (`checkClipboardEncoding`). False, with the reason said, when it cannot be.
    func offerToClipboard(_ picture: PixelImage) -> Bool {
        let withAlpha = engine.background == .transparent
        // A copy still being encoded is given up: the clipboard is this one's now.
        clipboardEncoding = nil
        if picture.width * picture.height >= ClipboardEncoding.pixelsEncodedAtOnce,
            let encoding = ClipboardEncoding(picture, withAlpha: withAlpha)
        {
            clipboardEncoding = encoding
            effects.clipboard.append(.claim(width: picture.width, height: picture.height))
            return true
        }
        switch ClipboardEncoding.encode(picture, withAlpha: withAlpha) {
        case .success(let png):
            effects.clipboard.append(.offer(png))
            return true
        case .failure(let error):
            setMessage(error.description)
            return false
        }
    }

    /// Whether a copied picture is still being encoded for the clipboard.
    public var isEncodingForClipboard: Bool { clipboardEncoding != nil }

    /// Gives the window the copied picture's PNG once it is encoded.
    func checkClipboardEncoding() {
        guard let encoding = clipboardEncoding, encoding.checkFinished() else { return }
        finishClipboardEncoding()
    }

    /// Waits for the copy being encoded, if any, and gives the window its PNG (or, when it
    /// could not be encoded, says why): before a paste, which would otherwise ask the
    /// clipboard for it, and before the window closes and hands the clipboard over. A BMP being
    /// made is waited for and given too (`.fulfilBMP`), without a word when there is none.
    public func finishClipboardEncoding() {
        guard let encoding = clipboardEncoding else { return }
        clipboardEncoding = nil
        switch (encoding.makesBMP, encoding.finish()) {
        case (false, .success(let png)):
            effects.clipboard.append(.fulfil(png))
        case (false, .failure(let error)):
            effects.clipboard.append(.fulfil(nil))
            setMessage(error.description)
        case (true, .success(let bmp)):
            effects.clipboard.append(.fulfilBMP(bmp))
        case (true, .failure):
            effects.clipboard.append(.fulfilBMP(nil))
        }
    }

    /// Another program asked the clipboard for the picture offered as BMP (LibreOffice, Wine
    /// programs): it is made from the `png` offered on a thread of its own, as a copy's PNG is
    /// (`ClipboardEncoding`), and given to the window when done (`.fulfilBMP`); the window
    /// draws and answers meanwhile. A copy still being encoded is never given up for it (the
    /// window asks only once the PNG is offered; were it asked before, the BMP is refused).
    public func makeClipboardBMP(fromPNG png: [UInt8]) {
        guard clipboardEncoding == nil else { return effects.clipboard.append(.fulfilBMP(nil)) }
        if let encoding = ClipboardEncoding(.bmp(fromPNG: png)) {
            clipboardEncoding = encoding
        } else {
            effects.clipboard.append(.fulfilBMP(try? ClipboardEncoding.make(.bmp(fromPNG: png)).get()))
        }
    }

    /// Asks the window for the clipboard's picture (Ctrl+V); it arrives as an
    /// `InputEvent.pasted`. With `asNewPicture` (Ctrl+Shift+V, GIMP's Paste as New Image and
    /// KolourPaint's Paste in New Window) it becomes a picture of its own, its size, keeping its
    /// transparency, instead of floating over this one.
    public func requestPaste(asNewPicture: Bool = false) {
        commitStroke()
        pasteRequestedAsNew = asNewPicture
        // A BMP being made for another program is not waited for: the paste asks for the PNG.
        if clipboardEncoding?.makesBMP == false { finishClipboardEncoding() }
        effects.clipboard.append(.fetch)
    }

    /// Floats a picture from the clipboard (PNG, JPEG, BMP, WebP or GIF) at the top-left
    /// corner of the visible part of the canvas, to be put down as one step that undo takes
    /// back. It is decoded on a thread of its own (`startPaste`).
    func paste(picture: [UInt8]) {
        commitStroke()
        startPaste(.clipboard(picture), asNewPicture: pasteRequestedAsNew)
    }

    /// Files copied in a file manager and pasted: the first one's picture floats, read as a
    /// file dropped with Ctrl is (the same checks and messages); a folder or a file that is
    /// gone says so.
    func pasteFiles(_ paths: [String]) {
        commitStroke()
        guard let first = paths.first(where: { FileSystem.kind($0) == .file }) else {
            let name = paths.first.map { PathDisplay.abbreviatingHome($0) } ?? ""
            return setMessage("Cannot paste: “\(name)” is gone or not a file")
        }
        startPaste(.file(first), asNewPicture: pasteRequestedAsNew)
    }

    /// A picture file dropped on the window: opened as Open does (asking about unsaved changes
    /// first), or with Ctrl held pasted as a floating picture. Only the first picture of several
    /// is used; what is not a picture says so, and a file whose name is not UTF-8 (left out of
    /// `paths`, `namesNotUTF8` of them) says why it cannot be opened.
    func drop(_ paths: [String], paste: Bool, namesNotUTF8: Int = 0) {
        commitStroke()
        guard fileDialog == nil, mode == .normal else { return setMessage("Finish the question first, then drop") }
        guard let first = paths.first(where: { FileSystem.kind($0) == .file }) else {
            if namesNotUTF8 > 0 {
                return setMessage(
                    "Cannot open the dropped file: its name is not valid UTF-8; rename it"
                        + " (convmv -f latin1 -t utf-8 converts names)")
            }
            return setMessage(paths.isEmpty ? "Only files can be dropped here" : "Nothing to open: not a file")
        }
        guard paste else { return open(first) }
        startPaste(.file(first))
    }

    // MARK: Decoding a paste

    /// Starts decoding a pasted picture off the window's thread: the window goes on drawing and
    /// answering, the status bar says what is coming, Escape cancels it. A paste still decoding
    /// is superseded (told to stop). When it is done it floats as a paste always has
    /// (`checkPaste`), or (`asNewPicture`) becomes a new picture of its own.
    func startPaste(_ source: PasteDecoding.Source, asNewPicture: Bool = false) {
        pasteDecoding = nil
        guard let decoding = PasteDecoding(source, decoder: decodePaste) else {
            // No pipe for the thread to signal through: decoded here, as before.
            return placeDecoded(decodePaste(source, nil), from: source, asNewPicture: asNewPicture)
        }
        decoding.makesNewPicture = asNewPicture
        pasteDecoding = decoding
        let size = decoding.header.map { " \($0.width) × \($0.height)" } ?? ""
        if case .background = source {
            setMessage("Reading the background picture\(size)…; Escape cancels")
        } else {
            setMessage("Pasting\(size)…; Escape cancels")
        }
    }

    /// Whether a pasted picture is still being decoded.
    public var isDecodingPaste: Bool { pasteDecoding != nil }

    /// Floats the decoded paste once it is done and nothing is being drawn (a stroke, a
    /// question, a text box, a dialog finishes first; the window looks again every turn).
    func checkPaste() {
        guard let decoding = pasteDecoding, decoding.checkFinished() else { return }
        guard case .idle = gesture, mode == .normal, fileDialog == nil, liveText == nil else { return }
        finishPaste()
    }

    /// Waits for the paste being decoded, if any, and floats it (or says why not).
    func finishPaste() {
        guard let decoding = pasteDecoding else { return }
        // Taken before it is let go: letting it go tells a decode still running to stop.
        let result = decoding.finish()
        pasteDecoding = nil
        commitStroke()
        placeDecoded(result, from: decoding.source, asNewPicture: decoding.makesNewPicture)
    }

    /// Escape while a paste decodes: it is stopped, and nothing is pasted.
    func cancelPaste() {
        guard let decoding = pasteDecoding else { return }
        pasteDecoding = nil
        if case .background = decoding.source { return setMessage("Background unchanged") }
        setMessage("Paste cancelled")
    }

    /// A decoded paste: its picture, and when its source was damaged or cut short what could be
    /// read of it, said as the status bar says it (`PasteDecoding.damageMessage`).
    struct Pasted {
        var image: PixelImage
        var damage: PictureDamage?
        var damageMessage: String?
    }

    /// Floats the decoded picture, or says why there is none: a dropped file as Open says it,
    /// the clipboard as what it is (no file to open). A damaged source gives what could be
    /// read, and the status bar says so as it does for a damaged file opened.
    private func placeDecoded(
        _ result: Result<DecodedImage, ImageFileError>, from source: PasteDecoding.Source, asNewPicture: Bool
    ) {
        switch (result, source) {
        case (.success(let decoded), .background(let path)):
            setBackground(
                picture: decoded.image, from: path,
                damaged: decoded.damage.map { PasteDecoding.damageMessage($0, from: source) })
        case (.success(let decoded), _):
            let pasted = Pasted(
                image: decoded.image, damage: decoded.damage,
                damageMessage: decoded.damage.map { PasteDecoding.damageMessage($0, from: source) })
            if asNewPicture {
                pendingPasteAsNew = pasted
                requestLeave(to: .pastedPicture)
            } else {
                place(pasted.image, damaged: pasted.damageMessage)
            }
        case (.failure(let error), .clipboard): setMessage(error.clipboardMessage)
        case (.failure(let error), .file), (.failure(let error), .background): setMessage(error.description)
        }
    }

    /// Paste as New Picture, this document left (saved or given up): a new untitled picture of
    /// the pasted picture's size holding it as its one step (undo leaves the empty canvas, as
    /// KolourPaint's Paste in New Window does). A picture with any transparency goes over a
    /// transparent background, so it is saved with its alpha as GIMP's Paste as New Image keeps
    /// it; an opaque one over the usual background (saved as RGB, as before). One from a
    /// damaged source is marked as a damaged file opened is (`Document.damage`): the status bar
    /// says what could be read until something else is said, and Save As suggests
    /// `untitled (recovered).png`.
    func newPictureFromPaste() {
        guard let pasted = pendingPasteAsNew else { return }
        pendingPasteAsNew = nil
        let image = pasted.image
        var options = opener.options
        if !image.isOpaque { options.background = .transparent }
        var document = DocumentLoader.blank(width: image.width, height: image.height, options: options)
        document.damage = pasted.damage
        start(document, message: "", anotherPicture: true)
        perform(.paste(image, x: 0, y: 0))
        if let said = pasted.damageMessage {
            return setMessage("\(said); a new picture of it, \(image.width) × \(image.height)")
        }
        setMessage(
            "New picture from the clipboard, \(image.width) × \(image.height)"
                + (!image.isOpaque ? ", its transparency kept" : ""))
    }

    /// Floats `image` at the top-left corner of the visible canvas, to be dragged into place.
    /// It takes the selection's place, as in MS Paint: once it is put down or dropped nothing
    /// is selected, so a Delete then cannot clear a rectangle chosen before the paste. A paste
    /// whose source was damaged says what could be read of it (`damaged`) instead of its size.
    func place(_ image: PixelImage, damaged: String? = nil) {
        selection = nil
        let visible = layout.visibleImage
        let corner = layout.imagePoint(windowX: visible.x, windowY: visible.y)
        placing = Placing(
            image: image, x: max(0, Int(corner.x.rounded(.down))), y: max(0, Int(corner.y.rounded(.down))))
        showPlacing()
        // Larger than the picture: say how to keep it whole (MS Paint asks to enlarge).
        let larger = image.width > engine.width || image.height > engine.height
        // Short enough to be read whole in the default window (StatusMessageFitTests), measured
        // as Xft draws them (a picture of 1920 × 1080 too).
        if let damaged { return setMessage("\(damaged); Enter puts it down, Esc drops it") }
        setMessage(
            larger
                ? "Too large: Ctrl+Shift+X grows the picture, Enter crops, Esc drops"
                : "Pasted \(image.width) × \(image.height): drag it, Enter puts it down, Esc drops it")
    }

    // MARK: Placing a paste

    /// A pasted picture waiting to be put down: shown over the canvas (not yet in the paint),
    /// dragged into place with the left button.
    struct Placing {
        var image: PixelImage
        var x: Int
        var y: Int
        /// For a selection being moved: where its paint was lifted from (cleared in the paint
        /// until it is put down or dropped, and not recorded until then).
        var liftedFrom: IntRect?
        /// How the picture was turned and mirrored since it was lifted or pasted (`image` is
        /// shown so); a lifted selection is recorded with it when put down.
        var orientation = Orientation.identity
        /// Twice the centre the picture turns about: kept across turns, so turning back and
        /// forth never drifts by the half pixel an odd size rounds to; a move sets it again.
        var pivot: (x: Int, y: Int)?
        var rect: IntRect { IntRect(x: x, y: y, width: image.width, height: image.height) }

        /// Turned or mirrored about its centre.
        mutating func orient(_ o: Orientation) {
            let centre = pivot ?? (2 * x + image.width, 2 * y + image.height)
            image = image.oriented(o)
            orientation = orientation.then(o)
            pivot = centre
            x = (centre.x - image.width) >> 1
            y = (centre.y - image.height) >> 1
        }
    }

    /// Whether a pasted picture is waiting to be put down.
    public var isPlacingPaste: Bool { placing != nil }

    /// Redraws the picture being placed where it is now, taken off where it was, and its
    /// outline. The engine keeps it over every view it composites until it is taken off, so
    /// a scroll or another zoom while it floats still shows it.
    func showPlacing() {
        redraw(engine.hidePastePreview())
        if let p = placing {
            redraw(engine.showPastePreview(p.image, atX: p.x, y: p.y))
        }
        setOutline(placing?.rect ?? selection)
    }

    func movePlacing(toX x: Int, y: Int) {
        guard var p = placing, x != p.x || y != p.y else { return }
        p.x = x
        p.y = y
        p.pivot = nil
        placing = p
        showPlacing()
    }

    /// Puts the pasted picture down where it is, as one step of the history. Only what lies
    /// on the canvas is kept: the step, the journal and the saved history hold no pixels
    /// nobody will see.
    func putDownPaste() {
        guard let p = takePlacing() else { return }
        if let source = p.liftedFrom {
            // A move: the lifted paint is back in place; the move is one step of its own.
            let (dx, dy) = (p.x - source.x, p.y - source.y)
            if p.orientation != .identity {
                perform(.orientRect(source, p.orientation, dx: dx, dy: dy))
                return setMessage("Selection \(p.orientation)")
            }
            guard dx != 0 || dy != 0 else { return setMessage("The selection is where it was") }
            perform(.moveRect(source, dx: dx, dy: dy))
            return setMessage("Moved \(source.width) × \(source.height) by \(dx), \(dy)")
        }
        let onCanvas = p.rect.intersection(engine.bounds)
        guard !onCanvas.isEmpty else { return setMessage("The pasted picture was off the canvas; nothing was pasted") }
        let kept = p.image.cropped(
            to: IntRect(x: onCanvas.x - p.x, y: onCanvas.y - p.y, width: onCanvas.width, height: onCanvas.height))
        perform(.paste(kept, x: onCanvas.x, y: onCanvas.y))
        let cropped = onCanvas != p.rect
        setMessage(
            "Pasted \(kept.width) × \(kept.height) at \(onCanvas.x), \(onCanvas.y)"
                + (cropped ? ", cropped to the canvas" : ""))
    }

    /// Crop to the floating picture (Ctrl+Shift+X) when a paste reaches past the canvas: the
    /// canvas becomes the paste's rectangle, grown with the background where it reaches past
    /// (a screenshot pasted into a smaller picture), then the paste is put down whole: two
    /// steps, as the crop and the paste are. Before, the paste was put down cropped to the old
    /// canvas and the crop then found nothing to do.
    func cropToFloatingPaste() {
        guard let p = takePlacing() else { return }
        let (width, height) = (engine.width, engine.height)
        changeCanvas(.resize(p.rect), saying: "")
        guard engine.width == p.image.width, engine.height == p.image.height else {
            // Refused (the limits): the paste floats again, and the message says why.
            if engine.width == width && engine.height == height {
                placing = p
                showPlacing()
            }
            return
        }
        placing = Placing(image: p.image, x: 0, y: 0)
        putDownPaste()
        setMessage("Cropped to the paste, \(p.image.width) × \(p.image.height) (Ctrl+Z twice undoes both)")
    }

    /// Drops the pasted picture without putting it down (Escape).
    func dropPaste() {
        guard let p = takePlacing() else { return }
        setMessage(p.liftedFrom == nil ? "Paste dropped" : "Move cancelled")
    }

    /// Delete (or Ctrl+X) while a picture floats: a paste is dropped; a selection being moved
    /// goes, leaving its place cleared to the background and the picture where it floated as
    /// it was, one step (MS Paint's and Paint.NET's Delete). False when nothing floats.
    func deleteFloating() -> Bool {
        guard let p = takePlacing() else { return false }
        guard let source = p.liftedFrom else {
            setMessage("Paste dropped")
            return true
        }
        perform(.clearRect(source))
        setSelection(nil)
        setMessage("Cleared \(source.width) × \(source.height)")
        return true
    }

    /// The floating picture as it would be saved where it floats: over the background (its
    /// own alpha kept when the background is transparent).
    func flattenedFloating(_ p: Placing) -> PixelImage {
        var out = p.image
        let background = engine.background
        for y in 0..<out.height {
            for x in 0..<out.width {
                switch background {
                case .transparent: return out
                case .color(let color): out[x, y] = Pixel.over(out[x, y], backdrop: color.pixel)
                case .image(let image):
                    let (cx, cy) = (p.x + x, p.y + y)
                    let inside = cx >= 0 && cy >= 0 && cx < image.width && cy < image.height
                    out[x, y] = Pixel.over(out[x, y], backdrop: inside ? image[cx, cy] : Color.white.pixel)
                }
            }
        }
        return out
    }

    /// Ends the floating picture: takes it off the view and puts back the paint it was lifted
    /// from, if any. Returns it.
    private func takePlacing() -> Placing? {
        guard let p = placing else { return nil }
        placing = nil
        if case .dragFloating = gesture { gesture = .idle }
        showPlacing()
        if let source = p.liftedFrom {
            redraw(engine.restorePaint(p.image.oriented(p.orientation.inverse), atX: source.x, y: source.y))
        }
        return p
    }
}

import PaintCore
import PaintIO

/// Saving in the format the name asks for: PNG, JPEG or WebP by the extension, `.png` added to a
/// name without one, a question for a name whose extension SwiftPaint does not write, the JPEG
/// or WebP quality asked (and remembered), and what a format cannot keep said once.
extension Session {
    // MARK: Choosing the format

    /// The format a save to `target` writes, or nil when the user must choose: the extension's
    /// (when SwiftPaint writes it); for the document's own file without such an extension, the
    /// format it was read in, or PNG when it has no extension at all (`swiftpaint drawing`
    /// promised to save under that very name).
    func formatToSave(_ target: String) -> ImageFormat? {
        let naming = ImageFormat.naming(of: target)
        if case .known(let format) = naming, format.canSave { return format }
        guard target == path else { return nil }
        if let format = document.format, format.canSave { return format }
        return naming == .none ? .png : nil
    }

    /// The name typed into Save as, made absolute, `.png` added when it has no extension; asks
    /// before replacing another file, then saves as `saveAsking` does.
    func commitSaveName(_ typed: String, then: Leaving?) {
        var target = PathDisplay.absolute(typed)
        // A folder is not a name: Save as opens there, for the name.
        if typed.hasSuffix("/") || FileSystem.kind(target) == .folder {
            promptSaveAs(then: then)
            fileDialog?.go(to: target)
            fileDialog?.report("“\(PathDisplay.abbreviatingHome(target))” is a folder: type a file name")
            return
        }
        if ImageFormat.naming(of: target) == .none { target += ".png" }
        // Another picture of that name is never overwritten without asking, nor the damaged
        // file the picture was read from.
        if (target != path || document.damage != nil) && FileSystem.exists(target) {
            setMode(.confirmReplace(target, then: then))
        } else {
            saveAsking(to: target, then: then)
        }
    }

    /// Saves to `target` (absolute), first asking what only the user can say: the format, when
    /// the name's extension is not one SwiftPaint writes; the quality, when the picture becomes a
    /// JPEG or a WebP (not again at Ctrl+S on the JPEG or WebP it already is; a WebP's 100 is
    /// lossless). Goes on to `then` after a save.
    func saveAsking(to target: String, then: Leaving?) {
        // One save at a time: this one is made once the one being written is done (it is asked
        // then, against the file that one wrote).
        if let saving {
            queuedSave = (target, then, historyInsideNextSave)
            historyInsideNextSave = false
            setMessage("Saving “\(FileSystem.lastComponent(saving.target))”…; saving again when it is done")
            return
        }
        // Another program changed the file since it was opened or saved here: never write over
        // its work without asking (unless the user said Overwrite for that very version). When
        // only its bytes can tell, the save waits for them, read off the window's thread; a
        // save to it asked for meanwhile is that same save.
        if target == path {
            if let waiting = awaitingDisk {
                if let joined = waiting.joining(save: target, then: then, historyInside: historyInsideNextSave) {
                    historyInsideNextSave = false
                    awaitingDisk = joined
                    return
                }
            } else {
                switch changeOnDisk(read: readOffThread) {
                case nil:
                    waitForDisk(.save(target: target, then: then, historyInside: historyInsideNextSave))
                    historyInsideNextSave = false
                    return
                case true? where overwriteAccepted == nil || overwriteAccepted != FileVersion.Stat(path: target):
                    setMode(.confirmOverwrite(target, then: then))
                    return
                default:
                    break
                }
            }
        }
        guard let format = formatToSave(target) else {
            setMode(.chooseFormat(target, then: then))
            return
        }
        if format.asksQuality && !(target == path && document.format == format) {
            // The number offered is selected, so a number typed replaces it (typing 75 after
            // the 90 shown made 9075); an older message would hide the prompt's keys.
            var field = TextField(String(offeredQuality(for: format)))
            field.selectAll()
            setMessage("")
            setMode(.qualityPrompt(field, target: target, then: then))
            return
        }
        save(to: target, as: format, then: then)
    }

    /// The answer to "which format?": `target` with the chosen format's extension (in place of
    /// one SwiftPaint opens but does not write, such as `.gif`; after any other), then as a
    /// typed name.
    func choseFormat(_ format: ImageFormat, for target: String, then: Leaving?) {
        var base = target
        if case .known = ImageFormat.naming(of: target), let dot = target.lastIndex(of: ".") {
            base = String(target[..<dot])
        }
        commitSaveName(base + "." + format.fileExtension, then: then)
    }

    /// The quality typed into the JPEG or WebP question: remembered, then the save. A JPEG
    /// quality typed other than the one offered drops the opened file's (quality and color
    /// sampling): the color then follows the quality typed.
    func commitQuality(_ typed: String, target: String, then: Leaving?) {
        guard let quality = Int(typed.trimmingSpaces), (1...100).contains(quality) else {
            setMode(.qualityPrompt(TextField(typed), target: target, then: then))
            setMessage("The quality is a whole number from 1 to 100")
            return
        }
        let format = qualityFormat(target)
        // A quality is remembered only when it is not the one offered: lossy 90 accepted for a
        // JPEG's picture must not become the WebP offer for a screenshot, nor a camera JPEG's
        // own 97 the JPEG offer for every picture after it.
        if quality != offeredQuality(for: format) {
            if format == .webp { webpQualityChosen = true }
            // The user's quality from now on, not the opened file's.
            if format == .jpeg { document.sourceJPEG = nil }
            changeSettings { $0.setQuality(quality, for: format) }
        }
        save(to: target, as: format, then: then)
    }

    /// Whether the WebP question offers `SaveOptions.lossyWebPQuality`: the picture came from a
    /// lossy file (JPEG, lossy WebP), where lossless keeps only the compression's noise, and the
    /// user did not choose a WebP quality: none typed in this window, and none in the settings
    /// but the default (`Settings.defaultWebPQuality`; `webp-quality = 80` in settings.conf, set
    /// by hand or typed in an earlier run, is the user's and offered for a JPEG's picture too,
    /// where the 100 written back by every run is not). Anything else (a screenshot, a PNG, a new
    /// drawing) is offered the WebP quality last chosen, lossless (100) at first.
    var offersLossyWebP: Bool {
        document.lossySource && !webpQualityChosen && settings.webpQuality == Settings.defaultWebPQuality
    }

    /// The quality the question offers for `format`, which a save without the question (Ctrl+S
    /// into the file's own format) uses too. For JPEG, the opened JPEG's own quality when it is
    /// higher than the one set, as GIMP's export offers it: a camera's quality-97 photo saved
    /// at 90 lost detail and a third of its size at every Ctrl+S.
    func offeredQuality(for format: ImageFormat) -> Int {
        switch format {
        case .webp: return offersLossyWebP ? SaveOptions.lossyWebPQuality : settings.webpQuality
        case .jpeg: return document.sourceJPEG?.quality(over: settings.jpegQuality) ?? settings.jpegQuality
        default: return settings.quality(for: format)
        }
    }

    /// The format a quality question is about: WebP or JPEG.
    func qualityFormat(_ target: String) -> ImageFormat { formatToSave(target) == .webp ? .webp : .jpeg }
}

extension ImageFormat {
    /// Whether saving as this format asks a quality: JPEG, and WebP (100 is lossless).
    var asksQuality: Bool { self == .jpeg || self == .webp }
}

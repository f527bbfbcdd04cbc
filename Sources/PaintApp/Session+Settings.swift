import PaintCore

/// Changing what the user paints with: every change goes through `changeSettings`, which
/// redraws the toolbar when anything changed.
extension Session {
    /// Applies `change` to the settings; the toolbar is redrawn when they changed.
    func changeSettings(_ change: (inout Settings) -> Void) {
        let before = settings
        change(&settings)
        guard settings != before else { return }
        effects.toolbar = true
        // The box being typed shows the font, color and opacity as they are set.
        followSettings()
    }

    /// Chooses a tool.
    public func select(_ t: Tool) {
        if t != .text {
            commitText()
            closeFontChooser(accepting: true)
        }
        changeSettings { $0.tool = t }
        if t != .strokeEraser { setHoverStroke(nil) }
        if t != .select { setSelection(nil) }
    }

    /// Sets the brush width (clamped to 1...200).
    public func setWidth(_ w: Double) { changeSettings { $0.setWidth(w) } }

    /// Sets the fill tolerance (clamped to 0...255).
    public func setTolerance(_ value: Int) { changeSettings { $0.setTolerance(value) } }

    /// Sets the opacity in percent (clamped to 1...100).
    public func setOpacity(_ percent: Int) { changeSettings { $0.setOpacity(percent) } }

    /// Steps what a toolbar slider sets one notch down or up (`[` `]`, or the wheel over the
    /// slider): the width by a step that grows with it, the fill tolerance by 8, the text size
    /// by a tenth, the opacity to the next multiple of 5 %.
    /// A tool without a width leaves the width alone (the brush keeps the width it was left
    /// at, which nothing would show meanwhile) and says so, rather than ignore the key.
    func stepSlider(_ item: ToolbarItem, down: Bool) {
        guard let scale = settings.scale(of: item) else {
            if item == .widthSlider {
                setMessage("\(settings.tool.name) has no width ([ and ] size brushes, shapes, text)")
            }
            return
        }
        changeSettings { s in
            switch scale {
            case .width: s.setWidth(s.brushWidth + (down ? -s.widthStep(down: true) : s.widthStep(down: false)))
            case .tolerance: s.setTolerance(s.fillTolerance + (down ? -8 : 8))
            case .textSize:
                s.setTextSize(s.textFont.size + (down ? -s.textSizeStep(down: true) : s.textSizeStep(down: false)))
            case .opacity: s.setOpacity(down ? (s.opacityPercent - 1) / 5 * 5 : (s.opacityPercent / 5 + 1) * 5)
            }
        }
    }

    /// Sets the primary color.
    public func setPrimary(_ c: Color) { changeSettings { $0.primary = c } }

    /// The stabilizer's next step (off, 4, 8, 16 samples), or the one before.
    public func stepStabilizer(back: Bool = false) {
        let steps = Settings.stabilizerSteps
        let i = steps.firstIndex(of: settings.stabilizer) ?? 0
        let next = steps[(i + (back ? steps.count - 1 : 1)) % steps.count]
        changeSettings { $0.setStabilizer(next) }
        effects.status = true
        setMessage(
            next == 0
                ? "Stabilizer off"
                : "Stabilizer \(next): each point is the mean of the last \(next) (the line lags)")
    }

    /// Swaps primary and secondary colors.
    public func swapColors() { changeSettings { swap(&$0.primary, &$0.secondary) } }

    // MARK: Remembered between runs

    /// What to remember of this run: the settings, the window's size (in 96-dpi pixels), the
    /// last folder and the view options.
    public var stored: StoredSettings {
        var stored = StoredSettings()
        stored.settings = settings
        let ui = layout.ui.factor
        stored.window = StoredSettings.WindowSize(
            width: Int((Double(layout.windowWidth) / ui).rounded()),
            height: Int((Double(layout.windowHeight) / ui).rounded()))
        stored.folder = lastFolder
        stored.fitLargePictures = fitLargePictures
        stored.otherEntries = otherStoredSettings
        return stored
    }

    /// Takes up what a previous run remembered (the window's size is the window layer's).
    public func restore(_ stored: StoredSettings) {
        changeSettings { $0 = stored.settings }
        lastFolder = stored.folder
        fitLargePictures = stored.fitLargePictures
        otherStoredSettings = stored.otherEntries
    }
}

import PaintCore

/// Changing what the user paints with: every change goes through `changeSettings`, which
/// redraws the toolbar when anything changed.
extension Session {
    /// Applies `change` to the settings; the toolbar is redrawn when they changed.
    func changeSettings(_ change: (inout Settings) -> Void) {
        let before = settings
        change(&settings)
        if settings != before { effects.toolbar = true }
    }

    /// Chooses a tool.
    public func select(_ t: Tool) {
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

    /// Sets the primary color.
    public func setPrimary(_ c: Color) { changeSettings { $0.primary = c } }

    /// Swaps primary and secondary colors.
    public func swapColors() { changeSettings { swap(&$0.primary, &$0.secondary) } }
}

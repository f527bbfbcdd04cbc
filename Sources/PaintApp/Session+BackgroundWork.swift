/// Work done on threads of their own (`BackgroundJob`s: a history rebuilt, a paste decoded, a
/// save, the file's bytes read, the file dialog's thumbnails, a drawing restored, a copy
/// encoded): the window polls their descriptors with the X connection and, when one is
/// readable, calls `takeBackgroundWork`.
extension Session {
    /// How many descriptors the session may give (`backgroundDescriptor`): the window keeps that
    /// many poll slots, filled in place each turn.
    public static let backgroundSlots = 7

    /// The descriptor in `slot` (0 ..< `backgroundSlots`), readable once its work is done; nil
    /// when nothing is under way there, or its end was seen already. One function rather than
    /// an array: the window asks every turn, once a frame while a stroke is drawn, and nothing
    /// is allocated for it.
    public func backgroundDescriptor(_ slot: Int) -> Int32? {
        switch slot {
        case 0: document.historyRebuild?.descriptor
        case 1: pasteDecoding?.descriptor
        case 2: saving?.descriptor
        case 3: diskCheck?.wakeFD
        case 4: thumbnailer.flatMap(\.descriptor)
        case 5: restoring?.descriptor
        case 6: clipboardEncoding?.descriptor
        default: nil
        }
    }

    /// Every descriptor `backgroundDescriptor` gives now (tests, and where a turn's array costs
    /// nothing that matters).
    public var backgroundDescriptors: [Int32] { (0..<Self.backgroundSlots).compactMap(backgroundDescriptor) }

    /// Takes what is done: a history rebuilt (`checkHistoryRebuild`), a drawing restored
    /// (`checkRestore`), a save written (`checkSave`), a paste decoded onto the canvas
    /// (`checkPaste`), a copy encoded for the clipboard (`checkClipboardEncoding`), and a
    /// thumbnail finished into the dialog (the next one starts); the file's bytes read on their
    /// thread wait for the turn's look (`watch`).
    public func takeBackgroundWork() {
        checkHistoryRebuild()
        diskCheck?.tookWake()
        checkRestore()
        checkSave()
        checkPaste()
        checkClipboardEncoding()
        guard let loader = thumbnailer else { return }
        let done = loader.take()
        guard !done.isEmpty else { return }
        for item in done { thumbnails[item.path] = (item.side, item.image) }
        if fileDialog != nil { effects.editor = true }
    }
}

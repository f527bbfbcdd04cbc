import CX11
import PaintApp

/// The window's selections: CLIPBOARD (Ctrl+C, Ctrl+X, Ctrl+V) and PRIMARY (text selected in
/// the text box, offered to other programs' middle click; a middle click in the box pastes
/// it).
extension X11App {
    /// Carries out what the session asked of the selections (Ctrl+C, Ctrl+V, a text selection,
    /// a middle click in the text box); what comes back
    /// goes to the session as input at once.
    func serveClipboard() {
        // Another program asked for the picture as BMP: made on a thread (the session's
        // `ClipboardEncoding`, polled in its slot), once the session's requests are served
        // (a newer copy among them refuses what waited for the BMP).
        defer {
            if let png = clipboard.takeBMPToMake() {
                session.makeClipboardBMP(fromPNG: png)
                owed.merge(session.takeEffects())
            }
        }
        guard !owed.clipboard.isEmpty else { return }
        let requests = owed.clipboard
        owed.clipboard = []
        for request in requests {
            var fetched: Clipboard.Fetched?
            switch request {
            case .offer(let png):
                if !clipboard.offer(png, time: lastEventTime) {
                    fetched = .nothing("Cannot copy: another program holds the clipboard")
                }
            case .claim(let width, let height):
                if !clipboard.claim(width: width, height: height, time: lastEventTime) {
                    fetched = .nothing("Cannot copy: another program holds the clipboard")
                }
            case .fulfil(let png):
                clipboard.fulfil(png)
            case .fulfilBMP(let bmp):
                clipboard.fulfilBMP(bmp)
            case .offerText(let text):
                if !clipboard.offer(Array(text.utf8), text: true, time: lastEventTime) {
                    fetched = .nothing("Cannot copy: another program holds the clipboard")
                }
            case .fetch:
                fetched = clipboard.fetch(time: lastEventTime)
            case .fetchText:
                fetched = clipboard.fetch(time: lastEventTime, text: true)
            case .offerPrimary(let text):
                // Another program may take PRIMARY at any moment; losing it needs no word.
                _ = primary.offer(Array(text.utf8), text: true, time: lastEventTime)
            case .releasePrimary:
                primary.disown()
            case .fetchPrimaryText:
                if let answer = primary.fetch(time: lastEventTime, text: true), let input = Self.input(primary: answer)
                {
                    give([input])
                    owed.merge(session.takeEffects())
                }
            }
            if let fetched {
                give([Self.input(fetched)])
                owed.merge(session.takeEffects())
            }
        }
    }

    /// The clipboard's answer, as input for the session.
    static func input(_ fetched: Clipboard.Fetched) -> InputEvent {
        switch fetched {
        case .picture(let bytes): return .pasted(picture: bytes)
        case .files(let paths): return .pastedFiles(paths)
        case .text(let text): return .pastedText(text)
        case .nothing(let why): return .clipboardFailed(why)
        }
    }

    /// PRIMARY's answer to a middle click, as input for the session: its text, or nothing
    /// (X text widgets paste nothing, with no message, when no program offers text there).
    static func input(primary fetched: Clipboard.Fetched) -> InputEvent? {
        if case .text(let text) = fetched { return .pastedText(text) }
        return nil
    }

    /// Programs whose windows refused our answers (they quit before reading them,
    /// `XErrorTrap`): a transfer to them ends.
    func forgetGoneRequestors() {
        for requestor in XErrorTrap.takeRefusals() {
            clipboard.forget(requestor: requestor)
            primary.forget(requestor: requestor)
        }
    }

    /// A selection or property event, handed to the selection it concerns; a fetch it ends
    /// goes into `batch`.
    func handleSelection(_ event: inout XEvent, into batch: inout [InputEvent]) {
        if clipboard.concerns(event), let fetched = clipboard.handle(&event) { batch.append(Self.input(fetched)) }
        if primary.concerns(event), let fetched = primary.handle(&event), let input = Self.input(primary: fetched) {
            batch.append(input)
        }
    }
}

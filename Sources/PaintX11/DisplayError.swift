/// Why the window could not be shown, in words for the terminal.
public enum DisplayError: Error, CustomStringConvertible {
    case noDisplay(String?)
    case unsupportedVisual(String)
    case outOfMemory

    public var description: String {
        switch self {
        case .noDisplay(let name):
            if let name, !name.isEmpty {
                return
                    "swiftpaint: cannot open the X display \"\(name)\" (check DISPLAY and that the X server is running)"
            }
            return
                "swiftpaint: cannot open an X display: DISPLAY is not set (run it inside a desktop session, or set DISPLAY)"
        case .unsupportedVisual(let why): return "swiftpaint: cannot draw on this display: \(why)"
        case .outOfMemory: return "swiftpaint: out of memory for the window image"
        }
    }
}

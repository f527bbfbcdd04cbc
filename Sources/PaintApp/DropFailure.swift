/// Why a drop on the window came to nothing before its files arrived: the program dragging
/// never handed them over. The window gives such a drop up rather than wait on it (XDND says
/// nothing of a source that quits or hangs), and the status bar says so in red.
public enum DropFailure: Equatable, Sendable {
    /// The source refused to hand its list over, or had quit by the time it was asked (its
    /// window gone, the server answers for it).
    case notHandedOver
    /// The source took the request and stayed silent for `seconds`.
    case noAnswer(seconds: Int)

    /// The status bar's sentence.
    public var message: String {
        switch self {
        case .notHandedOver:
            return
                "Cannot drop: the program dragging did not hand its files over (it may have quit); nothing was opened"
        case .noAnswer(let seconds):
            return "Cannot drop: the program dragging stopped answering; the drop was abandoned after \(seconds) s"
        }
    }
}

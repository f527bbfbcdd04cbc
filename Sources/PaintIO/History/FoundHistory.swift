/// What looking for a picture's history found: in the file's own `spHS` chunk or in the
/// history store.
public enum FoundHistory: Sendable, Equatable {
    /// There is none.
    case none
    /// The history, read and checked as far as bytes go (it is still to be replayed and compared
    /// with the picture before it is trusted).
    case archive(DocumentArchive)
    /// There is a history but it cannot be used; the reason is in words.
    case rejected(String)
}

import PaintCore

/// A document's editing history as a save hands it over (DESIGN §3): kept on this computer in
/// the history store, and carried inside the file (the `spHS` chunk) only when the user asks for
/// a portable file.
public struct SavedHistory: Sendable {
    /// The history; its `pixelHash` is filled in by the save from the pixels a reader decodes.
    public var archive: DocumentArchive
    /// Where to keep it; nil keeps it nowhere on this computer.
    public var store: HistoryStore?
    /// Whether the file itself carries it ("Save with history").
    public var portable: Bool
    /// The clean base an earlier save of the same document made (`Outcome.cleanBase`): used
    /// when it was made from this history's starting picture, instead of making it again.
    public var cleanBase: CleanBase.Made?

    public init(archive: DocumentArchive, store: HistoryStore?, portable: Bool) {
        self.archive = archive
        self.store = store
        self.portable = portable
    }

    /// What a save did with the history.
    public struct Outcome: Equatable, Sendable {
        /// The store entry written, nil when none was (`dropped` is counted once the file is
        /// saved).
        public var kept: HistoryStore.Kept?
        /// The entry written before the file: committed once the file is saved (other
        /// pictures' histories are dropped under the cap only then), rolled back when it is
        /// not (the store is left as it was).
        var staged: HistoryStore.Staged?
        /// Whether the file carries the history in its `spHS` chunk.
        public var carried = false
        /// The clean base the file carries, to hand to the document's next save.
        public var cleanBase: CleanBase.Made?
        /// Why the history was not kept or not carried as asked, as a clause for the status bar
        /// after "Saved to …; " ("its history was not kept: the disk is full"); the picture
        /// itself was saved all the same.
        public var problem: String?
        /// The file as the save wrote it (not read back: another program's save right after
        /// would be taken for this one's).
        public var file: FileVersion?

        public init(kept: HistoryStore.Kept? = nil, carried: Bool = false, problem: String? = nil) {
            self.kept = kept
            self.carried = carried
            self.problem = problem
        }
    }

    /// Keeps the history for the picture in `encoded` (the file's bytes about to be written)
    /// and returns the bytes to write: `encoded` itself, or with the history chunk when portable.
    ///
    /// The store entry is named by the pixels a reader decodes from `encoded`, not by the
    /// picture in memory, so reopening the file finds it whatever the format does to pixels.
    /// It is written, durably, before the file, so a crash never leaves a saved file whose
    /// history is missing. A history that cannot be kept leaves the save plain, never failed.
    ///
    /// `picture` is what was encoded: replaying the history gives it. Where the format keeps
    /// pixels as they are (PNG) it is what a reader decodes and the entry's key names it too;
    /// where it does not (JPEG, lossy WebP) the entry also names it by its own digest.
    /// `decoded` is what a reader decodes from `encoded` when that is known without decoding
    /// it (`ImageEncoder.decodedExactly`: a lossless format); nil decodes `encoded`.
    func attach(
        to encoded: [UInt8], picture: PixelImage, decoded: PixelImage? = nil, name: String
    ) throws(ImageFileError) -> (bytes: [UInt8], outcome: Outcome) {
        var outcome = Outcome()
        let saved: PixelImage
        if let decoded { saved = decoded } else { saved = try ImageDecoder.decode(encoded, name: name).image }
        var archive = self.archive
        archive.pixelHash = DocumentArchive.hash(saved)
        if let store, store.capBytes > 0 {
            let key = HistoryKey(of: saved)
            do {
                let staged = try store.stage(
                    archive, for: key, picture: saved == picture ? key : HistoryKey(of: picture))
                outcome.staged = staged
                outcome.kept = HistoryStore.Kept(bytes: staged.bytes, dropped: 0)
            } catch {
                outcome.problem = "its history was not kept: \(error.description)"
            }
        }
        guard portable else { return (encoded, outcome) }
        // What goes to someone else starts from the pixels only, never the opened file's
        // metadata (EXIF, GPS, thumbnail, comments); this computer's store keeps it as it is.
        // (Not for a file that cannot carry it: a JPEG saved with history says so below.)
        if let base = archive.baseImage, PNGChunks.walk(encoded) != .notPNG {
            if let made = cleanBase, made.isOf(base) {
                outcome.cleanBase = made
            } else {
                outcome.cleanBase = CleanBase.Made(of: base)
            }
            guard let clean = outcome.cleanBase?.bytes else {
                outcome.problem = Self.problem(
                    "its starting picture could not be made to go inside the file without the opened file's metadata",
                    outcome)
                return (encoded, outcome)
            }
            archive.baseImage = clean
        }
        do {
            let carrying = try HistoryChunk.embed(archive, into: encoded)
            outcome.carried = true
            return (carrying, outcome)
        } catch {
            let carrying: String
            switch error {
            case .notPNG: carrying = "only a PNG file can carry its history inside"
            case .archiveTooLarge(let reason): carrying = "its history is too large to go inside the file (\(reason))"
            }
            outcome.problem = Self.problem(carrying, outcome)
            return (encoded, outcome)
        }
    }

    /// Why the history is not in the file, then where it is kept and what else went wrong.
    private static func problem(_ notCarried: String, _ outcome: Outcome) -> String {
        [notCarried, outcome.kept != nil ? "it is kept on this computer" : nil, outcome.problem]
            .compactMap { $0 }.joined(separator: "; ")
    }
}

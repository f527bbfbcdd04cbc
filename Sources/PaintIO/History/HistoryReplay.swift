import PaintCore
import Synchronization

/// Rebuilds a document from an operation log read back from disk (a PNG's history chunk, a crash
/// journal, the history store): its starting picture with every operation replayed through a
/// `History`, so undo and the stroke eraser work on the rebuilt steps.
///
/// Nothing read back is trusted (DESIGN §3): the canvas size is checked against the image
/// limits and the log against a `ReplayBudget` before anything is allocated or replayed, the
/// starting picture must have the canvas's size, and `verify` tells whether the replay gives
/// exactly the pixels a file shows.
public enum HistoryReplay {
    /// What the log is replayed onto.
    public struct Start: Sendable, Equatable {
        /// The canvas the log starts on (a crop, scale or turn in the log may change it since).
        public var width: Int
        public var height: Int
        public var background: JournalBackground
        /// The starting paint layer as a picture file's bytes (any format SwiftPaint opens);
        /// nil for a blank one.
        public var baseImage: [UInt8]?

        public init(width: Int, height: Int, background: JournalBackground, baseImage: [UInt8]?) {
            self.width = width
            self.height = height
            self.background = background
            self.baseImage = baseImage
        }

        /// Where a saved history starts: on its starting canvas, when a step changed the size
        /// since, else on the saved picture's.
        public init(_ archive: DocumentArchive) {
            self.init(
                width: archive.startingCanvas?.width ?? archive.width,
                height: archive.startingCanvas?.height ?? archive.height, background: archive.background,
                baseImage: archive.baseImage)
        }

        /// Where a crash journal starts.
        public init(_ header: JournalHeader) {
            self.init(
                width: header.width, height: header.height, background: header.background,
                baseImage: header.baseImage)
        }
    }

    /// Why a log is not replayed, in words that follow "its editing history was left out: ".
    public enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        /// The canvas it describes is larger than the image limits.
        case canvasTooLarge(width: Int, height: Int)
        /// The log is over its replay budget.
        case overBudget(ReplayBudget.Overrun)
        /// The starting picture cannot be decoded.
        case unreadableBase(String)
        /// The starting picture is not the canvas's size.
        case baseSizeMismatch(width: Int, height: Int, canvasWidth: Int, canvasHeight: Int)
        /// The replay does not give the pixels the file shows.
        case picturesDiffer
        /// It was told to stop (`ReplayControl.stop`) before the end.
        case stopped

        public var description: String {
            switch self {
            case .canvasTooLarge(let w, let h):
                return "it describes a canvas of \(w) × \(h) pixels, larger than SwiftPaint opens"
            case .overBudget(let overrun):
                return overrun.description
            case .unreadableBase(let why):
                return "its starting picture cannot be read (\(why))"
            case .baseSizeMismatch(let w, let h, let cw, let ch):
                return "its starting picture is \(w) × \(h) pixels, not the canvas's \(cw) × \(ch)"
            case .picturesDiffer:
                return "replaying it does not give the picture the file shows"
            case .stopped:
                return "reading it was stopped"
            }
        }
    }

    /// The rebuilt document.
    public struct Result {
        public var engine: StrokeEngine
        public var history: History
        /// The history step of the last save marker in the log, if any.
        public var savedStep: Int?
        /// The path of the last save marker in the log, if any.
        public var savedPath: String?
        /// The file at `savedPath` as that save left it, when the marker says.
        public var savedVersion: FileVersion?
        /// Set when the starting picture's bytes are a damaged file's, decoded as far as they go.
        public var baseDamage: PictureDamage?
    }

    /// Checks `records` against the budget for `start`'s canvas without replaying them.
    public static func check(
        _ start: Start, _ records: [JournalRecord], limits: ReplayBudget.Limits = .default,
        imageLimits: ImageLimits = .default
    ) throws(Refusal) {
        guard start.width > 0, start.height > 0, imageLimits.allows(width: start.width, height: start.height) else {
            throw .canvasTooLarge(width: start.width, height: start.height)
        }
        var budget = ReplayBudget(width: start.width, height: start.height, limits: limits, imageLimits: imageLimits)
        if let overrun = budget.admit(operationCount: records.count) { throw .overBudget(overrun) }
        for case .operation(let operation) in records {
            if let overrun = budget.add(operation) { throw .overBudget(overrun) }
        }
    }

    /// Replays a log of operations (a saved history's) onto `start`: see the other `replay`.
    public static func replay(
        _ start: Start, _ operations: [Operation], memoryCap: Int = History.defaultMemoryCap,
        limits: ReplayBudget.Limits = .default, imageLimits: ImageLimits = .default, control: ReplayControl? = nil
    ) throws(Refusal) -> Result {
        try replay(
            start, records: operations.map(JournalRecord.operation), memoryCap: memoryCap, limits: limits,
            imageLimits: imageLimits, control: control)
    }

    /// Replays `records` onto `start`, after `check`: the one way a log read back (a history
    /// chunk, a store entry, a crash journal) becomes a picture with its history. Save marks set
    /// `savedStep` and `savedPath`; nothing is shown until the whole log is replayed (the view
    /// is composited once, at the end). A `control` told to stop (from another thread) ends
    /// the replay between two operations with `.stopped`; what it built is freed.
    public static func replay(
        _ start: Start, records: [JournalRecord], memoryCap: Int = History.defaultMemoryCap,
        limits: ReplayBudget.Limits = .default, imageLimits: ImageLimits = .default, control: ReplayControl? = nil
    ) throws(Refusal) -> Result {
        if control?.isStopped == true { throw .stopped }
        try check(start, records, limits: limits, imageLimits: imageLimits)
        let background: Background
        switch start.background {
        case .color(let c): background = .color(c)
        case .transparent: background = .transparent
        }
        let engine: StrokeEngine
        var baseDamage: PictureDamage?
        if let bytes = start.baseImage {
            let image: PixelImage
            do {
                let decoded = try ImageDecoder.decode(bytes, name: "the starting picture", limits: imageLimits)
                baseDamage = decoded.damage
                image = decoded.image
            } catch {
                throw .unreadableBase(error.reason)
            }
            guard image.width == start.width, image.height == start.height else {
                throw .baseSizeMismatch(
                    width: image.width, height: image.height, canvasWidth: start.width, canvasHeight: start.height)
            }
            engine = StrokeEngine(image: image, background: background)
        } else {
            engine = StrokeEngine(width: start.width, height: start.height, background: background)
        }
        // A starting picture is shared with the engine's tiles, not copied.
        let history =
            start.baseImage == nil
            ? History(base: nil, memoryCap: memoryCap) : History(startingFrom: engine, memoryCap: memoryCap)
        var result = Result(engine: engine, history: history, baseDamage: baseDamage)
        engine.defersComposite = true
        // Where each change left the history, and whether it was a new step: a save marker
        // written after changes drawn during the save names the step before them.
        var changes = SavedStepTrail(cursor: history.cursor)
        for record in records {
            // The stop point: one atomic load between operations, each bounded by the budget.
            if let control {
                if control.isStopped { throw .stopped }
                control.noteReplayed()
            }
            switch record {
            case .operation(let operation):
                history.perform(operation, engine: engine)
                // No idle slice runs here to let go of what the step retired (thinned keyframes).
                history.freeRetiredNow()
                changes.note(operation, cursor: history.cursor)
                // A new step in place of the saved one: no undo reaches the saved picture again.
                result.savedStep = History.step(result.savedStep, after: operation, cursor: history.cursor)
            case .saved(let path, let version, let drawnDuring):
                result.savedStep = changes.savedStep(drawnDuring: drawnDuring)
                // A path read back becomes a save target only when it is a sane one.
                if JournalHeader.isUsable(path) {
                    result.savedPath = path
                    result.savedVersion = version
                }
            }
        }
        engine.defersComposite = false
        return result
    }

    /// Whether `engine`'s picture, saved as a PNG and read back, gives exactly `shown` (the
    /// pixels the file holds, as the engine's tiles hold them when opened): the history then
    /// describes the file and can be trusted.
    ///
    /// A save writes the flattened picture as 8-bit RGBA with straight alpha when the
    /// background is transparent (read back premultiplied again), else as RGB (read back
    /// opaque); the same round trip is applied here pixel by pixel, without encoding. Both are
    /// read a band of rows at a time (a 4K picture: 1 MB at a time, not two 33 MB copies).
    public static func verify(_ engine: StrokeEngine, shows shown: PackedPixels) -> Bool {
        guard shown.rect == engine.bounds else { return false }
        let withAlpha = engine.background == .transparent
        for top in stride(from: 0, to: engine.height, by: bandRows) {
            let band = IntRect(x: 0, y: top, width: engine.width, height: min(bandRows, engine.height - top))
            let flattened = engine.flattenedImage(in: band)
            var same = true
            var y = 0
            shown.forEachRow(in: band.y..<band.maxY) { theirs in
                guard same else { return }
                flattened.pixels.withUnsafeBufferPointer { mine in
                    for x in 0..<theirs.count {
                        let p = mine[y * band.width + x]
                        let read = withAlpha ? Pixel.premultiply(Pixel.unpremultiply(p)) : p | 0xFF00_0000
                        if read != theirs[x] {
                            same = false
                            return
                        }
                    }
                }
                y += 1
            }
            if !same { return false }
        }
        return true
    }

    /// Rows compared at a time by `verify`.
    static let bandRows = 64
}

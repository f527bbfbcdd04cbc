import PaintCore

/// Everything SwiftPaint needs to reopen a saved PNG with its full history: the starting state,
/// the operation log replayed onto it, and a hash of the pixels the log produced when it was saved.
///
/// `HistoryChunk` stores it inside the PNG. The hash lets a reader tell whether the picture still
/// is the one the log made: another editor may have kept the chunk while changing the pixels, and
/// then the history must be ignored, not trusted (`matches(_:)`).
public struct DocumentArchive: Sendable, Equatable {
    /// Canvas size in pixels (of the saved picture).
    public var width: Int
    public var height: Int
    /// The canvas the history starts on, when a step changed its size since (a crop, a canvas
    /// size, a scale, a quarter turn); nil when it is the saved picture's size.
    public var startingCanvas: IntRect?
    /// What shows through the paint layer.
    public var background: JournalBackground
    /// The starting paint layer as a picture file's bytes (any format SwiftPaint opens: the
    /// opened file's own); nil for a blank (fully transparent) canvas.
    public var baseImage: [UInt8]?
    /// The log, oldest first, replayed onto the starting state.
    public var operations: [Operation]
    /// `DocumentArchive.hash` of the saved picture's pixels.
    public var pixelHash: UInt64

    public init(
        width: Int, height: Int, background: JournalBackground, baseImage: [UInt8]? = nil,
        operations: [Operation], pixelHash: UInt64, startingCanvas: IntRect? = nil
    ) {
        self.width = width
        self.height = height
        self.startingCanvas = startingCanvas
        self.background = background
        self.baseImage = baseImage
        self.operations = operations
        self.pixelHash = pixelHash
    }

    /// FNV-1a 64 over the image's packed pixels, each as four little-endian bytes.
    public static func hash(_ image: PixelImage) -> UInt64 {
        var h = fnvOffset
        image.pixels.withUnsafeBufferPointer { fnv(&h, $0) }
        return h
    }

    /// The same hash of the picture `packed` holds (the engine's paint, by reference to its
    /// tiles), read a row at a time: no copy of the whole picture.
    public static func hash(_ packed: PackedPixels) -> UInt64 {
        var h = fnvOffset
        packed.forEachRow { fnv(&h, $0) }
        return h
    }

    private static let fnvOffset: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Folds `pixels` into the FNV-1a hash `h`.
    private static func fnv(_ h: inout UInt64, _ pixels: UnsafeBufferPointer<UInt32>) {
        let prime: UInt64 = 0x0000_0100_0000_01b3
        for p in pixels {
            h = (h ^ UInt64(p & 0xFF)) &* prime
            h = (h ^ UInt64(p >> 8 & 0xFF)) &* prime
            h = (h ^ UInt64(p >> 16 & 0xFF)) &* prime
            h = (h ^ UInt64(p >> 24)) &* prime
        }
    }

    /// Whether `image` is the picture this archive was saved with (same size, same pixel hash).
    public func matches(_ image: PixelImage) -> Bool {
        image.width == width && image.height == height && Self.hash(image) == pixelHash
    }

    /// Whether the picture `packed` holds is the one this archive was saved with.
    public func matches(_ packed: PackedPixels) -> Bool {
        packed.rect == IntRect(x: 0, y: 0, width: width, height: height) && Self.hash(packed) == pixelHash
    }

    // MARK: Binary form
    //
    // The uncompressed payload (HistoryChunk compresses it and puts the version in front):
    //
    //   flags             UInt8: bit 0 baseImage present, bit 1 startingCanvas present
    //   width, height     UInt32 each
    //   starting canvas   width, height UInt32 each, when present
    //   background        UInt8 tag (0 transparent, 1 color) + r, g, b for a color
    //   pixelHash         UInt64
    //   baseImage         UInt32 byte count + picture file bytes (PNG, JPEG, ...), when present
    //   operation count   UInt32
    //   operations        each UInt32 byte count + Operation.encoded()
    //
    // All little-endian; nothing may follow.

    /// The version of the binary form written by `payload()`.
    public static let formatVersion: UInt8 = 1

    /// The payload bytes; nil when a field does not fit its UInt32.
    func payload() -> [UInt8]? {
        guard let w = UInt32(exactly: width), let h = UInt32(exactly: height),
            let opCount = UInt32(exactly: operations.count)
        else { return nil }
        var out = ByteWriter()
        out.byte((baseImage == nil ? 0 : 1) | (startingCanvas == nil ? 0 : 2))
        out.uint32(w)
        out.uint32(h)
        if let start = startingCanvas {
            guard let sw = UInt32(exactly: start.width), let sh = UInt32(exactly: start.height) else { return nil }
            out.uint32(sw)
            out.uint32(sh)
        }
        background.encode(into: &out)
        out.uint64(pixelHash)
        if let baseImage {
            guard let n = UInt32(exactly: baseImage.count) else { return nil }
            out.uint32(n)
            out.append(baseImage)
        }
        out.uint32(opCount)
        for op in operations {
            let bytes = op.encoded()
            guard let n = UInt32(exactly: bytes.count) else { return nil }
            out.uint32(n)
            out.append(bytes)
        }
        return out.bytes
    }

    /// Decodes `payload()`; the error is a reason in words. The log is measured against a
    /// `ReplayBudget` for its canvas as it is decoded: a count, or a stroke's points, over
    /// `limits` stops the decoding before anything is reserved for them.
    static func decodePayload(
        _ bytes: [UInt8], limits: ReplayBudget.Limits = .default
    ) -> Result<DocumentArchive, PayloadProblem> {
        var input = ByteReader(bytes)
        guard let flags = input.byte() else { return .failure(PayloadProblem("it is empty")) }
        guard flags & ~3 == 0 else { return .failure(PayloadProblem("it has unknown flags")) }
        guard let width = input.uint32(), let height = input.uint32() else {
            return .failure(PayloadProblem("it is cut short"))
        }
        var start: IntRect?
        if flags & 2 != 0 {
            guard let w = input.uint32(), let h = input.uint32() else {
                return .failure(PayloadProblem("it is cut short"))
            }
            start = IntRect(x: 0, y: 0, width: Int(w), height: Int(h))
        }
        let background: JournalBackground
        switch JournalBackground.decode(from: &input) {
        case .success(let b): background = b
        case .failure: return .failure(PayloadProblem("it names an unknown background"))
        case nil: return .failure(PayloadProblem("it is cut short"))
        }
        guard let hash = input.uint64() else { return .failure(PayloadProblem("it is cut short")) }
        var base: [UInt8]? = nil
        if flags & 1 != 0 {
            guard let n = input.uint32(), let image = input.take(Int(n)) else {
                return .failure(PayloadProblem("its starting picture is cut short"))
            }
            base = image
        }
        guard let count = input.uint32() else { return .failure(PayloadProblem("it is cut short")) }
        // Every operation takes at least a 4-byte length and a 1-byte tag, so a count that
        // cannot fit the remaining bytes is refused before anything is reserved.
        guard Int(count) <= input.remaining / 5 else {
            return .failure(PayloadProblem("it claims more operations than it holds"))
        }
        // Measured on the canvas the history starts on, which its canvas changes then change.
        var budget = ReplayBudget(
            width: start?.width ?? Int(width), height: start?.height ?? Int(height), limits: limits)
        if let overrun = budget.admit(operationCount: Int(count)) { return .failure(PayloadProblem(overrun)) }
        var operations: [Operation] = []
        operations.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            guard let n = input.uint32(), let bytes = input.take(Int(n)) else {
                return .failure(PayloadProblem("operation \(index + 1) is cut short"))
            }
            let decoded: Operation?
            do {
                decoded = try Operation.decoding(bytes, within: &budget)
            } catch {
                return .failure(PayloadProblem(error))
            }
            guard let op = decoded else {
                if let version = Operation.newerDrawingVersion(bytes) {
                    return .failure(
                        PayloadProblem(
                            "operation \(index + 1) was drawn by a newer SwiftPaint (drawing version \(version); "
                                + "this one knows up to \(DrawingVersion.newest.rawValue))"))
                }
                return .failure(PayloadProblem("operation \(index + 1) cannot be read"))
            }
            operations.append(op)
        }
        guard input.isAtEnd else { return .failure(PayloadProblem("unexpected bytes follow it")) }
        return .success(
            DocumentArchive(
                width: Int(width), height: Int(height), background: background, baseImage: base,
                operations: operations, pixelHash: hash, startingCanvas: start))
    }

    /// Why a payload could not be decoded, in words.
    struct PayloadProblem: Error, Equatable {
        let reason: String
        /// Set when the log is well formed but over its replay budget.
        var overrun: ReplayBudget.Overrun?
        init(_ reason: String) { self.reason = reason }
        init(_ overrun: ReplayBudget.Overrun) {
            reason = overrun.description
            self.overrun = overrun
        }
    }
}

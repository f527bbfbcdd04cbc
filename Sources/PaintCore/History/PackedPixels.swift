/// Paint pixels of some spans of the canvas, run-length packed: the history's snapshots and
/// keyframes.
///
/// A snapshot holds only the pixels a step can change (the 8-pixel row chunks a stroke
/// touched, or a whole rectangle), and a drawing is mostly long runs of one value (untouched
/// transparent paint, the inside of opaque strokes), so snapshots are small and many fit under
/// the memory cap. A photograph may not shrink: then the pixels are kept as they are.
///
/// A snapshot can also start out as the engine's tiles themselves (`TileSnapshot`), taken in
/// time proportional to the tiles; the history packs it later (`packed()`, or in slices with a
/// `RunPacker`). Until then it reads back from the tiles.
public struct PackedPixels: Sendable {
    /// The bounding rectangle of the spans, in canvas coordinates.
    public let rect: IntRect
    /// Whether the spans are the whole of `rect` (usable as a starting point for any region
    /// inside it).
    public let coversRect: Bool
    /// Spans as (y, x0, count) triples, in row order.
    private(set) var spans: [Int32]
    /// Alternating run lengths and values over the spans' pixels in order; or, when `raw`, the
    /// pixels themselves. Empty once deflated.
    private(set) var storage: [UInt32]
    private(set) var raw: Bool
    /// Before packing: the tiles themselves.
    private(set) var tiles: TileSnapshot?
    /// `storage` deflated, for a snapshot the history keeps cold, and its length in words.
    private var deflated: [UInt8]?
    private var deflatedWords = 0

    /// Bytes held (of a large storage only the words written: the rest of its reservation is
    /// never resident, see `RunPacker.finish`).
    public var byteCount: Int {
        if let tiles { return tiles.byteCount + 64 }
        let words = storage.count > RunPacker.copiedWords ? storage.count : storage.capacity
        return words * 4 + spans.capacity * 4 + (deflated?.capacity ?? 0) + 64
    }

    /// Whether the pixels are packed (not the engine's tiles any more).
    public var isPacked: Bool { tiles == nil }

    /// Pixels a `RunPacker` would visit to pack this (0 once packed).
    var pixelsToPack: Int {
        guard let tiles else { return 0 }
        return tiles.marks == nil ? tiles.rect.area : tiles.tiles.count * Tile.pixels / 2
    }

    /// Tiles by reference, to be packed later.
    init(tiles: TileSnapshot, coversRect: Bool) {
        rect = tiles.rect
        self.coversRect = coversRect
        spans = []
        storage = []
        raw = false
        self.tiles = tiles
    }

    /// The same pixels packed (a copy of self when they already are).
    public func packed() -> PackedPixels {
        guard let tiles else { return self }
        var packer = RunPacker(spans: tiles.spans())
        let reader = TileReader(tiles)
        defer { reader.release() }
        _ = packer.pack(reader, budget: Int.max)
        return PackedPixels(&packer, rect: rect, coversRect: coversRect)
    }

    /// The result of a finished `RunPacker`. Taken in place: a copy of the packer would share
    /// its words, and finishing them would copy them all (milliseconds for a 4K keyframe).
    init(_ packer: inout RunPacker, rect: IntRect, coversRect: Bool) {
        self.rect = rect
        self.coversRect = coversRect
        spans = Self.exactCopy(packer.spans)
        storage = packer.finish()
        raw = packer.raw
        tiles = nil
    }

    /// Whether the pixels are held deflated.
    public var isDeflated: Bool { deflated != nil }

    /// The same pixels deflated (zlib level 1: about a third of the size for a drawing, about
    /// 0.5 ms for a 4K stroke's footprint), or nil when that would not save a quarter.
    public func deflatedCopy() -> PackedPixels? {
        if tiles != nil { return packed().deflatedCopy() }
        guard deflated == nil, !storage.isEmpty, let bytes = storage.withUnsafeBytes({ Zlib.compress($0, level: 1) })
        else { return nil }
        return coldCopy(bytes)
    }

    /// The same pixels held as `bytes`, which are the storage words deflated (all of them, by
    /// `deflatedCopy` or a `Deflater` fed in pieces); nil when that would not save a quarter.
    func coldCopy(_ bytes: [UInt8]) -> PackedPixels? {
        guard deflated == nil, tiles == nil, !storage.isEmpty, bytes.count < storage.count * 3 else { return nil }
        var copy = self
        copy.deflated = Self.exactCopy(bytes)
        copy.deflatedWords = storage.count
        copy.storage = []
        return copy
    }

    /// Bytes of packed words held warm (0 for tiles or a deflated snapshot).
    var storageByteCount: Int { tiles == nil && deflated == nil ? storage.count * 4 : 0 }

    /// Runs `body` on the packed words' bytes.
    func withStorageBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R { storage.withUnsafeBytes(body) }

    /// Whether `other` holds the very same words (a copy of this value, not a repacked one).
    func sharesStorage(with other: PackedPixels) -> Bool {
        storage.count == other.storage.count
            && storage.withUnsafeBufferPointer { mine in
                other.storage.withUnsafeBufferPointer { $0.baseAddress == mine.baseAddress }
            }
    }

    /// Runs `body` on the storage words, inflating them first when deflated; nil if they no
    /// longer inflate (which only damaged memory could cause).
    private func withWords<R>(_ body: (UnsafeBufferPointer<UInt32>) -> R) -> R? {
        guard let deflated else { return storage.withUnsafeBufferPointer(body) }
        var words = [UInt32](repeating: 0, count: deflatedWords)
        let result = deflated.withUnsafeBytes { src in words.withUnsafeMutableBytes { Zlib.inflate(src, into: $0) } }
        guard result == .ok else { return nil }
        return words.withUnsafeBufferPointer(body)
    }

    /// Packs the given spans of tiled pixels.
    init(_ reader: TileReader, spans: [Int32], rect: IntRect, coversRect: Bool) {
        var packer = RunPacker(spans: spans)
        _ = packer.pack(reader, budget: Int.max)
        self.init(&packer, rect: rect, coversRect: coversRect)
    }

    /// `array` in storage of its own size: a grown array holds up to twice its count, and the
    /// history keeps thousands of these for the life of the document.
    static func exactCopy<T>(_ array: [T]) -> [T] {
        guard array.capacity > array.count + array.count / 16 else { return array }
        return [T](unsafeUninitializedCapacity: array.count) { buffer, initialized in
            initialized = buffer.initialize(fromContentsOf: array)
        }
    }

    /// Writes the pixels that fall inside `clip` back into the paint layer.
    func unpack(into engine: StrokeEngine, clip: IntRect) {
        guard !rect.intersection(clip).isEmpty else { return }
        if let tiles {
            engine.restore(tiles, in: clip)
            return
        }
        let layer = engine.paint
        visit(clip: clip) { y, x, n, run in
            switch run {
            case .value(let v): layer.fill(y: y, x0: x, count: n, value: v)
            case .pixels(let p): layer.write(y: y, x0: x, count: n, from: p)
            }
        }
    }

    /// The pixels of `rect` as an image (of a snapshot of whole rows: transparent where a
    /// footprint holds nothing).
    public func image() -> PixelImage {
        var out = PixelImage(width: rect.width, height: rect.height)
        out.pixels.withUnsafeMutableBufferPointer { pixels in
            guard let base = pixels.baseAddress else { return }
            visit(clip: rect) { y, x, n, run in
                let to = base + (y - rect.y) * rect.width + (x - rect.x)
                switch run {
                case .value(let v): to.update(repeating: v, count: n)
                case .pixels(let p): to.update(from: p, count: n)
                }
            }
        }
        return out
    }

    /// Calls `body` with each row of `rect` in turn, top to bottom (transparent where a
    /// footprint holds nothing), through one row-sized buffer: a whole picture read in order
    /// without a second picture-sized copy. `rows` (canvas rows) reads only those of them, so
    /// a long read can be done a band at a time and given up between two bands.
    public func forEachRow(in rows: Range<Int>? = nil, _ body: (UnsafeBufferPointer<UInt32>) -> Void) {
        let first = max(rect.y, rows?.lowerBound ?? rect.y)
        let end = min(rect.maxY, rows?.upperBound ?? rect.maxY)
        guard rect.width > 0, first < end else { return }
        var row = [UInt32](repeating: 0, count: rect.width)
        row.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            // The spans come in row order: a row is handed on when the next one starts.
            var y = first
            func advance(to next: Int) {
                while y < next {
                    body(UnsafeBufferPointer(buffer))
                    base.update(repeating: 0, count: rect.width)
                    y += 1
                }
            }
            visit(clip: IntRect(x: rect.x, y: first, width: rect.width, height: end - first)) { rowY, x, n, run in
                advance(to: rowY)
                let to = base + (x - rect.x)
                switch run {
                case .value(let v): to.update(repeating: v, count: n)
                case .pixels(let p): to.update(from: p, count: n)
                }
            }
            advance(to: end)
        }
    }

    /// Writes the pixels that fall inside `clip` into a row-major buffer, `stride` pixels per
    /// row, whose first pixel is the canvas's (0, 0): a canvas being rebuilt across a change of
    /// size.
    func unpack(into pixels: UnsafeMutablePointer<UInt32>, stride: Int, clip: IntRect) {
        visit(clip: clip) { y, x, n, run in
            switch run {
            case .value(let v): (pixels + y * stride + x).update(repeating: v, count: n)
            case .pixels(let p): (pixels + y * stride + x).update(from: p, count: n)
            }
        }
    }

    /// A stretch of pixels read back: all one value, or these.
    enum Run {
        case value(UInt32)
        case pixels(UnsafePointer<UInt32>)
    }

    /// Calls `body(y, x, n, run)` for every stretch of the held pixels inside `clip`, in order.
    private func visit(clip: IntRect, _ body: (Int, Int, Int, Run) -> Void) {
        guard !rect.intersection(clip).isEmpty else { return }
        if let tiles {
            let reader = TileReader(tiles)
            defer { reader.release() }
            let spans = tiles.spans()
            for s in Swift.stride(from: 0, to: spans.count, by: 3) {
                let y = Int(spans[s])
                let a = max(Int(spans[s + 1]), clip.x)
                let b = min(Int(spans[s + 1] + spans[s + 2]), clip.maxX)
                guard y >= clip.y, y < clip.maxY, a < b else { continue }
                reader.visit(y: y, x0: a, count: b - a) { from, offset, n in body(y, a + offset, n, .pixels(from)) }
            }
            return
        }
        let visited: Void? = withWords { words in Self.visit(words, spans: spans, raw: raw, clip: clip, body) }
        assert(visited != nil, "a deflated snapshot no longer inflates")
    }

    private static func visit(
        _ storage: UnsafeBufferPointer<UInt32>, spans: [Int32], raw: Bool, clip: IntRect,
        _ body: (Int, Int, Int, Run) -> Void
    ) {
        var k = 0  // position in storage
        var left: UInt32 = 0  // pixels left in the current run
        var value: UInt32 = 0
        var rawIndex = 0
        for s in Swift.stride(from: 0, to: spans.count, by: 3) {
            let y = Int(spans[s])
            let x0 = Int(spans[s + 1])
            let n = Int(spans[s + 2])
            let rowInClip = y >= clip.y && y < clip.maxY
            if raw {
                if rowInClip {
                    let a = max(x0, clip.x)
                    let b = min(x0 + n, clip.maxX)
                    if a < b, let base = storage.baseAddress { body(y, a, b - a, .pixels(base + rawIndex + (a - x0))) }
                }
                rawIndex += n
                continue
            }
            var x = x0
            let end = x0 + n
            while x < end {
                if left == 0 {
                    guard k + 1 < storage.count else { return }
                    left = storage[k]
                    value = storage[k + 1]
                    k += 2
                }
                let take = min(Int(left), end - x)
                if rowInClip {
                    let a = max(x, clip.x)
                    let b = min(x + take, clip.maxX)
                    if a < b { body(y, a, b - a, .value(value)) }
                }
                x += take
                left -= UInt32(take)
            }
        }
    }
}

extension StrokeEngine {
    /// The paint pixels of `rect` (clipped to the canvas), packed.
    public func packPaint(_ rect: IntRect) -> PackedPixels {
        settle()
        let r = rect.intersection(bounds)
        var spans: [Int32] = []
        spans.reserveCapacity(max(0, r.height) * 3)
        if !r.isEmpty {
            for y in r.y..<r.maxY { spans += [Int32(y), Int32(r.x), Int32(r.width)] }
        }
        return PackedPixels(TileReader(paint), spans: spans, rect: r, coversRect: true)
    }

    /// The paint pixels the stroke in progress can change (the row chunks it touched), packed:
    /// the smallest exact undo snapshot of a stroke. Call before `end`.
    public func packStrokeFootprint() -> PackedPixels {
        PackedPixels(tiles: snapshotFootprint(), coversRect: false).packed()
    }

    /// Writes packed paint back, only inside `clip` (everywhere it covers by default), and
    /// recomposites what changed unless the caller will. A stroke in progress is merged first.
    @discardableResult
    public func unpackPaint(_ packed: PackedPixels, clip: IntRect? = nil, recomposite again: Bool = true) -> IntRect {
        if isStroking { end() }
        let region = packed.rect.intersection(clip ?? packed.rect).intersection(bounds)
        guard !region.isEmpty else { return .empty }
        settle()
        packed.unpack(into: self, clip: region)
        if again { recomposite(region) }
        return region
    }
}

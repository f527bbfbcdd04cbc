/// Paint pixels of some spans of the canvas, run-length packed: the history's snapshots and
/// keyframes.
///
/// A snapshot holds only the pixels a step can change (the 8-pixel row chunks a stroke
/// touched, or a whole rectangle), and a drawing is mostly long runs of one value (untouched
/// transparent paint, the inside of opaque strokes), so snapshots are small and many fit under
/// the memory cap. A photograph may not shrink: then the pixels are kept as they are.
public struct PackedPixels: Sendable {
    /// The bounding rectangle of the spans, in canvas coordinates.
    public let rect: IntRect
    /// Whether the spans are the whole of `rect` (usable as a starting point for any region
    /// inside it).
    public let coversRect: Bool
    /// Spans as (y, x0, count) triples, in row order.
    let spans: [Int32]
    /// Alternating run lengths and values over the spans' pixels in order; or, when `raw`, the
    /// pixels themselves. Empty once deflated.
    private(set) var storage: [UInt32]
    let raw: Bool
    /// `storage` deflated, for a snapshot the history keeps cold, and its length in words.
    private var deflated: [UInt8]?
    private var deflatedWords = 0

    /// Bytes held.
    public var byteCount: Int { storage.capacity * 4 + spans.capacity * 4 + (deflated?.capacity ?? 0) + 64 }

    /// Whether the pixels are held deflated.
    public var isDeflated: Bool { deflated != nil }

    /// The same pixels deflated (zlib level 1: about a third of the size for a drawing, about
    /// 0.5 ms for a 4K stroke's footprint), or nil when that would not save a quarter.
    public func deflatedCopy() -> PackedPixels? {
        guard deflated == nil, !storage.isEmpty,
            let bytes = storage.withUnsafeBytes({ Zlib.compress($0, level: 1) }),
            bytes.count < storage.count * 3
        else { return nil }
        var copy = self
        copy.deflated = bytes
        copy.deflatedWords = storage.count
        copy.storage = []
        return copy
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

    /// Packs the given spans of a row-major buffer with `stride` pixels per row.
    init(_ pixels: UnsafePointer<UInt32>, stride: Int, spans: [Int32], rect: IntRect, coversRect: Bool) {
        self.rect = rect
        self.spans = Self.exactCopy(spans)
        self.deflated = nil
        self.coversRect = coversRect
        var total = 0
        for s in Swift.stride(from: 0, to: spans.count, by: 3) { total += Int(spans[s + 2]) }
        // Runs go into a scratch buffer as large as the raw pixels: packing stops as soon as
        // it would not be smaller, so it never needs more. A run continues across spans.
        let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: max(2, total + 2))
        defer { scratch.deallocate() }
        var used = 0
        var count: UInt32 = 0
        var value: UInt32 = 0
        var overflow = false
        outer: for s in Swift.stride(from: 0, to: spans.count, by: 3) {
            let row = pixels + Int(spans[s]) * stride + Int(spans[s + 1])
            let n = Int(spans[s + 2])
            var x = 0
            while x < n {
                if count > 0 && row[x] == value {
                    // Extend the current run as far as it goes in this span.
                    var end = x + 1
                    while end < n && row[end] == value { end += 1 }
                    let length = UInt32(truncatingIfNeeded: end - x)
                    if count <= UInt32.max - length {
                        count += length
                        x = end
                        continue
                    }
                }
                if count > 0 {
                    if used + 2 >= total {  // raw is no bigger from here on
                        overflow = true
                        break outer
                    }
                    scratch[used] = count
                    scratch[used + 1] = value
                    used += 2
                }
                value = row[x]
                count = 1
                x += 1
            }
        }
        if overflow {
            var copy = [UInt32]()
            copy.reserveCapacity(total)
            for s in Swift.stride(from: 0, to: spans.count, by: 3) {
                copy.append(
                    contentsOf: UnsafeBufferPointer(
                        start: pixels + Int(spans[s]) * stride + Int(spans[s + 1]), count: Int(spans[s + 2])))
            }
            storage = copy
            raw = true
        } else {
            if count > 0 {
                scratch[used] = count
                scratch[used + 1] = value
                used += 2
            }
            storage = Array(UnsafeBufferPointer(start: scratch, count: used))
            raw = false
        }
    }

    /// `array` in storage of its own size: a grown array holds up to twice its count, and the
    /// history keeps thousands of these for the life of the document.
    private static func exactCopy<T>(_ array: [T]) -> [T] {
        guard array.capacity > array.count + array.count / 16 else { return array }
        return [T](unsafeUninitializedCapacity: array.count) { buffer, initialized in
            initialized = buffer.initialize(fromContentsOf: array)
        }
    }

    /// Packs a whole rectangle.
    init(_ pixels: UnsafePointer<UInt32>, stride: Int, rect: IntRect) {
        var spans: [Int32] = []
        spans.reserveCapacity(max(0, rect.height) * 3)
        if !rect.isEmpty {
            for y in rect.y..<rect.maxY { spans += [Int32(y), Int32(rect.x), Int32(rect.width)] }
        }
        self.init(pixels, stride: stride, spans: spans, rect: rect, coversRect: true)
    }

    /// Writes the pixels that fall inside `clip` back into a row-major buffer.
    func unpack(into pixels: UnsafeMutablePointer<UInt32>, stride: Int, clip: IntRect) {
        guard !rect.intersection(clip).isEmpty else { return }
        let unpacked: Void? = withWords { words in
            Self.unpack(words, spans: spans, raw: raw, into: pixels, stride: stride, clip: clip)
        }
        assert(unpacked != nil, "a deflated snapshot no longer inflates")
    }

    private static func unpack(
        _ storage: UnsafeBufferPointer<UInt32>, spans: [Int32], raw: Bool, into pixels: UnsafeMutablePointer<UInt32>,
        stride: Int, clip: IntRect
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
                    if a < b, let base = storage.baseAddress {
                        (pixels + y * stride + a).update(from: base + rawIndex + (a - x0), count: b - a)
                    }
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
                    if a < b { (pixels + y * stride + a).update(repeating: value, count: b - a) }
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
        withPaint { PackedPixels(UnsafePointer($0), stride: width, rect: rect.intersection(bounds)) }
    }

    /// The paint pixels the stroke in progress can change (the row chunks it touched), packed:
    /// the smallest exact undo snapshot of a stroke. Call before `end`.
    public func packStrokeFootprint() -> PackedPixels {
        var spans: [Int32] = []
        visitTouchedChunks { y, x0, x1 in spans += [Int32(y), Int32(x0), Int32(x1 - x0 + 1)] }
        return withPaint {
            PackedPixels(UnsafePointer($0), stride: width, spans: spans, rect: strokeBoundsSoFar, coversRect: false)
        }
    }

    /// Writes packed paint back, only inside `clip` (everywhere it covers by default), and
    /// recomposites what changed unless the caller will. A stroke in progress is merged first.
    @discardableResult
    public func unpackPaint(_ packed: PackedPixels, clip: IntRect? = nil, recomposite again: Bool = true) -> IntRect {
        if isStroking { end() }
        let region = packed.rect.intersection(clip ?? packed.rect).intersection(bounds)
        guard !region.isEmpty else { return .empty }
        withPaint { packed.unpack(into: $0, stride: width, clip: region) }
        if again { recomposite(region) }
        return region
    }
}

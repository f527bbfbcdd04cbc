/// What replaying an operation log read back from disk (a PNG's history, a crash journal, the
/// history store) may cost, checked before the replay starts.
///
/// A log is data from outside: 861 bytes of zlib can claim a stroke of 268 million points, and a
/// megabyte can hold millions of one-point strokes or flood fills. Every log is measured first,
/// in operations, points, fills and an estimate of the pixels the engine will touch, and one that
/// goes over any of them is not replayed at all (the caller opens the plain picture and says why).
///
/// Feed the operations in order with `add(_:)` (or check a whole list with `check(_:)`); a
/// decoder that reads operations one by one can stop as soon as `add` reports an overrun, and
/// `admit(pointCount:)` / `admit(decodedBytes:)` let it refuse a stroke or a picture from its
/// declared size before decoding it (`Operation.decoding(_:within:)` does all three).
///
/// The work estimate follows the engine: a stroke touches, for every segment, the capsule's
/// bounding box (length plus width, by width), then its whole bounding box to merge; a fill and
/// a clear the whole canvas; every sixteenth step packs a keyframe of the canvas; an undo
/// restores at most the canvas; a redo costs the step again; removing a stroke re-renders every
/// step from it to the removal (bounded here by their own estimates, so a log of strokes and
/// removals is linear in its size). A text costs its mask's pixels, a paste its picture's. A
/// canvas change costs the pixels it reads and writes (a scale, its filter's taps) and changes
/// the canvas every later estimate is made on; undo and redo walk back and forth between sizes.
public struct ReplayBudget: Sendable {
    /// The most a log may hold or cost.
    public struct Limits: Sendable, Equatable {
        /// Operations of any kind (undo, redo and save markers included).
        public var operations: Int
        /// Pointer samples over all strokes.
        public var points: Int
        /// Flood fills.
        public var fills: Int
        /// Estimated pixels touched, in units of one pixel written once.
        public var work: Double
        /// Bytes the decoded log holds in memory: its points (16 bytes each), pictures (4 a
        /// pixel) and text masks (1 a pixel), which a few compressed bytes can claim by the
        /// gigabyte.
        public var decodedBytes: Int

        public init(operations: Int, points: Int, fills: Int, work: Double, decodedBytes: Int = 512 << 20) {
            self.operations = operations
            self.points = points
            self.fills = fills
            self.work = work
            self.decodedBytes = decodedBytes
        }

        /// A million operations, 16 million points, 10,000 fills, about 15 s of replay on the
        /// machine `paint-bench replay` measured (0.5 ns of CPU a unit), and 512 MB decoded (as
        /// much as the largest uncompressed history). 2,000 recorded strokes on a 4K canvas use
        /// an eighth of the work and far less of the rest.
        public static let `default` = Limits(operations: 1_000_000, points: 16 << 20, fills: 10_000, work: 30e9)
    }

    /// Which limit a log went over, with the numbers, for a sentence.
    public enum Overrun: Error, Equatable, Sendable, CustomStringConvertible {
        case operations(count: Int, limit: Int)
        case points(count: Int, limit: Int)
        case fills(count: Int, limit: Int)
        case work(estimate: Double, limit: Double)
        case decodedBytes(count: Int, limit: Int)

        /// "it holds 1,200,000 steps, more than the 1,000,000 SwiftPaint replays".
        public var description: String {
            switch self {
            case .operations(let count, let limit):
                return "it holds \(Self.grouped(count)) steps, more than the \(Self.grouped(limit)) SwiftPaint replays"
            case .points(let count, let limit):
                return "its strokes hold \(Self.grouped(count)) points, more than the \(Self.grouped(limit)) "
                    + "SwiftPaint replays"
            case .fills(let count, let limit):
                return "it holds \(Self.grouped(count)) flood fills, more than the \(Self.grouped(limit)) "
                    + "SwiftPaint replays"
            case .work(let estimate, let limit):
                return "replaying it would take about \(Self.times(estimate / limit)) longer than SwiftPaint allows"
            case .decodedBytes(let count, let limit):
                return "its strokes, pictures and texts take \(Self.megabytes(count)) once read, more than the "
                    + "\(Self.megabytes(limit)) SwiftPaint holds"
            }
        }

        /// 1234567 → "1,234,567".
        static func grouped(_ n: Int) -> String {
            let digits = Array(String(n.magnitude))
            var out = ""
            for (i, d) in digits.enumerated() {
                if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
                out.append(d)
            }
            return (n < 0 ? "-" : "") + out
        }

        /// 536870912 → "512 MB".
        static func megabytes(_ bytes: Int) -> String { "\(grouped((bytes + (1 << 19)) >> 20)) MB" }

        /// 3.2 → "3 times", 1e9 → "1,000,000,000 times".
        static func times(_ ratio: Double) -> String {
            guard ratio.isFinite, ratio < 1e15 else { return "far" }
            return "\(grouped(max(1, Int(ratio.rounded())))) times"
        }
    }

    public let limits: Limits
    /// The canvas the next operation finds, in pixels (a canvas change changes it).
    private var canvasWidth: Double
    private var canvasHeight: Double
    private var area: Double { canvasWidth * canvasHeight }
    /// The image limits a canvas change must stay within, as the engine checks them.
    private let imageLimits: ImageLimits

    public private(set) var operations = 0
    public private(set) var points = 0
    public private(set) var fills = 0
    public private(set) var work: Double = 0
    public private(set) var decodedBytes = 0

    /// The simulated history: each step's own estimate, as running sums (entry i costs
    /// `prefix[i + 1] - prefix[i]`), so a removal's re-render is estimated in constant time.
    private var prefix: [Double] = [0]
    /// The canvas after each simulated step (`sizes[0]`: the starting one), for undo and redo
    /// across canvas changes.
    private var sizes: [(width: Double, height: Double)]
    /// The simulated steps that are canvas changes, in order.
    private var canvasSteps: [Int] = []
    /// The simulated history's cursor (steps applied).
    private var cursor = 0
    /// The first overrun, once there is one: every later `add` reports it again.
    public private(set) var overrun: Overrun?

    /// A budget for a log replayed onto a `width` x `height` canvas.
    public init(width: Int, height: Int, limits: Limits = .default, imageLimits: ImageLimits = .default) {
        self.limits = limits
        self.imageLimits = imageLimits
        canvasWidth = Double(max(width, 1))
        canvasHeight = Double(max(height, 1))
        sizes = [(canvasWidth, canvasHeight)]
    }

    /// Checks a whole log; nil when it fits.
    public static func check(
        _ operations: [Operation], width: Int, height: Int, limits: Limits = .default
    ) -> Overrun? {
        var budget = ReplayBudget(width: width, height: height, limits: limits)
        if let early = budget.admit(operationCount: operations.count) { return early }
        for operation in operations {
            if let overrun = budget.add(operation) { return overrun }
        }
        return nil
    }

    /// Refuses a log from its declared operation count, before any of it is decoded.
    public mutating func admit(operationCount: Int) -> Overrun? {
        if overrun == nil, operationCount > limits.operations {
            overrun = .operations(count: operationCount, limit: limits.operations)
        }
        return overrun
    }

    /// Refuses a stroke from its declared point count, before its points are decoded.
    public mutating func admit(pointCount: Int) -> Overrun? {
        if overrun == nil, points + pointCount > limits.points {
            overrun = .points(count: points + pointCount, limit: limits.points)
        }
        return overrun
    }

    /// Refuses an operation from the bytes it declares it will hold once decoded (its points,
    /// its picture or its text mask), before they are allocated.
    public mutating func admit(decodedBytes count: Int) -> Overrun? {
        if overrun == nil, decodedBytes + count > limits.decodedBytes {
            overrun = .decodedBytes(count: decodedBytes + count, limit: limits.decodedBytes)
        }
        return overrun
    }

    /// Counts the next operation of the log; returns the overrun once the log is over budget.
    @discardableResult
    public mutating func add(_ operation: Operation) -> Overrun? {
        guard overrun == nil else { return overrun }
        operations += 1
        if operations > limits.operations {
            overrun = .operations(count: operations, limit: limits.operations)
            return overrun
        }
        decodedBytes += Self.heldBytes(operation)
        if decodedBytes > limits.decodedBytes {
            overrun = .decodedBytes(count: decodedBytes, limit: limits.decodedBytes)
            return overrun
        }
        switch operation {
        case .undo:
            if cursor > 0 {
                // Restoring the step's snapshot: at most the larger of the two canvases.
                work += max(area, sizes[cursor - 1].width * sizes[cursor - 1].height)
                cursor -= 1
                (canvasWidth, canvasHeight) = sizes[cursor]
            }
        case .redo:
            if cursor < prefix.count - 1 {
                work += prefix[cursor + 1] - prefix[cursor]
                cursor += 1
                (canvasWidth, canvasHeight) = sizes[cursor]
            }
        case .canvas(let change):
            let cost = canvasChange(change)
            work += cost
            push(cost: cost)
            canvasSteps.append(cursor - 1)
        case .removeStroke(let step):
            // Re-renders the steps from the removed one up to here: at most their own cost, a
            // visit each, and the region's recomposite.
            var cost = 1.0
            if step >= 0 && step < cursor {
                // The removed step's region is rendered again (about its own cost, twice: the
                // re-render and the recomposite), with every step above it that is replayed;
                // past a canvas change, the whole picture is recomposited.
                cost += prefix[step + 1] - prefix[step] + prefix[cursor] - prefix[step] + Double(cursor - step)
                if let last = canvasSteps.last, last >= step { cost += area }
            }
            work += cost
            // A removal is skipped when a later removal re-renders across it.
            push(cost: 0)
        default:
            if case .stroke(_, let samples, _) = operation {
                points += samples.count
                if points > limits.points {
                    overrun = .points(count: points, limit: limits.points)
                    return overrun
                }
            }
            if case .fill = operation {
                fills += 1
                if fills > limits.fills {
                    overrun = .fills(count: fills, limit: limits.fills)
                    return overrun
                }
            }
            let cost = estimate(operation)
            work += cost
            push(cost: cost)
        }
        if work > limits.work { overrun = .work(estimate: work, limit: limits.work) }
        return overrun
    }

    /// A new step after `cursor`: the undone ones are forgotten, as `History` does. Every step
    /// may also pack a keyframe of the whole canvas (one in sixteen).
    private mutating func push(cost: Double) {
        prefix.removeSubrange((cursor + 1)...)
        sizes.removeSubrange((cursor + 1)...)
        while let last = canvasSteps.last, last >= cursor { canvasSteps.removeLast() }
        prefix.append(prefix[cursor] + cost)
        sizes.append((canvasWidth, canvasHeight))
        cursor += 1
        work += area / Double(History.initialKeyframeInterval)
    }

    /// What a canvas change costs, and the canvas it leaves: the picture before it packed (a
    /// crop or scale keeps it), the new canvas allocated and composited, and for a scale the
    /// filter's taps (a Mitchell cubic, 4 taps a pixel, stretched when shrinking: every source
    /// pixel is read about 4 times on each axis whatever the factor). A size beyond the image
    /// limits is refused by the engine and costs nothing.
    private mutating func canvasChange(_ change: CanvasChange) -> Double {
        let old = (w: Int(canvasWidth), h: Int(canvasHeight))
        let new = change.size(width: old.w, height: old.h)
        guard new.width > 0, new.height > 0, imageLimits.allows(width: new.width, height: new.height) else {
            return 1
        }
        let oldArea = area
        let (w, h) = (Double(new.width), Double(new.height))
        var cost = oldArea + 3 * w * h
        if case .scale = change {
            // One axis, then the other, each pass reading about 4 taps per pixel of the larger side.
            cost += 4 * max(canvasWidth, w) * canvasHeight + 4 * max(canvasHeight, h) * w
        }
        canvasWidth = w
        canvasHeight = h
        return cost
    }

    /// The bytes an operation holds once decoded beyond its fixed size.
    static func heldBytes(_ operation: Operation) -> Int {
        switch operation {
        case .stroke(_, let samples, let pressure):
            return samples.count * MemoryLayout<Point>.stride + pressure.count * MemoryLayout<UInt16>.stride
        case .paste(let image, _, _), .background(.image(let image)): return image.pixels.count * 4
        case .text(_, let spec): return spec.mask.bytes.count
        default: return 0
        }
    }

    /// Pixels one drawn or pixel-moving operation touches, replayed through `History`.
    func estimate(_ operation: Operation) -> Double {
        switch operation {
        case .stroke(let style, let samples, _):
            guard let first = samples.first else { return 1 }
            let reach = style.width + 3
            // One segment's capsule box, at most the canvas.
            var cost = min(area, reach * reach) + 8
            var minX = first.x
            var maxX = first.x
            var minY = first.y
            var maxY = first.y
            var previous = first
            for p in samples.dropFirst() {
                let dx = abs(p.x - previous.x)
                let dy = abs(p.y - previous.y)
                let box = min(dx + reach, canvasWidth + reach) * min(dy + reach, canvasHeight + reach)
                cost += (box.isFinite ? min(area, box) : area) + 8
                minX = min(minX, p.x)
                maxX = max(maxX, p.x)
                minY = min(minY, p.y)
                maxY = max(maxY, p.y)
                previous = p
            }
            // The snapshot of its footprint and the merge: its bounding box, twice.
            let box = min(maxX - minX + reach, canvasWidth) * min(maxY - minY + reach, canvasHeight)
            return cost + 2 * (box.isFinite ? min(area, box) : area)
        case .shape(let style, let spec):
            let reach = style.width + 4
            let box =
                min(abs(spec.to.x - spec.from.x) + reach, canvasWidth)
                * min(abs(spec.to.y - spec.from.y) + reach, canvasHeight)
            // Drawn, snapshotted and merged.
            return 3 * (box.isFinite ? min(area, box) : area)
        case .fill:
            // The flood (measured: twice a stroke's cost per pixel), the view refreshed first,
            // the snapshot of the canvas, the merge.
            return 8 * area
        case .background, .clear:
            return 2 * area
        case .clearRect(let rect), .moveRect(let rect, _, _):
            return 3 * min(area, Double(max(rect.width, 0)) * Double(max(rect.height, 0))) + 1
        case .orientRect(let rect, _, _, _):
            // Lifted, cleared, turned and laid down again.
            return 4 * min(area, Double(max(rect.width, 0)) * Double(max(rect.height, 0))) + 1
        case .paste(let image, _, _):
            return 3 * min(area, Double(image.width * image.height)) + 1
        case .text(_, let spec):
            // Stamped, snapshotted and merged, like a shape of the mask's size.
            return 3 * min(area, Double(spec.mask.width) * Double(spec.mask.height)) + 1
        case .canvas, .undo, .redo, .removeStroke:
            return 1
        }
    }
}

extension FuzzRun {
    /// One way a fuzz test changes a valid input at a random place `at`. Each draws from the
    /// test's generator in a fixed order (`mutate`), so a seed gives the same inputs every run.
    public enum Mutation: Sendable {
        /// One bit of the byte at `at` flipped.
        case flipBit
        /// The input cut at `at`.
        case cut
        /// Fewer than `below` random bytes put in at `at`.
        case insertRandom(below: Int)
        /// A start of `text` (none of it up to all of it) put in at `at`.
        case insertStart(of: [UInt8])
        /// 1 to `upTo` bytes from `at` on taken out.
        case removeRun(upTo: Int)
        /// The 32-bit little-endian field at `at` (what of it the input holds) set to one of
        /// `values`: a length or size made huge, zero or negative.
        case field([UInt32])
        /// The bytes from `at` replaced with `bytes` when the input holds that many there.
        case overwrite([UInt8])
        /// Up to `length` bytes from another random place copied in at `at` (a record
        /// repeated out of order).
        case copyRun(length: Int)
    }

    /// `valid` changed `times` times (how many drawn from the range), each a place then a
    /// case of `cases` drawn from `rng` (a case listed twice is drawn twice as often). An input
    /// made empty is left so, or refilled with `emptied` after each change when given.
    public static func mutate(
        _ valid: [UInt8], _ rng: inout SplitMix, cases: [Mutation], times: ClosedRange<Int> = 1...4,
        emptied: [UInt8]? = nil
    ) -> [UInt8] {
        var bytes = valid
        let count = times.lowerBound + Int(rng.next() % UInt64(times.count))
        for _ in 0..<count where !bytes.isEmpty {
            let at = Int(rng.next() % UInt64(bytes.count))
            switch cases[Int(rng.next() % UInt64(cases.count))] {
            case .flipBit: bytes[at] ^= UInt8(1 << (rng.next() % 8))
            case .cut: bytes.removeLast(bytes.count - at)
            case .insertRandom(let below):
                bytes.insert(
                    contentsOf: (0..<Int(rng.next() % UInt64(below))).map { _ in UInt8(truncatingIfNeeded: rng.next())
                    },
                    at: at)
            case .insertStart(let text):
                bytes.insert(contentsOf: text.prefix(Int(rng.next() % UInt64(text.count + 1))), at: at)
            case .removeRun(let upTo):
                bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(rng.next() % UInt64(upTo))))
            case .field(let values):
                let v = values[Int(rng.next() % UInt64(values.count))]
                for i in 0..<4 where at + i < bytes.count { bytes[at + i] = UInt8(truncatingIfNeeded: v >> (8 * i)) }
            case .overwrite(let with):
                if at + with.count <= bytes.count { bytes.replaceSubrange(at..<(at + with.count), with: with) }
            case .copyRun(let length):
                let from = Int(rng.next() % UInt64(bytes.count))
                bytes.insert(contentsOf: Array(bytes[from..<min(bytes.count, from + length)]), at: at)
            }
            if bytes.isEmpty, let emptied { bytes = emptied }
        }
        return bytes
    }

    /// A length or size field made huge, zero or negative (`Mutation.field`).
    public static let hostileFieldValues: [UInt32] = [0xFFFF_FFFF, 0x7FFF_FFFF, 0x8000_0000, 0, 1, 0xFFFF]
}

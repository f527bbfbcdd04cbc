import PaintCore

/// A change too long for one journal record (a paste or a background of more than about 134 M
/// pixels, over `JournalFormat.maxRecordBytes`) is written as several records, its parts, which
/// the reader joins: no step is ever left out of a journal for its size.
///
/// Every part is an ordinary framed record carrying the change's sequence number; its payload
/// is the part tag (which no operation and no save marker uses), the part's index and the
/// number of parts (UInt32 LE each), the whole payload's length (UInt64 LE), then the part's
/// bytes. The reader checks the claimed length against the bytes the file holds before it
/// allocates anything for the joined payload.
enum JournalParts {
    /// The first byte of a part's payload.
    static let tag: UInt8 = 0xFF
    /// The tag, index, count and length in front of a part's bytes.
    static let overhead = 17

    /// One part as read back.
    struct Part {
        let index: Int
        let count: Int
        /// The joined payload's length.
        let total: Int
        /// The part's own bytes.
        let bytes: ArraySlice<UInt8>

        /// Decodes a part's payload; nil when it is not one or its fields cannot be.
        init?(_ payload: [UInt8]) {
            guard payload.count > JournalParts.overhead, payload.first == JournalParts.tag else { return nil }
            var input = ByteReader(Array(payload[1..<JournalParts.overhead]))
            guard let index = input.uint32(), let count = input.uint32(), let total = input.uint64(),
                total <= UInt64(Int.max)
            else { return nil }
            self.index = Int(index)
            self.count = Int(count)
            self.total = Int(total)
            guard self.index < self.count, self.count >= 2 else { return nil }
            bytes = payload[JournalParts.overhead...]
        }
    }

    /// The framed record(s) that hold `payload` as change `sequence`: one record when it fits
    /// `limit` bytes, else parts of at most `limit` bytes each.
    static func framed(_ payload: [UInt8], sequence: Int, version: UInt8, limit: Int) -> [UInt8] {
        let limit = min(max(limit, overhead + 1), JournalFormat.maxRecordBytes)
        guard payload.count > limit else { return JournalFormat.record(payload, sequence: sequence, version: version) }
        let piece = limit - overhead
        let count = (payload.count + piece - 1) / piece
        let overheadPerRecord = version == 1 ? JournalFormat.versionOneOverhead : JournalFormat.recordOverhead
        var out: [UInt8] = []
        out.reserveCapacity(payload.count + count * (overhead + overheadPerRecord))
        for index in 0..<count {
            var fields = ByteWriter()
            fields.byte(tag)
            fields.uint32(UInt32(index))
            fields.uint32(UInt32(count))
            fields.uint64(UInt64(payload.count))
            let bytes = Array(payload[index * piece..<min(payload.count, (index + 1) * piece)])
            if version == 1 {
                out += JournalFormat.record(fields.bytes + bytes, sequence: sequence, version: 1)
            } else {
                out += JournalFormat.recordHead(payload: [fields.bytes, bytes], sequence: sequence)
                out += fields.bytes
                out += bytes
            }
        }
        return out
    }
}

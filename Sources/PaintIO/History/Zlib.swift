import CPNG

/// zlib one-shot compression and bounded inflation for the history chunk.
enum Zlib {
    /// `bytes` deflated with compress2 at `level`; nil if zlib fails (out of memory, or input
    /// larger than zlib's uLong).
    static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        let sourceLength = UInt(bytes.count)
        var length = compressBound(sourceLength)
        guard let capacity = Int(exactly: length) else { return nil }
        var out = [UInt8](repeating: 0, count: capacity)
        let status = out.withUnsafeMutableBufferPointer { dest in
            bytes.withUnsafeBufferPointer { src in
                compress2(dest.baseAddress, &length, src.baseAddress, sourceLength, level)
            }
        }
        guard status == Z_OK, let used = Int(exactly: length), used <= capacity else { return nil }
        out.removeLast(capacity - used)
        return out
    }

    /// How inflation went.
    enum InflateResult: Equatable {
        case ok([UInt8])
        /// The stream decompresses to more than `expected` bytes (a bomb, or a lie).
        case tooLong
        /// The stream ends before `expected` bytes, or is cut short.
        case tooShort
        /// zlib found the stream invalid.
        case damaged
    }

    /// Inflates `compressed`, which must decompress to exactly `expected` bytes and nothing
    /// after. The output buffer is `expected + 1` bytes and zlib never writes past it, so the
    /// work and memory are bounded by `expected` whatever the input claims.
    static func inflate(_ compressed: [UInt8], expected: Int) -> InflateResult {
        guard expected >= 0, expected < Int(UInt32.max), compressed.count <= Int(UInt32.max) else { return .tooLong }
        var stream = z_stream()
        let initStatus = inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard initStatus == Z_OK else { return .damaged }
        defer { inflateEnd(&stream) }

        let capacity = expected + 1
        var out = [UInt8](repeating: 0, count: capacity)
        var status: Int32 = Z_OK
        var produced = 0
        var consumedAll = false
        compressed.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dest in
                // zlib does not write through next_in; the cast only satisfies its C signature.
                stream.next_in = src.baseAddress.map { UnsafeMutablePointer(mutating: $0) }
                stream.avail_in = UInt32(src.count)
                stream.next_out = dest.baseAddress
                stream.avail_out = UInt32(capacity)
                // All input and the whole (bounded) output buffer are given at once, so one call
                // either finishes, runs out of room, runs out of input, or finds an error.
                status = CPNG.inflate(&stream, Z_FINISH)
                produced = capacity - Int(stream.avail_out)
                consumedAll = stream.avail_in == 0
            }
        }
        switch status {
        case Z_STREAM_END:
            guard produced <= expected else { return .tooLong }
            guard produced == expected else { return .tooShort }
            // Bytes after the end of the zlib stream are not part of any valid chunk.
            guard consumedAll else { return .damaged }
            out.removeLast(capacity - expected)
            return .ok(out)
        case Z_BUF_ERROR, Z_OK:
            // Out of room (more output than declared) or out of input (a cut-off stream).
            return produced >= capacity ? .tooLong : .tooShort
        default:
            return .damaged
        }
    }
}

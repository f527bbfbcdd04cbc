import CZlib

/// zlib: one-shot deflate and bounded inflate (the history's cold snapshots, the PNG history
/// chunk) and CRC-32 (journal records, PNG chunks).
public enum Zlib {
    /// `bytes` deflated with compress2 at `level`; nil if zlib fails (out of memory, or input
    /// larger than zlib's uLong).
    public static func compress(_ bytes: UnsafeRawBufferPointer, level: Int32 = 6) -> [UInt8]? {
        let sourceLength = UInt(bytes.count)
        var length = compressBound(sourceLength)
        guard let capacity = Int(exactly: length) else { return nil }
        var out = [UInt8](repeating: 0, count: capacity)
        let status = out.withUnsafeMutableBufferPointer { dest in
            compress2(
                dest.baseAddress, &length, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), sourceLength, level)
        }
        guard status == Z_OK, let used = Int(exactly: length), used <= capacity else { return nil }
        // A copy of exactly the used size: the bound is larger than the output, and callers keep
        // these arrays for a long time.
        return Array(out[..<used])
    }

    /// `bytes` deflated with compress2 at `level`; nil if zlib fails.
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        bytes.withUnsafeBytes { compress($0, level: level) }
    }

    /// How inflation went.
    public enum InflateResult: Equatable, Sendable {
        case ok
        /// The stream decompresses to more than the room given (a bomb, or a lie).
        case tooLong
        /// The stream ends before filling the room, or is cut short.
        case tooShort
        /// zlib found the stream invalid.
        case damaged
    }

    /// Inflates `compressed` into `output`, which it must fill exactly with nothing after.
    /// zlib never writes past `output`, so the work and memory are bounded by its size whatever
    /// the input claims.
    public static func inflate(_ compressed: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer)
        -> InflateResult
    {
        guard output.count < Int(UInt32.max), compressed.count <= Int(UInt32.max) else { return .tooLong }
        var stream = z_stream()
        guard inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return .damaged }
        defer { inflateEnd(&stream) }
        var spare: UInt8 = 0
        // zlib does not write through next_in; the cast only satisfies its C signature.
        stream.next_in = compressed.baseAddress.map {
            UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: UInt8.self))
        }
        stream.avail_in = UInt32(compressed.count)
        stream.next_out = output.baseAddress?.assumingMemoryBound(to: UInt8.self)
        stream.avail_out = UInt32(output.count)
        // All input and the whole output are given at once, so one call either finishes, runs
        // out of room, runs out of input, or finds an error.
        var status = CZlib.inflate(&stream, Z_FINISH)
        let produced = output.count - Int(stream.avail_out)
        if status == Z_BUF_ERROR && produced == output.count {
            // Full: one more byte of room tells a stream that ends here from one that goes on.
            withUnsafeMutablePointer(to: &spare) { stream.next_out = $0 }
            stream.avail_out = 1
            status = CZlib.inflate(&stream, Z_FINISH)
            if stream.avail_out == 0 { return .tooLong }
        }
        switch status {
        case Z_STREAM_END:
            guard produced == output.count else { return .tooShort }
            // Bytes after the end of the zlib stream are not part of any valid input.
            return stream.avail_in == 0 ? .ok : .damaged
        case Z_BUF_ERROR, Z_OK:
            return .tooShort
        default:
            return .damaged
        }
    }

    /// Inflates `compressed`, which must decompress to exactly `expected` bytes: the bytes, or
    /// nil and why not.
    public static func inflate(_ compressed: [UInt8], expected: Int) -> (bytes: [UInt8]?, result: InflateResult) {
        guard expected >= 0, expected < Int(UInt32.max) else { return (nil, .tooLong) }
        var out = [UInt8](repeating: 0, count: expected)
        let result = compressed.withUnsafeBytes { src in out.withUnsafeMutableBytes { inflate(src, into: $0) } }
        return (result == .ok ? out : nil, result)
    }

    /// How many bytes `compressed` inflates to, when it is exactly one whole zlib stream with
    /// nothing after its end and at most `limit` bytes inside; nil otherwise. Inflates through a
    /// 64 KB buffer: the memory is bounded whatever the stream holds, the work by `limit`.
    public static func inflatedCount(_ compressed: UnsafeRawBufferPointer, limit: Int) -> Int? {
        guard compressed.count <= Int(UInt32.max) else { return nil }
        var stream = z_stream()
        guard inflateInit_(&stream, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        stream.next_in = compressed.baseAddress.map {
            UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: UInt8.self))
        }
        stream.avail_in = UInt32(compressed.count)
        var scratch = [UInt8](repeating: 0, count: 1 << 16)
        var total = 0
        while true {
            let (status, produced) = scratch.withUnsafeMutableBufferPointer { out -> (Int32, Int) in
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                return (status, out.count - Int(stream.avail_out))
            }
            total += produced
            guard total <= limit else { return nil }
            switch status {
            case Z_STREAM_END: return stream.avail_in == 0 ? total : nil
            case Z_OK: continue
            default: return nil
            }
        }
    }

    /// The CRC-32 of `bytes`, continuing from `crc` (0 to start).
    public static func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        var c = UInt(crc)
        var rest = bytes
        // zlib takes a 32-bit length; feed larger buffers in pieces.
        while !rest.isEmpty {
            let n = min(rest.count, 1 << 30)
            c = CZlib.crc32(c, rest.baseAddress?.assumingMemoryBound(to: UInt8.self), UInt32(n))
            rest = UnsafeRawBufferPointer(rebasing: rest[n...])
        }
        return UInt32(truncatingIfNeeded: c)
    }

    /// The CRC-32 of `bytes`, continuing from `crc` (0 to start).
    public static func crc32(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { crc32($0, continuing: crc) }
    }
}

import CZlib

/// zlib deflate fed a piece at a time, so a large buffer can be deflated in slices between
/// input events (the history's cold snapshots): the same stream `Zlib.compress` makes, read
/// back by `Zlib.inflate`.
final class Deflater {
    /// The stream state, at a fixed address: zlib keeps a pointer back to it.
    private let stream: UnsafeMutablePointer<z_stream>
    /// What deflate has written so far.
    private(set) var output: [UInt8] = []
    /// Whether the stream is complete.
    private(set) var isFinished = false
    private var scratch = [UInt8](repeating: 0, count: 1 << 15)

    /// A stream at `level`; nil if zlib cannot start one (out of memory).
    init?(level: Int32) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        guard deflateInit_(stream, level, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            return nil
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Deflates `input` (at most 4 GiB), the last piece when `last`; false if zlib fails.
    func feed(_ input: UnsafeRawBufferPointer, last: Bool) -> Bool {
        guard !isFinished, input.count <= Int(UInt32.max) else { return false }
        // zlib does not write through next_in; the cast only satisfies its C signature.
        stream.pointee.next_in = input.baseAddress.map {
            UnsafeMutablePointer(mutating: $0.assumingMemoryBound(to: UInt8.self))
        }
        stream.pointee.avail_in = UInt32(input.count)
        let room = scratch.count
        while true {
            let status = scratch.withUnsafeMutableBufferPointer { out in
                stream.pointee.next_out = out.baseAddress
                stream.pointee.avail_out = UInt32(room)
                return deflate(stream, last ? Z_FINISH : Z_NO_FLUSH)
            }
            guard status != Z_STREAM_ERROR else { return false }
            let produced = room - Int(stream.pointee.avail_out)
            output.append(contentsOf: scratch[..<produced])
            if last {
                if status == Z_STREAM_END {
                    isFinished = true
                    return true
                }
                // Finishing with room to write and nothing written: zlib is stuck.
                if status == Z_BUF_ERROR && produced == 0 { return false }
            } else if stream.pointee.avail_out > 0 {
                // Room left over: deflate took all the input.
                return true
            }
        }
    }
}

import Glibc
import PaintCore

/// A picture file's bytes, read once from the start to the end through a buffer of
/// `chunkSize` bytes, for a decoder that reads as it goes (libspng's stream, libjpeg's source
/// manager, giflib's input function, the BMP rows): opening a picture holds its tiles and this
/// buffer, never the whole file.
///
/// Every byte read from a file goes through `crc` and `count` as it is read, so once the
/// stream has been read to its end (`drain`) they describe exactly the bytes the picture was
/// decoded from, whatever happens to the file later (`PictureFile` keeps them to check a copy).
/// The source is a file (its descriptor) or an array already in memory (the same decoders over
/// bytes: a paste, `ImageFile.open`, a picture inside a BMP, a PNG copied without its oversized
/// metadata). Bytes in memory are not checksummed (nothing compares them with a file: over a
/// 16 MB PNG the sum was 4 % of the decode's instructions), and `read(into:)` copies them
/// straight to the decoder, not through `buffer` first.
final class PictureStream {
    /// The most a file may hold (`ImageFile.maxFileBytes`).
    let limit: Int
    /// The name errors give.
    let name: String
    /// The bytes read from the source so far.
    private(set) var count = 0
    /// CRC-32 of those bytes (0 for bytes in memory, see above).
    private(set) var crc: UInt32 = 0
    /// CRC-32 of the bytes before the chunk the observers are being shown (`observe`): an
    /// observer that needs the CRC up to a place in it goes on from there, and the file's bytes
    /// are CRC'd once.
    private(set) var crcBefore: UInt32 = 0
    /// CRC-32 of the bytes before those in `buffer`.
    private var bufferCRC: UInt32 = 0
    /// Why reading stopped early: the source failed (`cannotRead`) or grew past `limit`.
    private(set) var failure: ImageFileError?
    /// See every chunk as it is read from the source (`observe`).
    private var observers: [(UnsafeRawBufferPointer) -> Void] = []
    /// The size the file said it had when opened (the array's for bytes): what a decoder
    /// checks a header's claims against before allocating.
    let size: Int

    private enum Source {
        case file(Int32)
        case memory([UInt8])
    }
    private let source: Source
    private let buffer: UnsafeMutableRawBufferPointer
    /// The unread part of `buffer`: `start..<end`.
    private var start = 0
    private var end = 0
    private var atEnd = false

    /// Bytes read from the source at a time: large enough that a read costs little per byte,
    /// small next to any picture.
    static let chunkSize = 1 << 16

    /// Reads the open file `fd` (not closed here) from where it stands.
    init(fd: Int32, name: String, size: Int, limit: Int) {
        source = .file(fd)
        self.size = size
        self.name = name
        self.limit = limit
        buffer = .allocate(byteCount: Self.chunkSize, alignment: 16)
    }

    /// Reads `bytes`.
    init(bytes: [UInt8], name: String) {
        source = .memory(bytes)
        size = bytes.count
        self.name = name
        limit = Int.max
        buffer = .allocate(byteCount: Self.chunkSize, alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// The bytes read but not yet taken, after reading more when none are left; empty at the
    /// end of the source (or when it failed: `failure`).
    var available: UnsafeRawBufferPointer {
        if start == end { refill() }
        return UnsafeRawBufferPointer(rebasing: buffer[start..<end])
    }

    /// Calls `see` with every byte from the first one not yet taken on: those already read
    /// into the buffer at once, then every chunk as it is read from the source, before the
    /// decoder gets it. What a decoder keeps of bytes it does not keep itself (a JPEG's header
    /// segments, a PNG's chunk types).
    func observe(_ see: @escaping (UnsafeRawBufferPointer) -> Void) {
        crcBefore = Zlib.crc32(UnsafeRawBufferPointer(rebasing: buffer[0..<start]), continuing: bufferCRC)
        see(UnsafeRawBufferPointer(rebasing: buffer[start..<end]))
        observers.append(see)
    }

    /// The first `n` bytes not yet taken, without taking them: fewer when the source has
    /// fewer, or when more than one chunk would be needed (a sniff looks at a few dozen).
    func peek(_ n: Int) -> [UInt8] {
        let chunk = available
        return Array(chunk.prefix(n))
    }

    /// Marks `n` of the `available` bytes as taken.
    func consume(_ n: Int) {
        start += min(n, end - start)
    }

    /// Copies up to `target.count` bytes into `target`; fewer only at the end of the source.
    /// Returns how many.
    @discardableResult
    func read(into target: UnsafeMutableRawBufferPointer) -> Int {
        var filled = 0
        while filled < target.count {
            // Bytes in memory, once the buffer is empty: one copy, from the array to the target.
            if start == end, case .memory(let bytes) = source, let to = target.baseAddress {
                let n = min(target.count - filled, bytes.count - count)
                guard n > 0 else { break }
                bytes.withUnsafeBytes { raw in
                    if let from = raw.baseAddress { (to + filled).copyMemory(from: from + count, byteCount: n) }
                }
                count += n
                let copied = UnsafeRawBufferPointer(rebasing: target[filled..<(filled + n)])
                for see in observers { see(copied) }
                filled += n
                continue
            }
            let chunk = available
            guard !chunk.isEmpty, let from = chunk.baseAddress, let to = target.baseAddress else { break }
            let n = min(chunk.count, target.count - filled)
            (to + filled).copyMemory(from: from, byteCount: n)
            consume(n)
            filled += n
        }
        return filled
    }

    /// Up to `n` bytes as an array; fewer only at the end of the source.
    func read(_ n: Int) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: n)
        let got = bytes.withUnsafeMutableBytes { read(into: $0) }
        bytes.removeLast(n - got)
        return bytes
    }

    /// Passes over `n` bytes; returns how many there were.
    @discardableResult
    func skip(_ n: Int) -> Int {
        var skipped = 0
        while skipped < n {
            let chunk = available
            guard !chunk.isEmpty else { break }
            let k = min(chunk.count, n - skipped)
            consume(k)
            skipped += k
        }
        return skipped
    }

    /// Every byte still unread, as an array (for a decoder that needs the whole file).
    func readRest() -> [UInt8] {
        var bytes: [UInt8] = []
        while true {
            let chunk = available
            guard !chunk.isEmpty else { break }
            bytes.append(contentsOf: chunk)
            consume(chunk.count)
        }
        return bytes
    }

    /// Reads the rest of the source (after the decoder stopped: trailing chunks, bytes after a
    /// JPEG's end), so that `count` and `crc` cover the whole file; then throws `failure` if
    /// reading failed anywhere.
    func drain() throws(ImageFileError) {
        while !available.isEmpty { consume(end - start) }
        if let failure { throw failure }
    }

    /// Reads the next chunk from the source into the buffer.
    private func refill() {
        start = 0
        end = 0
        guard !atEnd, let base = buffer.baseAddress else { return }
        switch source {
        case .memory(let bytes):
            let n = min(buffer.count, bytes.count - count)
            bytes.withUnsafeBytes { raw in
                if n > 0, let from = raw.baseAddress { base.copyMemory(from: from + count, byteCount: n) }
            }
            end = max(n, 0)
        case .file(let fd):
            while true {
                let n = Glibc.read(fd, base, buffer.count)
                if n < 0 && errno == EINTR { continue }
                if n < 0 { failure = .cannotRead(path: name, errno: errno) }
                end = max(n, 0)
                break
            }
        }
        if end == 0 {
            atEnd = true
            return
        }
        if count + end > limit {
            failure = .fileTooBig(path: name, bytes: count + end, limit: limit)
            atEnd = true
            end = 0
            return
        }
        let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<end])
        count += end
        if case .file = source {
            bufferCRC = crc
            crcBefore = crc
            crc = Zlib.crc32(chunk, continuing: crc)
        }
        for see in observers { see(chunk) }
    }
}

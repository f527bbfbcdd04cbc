import Glibc
import PaintCore

/// Opening and saving picture files on disk: the one entry point the app uses for files (and for
/// keeping a saved document's history, `SavedHistory`).
///
/// Loading decodes with the decoder the file's content names (PNG, JPEG, WebP, GIF, BMP): `open`
/// from the whole file read into memory, `openTiles` (the window) as it reads the file; saving encodes in memory in the format the options
/// name and hands the bytes to `AtomicFile`, so a failed save never leaves a half-written file
/// behind. Both report failures as `ImageFileError`, whose `message` goes to the status bar.
public enum ImageFile {
    /// Files larger than this are refused before reading: 1 GiB, far beyond any picture within
    /// `ImageLimits.default`, and small enough to hold in memory.
    public static let maxFileBytes = 1 << 30

    /// A picture file as opened: the decoded picture and the file's bytes as read.
    public struct Opened: Sendable {
        /// The picture, in sRGB, premultiplied, upright.
        public var picture: DecodedImage
        /// The file's bytes up to its picture's end (`readPicture`; a WebP's RIFF size then says
        /// where they end): decoding them again (`ImageDecoder`) gives exactly `picture`.
        public var bytes: [UInt8]
        /// The print resolution the file declares.
        public var resolution: PictureResolution? {
            PictureResolution(fileHead: Array(bytes.prefix(PictureResolution.headBytes)))
        }
    }

    /// Reads and decodes the picture file at `path`, in whatever format its content is.
    ///
    /// Fails with `cannotRead` (missing, unreadable, a folder), `notAFile`, `fileTooBig`,
    /// `emptyFile`, `unknownFormat`, `damaged`, `cutShort`, `metadataTooLarge` or `tooLarge`;
    /// the caller's document is not touched. `control` stops the decode midway, in every format (`ImageDecoder`).
    public static func open(
        path: String, limits: ImageLimits = .default, control: ReplayControl? = nil
    ) throws(ImageFileError) -> Opened {
        // Up to the picture's end (`readPicture`): a tail of junk is neither read nor kept.
        let bytes = try readPicture(path, limit: maxFileBytes, limits: limits)
        return Opened(
            picture: try ImageDecoder.decode(bytes, name: path, limits: limits, control: control), bytes: bytes)
    }

    /// A picture file as the window opens it: its pixels already in the engine's tiles.
    public struct OpenedTiles: Sendable {
        public var picture: TiledPicture
        public var format: ImageFormat
        /// Whether the file stores transparency (see `DecodedImage.hasAlpha`).
        public var hasAlpha: Bool
        /// Set when the file is damaged or cut short and `picture` is what could be read of it.
        public var damage: PictureDamage?
        /// The bytes the picture was decoded from: decoding them again gives exactly `picture`.
        public var bytes: DecodedBytes
        /// The file as it was read (nil when it changed while it was read).
        public var version: FileVersion?
        /// Whether the file (a PNG) carries an editing history (`HistoryChunk`).
        public var carriesHistory: Bool
        /// The file's first `PictureResolution.headBytes`, seen as it was read: what it says
        /// of itself before the pixels (its print resolution; a WebP's lossy or lossless).
        public var head: [UInt8]
        /// The print resolution the file declares.
        public var resolution: PictureResolution? { PictureResolution(fileHead: head) }
    }

    /// Where the bytes a picture was decoded from are.
    public enum DecodedBytes: Sendable {
        /// Left in the file, which stays open (`PictureFile`): a streamed decode.
        case file(PictureFile)
        /// In memory, as `readPicture` gives them: a WebP, or a file with metadata past the
        /// limit, which opens from a copy without it.
        case memory([UInt8])

        /// How many there are.
        public var count: Int {
            switch self {
            case .file(let file): return file.count
            case .memory(let bytes): return bytes.count
            }
        }
    }

    /// Reads and decodes the picture file at `path` as `open` does, into the engine's tiles
    /// (`ImageDecoder.decodeTiles`: a PNG, a JPEG or a BMP without a whole-picture buffer),
    /// reading the file once through a small buffer (`PictureStream`): opening holds the tiles,
    /// not the file. The bytes stay in the file, which is kept open, with the count and CRC of
    /// those up to the picture's end (`PictureFile`, `PictureEnd`: what follows is neither kept
    /// nor read back); a WebP's, or a file's whose metadata past the limit is passed over, are
    /// read into memory as `readPicture` gives them. The same errors.
    public static func openTiles(path: String, limits: ImageLimits = .default) throws(ImageFileError) -> OpenedTiles {
        let (fd, size) = try openForReading(path, limit: maxFileBytes)
        var kept = false
        defer { if !kept { _ = close(fd) } }
        let stream = PictureStream(fd: fd, name: path, size: size, limit: maxFileBytes)
        let history = PNGChunkSpotter(lookingFor: HistoryChunk.type, upTo: HistoryChunk.maxChunkLength)
        stream.observe { history.see($0) }
        let head = FileHeadCapture()
        stream.observe { head.see($0) }
        // What of the file is the picture's: junk after its end is not kept (`PictureEnd`).
        let end = PictureEnd(limits: limits, fileSize: size)
        stream.observe { [unowned stream] in end.see($0, crcBefore: stream.crcBefore) }
        let decoded: (picture: TiledPicture, format: ImageFormat, hasAlpha: Bool, damage: PictureDamage?)
        do {
            decoded = try ImageDecoder.decodeTiles(stream, limits: limits)
        } catch .metadataTooLarge {
            // Rare: the file is read again up to its picture's end, the metadata past the limit
            // skipped, not read (`readPicture`: a text chunk claiming 900 MB costs nothing), and
            // opens from those bytes, which are the ones its pixels come from. The stream goes
            // on to the file's end through its small buffer: its count and CRC are the file's.
            let bytes = try readPicture(path, limit: maxFileBytes, limits: limits)
            try stream.drain()
            let again = try ImageDecoder.decodeTiles(bytes, name: path, limits: limits)
            return OpenedTiles(
                picture: again.picture, format: again.format, hasAlpha: again.hasAlpha, damage: again.damage,
                bytes: .memory(bytes),
                version: FileVersion(path: path, count: stream.count, crc: stream.crc),
                carriesHistory: HistoryChunk.isPresent(in: bytes), head: head.head)
        }
        let version = FileVersion(path: path, count: stream.count, crc: stream.crc)
        let file: PictureFile
        switch end.kept(ofFile: stream.count) {
        case .prefix(let count, let crc): file = PictureFile(fd: fd, path: path, count: count, crc: crc)
        case .whole: file = PictureFile(fd: fd, path: path, count: stream.count, crc: stream.crc)
        case .picture:
            // A WebP (decoded from memory anyway), or a file whose metadata past the limit was
            // passed over: its bytes as `readPicture` gives them, the picture's and no more.
            let bytes = try readPicture(path, limit: maxFileBytes, limits: limits)
            return OpenedTiles(
                picture: decoded.picture, format: decoded.format, hasAlpha: decoded.hasAlpha, damage: decoded.damage,
                bytes: .memory(bytes),
                version: version, carriesHistory: decoded.format == .png && HistoryChunk.isPresent(in: bytes),
                head: head.head)
        }
        kept = true
        return OpenedTiles(
            picture: decoded.picture, format: decoded.format, hasAlpha: decoded.hasAlpha, damage: decoded.damage,
            bytes: .file(file),
            version: version, carriesHistory: decoded.format == .png && history.found,
            head: head.head)
    }

    /// The pixels of the picture file at `path`, in any format SwiftPaint opens.
    public static func load(
        path: String, limits: ImageLimits = .default, control: ReplayControl? = nil
    ) throws(ImageFileError) -> PixelImage {
        try decode(path: path, limits: limits, control: control).image
    }

    /// The picture of the file at `path`, decoded from its bytes up to the picture's end
    /// (`readPicture`): what `load`, `export` and a paste need, which keep no bytes; a damaged
    /// file's `DecodedImage.damage` says what could be read. The same errors as `open`.
    public static func decode(
        path: String, limits: ImageLimits = .default, control: ReplayControl? = nil
    ) throws(ImageFileError) -> DecodedImage {
        try ImageDecoder.decode(
            readPicture(path, limit: maxFileBytes, limits: limits), name: path, limits: limits, control: control)
    }

    /// Encodes `image` as PNG (RGBA when `withAlpha`, else RGB) and writes it atomically to `path`.
    ///
    /// A symlink at `path` is followed and its target replaced; the old file's permissions are
    /// kept; on failure the old file is left byte-identical. With `history`, the document's
    /// history is kept in the history store under the saved pixels (before the file is written)
    /// and, when it is portable, carried in the file; what became of it is returned. The history
    /// never makes a save fail, and a save that fails keeps no entry of its own.
    @discardableResult
    public static func save(
        _ image: PixelImage, to path: String, withAlpha: Bool, history: SavedHistory? = nil
    ) throws(ImageFileError) -> SavedHistory.Outcome {
        try save(image, to: path, options: SaveOptions(format: .png), withAlpha: withAlpha, history: history)
    }

    /// Encodes `image` as `options` say and writes it atomically to `path`, keeping `history`
    /// as `save(_:to:withAlpha:history:)` does (only a PNG can carry it in the file).
    ///
    /// The alpha channel is written when `withAlpha` and the format keeps transparency; any other
    /// picture that is not opaque is flattened onto white first (JPEG has no alpha).
    @discardableResult
    public static func save(
        _ image: PixelImage, to path: String, options: SaveOptions, withAlpha: Bool, history: SavedHistory? = nil
    ) throws(ImageFileError) -> SavedHistory.Outcome {
        let keepsAlpha = withAlpha && options.format.keepsTransparency
        var bytes: [UInt8]
        var outcome = SavedHistory.Outcome()
        do {
            let written = keepsAlpha ? image : ImageEncoder.flattened(image, onto: Color.white.pixel)
            bytes = try ImageEncoder.encode(written, options: options, withAlpha: keepsAlpha)
            if let history {
                (bytes, outcome) = try history.attach(
                    to: bytes, picture: image,
                    decoded: ImageEncoder.decodedExactly(written, options: options, withAlpha: keepsAlpha), name: path)
            }
        } catch {
            // The codec does not know the file name; put it into the message.
            throw error.withPath(path)
        }
        do {
            let written = try AtomicFile.write(bytes, to: path)
            outcome.file = FileVersion(stat: written, crc: Zlib.crc32(bytes))
        } catch {
            // No file holds these pixels: the store is left as it was (the entry this save
            // made would be the history of nothing, and no other picture's history goes for it).
            if let staged = outcome.staged { history?.store?.rollBack(staged) }
            throw error
        }
        if let staged = outcome.staged, let store = history?.store {
            outcome.kept?.dropped = store.commit(staged)
            outcome.staged = nil
        }
        return outcome
    }

    /// The whole contents of the ordinary file at `path`, refusing more than `limit` bytes.
    static func readAll(_ path: String, limit: Int) throws(ImageFileError) -> [UInt8] {
        let (fd, size) = try openForReading(path, limit: limit)
        defer { _ = close(fd) }
        // One spare byte lets EOF show up without a second allocation; the loop still copes
        // with a file that grows or shrinks while it is read.
        var bytes = [UInt8](repeating: 0, count: size + 1)
        var filled = 0
        while true {
            if filled == bytes.count {
                guard bytes.count <= limit else { throw .fileTooBig(path: path, bytes: bytes.count, limit: limit) }
                bytes += [UInt8](repeating: 0, count: min(max(bytes.count, 1 << 16), limit + 1 - bytes.count))
            }
            let n = bytes.withUnsafeMutableBytes { raw in
                // The buffer is never empty here: it has at least the spare byte.
                read(fd, raw.baseAddress.map { $0 + filled }, raw.count - filled)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(path: path, errno: errno)
            }
            if n == 0 { break }
            filled += n
        }
        bytes.removeLast(bytes.count - filled)
        return bytes
    }

    /// The bytes of the picture file at `path` up to its picture's end (`PictureExtent`: a
    /// PNG's IEND, a JPEG's EOI, a GIF's first image, a BMP's rows, a WebP's first picture,
    /// where its RIFF size is then made to end), refusing more than `limit` bytes. A file in no
    /// known format is refused after its first bytes, what follows the picture is not read (a
    /// small PNG with a sparse 900 MB tail takes a few KB, not 900 MB), and a header claiming
    /// more pixels than `limits` is read no further than the decoder needs to refuse it.
    static func readPicture(
        _ path: String, limit: Int, limits: ImageLimits = .default
    ) throws(ImageFileError) -> [UInt8] {
        let (fd, size) = try openForReading(path, limit: limit)
        defer { _ = close(fd) }
        var extent = PictureExtent(limits: limits, fileSize: size, skipsUnneeded: true)
        var end = Int.max
        var looking = true
        var bytes: [UInt8] = []
        // The size the file says it has: no page is touched before it is read into.
        bytes.reserveCapacity(size + 1)
        let piece = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { piece.deallocate() }
        while bytes.count < end {
            let n = Glibc.read(fd, piece.baseAddress, min(piece.count, end - bytes.count))
            if n < 0 {
                if errno == EINTR { continue }
                throw .cannotRead(path: path, errno: errno)
            }
            if n == 0 { break }
            guard bytes.count + n <= limit else {
                throw .fileTooBig(path: path, bytes: bytes.count + n, limit: limit)
            }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: piece[0..<n]))
            while looking {
                switch extent.look(at: bytes, atEnd: false) {
                case .end(let at):
                    end = at
                    looking = false
                case .notAPicture: throw .unknownFormat(path: path)
                case .whole: looking = false
                case .unknown: break
                case .skip(let from, let to):
                    // Seeked over, not read: a chunk claiming 900 MB costs nothing.
                    let read = bytes.count
                    bytes.removeSubrange(from..<min(to, read))
                    if to > read && lseek(fd, off_t(to - read), SEEK_CUR) < 0 {
                        throw .cannotRead(path: path, errno: errno)
                    }
                    continue
                }
                break
            }
        }
        if bytes.count > end { bytes.removeLast(bytes.count - end) }
        if bytes.count == end && ImageFormat.sniff(bytes) == .webp { PictureExtent.cutWebP(&bytes) }
        if !bytes.isEmpty, end == .max, extent.look(at: bytes, atEnd: true) == .notAPicture {
            throw .unknownFormat(path: path)
        }
        return bytes
    }

    /// The ordinary file at `path` opened for reading, and its size, refusing more than
    /// `limit` bytes, a folder and anything that is not a file (a FIFO, a device).
    static func openForReading(_ path: String, limit: Int) throws(ImageFileError) -> (fd: Int32, size: Int) {
        guard !path.isEmpty else { throw .cannotRead(path: path, errno: ENOENT) }
        // O_NONBLOCK so that a FIFO cannot hang the open; it is refused just below anyway and
        // has no effect on ordinary files.
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .cannotRead(path: path, errno: errno) }
        var ok = false
        defer { if !ok { _ = close(fd) } }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .cannotRead(path: path, errno: errno) }
        if info.st_mode & S_IFMT == S_IFDIR { throw .cannotRead(path: path, errno: EISDIR) }
        guard info.st_mode & S_IFMT == S_IFREG else { throw .notAFile(path: path, saving: false) }
        let size = Int(info.st_size)
        guard size <= limit else { throw .fileTooBig(path: path, bytes: size, limit: limit) }
        ok = true
        return (fd, size)
    }
}

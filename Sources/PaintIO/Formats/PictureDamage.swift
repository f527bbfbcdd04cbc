import PaintCore

/// What a damaged or cut-short file gave: its picture as far as it could be read.
///
/// A decoder that read the header (the size) and at least one row before the file ended or
/// broke keeps those rows, as GIMP, Krita and most viewers show such a file, instead of
/// refusing it: a download cut off or a disk that lost a file's tail still gives what it held.
/// The rows not decoded are transparent when the file stores transparency and white when it
/// does not (a JPEG, an opaque PNG): such a picture opens opaque and saves without alpha, where
/// a transparent hole would be flattened onto white anyway, as a JPEG is saved. Every size and
/// work bound of a whole file holds the same for a damaged one.
public struct PictureDamage: Equatable, Sendable {
    /// Why the rest could not be read, as the refusal of the file would have said it
    /// (`.cutShort` or `.damaged`).
    public var error: ImageFileError
    /// How many rows from the picture's top (as the file stores it, before an EXIF
    /// orientation turns it) were decoded whole; the rest are the fill.
    public var rowsRead: Int
    /// The picture's height in the file.
    public var height: Int
    /// Whether the rows came in order, top to bottom: false for an interlaced PNG or GIF (the
    /// passes read are spread over the whole picture, `rowsRead` counts the rows they made
    /// whole) and a progressive JPEG (its first scans give the whole picture, coarser: no row
    /// is whole, `rowsRead` is 0).
    public var inOrder: Bool

    /// A damage record.
    public init(error: ImageFileError, rowsRead: Int, height: Int, inOrder: Bool = true) {
        self.error = error
        self.rowsRead = rowsRead
        self.height = height
        self.inOrder = inOrder
    }

    /// The pixel for what was not decoded: transparent for a picture with alpha, else white.
    static func fill(hasAlpha: Bool) -> UInt32 { hasAlpha ? 0 : Color.white.pixel }

    /// Whether `error`, met after the header, still leaves what was decoded worth showing: the
    /// file's fault (cut short, damaged), not a decode told to stop, nor a limit.
    static func keeps(_ error: ImageFileError) -> Bool {
        switch error {
        case .cutShort: return true
        case .damaged(let path, _): return error != .stopped(path: path)
        default: return false
        }
    }

    /// One sentence for the status bar, e.g. `“photo.png” is damaged: only the top 412 of
    /// 1080 rows could be read (it is cut short: it ends before the picture does)`.
    public func message(name: String) -> String {
        let subject = "“\(ImageFileError.shortened(name))”"
        let what: String
        if inOrder && rowsRead < height {
            what = "only the top \(rowsRead) of \(height) rows could be read"
        } else {
            what = "only part of the picture could be read"
        }
        let cause: String
        switch error {
        case .cutShort(_, let detail): cause = "it is cut short: \(detail)"
        case .damaged(_, let detail): cause = detail
        default: cause = error.reason
        }
        return "\(subject) is damaged: \(what) (\(cause))"
    }
}

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
    /// How many rows, counted from the first the file stores (before `orientation` turns
    /// them), were decoded whole; the rest are the fill.
    public var rowsRead: Int
    /// The picture's height in the file: the rows it stores.
    public var height: Int
    /// Whether the rows came in order, top to bottom: false for an interlaced PNG or GIF (the
    /// passes read are spread over the whole picture, `rowsRead` counts the rows they made
    /// whole) and a progressive JPEG (its first scans give the whole picture, coarser: no row
    /// is whole, `rowsRead` is 0).
    public var inOrder: Bool
    /// How the rows as the file stores them lie in the picture as it opens: a JPEG's EXIF
    /// orientation turns them (orientations 5 to 8 make them columns), a bottom-up BMP stores
    /// its bottom row first (`.flipVertical`). The rows read then lie at another edge of the
    /// picture than its top (`part`), and the message says which.
    public var orientation: Orientation

    /// A damage record.
    public init(
        error: ImageFileError, rowsRead: Int, height: Int, inOrder: Bool = true, orientation: Orientation = .identity
    ) {
        self.error = error
        self.rowsRead = rowsRead
        self.height = height
        self.inOrder = inOrder
        self.orientation = orientation
    }

    /// The same damage, its rows then turned as `next` turns the picture (a JPEG's EXIF
    /// orientation applied after its rows are decoded).
    public func turned(_ next: Orientation) -> PictureDamage {
        var turned = self
        turned.orientation = orientation.then(next)
        return turned
    }

    /// The rectangle of the picture as it opens, `width` x `height` (after `orientation`),
    /// that holds the rows read; nil when they did not come in order (`inOrder`).
    public func part(width: Int, height: Int) -> IntRect? {
        guard inOrder else { return nil }
        let stored = orientation.inverse.size(width: width, height: height)
        return orientation.map(
            IntRect(x: 0, y: 0, width: stored.width, height: min(rowsRead, stored.height)), width: stored.width,
            height: stored.height)
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
        message(subject: "“\(ImageFileError.shortened(name))”")
    }

    /// The sentence of `message(name:)` about `subject` (`The pasted picture`). The part read
    /// is said as the picture shows it: a photo turned upright by its EXIF orientation says
    /// `only the left 412 of 1080 columns`, a bottom-up BMP `only the bottom 40 of 300 rows`.
    public func message(subject: String) -> String {
        let what: String
        if inOrder && rowsRead < height {
            // Where the first stored row lies once turned: one side of a 1 x height picture.
            let first = orientation.map(IntRect(x: 0, y: 0, width: 1, height: 1), width: 1, height: height)
            let edge: String
            if orientation.swapsAxes {
                edge = first.x == 0 ? "left \(rowsRead) of \(height) columns" : "right \(rowsRead) of \(height) columns"
            } else {
                edge = first.y == 0 ? "top \(rowsRead) of \(height) rows" : "bottom \(rowsRead) of \(height) rows"
            }
            what = "only the \(edge) could be read"
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

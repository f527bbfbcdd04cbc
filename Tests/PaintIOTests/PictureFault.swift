import PaintCore

@testable import PaintIO

/// What a decode made of a file: the whole picture, a refusal, or a damaged picture opened with
/// what could be read (`PictureDamage`) and its pixels. Compared across the ways a file opens
/// (from memory, in tiles, streamed from disk), which must agree.
enum PictureFault: Equatable, CustomStringConvertible {
    case whole
    case refused(ImageFileError)
    case damaged(PictureDamage, PixelImage)

    /// What `decode` made of its file.
    static func decoding(_ decode: () throws(ImageFileError) -> DecodedImage) -> PictureFault {
        do {
            let decoded = try decode()
            return decoded.damage.map { .damaged($0, decoded.image) } ?? .whole
        } catch {
            return .refused(error)
        }
    }

    /// What `decode` made of its file, in tiles.
    static func tiles(_ decode: () throws(ImageFileError) -> (TiledPicture, PictureDamage?)) -> PictureFault {
        do {
            let (picture, damage) = try decode()
            return damage.map { .damaged($0, picture.image) } ?? .whole
        } catch {
            return .refused(error)
        }
    }

    /// The refusal's message, or the message of the fault a damaged picture opened with.
    var message: String? {
        switch self {
        case .whole: return nil
        case .refused(let error): return error.message
        case .damaged(let damage, _): return damage.error.message
        }
    }

    /// The fault itself: the refusal or the damage's error.
    var error: ImageFileError? {
        switch self {
        case .whole: return nil
        case .refused(let error): return error
        case .damaged(let damage, _): return damage.error
        }
    }

    var description: String {
        switch self {
        case .whole: return "whole"
        case .refused(let error): return "refused: \(error.message)"
        case .damaged(let damage, let image):
            return "damaged \(image.width) x \(image.height), \(damage.rowsRead) of \(damage.height) rows read"
                + " (in order: \(damage.inOrder)): \(damage.error.message)"
        }
    }
}

import PaintCore
import PaintIO

/// `swiftpaint --forget FILE` and `--forget-all`: dropping histories kept on this computer.
public enum HistoryForgetting {
    /// What to print, and whether it worked.
    public struct Report: Equatable, Sendable {
        public var message: String
        public var succeeded: Bool
    }

    /// Drops the history kept for the picture in `file` (any format SwiftPaint opens): the file
    /// is read (within the usual limits) for its pixels, which name the entry. A file that carries its history inside is
    /// said to, since forgetting the kept copy does not change the file.
    public static func forget(file: String, store: HistoryStore) -> Report {
        let name = PathDisplay.abbreviatingHome(file)
        let opened: ImageFile.Opened
        do {
            opened = try ImageFile.open(path: file)
        } catch {
            return Report(message: "swiftpaint: cannot forget: \(error.description)", succeeded: false)
        }
        let key = HistoryKey(of: opened.picture.image)
        let size = store.entries().first { $0.key == key }?.bytes
        let forgot: Bool
        do {
            forgot = try store.forget(key)
        } catch {
            return Report(message: "swiftpaint: cannot forget: \(error.description)", succeeded: false)
        }
        var message =
            forgot
            ? "Forgot the editing history of \(name)"
                + (size.map { " (\(HistoryStoreError.size($0)))" } ?? "") + "."
            : "No editing history of \(name) is kept on this computer."
        if opened.picture.format == .png, HistoryChunk.extract(from: opened.bytes) != .none {
            message +=
                " The file itself still carries its history inside (it was saved with history):"
                + " anyone who has the file has it."
        }
        return Report(message: message, succeeded: true)
    }

    /// Drops every history kept.
    public static func forgetAll(store: HistoryStore) -> Report {
        do {
            let removed = try store.forgetAll()
            let folder = PathDisplay.abbreviatingHome(store.folder)
            if removed.entries == 0 {
                return Report(message: "No editing history is kept in \(folder).", succeeded: true)
            }
            let pictures = removed.entries == 1 ? "1 picture" : "\(removed.entries) pictures"
            return Report(
                message: "Forgot every editing history kept in \(folder): \(pictures), "
                    + "\(HistoryStoreError.size(removed.bytes)).", succeeded: true)
        } catch {
            return Report(message: "swiftpaint: cannot forget: \(error.description)", succeeded: false)
        }
    }
}

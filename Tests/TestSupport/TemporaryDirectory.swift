import Foundation

/// A fresh directory under the system temporary folder, removed with everything in it when the
/// instance goes away (or on `remove()`). Used for Xvfb and program logs, and as the program's
/// `HOME` / `XDG_STATE_HOME`, and for every file a test writes, so tests never touch the real
/// user's files.
public final class TemporaryDirectory {
    /// The directory's absolute path.
    public let path: String
    /// Whether `deinit` deletes the directory. Set to false to keep it for a post-mortem.
    public var removeOnDeinit = true

    /// Creates `$TMPDIR/<prefix>-XXXXXX` with `mkdtemp`.
    public init(prefix: String = "swiftpaint-e2e") throws {
        let base = (ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        path = String(cString: made)
    }

    deinit {
        if removeOnDeinit { remove() }
    }

    /// Deletes the directory and its contents now.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `path/name`.
    public func file(_ name: String) -> String { "\(path)/\(name)" }

    /// Creates (with intermediates) and returns `path/name`.
    @discardableResult
    public func subdirectory(_ name: String) throws -> String {
        let p = file(name)
        try FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
        return p
    }

    /// The names in the directory (or in its subdirectory `sub`), sorted, hidden ones included.
    public func entries(_ sub: String = "") -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: sub.isEmpty ? path : file(sub))) ?? []).sorted()
    }

    /// The contents of `path/name` as UTF-8 text, or "" if it cannot be read.
    public func read(_ name: String) -> String {
        (try? String(contentsOfFile: file(name), encoding: .utf8)) ?? ""
    }
}

import Foundation
import XDriver

/// Finds the `swiftpaint` executable built together with the tests.
///
/// Order: `$SWIFTPAINT_BIN`; the folder of the running test binary (`/proc/self/exe`,
/// `CommandLine.arguments[0]`, `Bundle.main`), which is `<scratch>/<triple>/<config>/` for any
/// `--scratch-path`, so it is the build the tests came from; then the package's own `.build`
/// folders (the package root is found from this file's `#filePath`).
enum SwiftPaintBinary {
    /// The path of an executable `name`, or throws `HarnessError.binaryNotFound` listing where
    /// it looked.
    static func locate(_ name: String = "swiftpaint", filePath: String = #filePath) throws -> String {
        let list = candidates(name, filePath: filePath)
        if let found = list.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            return found
        }
        throw HarnessError.binaryNotFound(searched: list)
    }

    /// Every place `locate` looks, in order, without duplicates.
    static func candidates(_ name: String = "swiftpaint", filePath: String = #filePath) -> [String] {
        var list: [String] = []
        if let override = ProcessInfo.processInfo.environment["SWIFTPAINT_BIN"], !override.isEmpty {
            list.append(override)
        }
        var dirs: [String] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            dirs.append((exe as NSString).deletingLastPathComponent)
        }
        if let arg0 = CommandLine.arguments.first {
            let absolute = arg0.hasPrefix("/") ? arg0 : FileManager.default.currentDirectoryPath + "/" + arg0
            dirs.append(((absolute as NSString).standardizingPath as NSString).deletingLastPathComponent)
        }
        dirs.append((Bundle.main.bundlePath as NSString).deletingLastPathComponent)
        dirs.append(Bundle.main.bundlePath)
        // <root>/Tests/AppTests/Support/SwiftPaintBinary.swift -> <root>
        var root = filePath
        for _ in 0..<4 { root = (root as NSString).deletingLastPathComponent }
        for config in ["debug", "release"] {
            dirs.append("\(root)/.build/\(config)")
            if let triples = try? FileManager.default.contentsOfDirectory(atPath: "\(root)/.build") {
                for t in triples.sorted() where t.contains("-linux") {
                    dirs.append("\(root)/.build/\(t)/\(config)")
                }
            }
        }
        for d in dirs { list.append("\(d)/\(name)") }
        var seen = Set<String>()
        return list.filter { seen.insert($0).inserted }
    }
}

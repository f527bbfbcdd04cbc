import Foundation
import TestSupport
import Testing

/// `make test` on a fresh machine: every program a test starts is installed by `make deps`,
/// and a missing one fails loudly with the package to add.
@Suite struct TestProgramsTests {
    /// The packages in the Makefile's DEPS.
    static func makeDeps() throws -> Set<String> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let makefile = try String(contentsOf: root.appendingPathComponent("Makefile"), encoding: .utf8)
        // "DEPS := a b \" and "DEPS += c", with their continuation lines.
        var words: [Substring] = []
        var inDeps = false
        for line in makefile.split(separator: "\n", omittingEmptySubsequences: false) {
            if let start = ["DEPS :=", "DEPS +="].first(where: { line.hasPrefix($0) }) {
                inDeps = true
                words += line.dropFirst(start.count).split(separator: " ")
            } else if inDeps {
                words += line.split(separator: " ")
            }
            if !line.hasSuffix("\\") { inDeps = false }
        }
        return Set(words.filter { $0 != "\\" }.map(String.init))
    }

    @Test func everyProgramTheTestsStartIsInstalledByMakeDeps() throws {
        let deps = try Self.makeDeps()
        #expect(deps.contains("xvfb") && deps.contains("pkg-config"), "DEPS read from the Makefile: \(deps)")
        for (path, package) in TestPrograms.packages.sorted(by: { $0.key < $1.key }) {
            #expect(
                deps.contains(package) || TestPrograms.essential.contains(package),
                "\(path) comes from \(package), which the Makefile's DEPS does not list")
            #expect(throws: Never.self, "make deps installs it") { try TestPrograms.require(path) }
        }
    }

    @Test func aMissingProgramFailsNamingThePackageToAdd() {
        let missing = "/nonexistent/bin/xlogo"
        do {
            try TestPrograms.require(missing, packages: [missing: "x11-apps"])
            Issue.record("\(missing) does not exist, yet it passed the check")
        } catch {
            #expect(error.path == missing && error.package == "x11-apps")
            #expect(
                error.description
                    == "/nonexistent/bin/xlogo is not installed: the tests need the Debian package x11-apps;"
                    + " add it to DEPS in the Makefile so `make deps` installs it")
        }
    }
}

import Foundation
import TestSupport
import Testing

/// Programs the tests run to their end (`ChildProcess.run`): input in, both outputs back whole,
/// the exit status, and a program that does not end killed; and no test starts one through
/// Foundation's `Process` (a run-loop thread in the test process) instead.
@Suite struct ChildProcessRunTests {
    @Test func inputGoesInAndBothOutputsComeBackWholeWithTheStatus() throws {
        // More than a pipe holds (64 KiB), all of it read before anything is written back.
        let input = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) }
        let run = try ChildProcess.run("/bin/sh", ["-c", "cat; echo done >&2; exit 3"], input: input)
        #expect(run.status == .exited(3))
        #expect(!run.succeeded)
        #expect(run.stdout == input)
        #expect(run.stderrText == "done\n")
        // No input: stdin is /dev/null, read as empty at once.
        let empty = try ChildProcess.run("/bin/sh", ["-c", "cat; echo \"$0\""])
        #expect(empty.succeeded && empty.stdoutText == "/bin/sh\n", "\(empty.status) \(empty.stdoutText)")
    }

    @Test func aProgramThatDoesNotEndIsKilledAndSaidSo() throws {
        do {
            _ = try ChildProcess.run("/bin/sleep", ["600"], timeout: .milliseconds(200))
            Issue.record("sleep 600 ended within 200 ms")
        } catch let error as ChildProcessError {
            guard case .timedOut(let path, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(path == "/bin/sleep")
        }
        #expect(!ChildProcess.succeeds("/nonexistent/bin/true", []), "a program not installed does not succeed")
        #expect(ChildProcess.succeeds("/bin/true", []))
    }

    /// Whether `text` names Foundation's `Process` as a word followed by `(` or `.` (a new one,
    /// `Process.run`), not `ChildProcess` or `AppProcess`.
    static func usesFoundationProcess(_ text: String) -> Bool {
        var rest = text[...]
        while let r = rest.range(of: "Process") {
            let before: Character = r.lowerBound > text.startIndex ? text[text.index(before: r.lowerBound)] : " "
            let after: Character = r.upperBound < text.endIndex ? text[r.upperBound] : " "
            let partOfName = before.isLetter || before.isNumber || before == "_"
            if !partOfName && (after == "(" || after == ".") { return true }
            rest = text[r.upperBound...]
        }
        return false
    }

    @Test func theCheckFindsProcessAndNotItsNamesakes() {
        #expect(Self.usesFoundationProcess("let p = Process()"))
        #expect(Self.usesFoundationProcess("try Foundation.Process.run(url, arguments: [])"))
        #expect(!Self.usesFoundationProcess("let c = try ChildProcess(executable: e)"))
        #expect(!Self.usesFoundationProcess("AppProcess(executable: e) ChildProcess.run(e, [])"))
        #expect(!Self.usesFoundationProcess("a Process, in words"))
    }

    @Test func noTestStartsAProgramThroughFoundationsProcess() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var found: [String] = []
        for folder in ["Tests", "Sources"] {
            let base = root.appendingPathComponent(folder).path
            let files = FileManager.default.enumerator(atPath: base)?.compactMap { $0 as? String } ?? []
            for file in files where file.hasSuffix(".swift") && file != "PaintIOTests/ChildProcessRunTests.swift" {
                let text = try String(contentsOfFile: base + "/" + file, encoding: .utf8)
                if Self.usesFoundationProcess(text) { found.append("\(folder)/\(file)") }
            }
        }
        #expect(found.isEmpty, "these start programs with Foundation's Process, not ChildProcess: \(found)")
    }
}

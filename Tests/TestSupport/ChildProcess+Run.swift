import Foundation

/// What a program run to its end printed, and how it ended (`ChildProcess.run`).
public struct ProgramRun: Sendable {
    /// How it ended.
    public let status: ExitStatus
    /// Everything it wrote to stdout.
    public let stdout: [UInt8]
    /// Everything it wrote to stderr.
    public let stderr: [UInt8]

    /// Whether it exited with status 0.
    public var succeeded: Bool { status == .exited(0) }
    /// stdout as UTF-8 text.
    public var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    /// stderr as UTF-8 text.
    public var stderrText: String { String(decoding: stderr, as: UTF8.self) }
}

extension ChildProcess {
    /// Runs `executable` with `arguments` to its end and returns what it printed.
    ///
    /// `input` is its stdin. Input and output go through files in a temporary folder, not
    /// pipes: a program that reads all of its input before it writes (cjpeg) cannot block
    /// against a test thread that has not read its output yet, and no thread of this process
    /// feeds or drains it.
    /// - Parameters:
    ///   - environment: exactly the child's environment (default: this process's, without
    ///     what would point it at another X server, `cleanEnvironment`).
    ///   - timeout: how long it may run; then it is killed and `ChildProcessError.timedOut`
    ///     is thrown. Generous: a loaded 2-core box runs these slowly.
    /// - Throws: `MissingProgram` when `executable` is not installed (naming the Debian package),
    ///   `ChildProcessError` when it cannot be started or does not end in time.
    public static func run(
        _ executable: String, _ arguments: [String], input: [UInt8]? = nil,
        environment: [String: String] = cleanEnvironment(), timeout: Duration = .seconds(600)
    ) throws -> ProgramRun {
        let folder = try TemporaryDirectory(prefix: "swiftpaint-run")
        var stdinPath = "/dev/null"
        if let input {
            stdinPath = folder.file("stdin")
            guard FileManager.default.createFile(atPath: stdinPath, contents: Data(input)) else {
                throw POSIXError(.EIO)
            }
        }
        let child = try ChildProcess(
            executable: executable, arguments: arguments, environment: environment, stdinPath: stdinPath,
            stdoutPath: folder.file("stdout"), stderrPath: folder.file("stderr"))
        guard let status = child.waitForExit(timeout: timeout) else {
            child.killAndReap()
            throw ChildProcessError.timedOut(path: executable, after: timeout)
        }
        let read = { (name: String) in FileManager.default.contents(atPath: folder.file(name)).map { [UInt8]($0) } ?? []
        }
        return ProgramRun(status: status, stdout: read("stdout"), stderr: read("stderr"))
    }

    /// Whether `executable` ran to its end and exited with status 0; false also when it is not
    /// installed or cannot be started (for programs whose failure the caller handles, such as
    /// `mount` where mounting is not allowed).
    public static func succeeds(_ executable: String, _ arguments: [String]) -> Bool {
        (try? run(executable, arguments))?.succeeded ?? false
    }
}

import Foundation
import Glibc
import PaintCore
import PaintIO
import TestSupport
import Testing

/// `swiftpaint --recover` against journals that are huge, long or damaged: it reads them in
/// bounded memory, keeps every good record after a damaged one, lists what it cannot read and
/// deletes nothing.
@Suite(.serialized) struct JournalDamageEndToEndTests {
    static func stroke(_ i: Int) -> PaintCore.Operation {
        .stroke(StrokeStyle(width: 4), points: [Point(x: 10.5 + Double(i) * 20, y: 10.5), Point(x: 30.5, y: 40.5)])
    }

    /// A journal of `strokes` strokes left in `folder` (the writer dropped without discarding,
    /// as a crash leaves it); returns its path.
    static func journal(in folder: String, strokes: Int, path: String? = nil) throws -> String {
        let writer = try JournalWriter.create(
            in: folder, header: JournalHeader(documentPath: path, width: 200, height: 100, background: .color(.white)))
        for i in 0..<strokes { writer.append(stroke(i)) }
        #expect(writer.flush())
        return writer.path
    }

    static func put(_ bytes: [UInt8], _ path: String) {
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }

    static func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : -1
    }

    /// Runs `swiftpaint --recover` with `home`; returns its output and peak memory in MiB.
    ///
    /// Measured by GNU time, not by wait4's ru_maxrss of a child this process spawns: that one
    /// counts this (large, under a parallel test run) process's peak too (see ExportTests).
    static func recover(_ home: TemporaryDirectory) throws -> (String, Double) {
        try TestPrograms.require("/usr/bin/time")
        let logs = try TemporaryDirectory(prefix: "swiftpaint-recover")
        var env = ChildProcess.cleanEnvironment()
        env["HOME"] = home.path
        env["XDG_STATE_HOME"] = home.path + "/.local/state"
        let child = try ChildProcess(
            executable: "/usr/bin/time", arguments: ["-f", "peak-kb %M", try SwiftPaintBinary.locate(), "--recover"],
            environment: env, stdoutPath: logs.file("out"), stderrPath: logs.file("err"))
        let status = child.waitForExit(timeout: .seconds(120))
        if status == nil { child.killAndReap() }
        #expect(status == .exited(0), "\(logs.read("err"))")
        let peakLine = logs.read("err").split(separator: "\n").last { $0.hasPrefix("peak-kb ") } ?? ""
        let peakKB = Int(peakLine.dropFirst(8)) ?? Int.max
        return (logs.read("out"), Double(peakKB) / 1024)
    }

    @Test("--recover: a 10 GiB journal, a 512 MiB one and one with a damaged first stroke, in bounded memory")
    func hugeLongAndDamaged() throws {
        let home = try TemporaryDirectory(prefix: "swiftpaint-journals")
        let folder = home.path + "/.local/state/swiftpaint"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)

        // A 10 GiB file (sparse) that starts like a journal: refused from its size alone.
        let huge = try Self.journal(in: folder, strokes: 1, path: "/home/ana/huge.png")
        #expect(truncate(huge, off_t(10) << 30) == 0)
        // 512 MiB (sparse) after four good strokes: read through in pieces, the four kept.
        let long = try Self.journal(in: folder, strokes: 4, path: "/home/ana/long.png")
        #expect(truncate(long, off_t(512) << 20) == 0)
        // One flipped byte inside the first stroke's record, four good strokes after it.
        let damaged = try Self.journal(in: folder, strokes: 5, path: "/home/ana/damaged.png")
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: damaged)))
        let header = JournalHeader(
            documentPath: "/home/ana/damaged.png", width: 200, height: 100, background: .color(.white))
        let firstStroke = 10 + 16 + header.encoded().count
        bytes[firstStroke + 16 + 5] ^= 0x01
        Self.put(bytes, damaged)

        let (out, peakMB) = try Self.recover(home)
        #expect(peakMB < 150, "peak memory \(peakMB) MB\n\(out)")
        let lines = out.split(separator: "\n").map(String.init)
        let damagedLine = lines.first { $0.contains("/home/ana/damaged.png") } ?? "(none)"
        #expect(damagedLine.contains("4 steps"), "\(out)")
        #expect(damagedLine.contains("1 damaged change was left out"), "\(out)")
        let longLine = lines.first { $0.contains("/home/ana/long.png") } ?? "(none)"
        #expect(longLine.contains("4 steps"), "\(out)")
        #expect(
            out.contains("“\(huge)” is 10240 MB, more than SwiftPaint reads (at most 2048 MB)"), "\(out)")
        // Nothing was deleted or shortened.
        #expect(Self.size(huge) == 10 << 30)
        #expect(Self.size(long) == 512 << 20)
        #expect(Self.size(damaged) == bytes.count)
    }
}

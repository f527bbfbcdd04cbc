import Foundation
import PaintCore
import PaintIO
import TestSupport
import Testing

@testable import PaintApp

/// settings.conf cut, bit-flipped, with random bytes put in and numbers made huge (a fixed
/// seed, thousands of variants; `FuzzRun` for more): read as the start reads it, nothing
/// crashes and every setting taken is within the range the file's reader states.
@Suite struct HostileSettingsTests {
    @Test func cutAndFlippedSettingsNeverCrashAndStayInRange() throws {
        let folder = try TemporaryDirectory(prefix: "PaintAppTests-settings")
        defer { folder.remove() }
        let path = folder.file("settings.conf")
        var good = StoredSettings()
        good.window = StoredSettings.WindowSize(width: 1024, height: 700)
        good.folder = "/home/ana/Pictures"
        good.settings.remember(Color(r: 1, g: 2, b: 3))
        #expect(good.save(to: path) == nil)
        let valid = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var rng = SplitMix(seed: FuzzRun.seed(0x5E77_1465))
        var problems = 0
        for _ in 0..<FuzzRun.rounds(800) {
            var bytes = valid
            for _ in 0..<(1 + Int(rng.next() % 4)) where !bytes.isEmpty {
                let at = Int(rng.next() % UInt64(bytes.count))
                switch rng.next() % 5 {
                case 0: bytes[at] ^= UInt8(1 << (rng.next() % 8))
                case 1: bytes.removeLast(bytes.count - at)
                case 2:
                    bytes.insert(contentsOf: Array("99999999999999999999".utf8.prefix(Int(rng.next() % 21))), at: at)
                case 3:
                    bytes.insert(
                        contentsOf: (0..<Int(rng.next() % 20)).map { _ in UInt8(truncatingIfNeeded: rng.next()) },
                        at: at)
                default: bytes.removeSubrange(at..<min(bytes.count, at + 1 + Int(rng.next() % 30)))
                }
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let (stored, problem) = StoredSettings.load(from: path)
            if problem != nil { problems += 1 }
            let s = stored.settings
            #expect((1...200).contains(s.brushWidth) && (1...100).contains(s.opacityPercent))
            #expect((0...255).contains(s.fillTolerance) && (4...400).contains(s.textFont.size))
            #expect((1...100).contains(s.jpegQuality) && (1...100).contains(s.webpQuality))
            #expect(StrokeDynamics.stabilizerRange.contains(s.stabilizer) && s.recentColors.count <= Layout.recentCount)
            #expect(s.textFont.family.utf8.count <= TextSpec.maximumFamilyBytes)
            if let window = stored.window {
                #expect((320...16384).contains(window.width) && (240...16384).contains(window.height))
            }
        }
        #expect(problems > 50)
    }
}

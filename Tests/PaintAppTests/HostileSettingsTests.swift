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
    /// Cut, a bit flipped, a run of nines or random bytes put in, a run taken out.
    static let mutations: [FuzzRun.Mutation] = [
        .flipBit, .cut, .insertStart(of: Array("99999999999999999999".utf8)), .insertRandom(below: 20),
        .removeRun(upTo: 30),
    ]

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
            let bytes = FuzzRun.mutate(valid, &rng, cases: Self.mutations)
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

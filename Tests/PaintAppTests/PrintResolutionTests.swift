import Foundation
import PaintCore
import Testing

@testable import PaintApp
@testable import PaintIO

/// A picture keeps the print resolution its file declared when it is edited and saved, as GIMP
/// and Paint.NET keep it: a 300 dpi scan saved here still goes into a document at its size
/// (before, every save declared none, and a word processor placed it at 96 dpi, three times as
/// large).
@Suite struct PrintResolutionTests {
    typealias T = SessionTests

    @Test(arguments: [false, true])
    func aScanKeepsItsResolutionInThePNGAndJPEGSaved(historyInBackground: Bool) throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let scan = dir + "/scan.jpg"
        let dpi300 = try #require(PictureResolution(x: 300, y: 300))
        try ImageFile.save(
            PixelImage(width: 120, height: 90, fill: Color.white.pixel), to: scan,
            options: SaveOptions(format: .jpeg, resolution: dpi300), withAlpha: false)
        let s = T.makeSession()
        let loaded = try DocumentLoader.load(
            scan, options: CommandLineOptions(), historyInBackground: historyInBackground)
        s.install(loaded.document, message: loaded.message, journal: nil)
        #expect(s.document.resolution == dpi300)
        T.drag(s, [(10, 10), (60, 40)])
        FormatsTests.saveAs(s, dir + "/scan.png")
        s.waitForSave()
        let png = try #require(FileManager.default.contents(atPath: dir + "/scan.png"))
        let saved = try #require(PictureResolution(fileHead: Array(png)))
        #expect(abs(saved.x - 300) < 0.01 && abs(saved.y - 300) < 0.01)
        FormatsTests.saveAs(s, dir + "/scan2.jpg")
        FormatsTests.answerPrompt(s, "90")
        s.waitForSave()
        let jpeg = try #require(FileManager.default.contents(atPath: dir + "/scan2.jpg"))
        #expect(PictureResolution(fileHead: Array(jpeg)) == dpi300)
    }

    /// A new picture declares none, as before.
    @Test func aNewPictureDeclaresNone() throws {
        let dir = T.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s = T.makeSession()
        T.drag(s, [(10, 10), (60, 40)])
        FormatsTests.saveAs(s, dir + "/new.png")
        s.waitForSave()
        let png = try #require(FileManager.default.contents(atPath: dir + "/new.png"))
        #expect(PictureResolution(fileHead: Array(png)) == nil)
    }
}

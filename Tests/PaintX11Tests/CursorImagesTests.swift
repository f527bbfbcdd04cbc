import Testing

@testable import PaintX11

/// The pointer images drawn for the window.
@Suite struct CursorImagesTests {
    @Test func theBrushOutlineIsARingOfTheBrushsDiameter() {
        for diameter in [5, 12, 40, 121] {
            let image = CursorImages.brushOutline(diameter: diameter)
            #expect(image.size == diameter + 4 && image.hotX == image.size / 2 && image.hotY == image.size / 2)
            let c = Double(image.size) / 2
            func alpha(_ x: Int, _ y: Int) -> UInt32 { image.pixels[y * image.size + x] >> 24 }
            func gray(_ x: Int, _ y: Int) -> UInt32 { image.pixels[y * image.size + x] & 0xFF }
            // Along the middle row: dark on the brush's edge, light just outside, clear inside
            // (but for the centre dot) and outside.
            let row = image.size / 2
            let edge = Int(c - Double(diameter) / 2)  // the pixel just inside the left edge
            #expect(alpha(edge, row) > 150 && gray(edge, row) < 60, "diameter \(diameter): edge")
            #expect(alpha(edge - 1, row) > 100 && gray(edge - 1, row) > 150, "diameter \(diameter): halo")
            if diameter >= 12 {
                #expect(alpha(edge + 3, row) == 0, "diameter \(diameter): inside")
            }
            #expect(alpha(0, 0) == 0 && alpha(image.size / 2, image.size / 2) > 150)
            // Premultiplied: no channel above alpha.
            #expect(image.pixels.allSatisfy { ($0 & 0xFF) <= $0 >> 24 })
        }
    }

    @Test func notAllowedIsARedCircleWithASlash() {
        let image = CursorImages.notAllowed()
        let at = { (x: Int, y: Int) in image.pixels[y * 20 + x] }
        #expect(at(10, 10) >> 24 > 200 && at(10, 10) >> 16 & 0xFF > 150, "the slash through the centre")
        #expect(at(2, 10) >> 24 > 200 && at(2, 10) >> 16 & 0xFF > 150, "the ring")
        #expect(at(0, 0) >> 24 == 0)
        #expect(image.pixels.allSatisfy { ($0 >> 16 & 0xFF) <= $0 >> 24 })
    }
}

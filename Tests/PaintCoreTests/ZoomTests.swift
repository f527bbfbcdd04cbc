import Testing

@testable import PaintCore

/// Zoom steps, their names, and exact window/image arithmetic.
@Suite struct ZoomTests {
    @Test("the steps run 12.5 % to 1600 % in order, named as the status bar shows them")
    func stepsAndNames() {
        #expect(
            Zoom.steps.map(\.description) == [
                "12.5%", "25%", "33%", "50%", "67%", "100%", "150%", "200%", "300%", "400%", "800%", "1600%",
            ])
        #expect(zip(Zoom.steps, Zoom.steps.dropFirst()).allSatisfy { $0 < $1 })
        #expect(Zoom.actualSize.stepIn == Zoom(3, 2) && Zoom.actualSize.stepOut == Zoom(2, 3))
        #expect(Zoom.maximum.stepIn == nil && Zoom.minimum.stepOut == nil)
        // A zoom between steps (fit to window) steps to its neighbours.
        let fit = Zoom(approximately: 0.4)
        #expect(fit.stepIn == Zoom(1, 2) && fit.stepOut == Zoom(1, 3))
        #expect(fit.description == "40%")
        #expect(Zoom(approximately: 0.01) == Zoom.minimum && Zoom(approximately: 99) == Zoom.maximum)
    }

    @Test("fractions are reduced, so equal zooms compare equal")
    func reduced() {
        #expect(Zoom(4, 6) == Zoom(2, 3) && Zoom(4, 6).numerator == 2)
        #expect(Zoom(512, 1024) == Zoom(1, 2))
    }

    @Test("scaling rounds exactly, also for negative offsets and thirds")
    func exactArithmetic() {
        let third = Zoom(1, 3)
        #expect(third.scaledDown(3) == 1 && third.scaledUp(3) == 1 && third.scaledUp(4) == 2)
        #expect(third.scaledDown(-1) == -1 && third.scaledUp(-1) == 0)
        let threeHalves = Zoom(3, 2)
        #expect((0..<7).map(threeHalves.sourcePixel) == [0, 1, 1, 2, 3, 3, 4])
        #expect(threeHalves.unscaledDown(3) == 2 && threeHalves.unscaledUp(4) == 3)
    }
}

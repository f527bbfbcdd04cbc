import PaintApp
import Testing

/// The interface scale from Xft.dpi and SWIFTPAINT_SCALE.
@Suite struct UIScaleTests {
    @Test("Xft.dpi / 96 from the resource database text, as xrdb -query prints it")
    func fromXftDPI() {
        let resources = "Xcursor.size:\t48\nXft.antialias:\t1\nXft.dpi:\t192\nXft.hinting:\t1\n"
        #expect(UIScale.detect(resources: resources, override: nil).scale.factor == 2)
        #expect(UIScale.detect(resources: "Xft.dpi: 120", override: nil).scale.factor == 1.25)
        #expect(UIScale.detect(resources: "*dpi:\t144\n", override: nil).scale.factor == 1.5)
        // No resources, no Xft.dpi, or a low one: 1.
        #expect(UIScale.detect(resources: nil, override: nil).scale == .one)
        #expect(UIScale.detect(resources: "Xft.hinting: 1\n", override: nil).scale == .one)
        #expect(UIScale.detect(resources: "Xft.dpi: 72\n", override: nil).scale == .one)
        #expect(UIScale.detect(resources: "Xft.dpi: lots\n", override: nil).scale == .one)
    }

    @Test("SWIFTPAINT_SCALE overrides the screen; a value that is no number is reported and ignored")
    func override() {
        #expect(UIScale.detect(resources: "Xft.dpi: 192", override: "1").scale == .one)
        #expect(UIScale.detect(resources: nil, override: " 1.5 ").scale.factor == 1.5)
        #expect(UIScale.detect(resources: nil, override: "9").scale.factor == 4)
        let bad = UIScale.detect(resources: "Xft.dpi: 192", override: "huge")
        #expect(bad.scale.factor == 2)
        #expect(bad.problem?.contains("SWIFTPAINT_SCALE=huge") == true)
        #expect(UIScale.detect(resources: nil, override: "nan").problem != nil)
    }

    @Test("lengths round to whole pixels")
    func lengths() {
        let s = UIScale(1.25)
        #expect(s.px(28) == 35 && s.px(2) == 3 && s.px(64) == 80)
        #expect(UIScale(1.5).px(9) == 14)
        #expect(s.description == "1.25x" && UIScale(2).description == "2x")
    }
}

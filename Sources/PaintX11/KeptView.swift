import PaintApp
import PaintCore

/// The part of the picture the engine keeps its view for while the window shows it, and where
/// (`X11App.keepViewForWindow`): worked out from the zoom, the picture's place in the window,
/// its size and the window's image, and kept while none of them changes, so a stroke's
/// presents do not work it out again each time.
struct KeptView {
    /// What the region and its place depend on, compared at every present.
    struct Inputs: Equatable {
        var placement: Placement
        var imageWidth: Int
        var imageHeight: Int
        /// `Blitter.generation`: the window image the pixels are in.
        var image: Int
    }

    let inputs: Inputs
    /// The picture's pixels to keep a view of; empty zoomed out (the view is then composited
    /// band by band when drawn).
    let region: IntRect
    /// At 100 %, where the region's top-left pixel is in the window's image, and the image's
    /// row stride in pixels: the engine keeps its view right there. Nil when the engine keeps
    /// a view of its own (zoomed in, or an image not laid out as the engine's pixels).
    let pixels: UnsafeMutablePointer<UInt32>?
    let stride: Int

    init(_ inputs: Inputs, in blitter: Blitter) {
        self.inputs = inputs
        let zoom = inputs.placement.zoom
        let visible = inputs.placement.visibleImage
        guard zoom >= .actualSize else {
            (region, pixels, stride) = (.empty, nil, 0)
            return
        }
        let local = IntRect(
            x: visible.x - inputs.placement.originX, y: visible.y - inputs.placement.originY, width: visible.width,
            height: visible.height)
        region = ViewScaler.source(of: local, zoom: zoom, width: inputs.imageWidth, height: inputs.imageHeight)
        if zoom == .actualSize, !visible.isEmpty, visible.maxX <= blitter.width, visible.maxY <= blitter.height,
            let storage = blitter.storage(atX: visible.x, y: visible.y)
        {
            (pixels, stride) = (storage.pixels, storage.stride)
        } else {
            (pixels, stride) = (nil, 0)
        }
    }
}

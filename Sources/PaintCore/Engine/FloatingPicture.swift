/// A picture shown over the view, not painted: a paste being placed.
struct FloatingPicture {
    let image: PixelImage
    let x: Int
    let y: Int
    var rect: IntRect { IntRect(x: x, y: y, width: image.width, height: image.height) }
}

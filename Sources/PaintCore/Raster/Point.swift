/// A point in image coordinates; pixel (x, y) has its centre at (x + 0.5, y + 0.5).
public struct Point: Hashable, Sendable {
    public var x: Double
    public var y: Double

    /// Makes a point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Whether both coordinates are finite numbers.
    public var isFinite: Bool { x.isFinite && y.isFinite }
}

import Foundation

/// Writes the settings file under `home` (as `AppProcess` points XDG_CONFIG_HOME there) that
/// opens a picture larger than the window fitted to it (`large-pictures = fitted`, View ▸ Open
/// Large Pictures Fitted ticked) or at 100 % (`actual-size`, the default).
func openLargePictures(fitted: Bool, home: String) throws {
    let folder = home + "/.config/swiftpaint"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try "large-pictures = \(fitted ? "fitted" : "actual-size")\n".write(
        toFile: folder + "/settings.conf", atomically: true, encoding: .utf8)
}

/// `openLargePictures(fitted: false)`, for a test whose geometry counts on one picture pixel
/// per screen pixel whatever the default becomes.
func openLargePicturesAtActualSize(home: String) throws {
    try openLargePictures(fitted: false, home: home)
}

import Foundation

/// Writes the settings file under `home` (as `AppProcess` points XDG_CONFIG_HOME there) that
/// opens a picture larger than the window at 100 % (`large-pictures = actual-size`, View ▸ Open
/// Large Pictures Fitted unticked), for a test whose geometry counts on one picture pixel per
/// screen pixel: by default such a picture opens fitted.
func openLargePicturesAtActualSize(home: String) throws {
    let folder = home + "/.config/swiftpaint"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try "large-pictures = actual-size\n".write(toFile: folder + "/settings.conf", atomically: true, encoding: .utf8)
}

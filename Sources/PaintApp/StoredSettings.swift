import PaintCore
import PaintIO

/// What SwiftPaint remembers from one run to the next: the `Settings` painted with, the window's
/// size, the folder files were last opened from or saved to, and the view options; kept in the
/// settings file (`SettingsFile`) as `key = value` lines:
///
/// ```
/// tool = line
/// primary = #1a7f3c
/// secondary = #ffffff
/// recent = #1a7f3c #ff0000
/// width = 12
/// opacity = 80
/// tolerance = 32
/// filled = yes
/// dashed = no
/// font = DejaVu Sans
/// text-size = 32
/// bold = no
/// italic = no
/// pressure-width = yes
/// pressure-opacity = no
/// round-strokes = yes
/// stabilizer = 0
/// jpeg-quality = 90
/// webp-quality = 100
/// window = 1024x700
/// folder = /home/ana/Pictures
/// large-pictures = actual-size
/// ```
///
/// A value that does not read is reported and left at its default; keys it does not know are
/// kept as they are, so a newer SwiftPaint's settings survive an older one.
public struct StoredSettings: Equatable, Sendable {
    public var settings = Settings()
    /// The window's size in 96-dpi pixels (the screen's scale times this on a HiDPI screen).
    public var window: WindowSize?
    /// The folder a file was last opened from or saved to.
    public var folder: String?
    /// Whether a picture larger than the window opens fitted to it (View menu), as Windows 11
    /// Paint, GIMP and Krita open one. Off by default for now: the fitted first frame averages
    /// the whole picture down (a 1920 x 1080 PNG's first frame ~50 ms more CPU) and a stroke on
    /// a zoomed-out view costs ~20 % more per motion event than at 100 % (BENCHMARKS, session
    /// 14); it becomes the default when both cost what 100 % costs. Kept as `large-pictures =
    /// fitted` or `actual-size`; the older `fit-large-pictures = yes / no` still reads.
    public var fitLargePictures = false
    /// Lines of the file this version does not read, kept for the next save.
    public var otherEntries: [SettingsFile.Entry] = []

    /// A window size in 96-dpi pixels.
    public struct WindowSize: Equatable, Sendable {
        public var width: Int
        public var height: Int

        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// The defaults of a first start.
    public init() {}

    /// The comment at the top of the file.
    static let header = [
        "SwiftPaint settings: written when SwiftPaint closes. Edit them while it is not running;",
        "a line that does not read is reported and left at its default.",
    ]

    /// The keys this version reads and writes.
    static let keys: Set<String> = [
        "tool", "primary", "secondary", "recent", "width", "opacity", "tolerance", "filled", "dashed", "window",
        "folder", "large-pictures", "fit-large-pictures", "font", "text-size", "bold", "italic", "pressure-width",
        "pressure-opacity",
        "round-strokes", "stabilizer", "jpeg-quality", "webp-quality",
    ]

    /// Reads the settings from `file`; every value that does not read is left at its default and
    /// listed in the returned problems (with the file's own problems).
    public static func read(_ file: SettingsFile) -> (settings: StoredSettings, problems: [String]) {
        var stored = StoredSettings()
        var problems = file.problems
        func reject(_ key: String, _ value: String, _ wanted: String) {
            problems.append("“\(key) = \(value)”: \(wanted)")
        }
        func yesNo(_ key: String, _ value: String) -> Bool? {
            switch value.lowercased() {
            case "yes", "true", "on", "1": return true
            case "no", "false", "off", "0": return false
            default:
                reject(key, value, "expected yes or no")
                return nil
            }
        }
        func integer(_ key: String, _ value: String, in range: ClosedRange<Int>, _ wanted: String) -> Int? {
            guard let n = Int(value), range.contains(n) else {
                reject(key, value, wanted)
                return nil
            }
            return n
        }
        for entry in file.entries {
            let (key, value) = (entry.key, entry.value)
            switch key {
            case "tool":
                if let tool = Tool(rawValue: value) {
                    stored.settings.tool = tool
                } else {
                    reject(key, value, "no such tool")
                }
            case "primary", "secondary":
                guard let color = Color(hex: value) else {
                    reject(key, value, "expected a color like #1a7f3c")
                    continue
                }
                stored.settings.setColor(color, for: key == "primary" ? .left : .right)
            case "recent":
                let colors = value.split(separator: " ").map { Color(hex: String($0)) }
                guard !colors.contains(nil) else {
                    reject(key, value, "expected colors like #1a7f3c separated by spaces")
                    continue
                }
                // Remembered oldest first, so the first in the file ends up most recent.
                for color in colors.compactMap({ $0 }).prefix(Layout.recentCount).reversed() {
                    stored.settings.remember(color)
                }
            case "width":
                guard let w = Double(value), (1...200).contains(w) else {
                    reject(key, value, "expected a width of 1 to 200")
                    continue
                }
                stored.settings.setWidth(w)
            case "opacity":
                let digits = value.hasSuffix("%") ? String(value.dropLast()) : value
                if let o = integer(key, digits, in: 1...100, "expected an opacity of 1 to 100") {
                    stored.settings.setOpacity(o)
                }
            case "tolerance":
                if let t = integer(key, value, in: 0...255, "expected a tolerance of 0 to 255") {
                    stored.settings.setTolerance(t)
                }
            case "filled":
                if let on = yesNo(key, value) { stored.settings.shapeFilled = on }
            case "dashed":
                if let on = yesNo(key, value) { stored.settings.lineDashed = on }
            case "font":
                guard !value.isEmpty, value.utf8.count <= TextSpec.maximumFamilyBytes else {
                    reject(key, value, "expected a font family such as DejaVu Sans")
                    continue
                }
                stored.settings.textFont.family = value
            case "text-size":
                if let size = integer(key, value, in: 4...400, "expected a text size of 4 to 400") {
                    stored.settings.setTextSize(size)
                }
            case "bold":
                if let on = yesNo(key, value) { stored.settings.textFont.bold = on }
            case "italic":
                if let on = yesNo(key, value) { stored.settings.textFont.italic = on }
            case "pressure-width":
                if let on = yesNo(key, value) { stored.settings.pressureWidth = on }
            case "pressure-opacity":
                if let on = yesNo(key, value) { stored.settings.pressureOpacity = on }
            case "round-strokes":
                if let on = yesNo(key, value) { stored.settings.roundStrokes = on }
            case "stabilizer":
                let range = StrokeDynamics.stabilizerRange
                if let n = integer(key, value, in: range, "expected a window of 0 (off) to 32 samples") {
                    stored.settings.setStabilizer(n)
                }
            case "jpeg-quality", "webp-quality":
                // Only 1 to 100 is taken: a quality outside it would reach the encoder.
                if let q = integer(key, value, in: 1...100, "expected a quality of 1 to 100") {
                    if key == "jpeg-quality" {
                        stored.settings.setJPEGQuality(q)
                    } else {
                        stored.settings.setWebPQuality(q)
                    }
                }
            case "large-pictures":
                switch value.lowercased() {
                case "fitted": stored.fitLargePictures = true
                case "actual-size": stored.fitLargePictures = false
                default: reject(key, value, "expected fitted or actual-size")
                }
            case "fit-large-pictures":
                // The older key, from versions where it was off by default too.
                if let fit = yesNo(key, value) { stored.fitLargePictures = fit }
            case "window":
                let parts = value.lowercased().split(separator: "x")
                guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (320...16384).contains(w),
                    (240...16384).contains(h)
                else {
                    reject(key, value, "expected a size like 1024x700")
                    continue
                }
                stored.window = WindowSize(width: w, height: h)
            case "folder":
                guard value.hasPrefix("/") else {
                    reject(key, value, "expected a folder starting with /")
                    continue
                }
                stored.folder = value
            default:
                stored.otherEntries.append(entry)
            }
        }
        return (stored, problems)
    }

    /// The settings as the file's entries, in the order above, then the lines kept from the file.
    public var file: SettingsFile {
        let s = settings
        func yesNo(_ on: Bool) -> String { on ? "yes" : "no" }
        var entries: [(String, String)] = [
            ("tool", s.tool.rawValue), ("primary", s.primary.hex), ("secondary", s.secondary.hex),
            ("recent", s.recentColors.map(\.hex).joined(separator: " ")),
            ("width", String(Int(s.brushWidth))), ("opacity", String(s.opacityPercent)),
            ("tolerance", String(s.fillTolerance)), ("filled", yesNo(s.shapeFilled)), ("dashed", yesNo(s.lineDashed)),
            ("font", s.textFont.family), ("text-size", String(s.textFont.size)), ("bold", yesNo(s.textFont.bold)),
            ("italic", yesNo(s.textFont.italic)), ("pressure-width", yesNo(s.pressureWidth)),
            ("pressure-opacity", yesNo(s.pressureOpacity)), ("round-strokes", yesNo(s.roundStrokes)),
            ("stabilizer", String(s.stabilizer)), ("jpeg-quality", String(s.jpegQuality)),
            ("webp-quality", String(s.webpQuality)), ("large-pictures", fitLargePictures ? "fitted" : "actual-size"),
        ]
        if let window { entries.append(("window", "\(window.width)x\(window.height)")) }
        if let folder { entries.append(("folder", folder)) }
        return SettingsFile(
            entries: entries.map { SettingsFile.Entry(key: $0.0, value: $0.1) }
                + otherEntries.filter { !Self.keys.contains($0.key) })
    }

    /// Writes the settings to `path` (atomically); the reason in words when it cannot. They are
    /// written as the window closes, so a failure also leaves a note beside the file
    /// (`SettingsFile.leaveUnsavedNote`) for the next start to say on the status bar.
    public func save(to path: String) -> String? {
        do {
            try file.save(to: path, header: Self.header)
            SettingsFile.removeUnsavedNote(for: path)
            return nil
        } catch {
            SettingsFile.leaveUnsavedNote(error.message, for: path)
            return error.message
        }
    }

    /// Reads the settings file at `path`: the settings, and a sentence for the status bar when
    /// the last run could not save its settings or anything in the file could not be used (nil
    /// for a good or missing file).
    public static func load(from path: String) -> (settings: StoredSettings, problem: String?) {
        let (stored, problems) = read(SettingsFile.load(path: path))
        var sentences: [String] = []
        if let reason = SettingsFile.takeUnsavedNote(for: path) {
            sentences.append(
                "Your settings from last time could not be saved"
                    + (reason.isEmpty ? " (the disk was full or could not be written)" : ": \(reason)")
                    + "; these are the ones saved before")
        }
        if let first = problems.first {
            let more = problems.count > 1 ? " (and \(problems.count - 1) more)" : ""
            let name = PathDisplay.abbreviatingHome(path)
            sentences.append(
                "Cannot use all of the settings in \(name): \(first)\(more); the defaults stand for those")
        }
        return (stored, sentences.isEmpty ? nil : sentences.joined(separator: ". "))
    }
}

import PaintCore

/// What `swiftpaint` was asked to do on its command line.
public struct CommandLineOptions: Equatable, Sendable {
    public static let version = "0.1.0"
    public static let usage = """
        Usage: swiftpaint [OPTIONS] [FILE.png]

        Opens FILE.png, or a blank canvas that Ctrl+S saves as FILE.png when it does not exist.

        Options:
          --size WxH               canvas size for a new picture (default 1280x800)
          --background COLOR|FILE  background: #rrggbb, white, black, transparent, or a PNG
                                   file shown behind the paint (default white)
          --history-memory MB      memory for undo snapshots (default 256); undo has no step
                                   limit: older steps are rebuilt by replaying the log
          --no-history             save plain PNGs, without the editing history
          --recover                list drawings a crash left behind that can be restored
          --no-journal             do not keep a crash journal (for measurements)
          --help                   show this help
          --version                show the version

        Unsaved work is journaled under $XDG_STATE_HOME/swiftpaint (~/.local/state/swiftpaint):
        after a crash, a kill or a lost X server the next start offers to restore it.

        Keys: B brush, E eraser, X swap colors, [ ] brush width, 1..9 opacity 10..90%, 0 100%,
              Ctrl+Z undo, Ctrl+Shift+Z / Ctrl+Y redo,
              Ctrl+S save, Ctrl+Shift+S save as, Ctrl+Q close. Left button paints with the
              primary color, right button with the secondary; Shift+click draws a straight
              line from the last point; Ctrl+click picks a color.
        """

    public enum Action: Equatable, Sendable { case run, help, version, recover }

    public var action = Action.run
    public var path: String?
    public var width = 1280
    public var height = 800
    public var background = Background.color(.white)
    /// A picture to use as the background, from `--background FILE`.
    public var backgroundFile: String?
    /// Whether to keep a crash journal.
    public var journal = true
    /// Whether saved PNGs carry the editing history.
    public var history = true
    /// The most memory undo snapshots may take, in MB; older steps are then undone by replay.
    public var historyMemoryMB = 256

    /// The largest side `--size` accepts.
    public static let maxSide = 16384

    public init() {}

    /// Parses the arguments after the program name; throws a message for bad input.
    public static func parse(_ arguments: [String]) throws(OptionError) -> CommandLineOptions {
        var options = CommandLineOptions()
        var rest = arguments[...]
        while let arg = rest.popFirst() {
            switch arg {
            case "--help", "-h": options.action = .help
            case "--version", "-V": options.action = .version
            case "--recover": options.action = .recover
            case "--history-memory":
                guard let value = rest.popFirst(), let mb = Int(value), (0...65536).contains(mb) else {
                    throw OptionError("--history-memory needs a number of megabytes, 0 to 65536")
                }
                options.historyMemoryMB = mb
            case "--no-journal": options.journal = false
            case "--no-history": options.history = false
            case "--size":
                guard let value = rest.popFirst() else { throw OptionError("--size needs a value like 1920x1080") }
                let parts = value.lowercased().split(separator: "x")
                guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...maxSide).contains(w),
                    (1...maxSide).contains(h)
                else {
                    throw OptionError("--size \(value): expected WIDTHxHEIGHT, each 1 to \(maxSide)")
                }
                options.width = w
                options.height = h
            case "--background":
                guard let value = rest.popFirst() else { throw OptionError("--background needs a color") }
                switch value.lowercased() {
                case "transparent", "none": options.background = .transparent
                case "white": options.background = .color(.white)
                case "black": options.background = .color(.black)
                default:
                    if let color = Color(hex: value) {
                        options.background = .color(color)
                    } else {
                        // Anything else names a picture to put behind the paint.
                        options.backgroundFile = value
                    }
                }
            default:
                if arg.hasPrefix("-") && arg != "-" { throw OptionError("unknown option \(arg) (see --help)") }
                guard options.path == nil else { throw OptionError("only one file can be opened at a time") }
                options.path = arg
            }
        }
        return options
    }
}

/// A command-line mistake, in words.
public struct OptionError: Error, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

import PaintCore
import PaintIO

/// What `swiftpaint` was asked to do on its command line.
public struct CommandLineOptions: Equatable, Sendable {
    public static let version = "0.1.0"
    public static let usage = """
        Usage: swiftpaint [OPTIONS] [FILE...]
               swiftpaint --recover
               swiftpaint --export OUT IN [--quality Q]
               swiftpaint --forget FILE | --forget-all

        Opens FILE (PNG, JPEG, WebP, GIF or BMP), or a blank canvas that Ctrl+S saves as FILE
        when it does not exist. Each further file opens in a window of its own.

        Options:
          --size WxH               canvas size for a new picture (default 1280x800)
          --background COLOR|FILE  background: #rrggbb, white, black, transparent, or a
                                   picture file shown behind the paint (default white)
          --history-memory MB      memory for undo snapshots (default 256); undo has no step
                                   limit: older steps are rebuilt by replaying the log
          --export OUT IN          convert picture IN to OUT without a window, in the format
                                   OUT's extension names (.png, .jpg, .webp); exit status 0,
                                   or 1 with the reason
          --quality Q              JPEG or WebP quality 1..100 for --export, 100 lossless
                                   WebP (default: JPEG 90, or a JPEG IN's own quality and
                                   color when higher; WebP lossless, or lossy 90 when IN
                                   is a JPEG or lossy WebP)
          --history-disk MB        disk space for saved pictures' histories on this computer
                                   (default 1024); past it the least recently used go first
          --save-with-history      saved files carry their editing history inside (the spHS
                                   chunk; anyone you send them to can undo what you painted
                                   over); Ctrl+Alt+S does it for one save
          --no-history             keep no editing history of saved pictures on this computer
          --forget FILE            drop the history kept on this computer for FILE's picture
          --forget-all             drop every history kept on this computer
          --recover                list drawings a crash left behind that can be restored
          --no-journal             do not keep a crash journal (for measurements)
          -h, --help               show this help
          -V, --version            show the version

        Unsaved work is journaled under $XDG_STATE_HOME/swiftpaint (~/.local/state/swiftpaint):
        after a crash, a kill or a lost X server the next start offers to restore it.
        Saved files hold the picture only. Their editing history stays on this computer, under
        $XDG_DATA_HOME/swiftpaint/history (~/.local/share/swiftpaint/history), found again by
        the picture's pixels when you reopen the file, even renamed or moved.

        Keys: B brush, E eraser, L line, R rectangle, O ellipse, F fill, I picker, S select,
              X swap colors, [ ] brush width, 1..9 opacity 10..90%, 0 100%, Ctrl+Z undo,
              Ctrl+Shift+Z / Ctrl+Y redo, Ctrl+N new, Ctrl+O open, Ctrl+S save,
              Ctrl+Shift+S save as, Ctrl+Q close. Left button paints with the primary color,
              right button with the secondary.

        Every key, option and file is described in the manual: man swiftpaint
        """

    public enum Action: Equatable, Sendable {
        case run, help, version, recover
        /// Convert the picture at `input` to `output` without a window.
        case export(output: String, input: String)
        /// Drop the history kept for the picture in this file.
        case forget(String)
        /// Drop every history kept.
        case forgetAll
    }

    public var action = Action.run
    /// The file this window opens.
    public var path: String?
    /// Further files named on the command line (a file manager's "Open with" passes them all):
    /// each opens in a window of its own, started with `arguments(opening:)`.
    public var otherPaths: [String] = []
    /// The arguments that were options (with their values), in order, for the other windows.
    var optionArguments: [String] = []
    public var width = 1280
    public var height = 800
    public var background = Background.color(.white)
    /// A picture to use as the background, from `--background FILE`.
    public var backgroundFile: String?
    /// Whether to keep a crash journal.
    public var journal = true
    /// Whether saved pictures' histories are kept on this computer (`--no-history` turns it off).
    public var history = true
    /// Whether every save carries the history inside the file too (`--save-with-history`).
    public var saveWithHistory = false
    /// The history store's size cap in MB.
    public var historyDiskMB = 1024
    /// Where saved pictures' histories are kept and found: set by `parse` (the user's
    /// `$XDG_DATA_HOME/swiftpaint/history` with the `--history-disk` cap, nil with
    /// `--no-history`). Options made with `init()` have none, so a test never touches the
    /// user's store unless it names one.
    public var historyStore: HistoryStore?
    /// The most memory undo snapshots may take, in MB; older steps are then undone by replay.
    public var historyMemoryMB = 256

    /// `--quality`: the JPEG (and lossy WebP) quality for `--export`; nil for the defaults.
    public var quality: Int?

    /// The largest side `--size` accepts.
    public static let maxSide = 16384

    public init() {}

    /// Parses the arguments after the program name as the program received them, byte for
    /// byte (`argv`). An argument that is not UTF-8 (a file name written in another encoding)
    /// is refused: Swift's strings would repair its bytes into U+FFFD, which names another
    /// file, so SwiftPaint would open nothing (or "�.png", if there is one) and save under a
    /// name nobody asked for.
    public static func parse(raw arguments: [[UInt8]]) throws(OptionError) -> CommandLineOptions {
        var strings: [String] = []
        for bytes in arguments {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                let shown = String(decoding: bytes, as: UTF8.self)
                throw OptionError(
                    "“\(shown)” is not valid UTF-8 (it shows here with � for its bad bytes); SwiftPaint opens and"
                        + " saves only files whose names are UTF-8: rename it (convmv -f latin1 -t utf-8 converts"
                        + " names)")
            }
            strings.append(text)
        }
        return try parse(strings)
    }

    /// Parses the arguments after the program name; throws a message for bad input.
    public static func parse(_ arguments: [String]) throws(OptionError) -> CommandLineOptions {
        var options = CommandLineOptions()
        var rest = arguments[...]
        while let arg = rest.popFirst() {
            let start = rest.startIndex - 1
            switch arg {
            case "--help", "-h": options.action = .help
            case "--version", "-V": options.action = .version
            case "--recover": options.action = .recover
            case "--export":
                guard let output = rest.popFirst(), let input = rest.popFirst() else {
                    throw OptionError("--export needs two files: the picture to write, then the one to read")
                }
                options.action = .export(output: output, input: input)
            case "--quality":
                guard let value = rest.popFirst(), let q = Int(value), (1...100).contains(q) else {
                    throw OptionError("--quality needs a number from 1 to 100")
                }
                options.quality = q
            case "--history-memory":
                guard let value = rest.popFirst(), let mb = Int(value), (0...65536).contains(mb) else {
                    throw OptionError("--history-memory needs a number of megabytes, 0 to 65536")
                }
                options.historyMemoryMB = mb
            case "--history-disk":
                guard let value = rest.popFirst(), let mb = Int(value), (0...1 << 20).contains(mb) else {
                    throw OptionError("--history-disk needs a number of megabytes, 0 to \(1 << 20)")
                }
                options.historyDiskMB = mb
            case "--no-journal": options.journal = false
            case "--no-history": options.history = false
            case "--save-with-history": options.saveWithHistory = true
            case "--forget":
                guard let value = rest.popFirst() else { throw OptionError("--forget needs a picture file") }
                options.action = .forget(value)
            case "--forget-all": options.action = .forgetAll
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
                    } else if value.hasPrefix("#") && !FileSystem.exists(value) {
                        throw OptionError(
                            "--background \(value): not a color (use #rrggbb, white, black or transparent) "
                                + "nor a picture file")
                    } else {
                        // Anything else names a picture to put behind the paint.
                        options.backgroundFile = value
                    }
                }
            default:
                if arg.hasPrefix("-") && arg != "-" { throw OptionError("unknown option \(arg) (see --help)") }
                if options.path == nil { options.path = arg } else { options.otherPaths.append(arg) }
                continue
            }
            options.optionArguments += arguments[start..<rest.startIndex]
        }
        options.historyStore = options.history ? HistoryStore(capBytes: options.historyDiskMB << 20) : nil
        return options
    }

    /// The command line (after the program name) of the window for one of `otherPaths`: the same
    /// options, that file alone.
    public func arguments(opening path: String) -> [String] {
        optionArguments + [path]
    }
}

/// A command-line mistake, in words.
public struct OptionError: Error, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

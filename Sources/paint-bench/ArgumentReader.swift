import Glibc

/// One subcommand's command line, read an argument at a time. Every paint-bench subcommand reads
/// its options through it, so `--name value` and `--name=value`, `-h`/`--help` and the messages
/// for a missing, malformed or unknown option are the same everywhere.
///
/// A mistake ends the program: the message and the subcommand's usage on stderr, exit code 2
/// (stdout stays clean for the result lines that scripts parse).
struct ArgumentReader {
    /// The subcommand's usage line, printed with every mistake and for `--help`.
    let usage: String
    private var rest: ArraySlice<String>
    /// The value written after the current option's `=`, until `value()` takes it.
    private var inlineValue: String?
    /// The option (without its `=value`) or plain word `next()` returned last.
    private(set) var current = ""

    init(_ arguments: [String], usage: String) {
        self.usage = usage
        rest = arguments[...]
    }

    /// The next option's name, or the next plain word (an input file); nil when all are read.
    /// `-h` and `--help` print the usage and end the program.
    mutating func next() -> String? {
        guard let argument = rest.popFirst() else { return nil }
        current = argument
        inlineValue = nil
        if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
            current = String(argument[..<equals])
            inlineValue = String(argument[argument.index(after: equals)...])
        }
        if current == "-h" || current == "--help" {
            print(usage)
            exit(0)
        }
        return current
    }

    /// The current option's value: what follows its `=`, or else the next argument.
    mutating func value() -> String {
        if let inlineValue {
            self.inlineValue = nil
            return inlineValue
        }
        guard let next = rest.popFirst() else { reject("\(current) needs a value") }
        return next
    }

    /// The current option's value as a whole number in `range`.
    mutating func integer(in range: ClosedRange<Int>) -> Int {
        let text = value()
        guard let n = Int(text), range.contains(n) else {
            reject("\(current) needs a whole number from \(range.lowerBound) to \(range.upperBound), got \"\(text)\"")
        }
        return n
    }

    /// The current option's value as a number in `range`.
    mutating func number(in range: ClosedRange<Double>) -> Double {
        let text = value()
        guard let n = Double(text), range.contains(n) else {
            reject("\(current) needs a number from \(range.lowerBound) to \(range.upperBound), got \"\(text)\"")
        }
        return n
    }

    /// The current argument as a plain word (an input file; `-` too), refusing an option no
    /// subcommand case matched and a second word where only one belongs.
    func word(replacing earlier: String?) -> String {
        if current.hasPrefix("-") && current != "-" { reject("unknown option \(current)") }
        if earlier != nil { reject("more than one input file") }
        return current
    }

    /// An option the subcommand does not know, or a word where it takes none.
    func unknown() -> Never {
        reject(current.hasPrefix("-") ? "unknown option \(current)" : "unexpected argument \(current)")
    }

    /// Ends the program with `message` and the usage.
    func reject(_ message: String) -> Never {
        fail("\(message)\n\(usage)", code: 2)
    }
}

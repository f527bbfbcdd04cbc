import Glibc

/// A seeded fuzz test's seed and rounds: its own, fixed, so the suite is the same every run;
/// or, for a longer search, other seeds and more rounds from the environment, with no rebuild:
/// `SWIFTPAINT_FUZZ_SEED=N` mixes N into every fuzz test's own seed, and
/// `SWIFTPAINT_FUZZ_ROUNDS=K` runs K times its rounds. A failure found so is reproduced by the
/// same two numbers (each test prints the seed it used).
public enum FuzzRun {
    /// `own`, mixed with `SWIFTPAINT_FUZZ_SEED` when that is set.
    public static func seed(_ own: UInt64) -> UInt64 {
        guard let extra = number("SWIFTPAINT_FUZZ_SEED") else { return own }
        return own ^ (extra &* 0x9E37_79B9_7F4A_7C15)
    }

    /// `own` times `SWIFTPAINT_FUZZ_ROUNDS` when that is set.
    public static func rounds(_ own: Int) -> Int {
        guard let times = number("SWIFTPAINT_FUZZ_ROUNDS"), times > 0, times < 10_000 else { return own }
        return own * Int(times)
    }

    /// The variable `name` as a decimal or 0x hexadecimal number.
    static func number(_ name: String) -> UInt64? {
        guard let raw = getenv(name) else { return nil }
        let text = String(cString: raw)
        return text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
    }
}

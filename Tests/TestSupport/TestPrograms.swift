import Glibc

/// The programs the tests start, each with the Debian package that installs it.
///
/// `make deps` must install every one of them (the Makefile's DEPS; a test holds the two
/// lists together), so `make test` passes on a fresh machine. Tests check a program with
/// `require` before spawning it: a missing one fails the test with the package to add,
/// instead of an errno from posix_spawn.
public enum TestPrograms {
    /// Absolute path → Debian package. Essential packages (coreutils' `/bin/sleep`, dash's
    /// `/bin/sh`) are on every Debian system and are listed for the check only.
    public static let packages: [String: String] = [
        "/usr/bin/Xvfb": "xvfb",
        "/usr/bin/xlogo": "x11-apps",
        "/usr/bin/xclip": "xclip",
        "/usr/bin/mount": "mount",
        "/usr/bin/umount": "mount",
        "/usr/bin/chattr": "e2fsprogs",
        "/usr/bin/hb-shape": "libharfbuzz-bin",
        "/usr/bin/xprop": "x11-utils",
        "/usr/bin/desktop-file-validate": "desktop-file-utils",
        "/usr/bin/groff": "groff-base",
        "/usr/bin/make": "make",
        "/usr/bin/sha256sum": "coreutils",
        // libjpeg-turbo's encoder: the reference a JPEG saved with a file's own sampling is
        // compared with, byte for byte.
        "/usr/bin/cjpeg": "libjpeg-turbo-progs",
        "/usr/bin/setxkbmap": "x11-xkb-utils",
        // Debian's Python for the picture fixtures (the package that owns it; Pillow, the
        // reference decoder it imports, is python3-pil, also in DEPS); GNU time measures a
        // child's peak memory.
        "/usr/bin/python3": "python3-minimal",
        "/usr/bin/time": "time",
        // Holds the crash journal's syncs (fdatasync) for minutes: a disk that never finishes.
        "/usr/bin/strace": "strace",
        "/bin/sh": "dash",
        "/bin/sleep": "coreutils",
        "/bin/true": "coreutils",
    ]

    /// Packages every Debian system has (Essential: yes), which DEPS need not list.
    public static let essential: Set<String> = ["dash", "coreutils"]

    /// Whether `path` is an executable file.
    public static func isInstalled(_ path: String) -> Bool { access(path, X_OK) == 0 }

    /// Checks that `path` can be started; throws, naming the Debian package that installs it
    /// (looked up in `packages`), when it cannot.
    public static func require(_ path: String, packages: [String: String] = packages) throws(MissingProgram) {
        guard !isInstalled(path) else { return }
        throw MissingProgram(path: path, package: packages[path])
    }
}

/// A program a test needs is not installed.
public struct MissingProgram: Error, CustomStringConvertible {
    public let path: String
    /// The Debian package that installs it, when it is one the tests know.
    public let package: String?

    public var description: String {
        guard let package else {
            return "\(path) is not installed or not executable (a program the tests build: run swift build first)"
        }
        return "\(path) is not installed: the tests need the Debian package \(package);"
            + " add it to DEPS in the Makefile so `make deps` installs it"
    }
}

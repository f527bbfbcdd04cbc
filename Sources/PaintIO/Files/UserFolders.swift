/// The user's well-known folders (Desktop, Pictures…) as the desktop names them in
/// `$XDG_CONFIG_HOME/user-dirs.dirs` (xdg-user-dirs: translated names such as `~/Bilder`), else
/// the English defaults under the home folder.
public struct UserFolders: Sendable, Equatable {
    /// The home folder.
    public var home: String
    /// The desktop folder; nil when the desktop says there is none (set to the home folder).
    public var desktop: String?
    /// The pictures folder; nil as for `desktop`.
    public var pictures: String?

    /// Makes the folders.
    public init(home: String, desktop: String?, pictures: String?) {
        self.home = home
        self.desktop = desktop
        self.pictures = pictures
    }

    /// `$XDG_CONFIG_HOME/user-dirs.dirs`.
    public static var configPath: String {
        FileSystem.xdgFolder("XDG_CONFIG_HOME", fallback: ".config") + "/user-dirs.dirs"
    }

    /// The folders for this user, from the desktop's file when there is one (a file that does not
    /// read is the same as none: the defaults).
    public static func current() -> UserFolders {
        let text = (try? ImageFile.readAll(configPath, limit: 64 * 1024)).map { String(decoding: $0, as: UTF8.self) }
        return parse(text ?? "", home: FileSystem.home)
    }

    /// The folders `text` (the contents of user-dirs.dirs) names for a user whose home is `home`.
    ///
    /// Lines are `XDG_PICTURES_DIR="$HOME/Pictures"`: the value is quoted, and either
    /// `$HOME/…` or an absolute path; other lines, and values of other forms, are ignored (as
    /// xdg-user-dirs itself ignores them). A folder set to the home folder itself is "none".
    public static func parse(_ text: String, home: String) -> UserFolders {
        let home = home.count > 1 && home.hasSuffix("/") ? String(home.dropLast()) : home
        var values: [String: String] = [:]
        for raw in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = raw.drop { $0 == " " || $0 == "\t" }
            guard !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals])
            var value = Substring(line[line.index(after: equals)...])
            guard value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") else { continue }
            value = value.dropFirst().dropLast()
            // The shell quoting the file uses: \" \\ \$ \` stand for the character.
            var unquoted = ""
            var escaped = false
            for c in value {
                if escaped || c != "\\" {
                    unquoted.append(c)
                    escaped = false
                } else {
                    escaped = true
                }
            }
            if unquoted == "$HOME" {
                values[key] = home
            } else if unquoted.hasPrefix("$HOME/") {
                values[key] = home + unquoted.dropFirst(5)
            } else if unquoted.hasPrefix("/") {
                values[key] = unquoted
            }
        }
        func folder(_ key: String, _ fallback: String) -> String? {
            let path = values[key] ?? (home == "/" ? "" : home) + "/" + fallback
            let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
            return trimmed == home ? nil : trimmed
        }
        return UserFolders(
            home: home, desktop: folder("XDG_DESKTOP_DIR", "Desktop"), pictures: folder("XDG_PICTURES_DIR", "Pictures"))
    }
}

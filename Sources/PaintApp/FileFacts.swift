import Glibc

/// How the file dialog says sizes, dates and names too long for their column.
enum FileFacts {
    /// Bytes as people read them, in SI units as GNOME and macOS count: `512 bytes`,
    /// `834.2 kB`, `12.0 MB`.
    static func size(_ bytes: Int) -> String {
        if bytes < 1000 { return bytes == 1 ? "1 byte" : "\(bytes) bytes" }
        let units = ["kB", "MB", "GB", "TB"]
        var value = Double(bytes) / 1000
        var unit = 0
        while value >= 999.95 && unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }

    /// A file's date: the time for today's, the day and month for this year's, else with the
    /// year (`14:32`, `3 Mar`, `3 Mar 2023`), in local time.
    static func date(_ seconds: Int, now: Int) -> String {
        var then = tm()
        var today = tm()
        var t = time_t(seconds)
        var n = time_t(now)
        guard localtime_r(&t, &then) != nil, localtime_r(&n, &today) != nil else { return "" }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let month = months[Int(min(max(then.tm_mon, 0), 11))]
        if then.tm_year == today.tm_year && then.tm_yday == today.tm_yday {
            let minutes = then.tm_min < 10 ? "0\(then.tm_min)" : "\(then.tm_min)"
            return "\(then.tm_hour):\(minutes)"
        }
        if then.tm_year == today.tm_year { return "\(then.tm_mday) \(month)" }
        return "\(then.tm_mday) \(month) \(Int(then.tm_year) + 1900)"
    }

    /// The current time, seconds since 1970.
    static var now: Int { Int(time(nil)) }

    /// `text` cut to `width` pixels: the middle gives way (`holiday-ph…0123.png`), so the start
    /// and the extension stay; `atEnd` cuts the end instead.
    static func fitted(_ text: String, width: Int, bold: Bool = false, atEnd: Bool = false, _ measure: TextMeasuring)
        -> String
    {
        guard width > 0 else { return "" }
        if measure.width(of: text, bold: bold) <= width { return text }
        let characters = Array(text)
        // The longest cut that fits, found by halving.
        var low = 0
        var high = characters.count
        func cut(_ keep: Int) -> String {
            if atEnd { return String(characters[..<keep]) + "…" }
            let tail = min(keep / 2, 12)
            return String(characters[..<(keep - tail)]) + "…" + String(characters[(characters.count - tail)...])
        }
        while low < high {
            let mid = (low + high + 1) / 2
            if measure.width(of: cut(mid), bold: bold) <= width { low = mid } else { high = mid - 1 }
        }
        return low == 0 ? "…" : cut(low)
    }
}

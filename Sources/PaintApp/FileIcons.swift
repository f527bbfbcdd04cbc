import PaintCore

/// The file dialog's icons, drawn as anti-aliased vectors designed in a 20 x 20 box: folders,
/// pictures, and the places (home, desktop, pictures, recent, the computer).
enum FileIcons {
    enum Kind: Equatable {
        case folder, picture, home, desktop, pictures, documentFolder, recent, computer, up
    }

    static let folderBack = Color(r: 0x4A, g: 0x7F, b: 0xC8)
    static let folderFront = Color(r: 0x72, g: 0xA4, b: 0xE2)
    static let paper = Color(r: 0xFF, g: 0xFF, b: 0xFF)
    static let sky = Color(r: 0x9C, g: 0xC8, b: 0xF0)
    static let hill = Color(r: 0x5C, g: 0xA8, b: 0x5A)
    static let sun = Color(r: 0xF2, g: 0xB6, b: 0x3C)

    /// The icon for a place of the dialog.
    static func kind(of place: FileDialog.Place.Kind) -> Kind {
        switch place {
        case .home: .home
        case .desktop: .desktop
        case .pictures: .pictures
        case .document: .documentFolder
        case .recent: .recent
        case .computer: .computer
        case .folder: .folder
        }
    }

    /// Draws `kind` centred in the square `r`.
    static func draw(_ kind: Kind, in r: IntRect, painter p: inout ChromePainter) {
        let side = Double(min(r.width, r.height))
        let x = Double(r.x) + (Double(r.width) - side) / 2
        let y = Double(r.y) + (Double(r.height) - side) / 2
        p.scale = side / 20
        p.scaleOrigin = (x, y)
        defer { p.scale = 1 }
        switch kind {
        case .folder, .documentFolder:
            // A tabbed folder: the back with its tab, the front over it.
            p.fillRoundedRect(x + 1.5, y + 3.5, 7.5, 4, radius: 1.2, folderBack)
            p.fillRoundedRect(x + 1.5, y + 5, 17, 12, radius: 1.5, folderBack)
            if kind == .documentFolder {
                // A sheet peeking out: the folder the picture is in.
                p.fillRoundedRect(x + 4, y + 6.5, 12, 8, radius: 0.8, paper)
                p.line(x + 6, y + 9, x + 14, y + 9, width: 1, Theme.track)
            }
            p.fillRoundedRect(x + 1.5, y + 7.5, 17, 9.5, radius: 1.5, folderFront)
        case .picture:
            // A sheet with a folded corner and a small landscape.
            let sheet = [
                (x + 4, y + 1.5), (x + 12.5, y + 1.5), (x + 16.5, y + 5.5), (x + 16.5, y + 18.5), (x + 4, y + 18.5),
            ]
            p.fillPolygon(sheet, paper)
            p.strokePolyline(sheet, closed: true, width: 1, Theme.dimText)
            p.fillPolygon([(x + 12.5, y + 1.5), (x + 12.5, y + 5.5), (x + 16.5, y + 5.5)], Theme.track)
            p.fillRoundedRect(x + 6, y + 8, 8.5, 8.5, radius: 0.5, sky)
            p.fillPolygon([(x + 6, y + 16.5), (x + 9.5, y + 11.5), (x + 14.5, y + 16.5)], hill)
            p.fillCircle(x + 12.2, y + 10.3, radius: 1.3, sun)
        case .home:
            p.strokePolyline(
                [(x + 3, y + 10), (x + 10, y + 3.5), (x + 17, y + 10)], width: 1.6, Theme.icon)
            p.strokePolyline(
                [(x + 5, y + 9), (x + 5, y + 17), (x + 15, y + 17), (x + 15, y + 9)], width: 1.6, Theme.icon)
            p.fillRoundedRect(x + 8.5, y + 12, 3, 5, radius: 0.5, Theme.icon)
        case .desktop:
            p.strokeRoundedRect(x + 2.5, y + 3.5, 15, 10, radius: 1.2, lineWidth: 1.6, Theme.icon)
            p.line(x + 10, y + 14, x + 10, y + 16.5, width: 1.6, Theme.icon)
            p.line(x + 6.5, y + 17, x + 13.5, y + 17, width: 1.6, Theme.icon)
        case .pictures:
            p.strokeRoundedRect(x + 2.5, y + 4, 15, 12, radius: 1.2, lineWidth: 1.6, Theme.icon)
            p.fillPolygon(
                [(x + 4, y + 15), (x + 8.5, y + 9), (x + 12, y + 13), (x + 13.5, y + 11.5), (x + 16, y + 15)],
                Theme.icon)
            p.fillCircle(x + 13, y + 7.6, radius: 1.4, Theme.icon)
        case .recent:
            p.strokeCircle(x + 10, y + 10, radius: 7, lineWidth: 1.6, Theme.icon)
            p.strokePolyline([(x + 10, y + 5.5), (x + 10, y + 10), (x + 13, y + 12)], width: 1.6, Theme.icon)
        case .computer:
            p.strokeRoundedRect(x + 2.5, y + 6, 15, 8, radius: 1.5, lineWidth: 1.6, Theme.icon)
            p.fillCircle(x + 14, y + 10, radius: 1.1, Theme.icon)
            p.line(x + 5.5, y + 10, x + 10, y + 10, width: 1.4, Theme.icon)
        case .up:
            // An arrow up out of a folder's corner: the folder above.
            p.line(x + 10, y + 16, x + 10, y + 5, width: 1.8, Theme.icon)
            p.strokePolyline([(x + 5.5, y + 9.5), (x + 10, y + 5), (x + 14.5, y + 9.5)], width: 1.8, Theme.icon)
        }
    }
}

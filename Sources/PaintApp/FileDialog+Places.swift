import PaintIO

extension FileDialog {
    /// A place on the dialog's left: a folder people go to often, or the recent pictures.
    public struct Place: Equatable, Sendable {
        /// What it is (its icon).
        public enum Kind: Sendable, Equatable {
            case home, desktop, pictures, document, recent, computer, folder
        }
        public var kind: Kind
        public var title: String
        /// The folder; nil for the recent pictures.
        public var path: String?
        /// A heading drawn above it, starting a group ("Recent folders").
        public var heading: String?

        public init(kind: Kind, title: String, path: String?, heading: String? = nil) {
            self.kind = kind
            self.title = title
            self.path = path
            self.heading = heading
        }
    }

    /// At most this many recent folders are listed.
    static let maxRecentFolders = 5

    /// The places for `user`: Home, Desktop and Pictures (as the desktop names them, when they
    /// exist), the document's folder, the recent pictures, the whole computer, then the folders
    /// of the recent pictures (those not listed already, newest first).
    public static func places(user: UserFolders, documentFolder: String?, recent: [String]) -> [Place] {
        func exists(_ path: String?) -> Bool { path.map { FileSystem.kind($0) == .folder } ?? false }
        var places = [Place(kind: .home, title: "Home", path: user.home)]
        if let desktop = user.desktop, exists(desktop) {
            places.append(Place(kind: .desktop, title: FileSystem.lastComponent(desktop), path: desktop))
        }
        if let pictures = user.pictures, exists(pictures) {
            places.append(Place(kind: .pictures, title: FileSystem.lastComponent(pictures), path: pictures))
        }
        if let documentFolder, exists(documentFolder), !places.contains(where: { $0.path == documentFolder }) {
            places.append(
                Place(kind: .document, title: FileSystem.lastComponent(documentFolder), path: documentFolder))
        }
        places.append(Place(kind: .recent, title: "Recent", path: nil))
        places.append(Place(kind: .computer, title: "Computer", path: "/"))
        var folders: [String] = []
        for picture in recent {
            let folder = FileSystem.parentFolder(picture)
            guard !folders.contains(folder), !places.contains(where: { $0.path == folder }), exists(folder) else {
                continue
            }
            folders.append(folder)
            if folders.count == maxRecentFolders { break }
        }
        for (n, folder) in folders.enumerated() {
            places.append(
                Place(
                    kind: .folder, title: FileSystem.lastComponent(folder), path: folder,
                    heading: n == 0 ? "Recent folders" : nil))
        }
        return places
    }

    /// The place that is where the dialog is, if any (drawn chosen).
    var currentPlace: Int? {
        if showsRecent { return places.firstIndex { $0.kind == .recent } }
        return places.firstIndex { $0.path == folder }
    }

    /// Goes to place `index`.
    mutating func open(place index: Int) {
        guard places.indices.contains(index) else { return }
        if let path = places[index].path {
            go(to: path)
        } else {
            showRecent()
        }
    }
}

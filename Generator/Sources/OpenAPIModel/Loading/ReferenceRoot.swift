import Foundation

/// The folder a spec's `$ref`s to other files must stay in: the root spec's
/// folder and below, unless the team names another. A path leaves it when,
/// with `.` and `..` removed, it is not under the folder, or when, with its
/// symbolic links followed, it is not under the folder's own real path.
struct ReferenceRoot {
    /// The folder as given, with a trailing `/` ("" for the working folder).
    let folder: String
    /// The folder's real path (symbolic links followed), with a trailing `/`.
    private let realFolder: String

    init(folder: String) {
        var folder = normalize(folder)
        if folder == "." { folder = "" }
        if !folder.isEmpty, !folder.hasSuffix("/") { folder += "/" }
        self.folder = folder
        realFolder = Self.realPath(folder.isEmpty ? "." : folder) + "/"
    }

    /// Whether `path` (normalised, relative to the working folder or
    /// absolute) is inside the folder.
    func contains(_ path: String) -> Bool {
        let lexicallyInside: Bool
        if folder.isEmpty {
            lexicallyInside = !path.hasPrefix("/") && path != ".." && !path.hasPrefix("../")
        } else if folder.hasPrefix("/") == path.hasPrefix("/") {
            lexicallyInside = path.hasPrefix(folder)
        } else {
            // One absolute, one relative: compare them as absolute paths.
            lexicallyInside = Self.absolute(path).hasPrefix(Self.absolute(folder))
        }
        guard lexicallyInside else { return false }
        // A symbolic link inside the folder may point out of it.
        return (Self.realPath(path) + "/").hasPrefix(realFolder)
    }

    private static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        let current = FileManager.default.currentDirectoryPath
        return normalize(current + "/" + path) + (path.hasSuffix("/") ? "/" : "")
    }

    /// The path with its symbolic links followed (as far as it exists).
    private static func realPath(_ path: String) -> String {
        URL(fileURLWithPath: absolute(path)).resolvingSymlinksInPath().path
    }
}

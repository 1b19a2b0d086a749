import Foundation

/// Why the extension cancelled a request (iOS then discards everything
/// handed in it and keeps what it held). Never holds a phone number.
public enum CallDirectoryLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A line of the snapshot or of the changes failed its check.
    case invalidFile(CallDirectoryFormatError)
    /// A shared file could not be opened or read.
    case unreadableFile(name: String, reason: String)
    /// The record of the attempt could not be written; without it the
    /// host could mistake what iOS holds, so nothing is loaded.
    case unrecordedAttempt(reason: String)
    /// The App Group container cannot be reached (the extension is not in
    /// the App Group, or the group is not named).
    case noSharedFolder(appGroup: String?)

    /// What went wrong, in a sentence.
    public var description: String {
        switch self {
        case .invalidFile(let error):
            return "\(error); the request was cancelled, iOS keeps what it held"
        case .unreadableFile(let name, let reason):
            return "cannot read \(name): \(reason); the request was cancelled, iOS keeps what it held"
        case .unrecordedAttempt(let reason):
            return "cannot record the attempt before loading (\(reason)); the request was cancelled, iOS keeps what it held"
        case .noSharedFolder(let appGroup):
            return "no App Group container for \(appGroup.map { "'\($0)'" } ?? "the extension (no App Group named)"): "
                + "add the group to the extension's App Groups capability and name it in its Info.plist (SecureNodeAppGroup)"
        }
    }
}

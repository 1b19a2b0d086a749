import Foundation

/// A shared file that is not what its format says, with the line at fault.
/// Never holds a phone number: only where and what is wrong.
public struct CallDirectoryFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of files the host app and the extension share.
    public enum File: String, Sendable, Hashable {
        /// The complete list (``CallDirectoryFolder/snapshot``).
        case snapshot
        /// What changed since the load iOS holds (``CallDirectoryFolder/changes``).
        case changes
    }

    /// Which file.
    public let file: File
    /// The 1-based line at fault.
    public let line: Int
    /// What is wrong.
    public let reason: String

    /// An error at `line` of a `file`; a snapshot unless said otherwise.
    public init(file: File = .snapshot, line: Int, reason: String) {
        self.file = file
        self.line = line
        self.reason = reason
    }

    /// `invalid Call Directory snapshot at line 12: numbers must ascend`.
    public var description: String { "invalid Call Directory \(file.rawValue) at line \(line): \(reason)" }
}

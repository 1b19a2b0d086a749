import Foundation

/// What one extension request did (``CallDirectoryLoader/handleRequest(_:in:chunkSize:)``).
public struct CallDirectoryLoadReport: Sendable, Hashable {
    /// What it handed iOS.
    public let mode: CallDirectoryLoadMode
    /// Numbers removed one by one (``CallDirectoryLoadMode/reset`` removes all at once, not counted).
    public let removed: Int
    /// Numbers added.
    public let added: Int
    /// What iOS holds once the request completes; nil when it was cancelled.
    public let fingerprint: CallDirectoryFingerprint?
    /// Why the request was cancelled; nil when it was completed.
    public let error: CallDirectoryLoadError?

    /// A report.
    public init(mode: CallDirectoryLoadMode, removed: Int, added: Int, fingerprint: CallDirectoryFingerprint?, error: CallDirectoryLoadError?) {
        self.mode = mode
        self.removed = removed
        self.added = added
        self.fingerprint = fingerprint
        self.error = error
    }
}

import Foundation

/// The folder the host app and its Call Directory extension share (in the
/// App Group's container), and the names of the files in it that both read.
///
/// | file | written by | what it holds |
/// | --- | --- | --- |
/// | ``snapshot`` | host | the complete list (``CallDirectorySnapshotFormat``) |
/// | ``changes`` | host | from what iOS holds to the snapshot (``CallDirectoryChangesFormat``), when known |
/// | ``loadState`` | host | what iOS holds, as far as the host confirmed it (``CallDirectoryLoadState``) |
/// | ``attempt`` | extension | the last request the extension handled (``CallDirectoryAttempt``) |
///
/// Every file is replaced whole by a rename, never written in place.
public struct CallDirectoryFolder: Sendable, Hashable {
    /// The folder.
    public let url: URL

    /// The files in `url`.
    public init(_ url: URL) {
        self.url = url
    }

    /// Where the SecureNode SDK keeps them in an App Group container
    /// (`SecureNode.configure` with an `appGroupId`):
    /// `<container>/SecureNode/CallDirectory`.
    public init(appGroupContainer container: URL) {
        self.init(container.appendingPathComponent("SecureNode", isDirectory: true).appendingPathComponent("CallDirectory", isDirectory: true))
    }

    /// The complete list.
    public var snapshot: URL { url.appendingPathComponent("call-directory.snapshot") }
    /// The changes from the snapshot iOS holds to ``snapshot``.
    public var changes: URL { url.appendingPathComponent("call-directory.changes") }
    /// What iOS holds, as the host confirmed it.
    public var loadState: URL { url.appendingPathComponent("call-directory.state") }
    /// The extension's last request.
    public var attempt: URL { url.appendingPathComponent("call-directory.attempt") }
}

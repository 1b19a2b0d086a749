import Foundation

/// Tells the first launch after an install from every other, so the
/// secrets an earlier install left are deleted before anything reads them:
/// Keychain items survive an uninstall, and without this a reinstalled app
/// (or the next owner of a handed-on device) would resume the previous
/// person's session.
///
/// The marker is a small file in the SDK's own folder, in the app's
/// container, which an uninstall deletes with the app. No marker means a
/// new install, unless one of the files earlier versions of the SDK left
/// is there (an update from such a version is not an install: its user
/// stays signed in). The marker records "to delete" before the deletion and
/// "deleted" after it, so a launch that dies in between deletes again at
/// the next one.
package struct InstallationMarker: Sendable {
    /// The marker file.
    package let file: URL

    /// The marker `name` in `folder` (which must exist).
    package init(folder: URL, name: String = "installation") {
        file = folder.appendingPathComponent(name)
    }

    /// Whether the secrets of an earlier install must be deleted at this
    /// launch: on the first launch after an install, and at every launch
    /// until ``secretsDeleted()`` is recorded. `earlierFiles` are files an
    /// earlier version of the SDK kept beside the marker (their presence
    /// without a marker is an update, not an install). Records the answer.
    package func secretsNeedDeleting(earlierFiles: [URL]) -> Bool {
        if let state = try? PrivateFile.read(file).map({ String(decoding: $0, as: UTF8.self) }) {
            return state != Self.deleted
        }
        let updated = earlierFiles.contains { FileManager.default.fileExists(atPath: $0.path) }
        try? PrivateFile.write(Data((updated ? Self.deleted : Self.toDelete).utf8), to: file)
        return !updated
    }

    /// Records that the earlier install's secrets are gone.
    package func secretsDeleted() {
        try? PrivateFile.write(Data(Self.deleted.utf8), to: file)
    }

    static let toDelete = "secrets of an earlier install to delete"
    static let deleted = "secrets of an earlier install deleted"
}

/// A token store that, on the first launch after an install, deletes what
/// an earlier install left in it (`InstallationMarker`) before its first
/// use: the first load, save or clear clears it first, once.
package actor FreshInstallTokenStore: TokenStore {
    private let store: any TokenStore
    private let marker: InstallationMarker
    private var cleared = false

    /// Wraps `store`, clearing it at first use and then recording it in `marker`.
    package init(wrapping store: any TokenStore, marker: InstallationMarker) {
        self.store = store
        self.marker = marker
    }

    /// `store` when `marker` says nothing is left to delete; otherwise a
    /// store that deletes first.
    package static func wrapping(_ store: any TokenStore, marker: InstallationMarker, earlierFiles: [URL]) -> any TokenStore {
        marker.secretsNeedDeleting(earlierFiles: earlierFiles) ? FreshInstallTokenStore(wrapping: store, marker: marker) : store
    }

    private func clearOnce() async throws {
        guard !cleared else { return }
        try await store.clear()
        cleared = true
        marker.secretsDeleted()
    }

    /// Nil on the first launch after an install; the stored token after.
    package func loadRefreshToken() async throws -> String? {
        try await clearOnce()
        return try await store.loadRefreshToken()
    }

    /// Stores the token (after clearing, on the first use).
    package func save(refreshToken: String) async throws {
        try await clearOnce()
        try await store.save(refreshToken: refreshToken)
    }

    /// Removes the token.
    package func clear() async throws {
        try await clearOnce()
        try await store.clear()
    }
}

import Foundation

/// Where one secret lives on this device: an item the platform keeps
/// (``SecretItem``: the Keychain on Apple platforms) or a file only the
/// owner can read (``PrivateFile``: 0600, replaced atomically), chosen by
/// ``platformDefault(service:account:folder:fileName:accessibility:)``:
/// where an SDK's API key is kept (``SecretKeyStore``). A refresh token
/// has the same rule in `SecureTokenStorage`, which keeps its own file
/// format (JSON) for the installs that have one.
package struct SecretPlace: Sendable {
    private let readSecret: @Sendable () throws -> Data?
    private let writeSecret: @Sendable (Data) throws -> Void
    private let deleteSecret: @Sendable () throws -> Void

    /// A file only the owner can read (its folder must exist).
    package static func file(_ url: URL) -> SecretPlace {
        SecretPlace(readSecret: { try PrivateFile.read(url) }, writeSecret: { try PrivateFile.write($0, to: url) }, deleteSecret: { try PrivateFile.remove(url) })
    }

    /// An item the platform keeps.
    package static func item(_ item: some SecretItem) -> SecretPlace {
        SecretPlace(readSecret: { try item.read() }, writeSecret: { try item.write($0) }, deleteSecret: { try item.delete() })
    }

    /// The Keychain item `service`/`account`, readable as `accessibility`
    /// says, where the `Security` framework exists (Apple platforms);
    /// otherwise a 0600 file `fileName` in `folder` (Linux, where no
    /// keychain exists; the folder should be private to the app).
    package static func platformDefault(
        service: String, account: String, folder: URL, fileName: String, accessibility: KeychainAccessibility
    ) -> SecretPlace {
        #if canImport(Security)
        return .item(KeychainItem(service: service, account: account, accessibility: accessibility))
        #else
        return .file(folder.appendingPathComponent(fileName))
        #endif
    }

    /// The secret, nil when none is kept.
    package func read() throws -> Data? { try readSecret() }
    /// Keeps `data`, replacing any previous secret atomically.
    package func write(_ data: Data) throws { try writeSecret(data) }
    /// Removes the secret (nothing to remove is no error).
    package func delete() throws { try deleteSecret() }
}

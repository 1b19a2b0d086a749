import Foundation

/// The tokens a session keeps: the refresh token is persisted, the access
/// token may live in memory only.
public struct TokenPair: Sendable, Hashable, Codable {
    /// The short-lived access token sent as `Bearer`.
    public var accessToken: String
    /// The long-lived token that obtains new access tokens (nil: keep the old one).
    public var refreshToken: String?

    /// Creates a pair.
    public init(accessToken: String, refreshToken: String?) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }
}

/// Where a session persists its refresh token between app launches.
///
/// Rules for implementers: `save` replaces the stored token atomically (a
/// reader sees the old token or the new one, never a mix or nothing);
/// `clear` removes it; all three may be called from any task.
public protocol TokenStore: Sendable {
    /// The stored refresh token, if any.
    func loadRefreshToken() async throws -> String?
    /// Stores `refreshToken`, replacing any previous one.
    func save(refreshToken: String) async throws
    /// Removes the stored token (logout).
    func clear() async throws
}

/// A store that forgets on exit: tests, and apps that sign in every launch.
public actor InMemoryTokenStore: TokenStore {
    private var refreshToken: String?

    /// Creates a store, optionally holding a token.
    public init(refreshToken: String? = nil) {
        self.refreshToken = refreshToken
    }

    /// The held token.
    public func loadRefreshToken() -> String? { refreshToken }
    /// Replaces the held token.
    public func save(refreshToken: String) { self.refreshToken = refreshToken }
    /// Forgets the token.
    public func clear() { refreshToken = nil }
}

/// A store in one file, readable and writable by the owner only (0600),
/// replaced atomically: the new token is written to a temporary file in the
/// same folder, flushed to disk, and renamed over the old one.
///
/// For Linux and tests; on Apple platforms prefer `KeychainTokenStore`.
public struct FileTokenStore: TokenStore {
    /// The file.
    public let url: URL

    /// Creates a store at `url` (its folder must exist).
    public init(url: URL) {
        self.url = url
    }

    /// The stored token, or nil when there is no file.
    public func loadRefreshToken() throws -> String? {
        try PrivateFile.read(url).map { try JSONDecoder().decode(Stored.self, from: $0).refreshToken }
    }

    /// Writes the token to a 0600 temporary file, fsyncs it, and renames it over the old file.
    public func save(refreshToken: String) throws {
        try PrivateFile.write(JSONEncoder().encode(Stored(refreshToken: refreshToken)), to: url)
    }

    /// Deletes the file.
    public func clear() throws {
        try PrivateFile.remove(url)
    }

    private struct Stored: Codable {
        var refreshToken: String
    }
}

/// A store in one platform-kept secret item (``SecretItem``): on Apple
/// platforms the Keychain (`KeychainTokenStore`).
public struct SecretItemTokenStore<Item: SecretItem>: TokenStore {
    /// The item that holds the token.
    public let item: Item
    /// The item's service name.
    public var service: String { item.service }
    /// The item's account name.
    public var account: String { item.account }

    /// A store for the item `service`/`account`.
    public init(service: String, account: String = "refresh-token") {
        item = Item(service: service, account: account)
    }

    /// A store in `item` (a Keychain item with an accessibility of its own).
    public init(item: Item) {
        self.item = item
    }

    /// Reads the item.
    public func loadRefreshToken() throws -> String? { try item.read().map { String(decoding: $0, as: UTF8.self) } }
    /// Adds or updates the item (atomically, where the platform's store is).
    public func save(refreshToken: String) throws { try item.write(Data(refreshToken.utf8)) }
    /// Deletes the item.
    public func clear() throws { try item.delete() }
}

#if canImport(Security)
/// A store in the Keychain (a generic password item, this device only).
public typealias KeychainTokenStore = SecretItemTokenStore<KeychainItem>
#endif

/// Where an SDK keeps a refresh token unless the app says otherwise.
package enum SecureTokenStorage {
    /// The platform's secure store for a refresh token: the Keychain item
    /// `service` where the `Security` framework exists (Apple platforms),
    /// otherwise a 0600 file `fileName` in `folder` (Linux, where no keychain
    /// exists; the folder should be private to the app). The Keychain item
    /// is readable as `accessibility` says: after the first unlock for an
    /// SDK whose background work needs the token, only while unlocked for
    /// one that has none (Safepocket).
    package static func platformDefault(
        service: String, folder: URL, fileName: String, accessibility: KeychainAccessibility = .afterFirstUnlockThisDeviceOnly
    ) -> any TokenStore {
        #if canImport(Security)
        return keychain(service: service, accessibility: accessibility, backend: SystemKeychain.self)
        #else
        return FileTokenStore(url: folder.appendingPathComponent(fileName))
        #endif
    }

    /// The Keychain store ``platformDefault(service:folder:fileName:accessibility:)``
    /// makes on Apple platforms, over `backend` (a test passes a double).
    package static func keychain<Backend: KeychainBackend>(
        service: String, accessibility: KeychainAccessibility, backend: Backend.Type
    ) -> SecretItemTokenStore<KeychainSecretItem<Backend>> {
        SecretItemTokenStore(item: KeychainSecretItem(service: service, account: "refresh-token", accessibility: accessibility))
    }
}

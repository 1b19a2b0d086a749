import Foundation

/// One secret the platform keeps for the app, named by a service and an
/// account: on Apple platforms a Keychain item (`KeychainItem`, a
/// `KeychainSecretItem` over the system Keychain). ``SecretItemTokenStore``
/// and `SecretKeyStore` (through a `SecretPlace`) keep a refresh token or
/// an API key in one.
///
/// Rules for implementers: `write` replaces the secret atomically (a reader
/// sees the old value or the new one); `read` returns nil when there is no
/// item; `delete` of a missing item succeeds.
public protocol SecretItem: Sendable {
    /// The item `service`/`account`.
    init(service: String, account: String)
    /// The item's service name.
    var service: String { get }
    /// The item's account name.
    var account: String { get }
    /// The secret, nil when there is none.
    func read() throws -> Data?
    /// Stores `data`, replacing any previous secret.
    func write(_ data: Data) throws
    /// Removes the secret.
    func delete() throws
}


#if canImport(Security)
import Foundation

/// An API key in the Keychain (a generic password item, this device only).
public struct KeychainKeyStore: KeyStore {
    /// The item.
    let item: KeychainItem

    /// A store for the item `service`/`account`.
    public init(service: String, account: String = "api-key") {
        item = KeychainItem(service: service, account: account)
    }

    /// Reads the item.
    public func loadKey() throws -> String? { try item.read().map { String(decoding: $0, as: UTF8.self) } }
    /// Adds or updates the item.
    public func saveKey(_ key: String) throws { try item.write(Data(key.utf8)) }
    /// Deletes the item.
    public func deleteKey() throws { try item.delete() }
}
#endif

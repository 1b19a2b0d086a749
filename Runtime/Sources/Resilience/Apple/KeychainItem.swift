#if canImport(Security)
import Foundation
import Security

/// One generic-password Keychain item, readable after the first unlock
/// and never leaving this device: what the Keychain token and key stores
/// keep their secret in (`KeychainTokenStore`, `KeychainKeyStore`).
///
/// An Apple adapter: this file imports only Foundation and Security, so
/// `make ios-check` type-checks it for iOS on its own.
public struct KeychainItem: Sendable, Hashable {
    /// The item's service name.
    public let service: String
    /// The item's account name.
    public let account: String

    /// The item `service`/`account`.
    public init(service: String, account: String) {
        self.service = service
        self.account = account
    }

    /// A Keychain call failed with `status`.
    public struct Failure: Error, Sendable {
        /// The `OSStatus`.
        public let status: OSStatus
    }

    private var query: [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: account]
    }

    /// The item's data, nil when there is no item.
    public func read() throws -> Data? {
        var query = self.query
        query[kSecReturnData as String] = true
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else { throw Failure(status: status) }
        return data
    }

    /// Adds or updates the item (the update is atomic in the Keychain).
    public func write(_ data: Data) throws {
        let status = SecItemUpdate(query as CFDictionary, [kSecValueData as String: data] as CFDictionary)
        if status == errSecItemNotFound {
            var item = query
            item[kSecValueData as String] = data
            item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            let added = SecItemAdd(item as CFDictionary, nil)
            guard added == errSecSuccess else { throw Failure(status: added) }
        } else if status != errSecSuccess {
            throw Failure(status: status)
        }
    }

    /// Deletes the item.
    public func delete() throws {
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw Failure(status: status) }
    }
}
#endif

#if canImport(Security)
import Foundation
import Security

// ios-check: with ../Credentials/KeychainSecretItem.swift
// ios-check: with ../Credentials/SecretItem.swift

/// Security's `SecItem` calls for a generic-password item: what
/// `KeychainItem` (the Keychain token and key stores' item) runs on. The
/// rules of reading and writing are `KeychainSecretItem`'s, in plain Swift,
/// tested on Linux against a double that keeps the Keychain's.
///
/// An Apple adapter: this file imports only Foundation and Security, so
/// `make ios-check` type-checks it for iOS on its own (with its seam).
public struct SystemKeychain: KeychainBackend {
    /// The one system Keychain.
    public static let shared = SystemKeychain()

    private func query(service: String, account: String) -> [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: account]
    }

    public func copy(service: String, account: String) -> (status: Int32, data: Data?) {
        var query = query(service: service, account: account)
        query[kSecReturnData as String] = true
        var result: AnyObject?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result as? Data)
    }

    public func add(service: String, account: String, data: Data, accessibility: KeychainAccessibility) -> Int32 {
        var item = query(service: service, account: account)
        item[kSecValueData as String] = data
        item[kSecAttrAccessible as String] = Self.attribute(accessibility)
        return SecItemAdd(item as CFDictionary, nil)
    }

    public func update(service: String, account: String, data: Data, accessibility: KeychainAccessibility) -> Int32 {
        let changes: [String: Any] = [kSecValueData as String: data, kSecAttrAccessible as String: Self.attribute(accessibility)]
        return SecItemUpdate(query(service: service, account: account) as CFDictionary, changes as CFDictionary)
    }

    public func delete(service: String, account: String) -> Int32 {
        SecItemDelete(query(service: service, account: account) as CFDictionary)
    }

    private static func attribute(_ accessibility: KeychainAccessibility) -> CFString {
        switch accessibility {
        case .afterFirstUnlockThisDeviceOnly: return kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
        case .whenUnlockedThisDeviceOnly: return kSecAttrAccessibleWhenUnlockedThisDeviceOnly
        case .afterFirstUnlock: return kSecAttrAccessibleAfterFirstUnlock
        case .whenUnlocked: return kSecAttrAccessibleWhenUnlocked
        }
    }
}

/// One generic-password Keychain item, readable after the first unlock and
/// never leaving this device: what the Keychain token and key stores keep
/// their secret in (`KeychainTokenStore`, and `SecretKeyStore` on Apple platforms).
public typealias KeychainItem = KeychainSecretItem<SystemKeychain>
#endif

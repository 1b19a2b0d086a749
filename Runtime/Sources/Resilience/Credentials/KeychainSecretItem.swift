import Foundation

/// The Keychain calls one generic-password item makes, carried out by a
/// backend: Security's `SecItem` functions on Apple platforms
/// (`SystemKeychain`, an Apple adapter), a double that keeps the Keychain's
/// rules in tests. Each returns the `OSStatus` the Keychain would.
public protocol KeychainBackend: Sendable {
    /// The backend items of this kind are kept in.
    static var shared: Self { get }
    /// `SecItemCopyMatching` of the item's data.
    func copy(service: String, account: String) -> (status: Int32, data: Data?)
    /// `SecItemAdd` of a new item, readable as `accessibility` says.
    func add(service: String, account: String, data: Data, accessibility: KeychainAccessibility) -> Int32
    /// `SecItemUpdate` of an existing item's data and accessibility (an
    /// item an earlier version added with another class gets this one).
    func update(service: String, account: String, data: Data, accessibility: KeychainAccessibility) -> Int32
    /// `SecItemDelete` of the item.
    func delete(service: String, account: String) -> Int32
}

/// When a Keychain item can be read (`kSecAttrAccessible`).
public enum KeychainAccessibility: String, Sendable, Hashable, CaseIterable {
    /// After the first unlock since boot, on this device only: never in a
    /// backup or on another device. What the SDKs use: background work
    /// (refresh, ring time) may need the secret while the device is locked.
    case afterFirstUnlockThisDeviceOnly
    /// While the device is unlocked, on this device only.
    case whenUnlockedThisDeviceOnly
    /// After the first unlock; may move to another device in an encrypted backup.
    case afterFirstUnlock
    /// While unlocked; may move to another device in an encrypted backup.
    case whenUnlocked

    /// Whether the item stays on this device (never in a backup).
    public var isThisDeviceOnly: Bool { self == .afterFirstUnlockThisDeviceOnly || self == .whenUnlockedThisDeviceOnly }
}

/// The `OSStatus` values the Keychain answers with that an item handles.
package enum KeychainStatus {
    /// `errSecSuccess`.
    package static let success: Int32 = 0
    /// `errSecItemNotFound`.
    package static let itemNotFound: Int32 = -25300
    /// `errSecDuplicateItem`.
    package static let duplicateItem: Int32 = -25299
    /// `errSecInteractionNotAllowed`: the item cannot be read now (the
    /// device is locked, or has not been unlocked since boot).
    package static let interactionNotAllowed: Int32 = -25308
}

/// One generic-password Keychain item, read and written by the Keychain's
/// rules whatever the backend: a missing item reads as nil and deletes as
/// done; a write updates the item, or adds it (with ``accessibility``)
/// when it is missing, and updates again when another writer added it
/// meanwhile (`errSecDuplicateItem`); an item that cannot be read now
/// (locked) is an error, not nil, so a secret is never taken as absent.
/// On Apple platforms `KeychainItem` is this over Security's calls.
public struct KeychainSecretItem<Backend: KeychainBackend>: SecretItem, Hashable {
    /// The item's service name.
    public let service: String
    /// The item's account name.
    public let account: String
    /// When the item can be read; the SDKs' default:
    /// ``KeychainAccessibility/afterFirstUnlockThisDeviceOnly``.
    public let accessibility: KeychainAccessibility

    /// The item `service`/`account`, readable after the first unlock, this device only.
    public init(service: String, account: String) {
        self.init(service: service, account: account, accessibility: .afterFirstUnlockThisDeviceOnly)
    }

    /// The item `service`/`account`, readable as `accessibility` says.
    public init(service: String, account: String, accessibility: KeychainAccessibility) {
        self.service = service
        self.account = account
        self.accessibility = accessibility
    }

    /// A Keychain call failed with `status`.
    public struct Failure: Error, Sendable, Hashable {
        /// The `OSStatus`.
        public let status: Int32

        /// A failure with `status`.
        package init(status: Int32) { self.status = status }
    }

    /// The item's data, nil when there is no item; throws when it cannot be read now.
    public func read() throws -> Data? {
        let (status, data) = Backend.shared.copy(service: service, account: account)
        if status == KeychainStatus.itemNotFound { return nil }
        guard status == KeychainStatus.success, let data else { throw Failure(status: status) }
        return data
    }

    /// Adds or updates the item (the update is atomic in the Keychain), with
    /// ``accessibility`` either way: an item kept with another class (by an
    /// earlier version) gets this one at its next write.
    public func write(_ data: Data) throws {
        let backend = Backend.shared
        var status = backend.update(service: service, account: account, data: data, accessibility: accessibility)
        if status == KeychainStatus.itemNotFound {
            status = backend.add(service: service, account: account, data: data, accessibility: accessibility)
            // Added by another writer between the two calls: the update now finds it.
            if status == KeychainStatus.duplicateItem {
                status = backend.update(service: service, account: account, data: data, accessibility: accessibility)
            }
        }
        guard status == KeychainStatus.success else { throw Failure(status: status) }
    }

    /// Deletes the item (a missing one is deleted already).
    public func delete() throws {
        let status = Backend.shared.delete(service: service, account: account)
        guard status == KeychainStatus.success || status == KeychainStatus.itemNotFound else { throw Failure(status: status) }
    }
}

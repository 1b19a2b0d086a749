import Foundation
import Resilience
import RuntimeSupport

/// The iOS Keychain for the tests, keeping its rules: adding an item that
/// exists is `errSecDuplicateItem`; reading, updating or deleting one that
/// does not is `errSecItemNotFound`; an item cannot be read before the
/// first unlock since boot, nor, when it is `whenUnlocked...`, while the
/// device is locked (`errSecInteractionNotAllowed`); only items that are
/// not `...ThisDeviceOnly` reach another device through a backup.
///
/// The device's state is the calling task's (``device``), so tests that
/// lock the device run beside others; items are the process's, so each
/// test names its own services.
public struct SimulatedKeychain: KeychainBackend {
    /// The one simulated Keychain of the process.
    public static let shared = SimulatedKeychain()

    /// Where the device stands, as the Keychain sees it.
    public enum DeviceState: Sendable {
        /// Booted, never unlocked since.
        case beforeFirstUnlock
        /// Unlocked once since boot, locked now.
        case locked
        /// Unlocked.
        case unlocked
    }

    /// The calling task's device state (unlocked unless a test says otherwise).
    @TaskLocal public static var device: DeviceState = .unlocked

    private struct Item {
        var data: Data
        var accessibility: KeychainAccessibility
    }

    private static let items = Locked<[String: Item]>([:])

    private static func key(_ service: String, _ account: String) -> String { service + "\u{1F}" + account }

    public func copy(service: String, account: String) -> (status: Int32, data: Data?) {
        guard let item = Self.items.withLock({ $0[Self.key(service, account)] }) else { return (KeychainStatus.itemNotFound, nil) }
        switch Self.device {
        case .beforeFirstUnlock: return (KeychainStatus.interactionNotAllowed, nil)
        case .locked where item.accessibility == .whenUnlocked || item.accessibility == .whenUnlockedThisDeviceOnly:
            return (KeychainStatus.interactionNotAllowed, nil)
        default: return (KeychainStatus.success, item.data)
        }
    }

    public func add(service: String, account: String, data: Data, accessibility: KeychainAccessibility) -> Int32 {
        if Self.device == .beforeFirstUnlock { return KeychainStatus.interactionNotAllowed }
        return Self.items.withLock { items in
            guard items[Self.key(service, account)] == nil else { return KeychainStatus.duplicateItem }
            items[Self.key(service, account)] = Item(data: data, accessibility: accessibility)
            return KeychainStatus.success
        }
    }

    public func update(service: String, account: String, data: Data, accessibility: KeychainAccessibility) -> Int32 {
        Self.items.withLock { items in
            guard items[Self.key(service, account)] != nil else { return KeychainStatus.itemNotFound }
            if Self.device == .beforeFirstUnlock { return KeychainStatus.interactionNotAllowed }
            items[Self.key(service, account)] = Item(data: data, accessibility: accessibility)
            return KeychainStatus.success
        }
    }

    public func delete(service: String, account: String) -> Int32 {
        Self.items.withLock { $0.removeValue(forKey: Self.key(service, account)) } == nil ? KeychainStatus.itemNotFound : KeychainStatus.success
    }

    /// The accessibility an item was added with, nil when there is none.
    public static func accessibility(service: String, account: String) -> KeychainAccessibility? {
        items.withLock { $0[key(service, account)]?.accessibility }
    }

    /// What of `service`'s items a backup carries to another device: the
    /// accounts whose items are not `...ThisDeviceOnly`.
    public static func restoredOnAnotherDevice(service: String) -> [String] {
        items.withLock { items in
            items.filter { $0.key.hasPrefix(service + "\u{1F}") && !$0.value.accessibility.isThisDeviceOnly }
                .map { String($0.key.dropFirst(service.count + 1)) }.sorted()
        }
    }
}

/// A Keychain item on the simulated Keychain (the SDKs' stores take it in tests).
public typealias SimulatedKeychainItem = KeychainSecretItem<SimulatedKeychain>

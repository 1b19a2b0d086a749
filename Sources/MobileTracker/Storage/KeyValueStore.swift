import Foundation
import RuntimeSupport

/// The tracker's primary store: UserDefaults on Apple platforms (the
/// document's choice, the mobile counterpart of a cookie), any store an app
/// or test supplies elsewhere.
///
/// Rules for implementers: calls may come from any thread; `string(forKey:)`
/// returns what the last `set` wrote or nil after `remove`.
public protocol TrackerKeyValueStore: Sendable {
    /// The value stored under `key`.
    func string(forKey key: String) -> String?
    /// Stores `value` under `key`.
    func set(_ value: String, forKey key: String)
    /// Removes `key`.
    func remove(forKey key: String)
    /// Every key (for clearing a brand's prefix).
    func allKeys() -> [String]
}

/// A store in memory: the default primary off Apple platforms, and tests.
public final class InMemoryKeyValueStore: TrackerKeyValueStore {
    private let values = Locked<[String: String]>([:])

    /// Creates an empty store.
    public init() {}

    /// The value under `key`.
    public func string(forKey key: String) -> String? { values.withLock { $0[key] } }
    /// Stores a value.
    public func set(_ value: String, forKey key: String) { values.withLock { $0[key] = value } }
    /// Removes a value.
    public func remove(forKey key: String) { values.withLock { $0[key] = nil } }
    /// Every key.
    public func allKeys() -> [String] { values.withLock { Array($0.keys) } }
}

#if canImport(Darwin)
/// `UserDefaults` as the primary store (the document's iOS choice).
public struct UserDefaultsStore: TrackerKeyValueStore, @unchecked Sendable {
    // `@unchecked Sendable` is safe: `UserDefaults` is documented as thread-safe.
    private let defaults: UserDefaults

    /// A store over `defaults` (`.standard` by default).
    public init(_ defaults: UserDefaults = .standard) {
        self.defaults = defaults
    }

    /// The value under `key`.
    public func string(forKey key: String) -> String? { defaults.string(forKey: key) }
    /// Stores a value.
    public func set(_ value: String, forKey key: String) { defaults.set(value, forKey: key) }
    /// Removes a value.
    public func remove(forKey key: String) { defaults.removeObject(forKey: key) }
    /// Every key.
    public func allKeys() -> [String] { Array(defaults.dictionaryRepresentation().keys) }
}
#endif

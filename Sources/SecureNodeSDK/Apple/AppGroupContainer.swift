#if canImport(Darwin)
import Foundation

/// The App Group container the host app and its Call Directory extension
/// share, for `SecureNode.configure(_:)`.
///
/// An Apple adapter: this file imports only Foundation and calls
/// Foundation's Apple-only API, so `make ios-check` type-checks it for iOS
/// on its own.
enum AppGroupContainer {
    /// The container of the App Group `identifier`, nil when the app is not
    /// entitled to it (the group is not in its App Groups capability).
    static func folder(for identifier: String) -> URL? {
        FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: identifier)
    }
}
#endif

#if canImport(CallKit)
import CallKit

/// CallKit's Call Directory manager, for ``CallKitDirectoryReloader``.
///
/// An Apple adapter: this file imports only CallKit, so `make ios-check`
/// type-checks it for iOS on its own.
enum CallKitDirectory {
    /// `CXCallDirectoryManager.reloadExtension(withIdentifier:)`: iOS reads
    /// the extension's entries again; throws what CallKit reported.
    static func reloadExtension(identifier: String) async throws {
        try await CXCallDirectoryManager.sharedInstance.reloadExtension(withIdentifier: identifier)
    }
}
#endif

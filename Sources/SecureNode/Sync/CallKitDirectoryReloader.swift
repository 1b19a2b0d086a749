#if canImport(CallKit)
import CallKit

/// Reloads the app's Call Directory extension through CallKit.
public struct CallKitDirectoryReloader: CallDirectoryReloading {
    /// The extension's bundle identifier.
    public let extensionIdentifier: String

    /// A reloader for the extension `extensionIdentifier`.
    public init(extensionIdentifier: String) {
        self.extensionIdentifier = extensionIdentifier
    }

    /// `CXCallDirectoryManager.reloadExtension(withIdentifier:)`.
    public func reloadExtension() async throws {
        try await CXCallDirectoryManager.sharedInstance.reloadExtension(withIdentifier: extensionIdentifier)
    }
}
#endif

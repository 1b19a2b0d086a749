import Foundation

/// Reloads the app's Call Directory extension through CallKit
/// (`CXCallDirectoryManager`, in the adapter `CallKitDirectory`). Where
/// CallKit does not exist (Linux, macOS) a reload throws
/// ``CallDirectoryUnavailableError``, so code that configures it compiles
/// everywhere.
public struct CallKitDirectoryReloader: CallDirectoryReloading {
    /// The extension's bundle identifier.
    public let extensionIdentifier: String

    /// A reloader for the extension `extensionIdentifier`.
    public init(extensionIdentifier: String) {
        self.extensionIdentifier = extensionIdentifier
    }

    /// `CXCallDirectoryManager.reloadExtension(withIdentifier:)`.
    public func reloadExtension() async throws {
        #if canImport(CallKit)
        try await CallKitDirectory.reloadExtension(identifier: extensionIdentifier)
        #else
        throw CallDirectoryUnavailableError(extensionIdentifier: extensionIdentifier)
        #endif
    }
}

/// A Call Directory reload was asked for where CallKit does not exist.
public struct CallDirectoryUnavailableError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The extension that was to be reloaded.
    public let extensionIdentifier: String

    /// The error for the extension `extensionIdentifier`.
    package init(extensionIdentifier: String) {
        self.extensionIdentifier = extensionIdentifier
    }

    /// What happened and what to do.
    public var description: String {
        "cannot reload the Call Directory extension \(extensionIdentifier): CallKit exists on iOS only; "
            + "the snapshot is written all the same (CallDirectorySnapshot)"
    }
}

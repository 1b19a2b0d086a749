import BrandingStore
import Foundation
import RuntimeSupport

/// The facade's small mutable state, shared with the API-key middleware.
final class SharedState: Sendable {
    struct Values {
        var apiKey: String
        var brandingDisabled = false
        /// The server's `config.branding_enabled` from the last sync (true when absent).
        var brandingEnabledByServer = true
        /// The Call Directory snapshot last exported: a sync generation, or
        /// ``SecureNodeEngine/brandingOffVersion`` for the empty one.
        var exportedVersion: String?
        var reloadPolicy: CallDirectoryReloadPolicy
    }

    private let values: Locked<Values>
    /// Held while a Call Directory snapshot is written: one export at a time.
    let exportLock = NSLock()

    init(apiKey: String, reloadPolicy: CallDirectoryReloadPolicy) {
        values = Locked(Values(apiKey: apiKey, reloadPolicy: reloadPolicy))
    }

    func withLock<Result>(_ body: (inout Values) throws -> Result) rethrows -> Result {
        try values.withLock(body)
    }
}

/// Asks the system to reload the Call Directory extension, so the phone
/// shows what the current snapshot holds (`CallKitDirectoryReloader` on
/// iOS). Given in the configuration, the SDK reloads on its own after a
/// sync, a key change or a background refresh, within the reload policy.
public protocol CallDirectoryReloading: Sendable {
    /// Reloads the extension; throws what the system reported.
    func reloadExtension() async throws
}

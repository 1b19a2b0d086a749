// An Apple adapter's seam: this file imports nothing, so the adapter
// `BackgroundAppRefresh` is type-checked for iOS with it alone.

/// One launch of a background task as the system hands it to the app:
/// `BGTask` on iOS (through the adapter `BackgroundAppRefresh`), a double
/// in tests. The system's rules: the expiration handler is called at most
/// once, when the system ends the launch early; the app must call
/// ``setTaskCompleted(success:)`` exactly once per launch, also after an
/// expiration.
package protocol BackgroundTaskLaunch: AnyObject, Sendable {
    /// What to run when the system ends the launch before the work is done.
    func setExpirationHandler(_ handler: @escaping @Sendable () -> Void)
    /// Ends the launch (once).
    func setTaskCompleted(success: Bool)
}

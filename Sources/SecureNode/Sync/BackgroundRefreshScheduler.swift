import Foundation

/// Where the system launches the app for background work: `BGTaskScheduler`
/// on iOS (``system``, through the adapter `BackgroundAppRefresh`). Tests
/// and other hosts give their own.
public struct BackgroundRefreshScheduler: Sendable {
    /// Registers the launch handler of a task identifier, which returns
    /// whether the work succeeded; false when the system refused.
    public var register: @Sendable (_ identifier: String, _ run: @escaping @Sendable () async -> Bool) -> Bool
    /// Asks for a launch of a task identifier no sooner than a date.
    public var submit: @Sendable (_ identifier: String, _ earliest: Date) throws -> Void

    /// A scheduler of the host's.
    public init(
        register: @escaping @Sendable (_ identifier: String, _ run: @escaping @Sendable () async -> Bool) -> Bool,
        submit: @escaping @Sendable (_ identifier: String, _ earliest: Date) throws -> Void
    ) {
        self.register = register
        self.submit = submit
    }

    /// `BGTaskScheduler` where the BackgroundTasks framework exists (iOS);
    /// nil elsewhere.
    public static var system: BackgroundRefreshScheduler? {
        #if canImport(BackgroundTasks)
        return BackgroundRefreshScheduler(register: BackgroundAppRefresh.register, submit: BackgroundAppRefresh.submit)
        #else
        return nil
        #endif
    }
}

/// `BGTaskScheduler` wiring for ``SecureNode/performBackgroundRefresh(budget:)``.
extension SecureNode {
    /// Registers the refresh task ``backgroundRefreshTaskIdentifier`` with
    /// `scheduler` (call before the app finishes launching) and asks for
    /// the first run `interval` from now; each run asks for the next one
    /// before it starts its work (``performBackgroundRefresh(budget:)``,
    /// within `budget`), then completes with
    /// ``SecureNode/BackgroundRefreshReport/succeeded``. False without a scheduler
    /// (not iOS) or when the system refused the identifier (it must be
    /// listed under `BGTaskSchedulerPermittedIdentifiers` in Info.plist).
    @discardableResult
    public func registerBackgroundRefresh(
        every interval: TimeInterval = 30 * 60, budget: Duration = .seconds(25), scheduler: BackgroundRefreshScheduler? = .system
    ) -> Bool {
        guard let scheduler else { return false }
        let registered = scheduler.register(Self.backgroundRefreshTaskIdentifier) { [weak self] in
            guard let self else { return false }
            self.scheduleBackgroundRefresh(after: interval, scheduler: scheduler)
            return await self.performBackgroundRefresh(budget: budget).succeeded
        }
        if registered { scheduleBackgroundRefresh(after: interval, scheduler: scheduler) }
        return registered
    }

    /// Asks `scheduler` for the next refresh no sooner than `interval` from
    /// now; false when there is no scheduler or it refused.
    @discardableResult
    public func scheduleBackgroundRefresh(
        after interval: TimeInterval = 30 * 60, scheduler: BackgroundRefreshScheduler? = .system
    ) -> Bool {
        guard let scheduler else { return false }
        return (try? scheduler.submit(Self.backgroundRefreshTaskIdentifier, Date(timeIntervalSinceNow: interval))) != nil
    }
}

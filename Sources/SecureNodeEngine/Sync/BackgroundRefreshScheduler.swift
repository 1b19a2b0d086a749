import Foundation
import RuntimeSupport

/// Where the system launches the app for background work: `BGTaskScheduler`
/// on iOS (``system``, through the adapter `BackgroundAppRefresh`). Tests
/// and other hosts give their own.
///
/// Registrations go through `registerOnce(_:target:)`, which asks the system
/// once per identifier for the life of the scheduler (for ``system``, of
/// the process): iOS ends the app when a launch handler is registered twice
/// or after the app finished launching, so a second call (a second SDK
/// object, a reconfiguration) only changes which SDK the launches run.
public struct BackgroundRefreshScheduler: Sendable {
    /// Registers the launch handler of a task identifier; false when the
    /// system refused (the identifier is not permitted by the Info.plist).
    package var register: @Sendable (_ identifier: String, _ launchHandler: @escaping @Sendable (any BackgroundTaskLaunch) -> Void) -> Bool
    /// Asks for a launch of a task identifier no sooner than a date.
    package var submit: @Sendable (_ identifier: String, _ earliest: Date) throws -> Void
    /// What was registered through this scheduler (shared by its copies).
    let registrations = BackgroundRegistrations()

    /// A scheduler of the host's (a test's simulated system).
    package init(
        register: @escaping @Sendable (_ identifier: String, _ launchHandler: @escaping @Sendable (any BackgroundTaskLaunch) -> Void) -> Bool,
        submit: @escaping @Sendable (_ identifier: String, _ earliest: Date) throws -> Void
    ) {
        self.register = register
        self.submit = submit
    }

    /// `BGTaskScheduler` where the BackgroundTasks framework exists (iOS),
    /// one value for the process; nil elsewhere.
    public static let system: BackgroundRefreshScheduler? = {
        #if canImport(BackgroundTasks)
        return BackgroundRefreshScheduler(register: BackgroundAppRefresh.register, submit: BackgroundAppRefresh.submit)
        #else
        return nil
        #endif
    }()

    /// Whether `identifier` is registered through this scheduler.
    package func isRegistered(_ identifier: String) -> Bool {
        registrations.isRegistered(identifier)
    }

    /// Registers `identifier` with the system once: the first call asks the
    /// system (and returns its answer), every later call only replaces the
    /// work its launches run (`target`) and returns the first answer, never
    /// asking the system again. Each launch runs the current target under
    /// `BackgroundTaskRunner` (completed once, cancelled on expiration).
    @discardableResult
    package func registerOnce(_ identifier: String, target: @escaping @Sendable () async -> Bool) -> Bool {
        let (answer, isFirst) = registrations.claim(identifier, target: target)
        guard isFirst else { return answer ?? false }
        let registrations = self.registrations
        let registered = register(identifier) { launch in
            BackgroundTaskRunner.run(launch) { await registrations.target(of: identifier)?() ?? false }
        }
        registrations.record(identifier, registered: registered)
        return registered
    }
}

/// What a scheduler registered, by identifier, and the work each launch runs.
final class BackgroundRegistrations: Sendable {
    private struct Entry {
        var registered: Bool?
        var target: @Sendable () async -> Bool
    }

    private let entries = Locked<[String: Entry]>([:])

    /// Sets `identifier`'s work; whether this is its first registration,
    /// and the system's answer to an earlier one.
    func claim(_ identifier: String, target: @escaping @Sendable () async -> Bool) -> (answer: Bool?, isFirst: Bool) {
        entries.withLock { entries in
            if let entry = entries[identifier] {
                entries[identifier]?.target = target
                return (entry.registered, false)
            }
            entries[identifier] = Entry(registered: nil, target: target)
            return (nil, true)
        }
    }

    func record(_ identifier: String, registered: Bool) {
        entries.withLock { $0[identifier]?.registered = registered }
    }

    func isRegistered(_ identifier: String) -> Bool {
        entries.withLock { $0[identifier]?.registered == true }
    }

    func target(of identifier: String) -> (@Sendable () async -> Bool)? {
        entries.withLock { $0[identifier]?.target }
    }
}

/// Runs one background launch by the system's rules: the work in a task of
/// its own, cancelled when the system expires the launch, and the launch
/// completed exactly once with what the work returned (false when it was
/// cancelled, or when it had nothing to run).
package enum BackgroundTaskRunner {
    /// Runs `work` for `launch`.
    package static func run(_ launch: any BackgroundTaskLaunch, work: @escaping @Sendable () async -> Bool) {
        let completed = Locked(false)
        let complete: @Sendable (Bool) -> Void = { success in
            guard completed.withLock({ done in defer { done = true }; return !done }) else { return }
            launch.setTaskCompleted(success: success)
        }
        let running = Locked<Task<Void, Never>?>(nil)
        // Before the work starts: an expiration that comes at once still finds it.
        launch.setExpirationHandler {
            running.withLock { $0 }?.cancel()
        }
        let task = Task {
            let success = await work()
            complete(success && !Task.isCancelled)
        }
        running.withLock { $0 = task }
    }
}

/// `BGTaskScheduler` wiring for ``SecureNodeEngine/performBackgroundRefresh(budget:)``.
extension SecureNodeEngine {
    /// Registers the refresh task ``backgroundRefreshTaskIdentifier`` with
    /// `scheduler` and asks for the first run `interval` from now; each run
    /// asks for the next one before it starts its work
    /// (``performBackgroundRefresh(budget:)``, within `budget`), then
    /// completes with ``SecureNodeEngine/BackgroundRefreshReport/succeeded``.
    ///
    /// Call it once, synchronously, in
    /// `application(_:didFinishLaunchingWithOptions:)`: iOS ends the app when
    /// a launch handler is registered after launch. It is safe to call again
    /// (a second engine, a reconfiguration): the system is asked once per
    /// process, and later calls make this engine the one the launches run.
    /// False without a scheduler (not iOS) or when the system refused the
    /// identifier (it must be listed under `BGTaskSchedulerPermittedIdentifiers`
    /// in Info.plist).
    @discardableResult
    public func registerBackgroundRefresh(
        every interval: Duration = .seconds(30 * 60), budget: Duration = .seconds(25), scheduler: BackgroundRefreshScheduler? = .system
    ) -> Bool {
        guard let scheduler else { return false }
        let registered = scheduler.registerOnce(Self.backgroundRefreshTaskIdentifier) { [weak self] in
            guard let self else { return false }
            self.scheduleBackgroundRefresh(after: interval, scheduler: scheduler)
            return await self.performBackgroundRefresh(budget: budget).succeeded
        }
        if registered { scheduleBackgroundRefresh(after: interval, scheduler: scheduler) }
        return registered
    }

    /// Asks `scheduler` for the next refresh no sooner than `interval` from
    /// now; false when there is no scheduler, the task is not registered
    /// through it (iOS ends an app that submits a request for an identifier
    /// without a launch handler), or it refused.
    @discardableResult
    package func scheduleBackgroundRefresh(
        after interval: Duration = .seconds(30 * 60), scheduler: BackgroundRefreshScheduler? = .system
    ) -> Bool {
        guard let scheduler, scheduler.isRegistered(Self.backgroundRefreshTaskIdentifier) else { return false }
        return (try? scheduler.submit(Self.backgroundRefreshTaskIdentifier, Date(timeIntervalSinceNow: interval.totalSeconds))) != nil
    }
}

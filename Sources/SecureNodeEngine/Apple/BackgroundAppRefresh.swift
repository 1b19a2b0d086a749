#if canImport(BackgroundTasks)
import BackgroundTasks
import Foundation

// ios-check: with ../Sync/BackgroundTaskLaunch.swift

/// `BGTaskScheduler` app-refresh tasks, for
/// `BackgroundRefreshScheduler.system`: the system's calls only; what a
/// launch does (completed once, cancelled on expiration) is the plain-Swift
/// `BackgroundTaskRunner`'s, tested on Linux against a double that keeps
/// BGTaskScheduler's rules.
///
/// An Apple adapter: this file imports only Foundation and BackgroundTasks,
/// so `make ios-check` type-checks it for iOS on its own.
enum BackgroundAppRefresh {
    /// Registers `launchHandler` for the task `identifier`: call before the
    /// app finishes launching, once (iOS ends the app otherwise). False when
    /// the identifier is not listed under `BGTaskSchedulerPermittedIdentifiers`.
    static func register(identifier: String, launchHandler: @escaping @Sendable (any BackgroundTaskLaunch) -> Void) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            launchHandler(SystemTaskLaunch(task))
        }
    }

    /// Asks for a launch of `identifier` no sooner than `earliest`; throws
    /// what the scheduler reported (no permission, too many requests).
    static func submit(identifier: String, earliest: Date) throws {
        let request = BGAppRefreshTaskRequest(identifier: identifier)
        request.earliestBeginDate = earliest
        try BGTaskScheduler.shared.submit(request)
    }
}

/// A `BGTask` as a `BackgroundTaskLaunch`.
///
/// `@unchecked Sendable`: `BGTask` is not marked `Sendable`, but its
/// `expirationHandler` may be set and `setTaskCompleted(success:)` called
/// from any thread (the framework's documented use), and this type offers
/// nothing else.
private final class SystemTaskLaunch: BackgroundTaskLaunch, @unchecked Sendable {
    private let task: BGTask
    init(_ task: BGTask) { self.task = task }
    func setExpirationHandler(_ handler: @escaping @Sendable () -> Void) { task.expirationHandler = handler }
    func setTaskCompleted(success: Bool) { task.setTaskCompleted(success: success) }
}
#endif

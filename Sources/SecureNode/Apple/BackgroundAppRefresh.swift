#if canImport(BackgroundTasks)
import BackgroundTasks
import Foundation

/// `BGTaskScheduler` app-refresh tasks, for
/// `BackgroundRefreshScheduler.system`.
///
/// An Apple adapter: this file imports only Foundation and BackgroundTasks,
/// so `make ios-check` type-checks it for iOS on its own.
enum BackgroundAppRefresh {
    /// Registers `run` as the launch handler of the task `identifier` (call
    /// before the app finishes launching). Each launch runs `run` in a task
    /// of its own, cancels that task when the system expires the launch,
    /// and completes the launch with what `run` returned. False when the
    /// system refused (the identifier is not listed under
    /// `BGTaskSchedulerPermittedIdentifiers`, or is registered already).
    static func register(identifier: String, run: @escaping @Sendable () async -> Bool) -> Bool {
        BGTaskScheduler.shared.register(forTaskWithIdentifier: identifier, using: nil) { task in
            let completion = BackgroundTaskCompletion(task)
            let work = Task { completion.finish(success: await run()) }
            task.expirationHandler = { work.cancel() }
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

/// Completes a background task from the task that did its work.
///
/// `@unchecked Sendable`: `BGTask` is not marked `Sendable`, but
/// `setTaskCompleted(success:)` may be called from any thread (the
/// framework's documented use), and this type offers nothing else.
private final class BackgroundTaskCompletion: @unchecked Sendable {
    private let task: BGTask
    init(_ task: BGTask) { self.task = task }
    func finish(success: Bool) { task.setTaskCompleted(success: success) }
}
#endif

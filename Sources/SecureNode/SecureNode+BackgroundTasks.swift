#if canImport(BackgroundTasks)
import BackgroundTasks
import Foundation

/// `BGTaskScheduler` wiring for ``SecureNode/performBackgroundRefresh(budget:)``.
extension SecureNode {
    /// Registers the refresh task (call before the app finishes launching)
    /// and schedules the first run; each run schedules the next.
    @discardableResult
    public func registerBackgroundRefresh(every interval: TimeInterval = 30 * 60) -> Bool {
        let registered = BGTaskScheduler.shared.register(forTaskWithIdentifier: Self.backgroundRefreshTaskIdentifier, using: nil) { [weak self] task in
            guard let self else { return task.setTaskCompleted(success: false) }
            self.scheduleBackgroundRefresh(after: interval)
            let completion = BackgroundTaskCompletion(task)
            let work = Task { completion.finish(success: await self.performBackgroundRefresh().succeeded) }
            task.expirationHandler = { work.cancel() }
        }
        if registered { scheduleBackgroundRefresh(after: interval) }
        return registered
    }

    /// Asks for the next refresh no sooner than `interval` from now.
    public func scheduleBackgroundRefresh(after interval: TimeInterval = 30 * 60) {
        let request = BGAppRefreshTaskRequest(identifier: Self.backgroundRefreshTaskIdentifier)
        request.earliestBeginDate = Date(timeIntervalSinceNow: interval)
        try? BGTaskScheduler.shared.submit(request)
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

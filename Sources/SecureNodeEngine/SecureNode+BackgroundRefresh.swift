import BrandingStore
import Foundation

/// The work of the app's `BGAppRefreshTask`: sync, deliver, reload, within
/// the time the system grants.
extension SecureNodeEngine {
    /// The background task identifier the host app lists under
    /// `BGTaskSchedulerPermittedIdentifiers` in its Info.plist.
    public static let backgroundRefreshTaskIdentifier = "com.securenode.branding.sync"

    /// What a background refresh did.
    public struct BackgroundRefreshReport: Sendable, Hashable {
        /// The sync's status when the refresh ended.
        public var syncStatus: BrandingSyncStatus
        /// Whether the sync stored or removed records.
        public var receivedNewData: Bool
        /// Billing events the server accepted during the refresh.
        public var eventsDelivered: Int
        /// Billing events still waiting when the refresh ended.
        public var eventsPending: Int
        /// Whether the Call Directory extension was reloaded.
        public var callDirectoryReloaded: Bool
        /// Whether the budget ran out and the work was cancelled; an
        /// unfinished sync applied nothing (the previous dataset stands).
        public var ranOutOfTime: Bool

        /// What to pass to `BGTask.setTaskCompleted(success:)`: the sync
        /// completed in time.
        public var succeeded: Bool {
            guard !ranOutOfTime, case .upToDate = syncStatus else { return false }
            return true
        }
    }

    /// The body of the app's background refresh handler: registers or
    /// updates the device, syncs the branding dataset, sends a heartbeat,
    /// delivers due billing events and, with a
    /// ``Configuration/callDirectoryReloader``, reloads the Call Directory
    /// when the snapshot changed. Whatever is still running when `budget`
    /// passes (iOS grants about 30 s) is cancelled. Never throws.
    ///
    /// ```swift
    /// BGTaskScheduler.shared.register(forTaskWithIdentifier: SecureNode.backgroundRefreshTaskIdentifier, using: nil) { task in
    ///     let work = Task {
    ///         let report = await secureNode.performBackgroundRefresh()
    ///         task.setTaskCompleted(success: report.succeeded)
    ///     }
    ///     task.expirationHandler = { work.cancel() }
    /// }
    /// ```
    public func performBackgroundRefresh(budget: Duration = .seconds(25)) async -> BackgroundRefreshReport {
        enum Finish: Sendable {
            case done(BrandingSyncStatus, delivered: Int, reloaded: Bool)
            case outOfTime
        }
        let finish = await withTaskGroup(of: Finish.self) { group in
            group.addTask {
                let pass = await self.syncAndDeliver()
                return .done(pass.status, delivered: pass.delivery?.delivered ?? 0, reloaded: pass.reloaded)
            }
            group.addTask {
                try? await self.clock.sleep(budget)
                return .outOfTime
            }
            let first = await group.next() ?? .outOfTime
            group.cancelAll()
            return first
        }
        let status = await syncStatus()
        var report = BackgroundRefreshReport(
            syncStatus: status, receivedNewData: false, eventsDelivered: 0, eventsPending: (try? outbox.counts().pending) ?? 0,
            callDirectoryReloaded: false, ranOutOfTime: true)
        if case .done(let finalStatus, let delivered, let reloaded) = finish {
            report.ranOutOfTime = false
            report.syncStatus = finalStatus
            report.eventsDelivered = delivered
            report.callDirectoryReloaded = reloaded
            if case .upToDate(_, _, let outcome) = finalStatus { report.receivedNewData = outcome.stored > 0 || outcome.deleted > 0 }
        }
        return report
    }
}

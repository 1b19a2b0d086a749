import Foundation

/// The one clock of an SDK: the wall time (what events, expiries and
/// `Retry-After` dates are dated by), a monotonic reading (what throttles
/// and waits measure, unmoved when the user sets the wall time back), and
/// sleeping. It lives in ``ConnectionConfiguration/clock``. SecureNode and
/// MobileTracker read their time and sleep through it (backoffs, delivery
/// loops, heartbeats, the refusal watch, the ring window, logo retries, the
/// sync deadline, the refresh budget, the session retry throttle), so a
/// test moves one clock (a `ManualClock`'s) instead of waiting. What waits
/// in real time: the transport's own bounds (URLSession's), and the waits
/// an app bounds itself (`MobileTracker.flush(timeout:)`, a call event's
/// completion wait), polled on the system's clock. Soul and Safepocket
/// date what they date by its wall time; their retries sleep in the
/// middlewares' `Clock`.
package struct SDKClock: Sendable {
    /// The wall time.
    package var now: @Sendable () -> Date
    /// Time since an arbitrary origin that only moves forward.
    package var elapsed: @Sendable () -> Duration
    /// Returns after `duration` has passed on this clock; throws
    /// `CancellationError` when the task is cancelled first.
    package var sleep: @Sendable (_ duration: Duration) async throws -> Void

    /// A clock from its three readings.
    package init(
        now: @escaping @Sendable () -> Date, elapsed: @escaping @Sendable () -> Duration,
        sleep: @escaping @Sendable (_ duration: Duration) async throws -> Void
    ) {
        self.now = now
        self.elapsed = elapsed
        self.sleep = sleep
    }

    /// The system's: `Date()`, `ContinuousClock` and `Task.sleep`.
    package static let system: SDKClock = {
        let origin = ContinuousClock.now
        return SDKClock(now: { Date() }, elapsed: { ContinuousClock.now - origin }, sleep: { try await Task.sleep(for: $0) })
    }()
}

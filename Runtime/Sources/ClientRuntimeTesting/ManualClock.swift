import Foundation
import RuntimeSupport

/// A wall clock a test moves by hand: cooldowns, expiries, token lifetimes,
/// a cache's age. Hand its reading to whatever takes the time as
/// `now: @Sendable () -> Date` (the SDKs' configurations, a backend double),
/// so the code under test and the test see the same instant, and move it
/// instead of waiting.
///
/// ```swift
/// let clock = ManualClock()
/// let soul = try Soul(.init(environment: .staging, now: { clock.now }))
/// clock.advance(by: .seconds(31))   // the resend cooldown (30 s) is over
/// ```
public final class ManualClock: Sendable {
    private let current: Locked<Date>

    /// A clock at `start` (by default a fixed instant, so runs repeat).
    public init(startingAt start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        current = Locked(start)
    }

    /// The clock's time.
    public var now: Date { current.read() }

    /// Moves the clock `duration` forward (or back, when negative).
    public func advance(by duration: Duration) {
        current.withLock { $0 = $0.addingTimeInterval(duration.totalSeconds) }
    }

    /// Moves the clock `seconds` forward (or back, when negative).
    public func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }
}

import Foundation
import RuntimeSupport

/// A clock a test moves by hand: cooldowns, expiries, token lifetimes,
/// a cache's age, deadlines. Hand its reading to whatever takes the time as
/// `now: @Sendable () -> Date` (the SDKs' configurations, a backend double),
/// and its ``continuous`` view to whatever waits on a `Clock` (a
/// `TimeoutMiddleware`), so the code under test and the test see the same
/// instant, and move it instead of waiting.
///
/// ```swift
/// let clock = ManualClock()
/// let soul = try Soul(.init(environment: .staging, now: { clock.now }))
/// clock.advance(by: .seconds(31))   // the resend cooldown (30 s) is over
/// ```
public final class ManualClock: Sendable {
    private struct State {
        var date: Date
        var elapsed: Duration = .zero
        var nextSleeper: UInt64 = 0
        var sleepers: [UInt64: Sleeper] = [:]
    }

    private enum Sleeper {
        /// About to sleep.
        case starting
        /// Cancelled while starting: it does not sleep.
        case cancelled
        /// Asleep until `deadline`.
        case asleep(deadline: Continuous.Instant, CheckedContinuation<Void, any Error>)

        var continuation: CheckedContinuation<Void, any Error>? {
            if case .asleep(_, let continuation) = self { return continuation }
            return nil
        }
    }

    private let state: Locked<State>

    /// A clock at `start` (by default a fixed instant, so runs repeat).
    public init(startingAt start: Date = Date(timeIntervalSince1970: 1_800_000_000)) {
        state = Locked(State(date: start))
    }

    /// The clock's time.
    public var now: Date { state.withLock { $0.date } }

    /// The clock as a `Clock` (the way `ContinuousClock` counts): moved
    /// forward with the wall time by ``advance(by:)-(Duration)``, never back, and a `sleep`
    /// on it returns once the clock has been moved past its deadline.
    public var continuous: Continuous { Continuous(owner: self) }

    /// Moves the clock `duration` forward (or back, when negative: the wall
    /// time is set back, as a user may; ``continuous`` does not move).
    public func advance(by duration: Duration) {
        move(by: duration.totalSeconds, duration)
    }

    /// Moves the clock `seconds` forward (or back, when negative).
    public func advance(by seconds: TimeInterval) {
        move(by: seconds, .nanoseconds(Int64((seconds * 1e9).rounded())))
    }

    /// Moves the wall time by `seconds` and, forward only, the continuous
    /// time by `duration`, waking the sleepers whose deadline it reaches.
    private func move(by seconds: TimeInterval, _ duration: Duration) {
        let due = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.date = state.date.addingTimeInterval(seconds)
            guard duration > .zero else { return [] }
            state.elapsed += duration
            let now = Continuous.Instant(elapsed: state.elapsed)
            let ids = state.sleepers.compactMap { id, sleeper -> UInt64? in
                guard case .asleep(let deadline, _) = sleeper, deadline <= now else { return nil }
                return id
            }
            return ids.compactMap { state.sleepers.removeValue(forKey: $0)?.continuation }
        }
        for continuation in due { continuation.resume() }
    }

    /// Tasks sleeping on ``continuous`` now: a test waits for the code under
    /// test to be asleep before it moves the clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.values.count { $0.continuation != nil } } }

    /// ``ManualClock`` as a `Clock`.
    public struct Continuous: Clock {
        /// An instant: the time the clock has been moved forward since it was made.
        public struct Instant: InstantProtocol {
            /// How far the clock had been moved at this instant.
            public var elapsed: Duration

            /// The instant `duration` later.
            public func advanced(by duration: Duration) -> Instant { Instant(elapsed: elapsed + duration) }
            /// The time from this instant to `other`.
            public func duration(to other: Instant) -> Duration { other.elapsed - elapsed }
            /// Whether `lhs` comes first.
            public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.elapsed < rhs.elapsed }
        }

        let owner: ManualClock

        /// The clock's instant.
        public var now: Instant { Instant(elapsed: owner.state.withLock { $0.elapsed }) }
        /// Any duration can be waited for.
        public var minimumResolution: Duration { .zero }

        /// Returns once the clock has been moved to `deadline`; throws
        /// `CancellationError` when the task is cancelled first.
        public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
            let state = owner.state
            let id = state.withLock { state -> UInt64 in
                state.nextSleeper &+= 1
                state.sleepers[state.nextSleeper] = .starting
                return state.nextSleeper
            }
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let outcome: Result<Void, any Error>? = state.withLock { state in
                        if case .cancelled = state.sleepers[id] {
                            state.sleepers[id] = nil
                            return .failure(CancellationError())
                        }
                        if deadline <= Instant(elapsed: state.elapsed) {
                            state.sleepers[id] = nil
                            return .success(())
                        }
                        state.sleepers[id] = .asleep(deadline: deadline, continuation)
                        return nil
                    }
                    if let outcome { continuation.resume(with: outcome) }
                }
            } onCancel: {
                let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                    switch state.sleepers[id] {
                    case .starting?:
                        state.sleepers[id] = .cancelled
                        return nil
                    case .asleep(_, let continuation)?:
                        state.sleepers[id] = nil
                        return continuation
                    case .cancelled?, nil:
                        return nil
                    }
                }
                continuation?.resume(throwing: CancellationError())
            }
        }
    }
}

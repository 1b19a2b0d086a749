import Foundation

/// Waiting in tests for the state an assertion reads, never for a time.
///
/// Each wait polls its condition until it holds: every 5 ms at first, then
/// less and less often, up to every 50 ms, so that a long wait leaves the
/// cores to the work it waits for. The limit is a hang guard only:
/// generous (five minutes by default: under an outside build, waits of a
/// minute have run out in a passing suite) so that a loaded machine is
/// never mistaken for a failure, and a failure still ends the test instead
/// of hanging the suite.

/// Waits until `condition` holds; throws ``WaitTimedOut`` once `limit` has
/// passed without it. Runs on the caller's actor, so the condition may read
/// its state.
public func waitUntil(
    _ what: @autoclosure () -> String = "the condition", limit: Duration = hangGuard, isolation: isolated (any Actor)? = #isolation,
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    var pause = Duration.milliseconds(5)
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw WaitTimedOut(what: what(), limit: limit) }
        try await Task.sleep(for: pause)
        pause = min(pause * 2, .milliseconds(50))
    }
}

/// The default limit of a wait: a hang guard, never the thing tested.
public let hangGuard: Duration = .seconds(300)

/// Whether `condition` came to hold within `limit` (polling it as
/// ``waitUntil(_:limit:_:)`` does), for `#expect(try await eventually { ... })`.
public func eventually(
    limit: Duration = hangGuard, isolation: isolated (any Actor)? = #isolation, _ condition: () async throws -> Bool
) async throws -> Bool {
    do {
        try await waitUntil(limit: limit, isolation: isolation, condition)
        return true
    } catch is WaitTimedOut {
        return false
    }
}

/// A condition did not come to hold within its hang guard.
public struct WaitTimedOut: Error, CustomStringConvertible {
    /// What was waited for.
    public let what: String
    /// How long.
    public let limit: Duration

    /// "waited 60 seconds for ...".
    public var description: String { "waited \(limit) for \(what); it never held" }
}

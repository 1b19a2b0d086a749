import Foundation

/// Waiting in tests for the state an assertion reads, never for a time.
///
/// Each wait polls its condition until it holds. The limit is a hang guard
/// only: generous (a minute by default) so that a loaded machine is never
/// mistaken for a failure, and a failure still ends the test instead of
/// hanging the suite.

/// Waits until `condition` holds; throws ``WaitTimedOut`` once `limit` has
/// passed without it. Runs on the caller's actor, so the condition may read
/// its state.
public func waitUntil(
    _ what: @autoclosure () -> String = "the condition", limit: Duration = .seconds(60), isolation: isolated (any Actor)? = #isolation,
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + limit
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw WaitTimedOut(what: what(), limit: limit) }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// Whether `condition` came to hold within `limit` (polling it as
/// ``waitUntil(_:limit:_:)`` does), for `#expect(try await eventually { ... })`.
public func eventually(
    limit: Duration = .seconds(60), isolation: isolated (any Actor)? = #isolation, _ condition: () async throws -> Bool
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

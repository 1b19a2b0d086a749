import Foundation
import RuntimeSupport

/// A point where the loopback server holds requests until the test opens
/// it (``LoopbackHTTPServer/Reply/gated(_:_:)``): the test waits until a
/// request has arrived, does what must happen while it is out, then lets
/// the answer go. Shutting the server down does not open it; ``open()``
/// does, and a gate opened before a request arrives lets it straight through.
///
/// ```swift
/// let gate = ReplyGate()
/// let server = try LoopbackHTTPServer { _ in .gated(gate, .json(200, "{}")) }
/// let call = Task { try await client.get() }
/// try await gate.waitForArrivals(1)   // the request is at the server
/// // ... change what the answer must meet ...
/// gate.open()
/// ```
public final class ReplyGate: Sendable {
    private let state = Locked((arrived: 0, isOpen: false))
    private let condition = NSCondition()

    /// Creates a closed gate.
    public init() {}

    /// How many requests have reached the gate so far (held or let through).
    public var arrivals: Int { state.read().arrived }

    /// Lets every held request and every later one through.
    public func open() {
        condition.lock()
        state.withLock { $0.isOpen = true }
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until `count` requests have arrived; throws
    /// ``ReplyGateTimedOut`` after `limit` (a hang guard, not a timing; the
    /// tests' `Waiting.hangGuard`, which this runtime target cannot import).
    public func waitForArrivals(_ count: Int, limit: Duration = .seconds(300)) async throws {
        let deadline = ContinuousClock.now + limit
        while arrivals < count {
            guard ContinuousClock.now < deadline else { throw ReplyGateTimedOut(expected: count, arrived: arrivals) }
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Counts an arrival and blocks the calling thread until the gate is
    /// open: what ``LoopbackHTTPServer/Reply/gated(_:_:)`` does on the
    /// server's thread, and what a `.streamed` body calls to stall part-way
    /// for as long as the test wants.
    public func hold() {
        condition.lock()
        defer { condition.unlock() }
        state.withLock { $0.arrived += 1 }
        while !state.read().isOpen { condition.wait() }
    }
}

/// Fewer requests than expected reached a ``ReplyGate`` within its limit.
public struct ReplyGateTimedOut: Error, CustomStringConvertible {
    /// The arrivals waited for.
    public let expected: Int
    /// The arrivals seen.
    public let arrived: Int

    /// What was waited for and what came.
    public var description: String { "waited for \(expected) request(s) at the gate, \(arrived) arrived" }
}

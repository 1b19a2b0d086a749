import Foundation
import HTTPTypes
import LoopbackHTTPServer
import OpenAPIRuntime
import RuntimeSupport
import Testing
import Waiting

@testable import ClientRuntime
@testable import Resilience

@Suite struct RetryMiddlewareTests {
    /// A server that answers each path from a script: the n-th request to a
    /// path gets the n-th reply (the last one repeats).
    static func scripted(_ script: [String: [LoopbackHTTPServer.Reply]]) throws -> LoopbackHTTPServer {
        let counter = Counter()
        return try LoopbackHTTPServer(keepAlive: false) { request in
            let replies = script[request.path] ?? [.respond(status: 404)]
            let index = counter.next(request.path)
            return replies[min(index, replies.count - 1)]
        }
    }

    @Test func theOperationDescriptorDecidesWhatMayBeRepeated() async throws {
        let server = try Self.scripted([
            "/events": [.respond(status: 503)], "/moods": [.respond(status: 503)], "/report": [.respond(status: 503)],
        ])
        defer { server.shutdown() }
        let client = TestClient(server: server, middlewares: [RetryMiddleware(clock: VirtualClock())])
        // A POST the spec declares deduplicated (`x-idempotent: true`).
        let deduplicated = OperationDescriptor(id: "recordEvent", method: .post, pathTemplate: "/events", security: [], isIdempotent: true)
        // A plain POST, and a GET the spec says has side effects (`x-idempotent: false`).
        let plain = OperationDescriptor(id: "createMood", method: .post, pathTemplate: "/moods", security: [])
        let sideEffects = OperationDescriptor(id: "runReport", method: .get, pathTemplate: "/report", security: [], isIdempotent: false)
        for (descriptor, path, method) in [(deduplicated, "/events", HTTPRequest.Method.post), (plain, "/moods", .post), (sideEffects, "/report", .get)] {
            _ = try await OperationDescriptor.$current.withValue(descriptor) {
                try await client.send(method, path, operationID: descriptor.id, body: method == .post ? "{}" : nil)
            }
        }
        let attempts = Dictionary(grouping: server.requests, by: \.path).mapValues(\.count)
        #expect(attempts == ["/events": 3, "/moods": 1, "/report": 1])
        #expect(plain.isIdempotent == false && OperationDescriptor(id: "g", method: .get, pathTemplate: "/", security: []).isIdempotent)
    }

    @Test func retryAfterIsNeverUndercut() async throws {
        let server = try Self.scripted(["/moods": [
            .respond(status: 503, headers: [("Retry-After", "7")], body: ""),
            .respond(status: 429, headers: [("Retry-After", "3")], body: ""),
            .json(200, "[]"),
        ]])
        defer { server.shutdown() }
        let clock = VirtualClock()
        let retry = RetryMiddleware(
            policy: RetryPolicy(maximumAttempts: 5, maximumRetryAfter: .seconds(10), maximumRetryWait: .seconds(20)), clock: clock, random: { _ in 0 })
        let result = try await TestClient(server: server, middlewares: [retry]).send(.get, "/moods", operationID: "listMoods")
        #expect(result.status == 200)
        #expect(clock.sleeps == [.seconds(7), .seconds(3)], "jitter drew 0, so the waits are exactly Retry-After")
    }

    @Test func a429ReachesTheAppAtOnceUnlessItsWaitFitsTheBudget() async throws {
        let clock = VirtualClock()
        let retry = RetryMiddleware(clock: clock, random: { _ in 0 })
        // 30 s asked: no spinner for 30 s, the 429 itself at once, its body and Retry-After for a countdown.
        let long = try Self.scripted(["/moods": [.respond(status: 429, headers: [("Retry-After", "30")], body: "{\"detail\":\"Too many requests\"}")]])
        defer { long.shutdown() }
        let answered = try await TestClient(server: long, middlewares: [retry]).send(.get, "/moods", operationID: "listMoods")
        #expect(answered.status == 429 && answered.body.contains("Too many requests"), "the 429 itself, with its body")
        #expect(long.requests.count == 1 && clock.sleeps.isEmpty)
        // No wait named: at once too.
        let unnamed = try Self.scripted(["/moods": [.respond(status: 429, body: "")]])
        defer { unnamed.shutdown() }
        #expect(try await TestClient(server: unnamed, middlewares: [retry]).send(.get, "/moods", operationID: "listMoods").status == 429)
        #expect(unnamed.requests.count == 1 && clock.sleeps.isEmpty)
        // 1 s asked on a read: within the budget, waited and retried.
        let short = try Self.scripted(["/moods": [.respond(status: 429, headers: [("Retry-After", "1")], body: ""), .json(200, "[]")]])
        defer { short.shutdown() }
        #expect(try await TestClient(server: short, middlewares: [retry]).send(.get, "/moods", operationID: "listMoods").status == 200)
        #expect(clock.sleeps == [.seconds(1)])
    }

    @Test func aCallsWaitsAddUpToTheBudgetAtMost() async throws {
        let server = try Self.scripted(["/moods": Array(repeating: .respond(status: 503, headers: [("Retry-After", "2")], body: "busy"), count: 10)])
        defer { server.shutdown() }
        let clock = VirtualClock()
        let retry = RetryMiddleware(policy: RetryPolicy(maximumAttempts: 10), clock: clock, random: { _ in 0 })
        let result = try await TestClient(server: server, middlewares: [retry]).send(.get, "/moods", operationID: "listMoods")
        #expect(result.status == 503 && result.body == "busy", "the last answer, once the budget is spent")
        #expect(clock.sleeps == [.seconds(2), .seconds(2)], "5 s at most in all: a third 2 s wait would pass it")
        #expect(server.requests.count == 3)
    }

    @Test func longRetryAfterOn503IsReturnedNotWaited() async throws {
        let server = try Self.scripted(["/x": [.respond(status: 503, headers: [("Retry-After", "3600")], body: "down")]])
        defer { server.shutdown() }
        let clock = VirtualClock()
        let result = try await TestClient(server: server, middlewares: [RetryMiddleware(clock: clock)]).send(.get, "/x", operationID: "x")
        #expect(result.status == 503 && result.body == "down")
        #expect(server.requests.count == 1 && clock.sleeps.isEmpty)
    }

    @Test func bodiesAreReplayedOnEveryAttempt() async throws {
        let server = try Self.scripted(["/profile": [.respond(status: 502), .respond(status: 500), .json(200, "{}")]])
        defer { server.shutdown() }
        let retry = RetryMiddleware(clock: VirtualClock())
        _ = try await TestClient(server: server, middlewares: [retry]).send(.put, "/profile", operationID: "setProfile", body: "{\"name\":\"Ada\"}")
        #expect(server.requests.map(\.bodyText) == Array(repeating: "{\"name\":\"Ada\"}", count: 3))
    }

    /// A body written while it is sent (a generated client's event stream)
    /// is handed on as it is, unread, and the call is not repeated:
    /// buffering it for a retry would hold the request until the app's
    /// sequence ends.
    @Test func aStreamedBodyIsSentOnceAndNeverBuffered() async throws {
        let (pieces, continuation) = AsyncStream.makeStream(of: ArraySlice<UInt8>.self)
        let streamed = HTTPBody(pieces, length: .unknown, iterationBehavior: .single)
        let handedOn = Locked<[HTTPBody?]>([])
        let retry = RetryMiddleware(clock: VirtualClock())
        let request = HTTPRequest(method: .put, scheme: nil, authority: nil, path: "/logs")
        let descriptor = OperationDescriptor(id: "uploadLogs", method: .put, pathTemplate: "/logs", security: [])
        let (response, _) = try await OperationDescriptor.$current.withValue(descriptor) {
            try await retry.intercept(request, body: streamed, baseURL: URL(string: "https://api.example.com")!, operationID: "uploadLogs") { _, body, _ in
                handedOn.withLock { $0.append(body) }
                return (HTTPResponse(status: .serviceUnavailable), nil)
            }
        }
        continuation.finish()
        #expect(response.status == .serviceUnavailable, "the 503 itself: a PUT is repeatable, but not with a body already sent")
        let bodies = handedOn.read()
        #expect(bodies.count == 1 && bodies.first.flatMap { $0 } === streamed, "the app's stream itself, once")
    }

    @Test func offlineRetriesWaitForConnectivity() async throws {
        let server = try Self.scripted(["/x": [.respond(status: 503), .json(200, "{}")]])
        defer { server.shutdown() }
        let connectivity = Connectivity(isOnline: false)
        let retry = RetryMiddleware(clock: VirtualClock(), connectivity: connectivity)
        let client = TestClient(server: server, middlewares: [retry])
        let call = Task { try await client.send(.get, "/x", operationID: "x") }
        // The first attempt fails; the retry must wait until the app reports online.
        try await waitUntil("the retry to wait for connectivity") { await connectivity.waitingRetries == 1 }
        #expect(server.requests.count == 1, "no retry while offline")
        await connectivity.update(isOnline: true)
        #expect(try await call.value.status == 200)
        #expect(server.requests.count == 2)
    }

    @Test func cancellationIsNotRetried() async throws {
        let held = ReplyGate()
        let server = try Self.scripted(["/slow": [.gated(held, .respond(status: 200))]])
        defer {
            held.open()
            server.shutdown()
        }
        let client = TestClient(server: server, middlewares: [RetryMiddleware(clock: VirtualClock())])
        let call = Task { try await client.send(.get, "/slow", operationID: "slow") }
        try await held.waitForArrivals(1)
        call.cancel()
        _ = try? await call.value
        // The call has returned: a retry would have been made before it did.
        #expect(server.requests.count == 1)
    }
}

/// Counts requests per key, thread-safely.
///
/// `@unchecked Sendable` is safe: `counts` is only touched while `lock` is held.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [String: Int] = [:]

    /// Returns how many times `key` was seen before, and counts this one.
    func next(_ key: String) -> Int {
        lock.withLock {
            let value = counts[key, default: 0]
            counts[key] = value + 1
            return value
        }
    }
}

@Suite struct TransportFailureTests {
    @Test func nonTransportErrorsAreNotRetried() {
        #expect(!RetryMiddleware<ContinuousClock>.isTransportFailure(CancellationError()))
        #expect(!RetryMiddleware<ContinuousClock>.isTransportFailure(TokenRefreshError.sessionExpired))
        #expect(!RetryMiddleware<ContinuousClock>.isTransportFailure(URLError(.cancelled)))
        #expect(RetryMiddleware<ContinuousClock>.isTransportFailure(URLError(.timedOut)))
        #expect(RetryMiddleware<ContinuousClock>.isTransportFailure(URLError(.networkConnectionLost)))
    }
}

import ClientRuntime
import Foundation
import HTTPTypes
import LoopbackHTTPServer
import OpenAPIRuntime
import Resilience
import RuntimeSupport
import SDKCore
import Testing
import Waiting

/// The connectivity signal the SDKs use by default where no system monitor
/// exists: read from requests' outcomes, never trusted to refuse a call.
@Suite struct ConnectivityTests {
    static let listNotes = OperationDescriptor(id: "listNotes", method: .get, pathTemplate: "/notes", security: [])

    enum Refusal: Error, Equatable {
        case offline, failed
    }

    @Test func aRefusedConnectionMarksOfflineAndTheNextAnswerMarksOnline() async throws {
        let connectivity = Connectivity.observingRequests()
        #expect(connectivity.source == .observedFromRequests)
        #expect(await connectivity.isOnline, "online until a request fails")
        let dead = try LoopbackHTTPServer { _ in .json(200, "{}") }
        dead.shutdown()
        let port = dead.port
        let reconnected = Locked(0)
        let owner = Locked(0)
        await connectivity.whenOnline(while: owner) { reconnected.withLock { $0 += 1 } }
        let client = TestClient(server: dead, middlewares: [ConnectivityObservingMiddleware(connectivity: connectivity)], timeout: 30)

        await #expect(throws: (any Error).self) {
            try await client.send(.get, "/notes", operationID: "listNotes")
        }
        #expect(await !connectivity.isOnline, "a refused connection means offline")
        #expect(await !connectivity.isKnownOffline, "but only as a guess: nothing is refused for it")

        let alive = try LoopbackHTTPServer(port: port) { _ in .json(200, #"{"notes":[]}"#) }
        defer { alive.shutdown() }
        let answer = try await client.send(.get, "/notes", operationID: "listNotes")
        #expect(answer.status == 200, "the call was still made while the signal said offline")
        #expect(await connectivity.isOnline)
        try await waitUntil("the reconnect actions to run") { reconnected.read() > 0 }
        #expect(reconnected.read() == 1, "the first answer runs the reconnect actions once")
        withExtendedLifetime(owner) {}
    }

    @Test func aReconnectActionEndsWithItsOwner() async throws {
        let connectivity = Connectivity(isOnline: true)
        let runs = Locked(0)
        var owner: Locked<Int>? = Locked(0)
        await connectivity.whenOnline(while: owner!) { runs.withLock { $0 += 1 } }
        await connectivity.update(isOnline: false)
        await connectivity.update(isOnline: true)
        try await waitUntil("the action to run") { runs.read() > 0 }
        #expect(runs.read() == 1)
        #expect(await connectivity.reconnectActionsStarted == 1)
        owner = nil
        await connectivity.update(isOnline: false)
        await connectivity.update(isOnline: true)
        #expect(await connectivity.reconnectActionsStarted == 1, "the owner is gone: its action (and what it holds) went with it, not started")
        _ = owner
    }

    @Test func anObservedOfflineSignalNeitherRefusesCallsNorHoldsRetries() async throws {
        let connectivity = Connectivity.observingRequests()
        await connectivity.observe(reachedServer: false)
        #expect(await !connectivity.isOnline)

        // A caller checks the signal before sending: an observed one lets the call go.
        let caller = ClientCaller(client: "client", connectivity: connectivity)
        let made = try await caller.perform(offline: Refusal.offline, failure: { _ in Refusal.failed }) { _ in true }
        #expect(made)

        // The retry layer spends its attempts instead of waiting for a report that never comes.
        let attempts = Locked(0)
        let server = try LoopbackHTTPServer { _ in
            attempts.withLock { $0 += 1 }
            return .json(503, #"{"error":"busy"}"#)
        }
        defer { server.shutdown() }
        let retry = RetryMiddleware(
            policy: RetryPolicy(maximumAttempts: 3, backoff: BackoffPolicy(baseDelay: .milliseconds(1), maximumDelay: .milliseconds(2))),
            connectivity: connectivity)
        let client = TestClient(server: server, middlewares: [retry], timeout: 30)
        let waited = Task {
            try await OperationDescriptor.$current.withValue(Self.listNotes) { try await client.send(.get, "/notes", operationID: "listNotes") }
        }
        let outcome = try await waited.value
        #expect(outcome.status == 503)
        #expect(attempts.read() == 3, "every attempt was made")
    }

    @Test func aReportedOfflineSignalStillRefusesAndWaits() async throws {
        let connectivity = Connectivity(isOnline: false)
        #expect(connectivity.source == .reported)
        #expect(await connectivity.isKnownOffline)
        let caller = ClientCaller(client: "client", connectivity: connectivity)
        await #expect(throws: Refusal.offline) {
            try await caller.perform(offline: Refusal.offline, failure: { _ in Refusal.failed }) { _ in true }
        }
        // A request's outcome does not overrule what the app reports.
        await connectivity.observe(reachedServer: true)
        #expect(await connectivity.isKnownOffline)
        let waiting = Task { try await connectivity.waitUntilOnline() }
        try await Task.sleep(for: .milliseconds(50))
        await connectivity.update(isOnline: true)
        try await waiting.value
    }

    @Test func cancellingAnOfflineWaitEndsIt() async throws {
        let connectivity = Connectivity(isOnline: false)
        let waiting = Task { try await connectivity.waitUntilOnline() }
        try await Task.sleep(for: .milliseconds(20))
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        await connectivity.update(isOnline: true)
        try await connectivity.waitUntilOnline()
    }
}

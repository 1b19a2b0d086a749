import Foundation
import HTTPTypes
import LoopbackHTTPServer
import OpenAPIRuntime
import Testing

@testable import Resilience

@Suite struct IdempotencyTests {
    @Test func everyAttemptOfAWriteCarriesItsOneKey() async throws {
        // Each write fails twice with 503, then succeeds. The server is taken
        // to deduplicate by the key (declared to the retry layer, as a spec's
        // `x-idempotent: true` would be): the key alone does not allow a retry.
        let counter = Counter()
        let server = try LoopbackHTTPServer(keepAlive: false) { request in
            counter.next(request.path) < 2 ? .respond(status: 503) : .json(201, "{}")
        }
        defer { server.shutdown() }
        let stack: [any ClientMiddleware] = [
            IdempotencyKeyMiddleware(), RetryMiddleware(policy: RetryPolicy(idempotentOperations: ["syncTransactions"]), clock: VirtualClock()),
        ]
        let client = TestClient(server: server, middlewares: stack)
        let writes = 1_000
        try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<writes {
                group.addTask { try await client.send(.post, "/transactions/\(index)/sync", operationID: "syncTransactions", body: "{}").status }
                if index % 50 == 49 { for try await status in group { #expect(status == 201) } }
            }
            for try await status in group { #expect(status == 201) }
        }
        var keysByWrite: [String: Set<String>] = [:]
        for request in server.requests {
            keysByWrite[request.path, default: []].insert(request.header("Idempotency-Key") ?? "missing")
        }
        #expect(server.requests.count == writes * 3)
        #expect(keysByWrite.count == writes)
        #expect(keysByWrite.values.allSatisfy { $0.count == 1 && !$0.contains("missing") }, "one key per write, on all 3 attempts")
        let keys = keysByWrite.values.compactMap(\.first)
        #expect(Set(keys).count == writes, "all keys distinct")
        #expect(keys.allSatisfy { UUID(uuidString: $0) != nil && $0 == $0.lowercased() && Array($0)[14] == "4" }, "lower-case UUID v4")
    }

    @Test func aKeyAloneDoesNotMakeAWriteRepeatable() async throws {
        let server = try LoopbackHTTPServer(keepAlive: false) { _ in .respond(status: 503) }
        defer { server.shutdown() }
        let client = TestClient(server: server, middlewares: [IdempotencyKeyMiddleware(), RetryMiddleware(clock: VirtualClock())])
        let result = try await client.send(.post, "/api/moods", operationID: "createMood", body: "{}")
        #expect(result.status == 503)
        #expect(server.requests.count == 1, "a POST with an Idempotency-Key is sent once unless the operation is declared idempotent")
        #expect(server.requests.first?.header("Idempotency-Key") != nil)
    }

    @Test func callerKeysAndReadsAreLeftAlone() async throws {
        let server = try LoopbackHTTPServer { _ in .json(200, "{}") }
        defer { server.shutdown() }
        let client = TestClient(server: server, middlewares: [IdempotencyKeyMiddleware()])
        _ = try await client.send(.post, "/a", operationID: "a", headers: [.idempotencyKey: "caller-key"], body: "{}")
        _ = try await client.send(.get, "/b", operationID: "b")
        _ = try await client.send(.patch, "/c", operationID: "c", body: "{}")
        let keys = server.requests.map { $0.header("Idempotency-Key") }
        #expect(keys[0] == "caller-key")
        #expect(keys[1] == nil, "reads get no key")
        #expect(keys[2] != nil)
    }
}

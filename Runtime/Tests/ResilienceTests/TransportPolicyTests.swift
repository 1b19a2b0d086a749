import ClientRuntimeTesting
import Foundation
import HTTPTypes
import LoopbackHTTPServer
import OpenAPIRuntime
import Testing
import Waiting

@testable import Resilience

@Suite struct TransportPolicyTests {
    @Test func plainHTTPOnlyForLoopback() throws {
        for allowed in ["https://api.soulapp.app", "http://localhost:8081", "http://127.0.0.1:9000", "http://[::1]:80", "http://127.5.6.7"] {
            #expect(throws: Never.self) { try BaseURLPolicy.validate(URL(string: allowed)!) }
        }
        for rejected in ["http://api.safepocket.app", "http://10.0.0.2", "http://127.0.0.1.evil.com", "ftp://localhost"] {
            #expect(throws: InsecureBaseURLError.self) { try BaseURLPolicy.validate(URL(string: rejected)!) }
        }
        let message = InsecureBaseURLError(url: URL(string: "http://api.example.com")!).description
        #expect(message.contains("http://api.example.com") && message.contains("use https://"))
    }

    @Test func perAttemptDeadlineIsRetried() async throws {
        let counter = Counter()
        let server = try LoopbackHTTPServer(keepAlive: false) { request in
            counter.next(request.path) < 2 ? .delayed(.seconds(60), .json(200, "{}")) : .json(200, #"{"ok":true}"#)
        }
        defer { server.shutdown() }
        // The deadline runs on a clock the test moves: each slow attempt
        // times out when the test says, and the quick one never does, however
        // busy the machine.
        let clock = ManualClock()
        let stack: [any ClientMiddleware] = [RetryMiddleware(clock: VirtualClock()), TimeoutMiddleware(timeout: .milliseconds(200), clock: clock.continuous)]
        let call = Task { try await TestClient(server: server, middlewares: stack).send(.get, "/slow", operationID: "listMoods") }
        for attempt in 1...2 {
            try await waitUntil("attempt \(attempt) reached the server, its deadline asleep") {
                server.requests.count == attempt && clock.sleeperCount == 1
            }
            clock.advance(by: .milliseconds(201))
        }
        let result = try await call.value
        // The two slow attempts ended as timeouts and were retried: had a
        // deadline not fired, the first attempt's `{}` would be the result.
        #expect(result.status == 200 && result.body == #"{"ok":true}"#)
        #expect(server.requests.count == 3)
    }

    @Test func deadlineErrorNamesTheOperation() async throws {
        let server = try LoopbackHTTPServer(keepAlive: false) { _ in .delayed(.seconds(3), .json(200, "{}")) }
        defer { server.shutdown() }
        let client = TestClient(server: server, middlewares: [TimeoutMiddleware(timeout: .milliseconds(100))])
        do {
            _ = try await client.send(.post, "/api/auth/verify-otp", operationID: "verifyOTP", body: "{}")
            Issue.record("expected a timeout")
        } catch let error as RequestTimeoutError {
            #expect(error.operationID == "verifyOTP" && error.timeout == .milliseconds(100))
        }
    }
}

import Foundation
import HTTPTypes
import LoopbackHTTPServer
import Testing

@testable import Resilience

/// Attempts per (method, outcome) cell over a real loopback server, with
/// waits on virtual time.
@Suite struct RetryMatrixTests {
    struct Row: Sendable {
        let label: String
        let method: HTTPRequest.Method
        let operationID: String
        let headers: HTTPFields
        let retryable: Bool
    }

    static let rows: [Row] = [
        Row(label: "GET", method: .get, operationID: "listMoods", headers: [:], retryable: true),
        Row(label: "HEAD", method: .head, operationID: "checkHealth", headers: [:], retryable: true),
        Row(label: "PUT", method: .put, operationID: "setProfile", headers: [:], retryable: true),
        Row(label: "DELETE", method: .delete, operationID: "deleteItem", headers: [:], retryable: true),
        Row(label: "OPTIONS", method: .options, operationID: "options", headers: [:], retryable: true),
        Row(label: "POST", method: .post, operationID: "createMood", headers: [:], retryable: false),
        Row(label: "PATCH", method: .patch, operationID: "updateTransaction", headers: [:], retryable: false),
        Row(label: "POST+key", method: .post, operationID: "syncTransactions", headers: [.idempotencyKey: "k-1"], retryable: false),
        Row(label: "POST idem.op", method: .post, operationID: "recordImprint", headers: [:], retryable: true),
        Row(label: "requestOTP", method: .post, operationID: "requestOTP", headers: [:], retryable: false),
        Row(label: "verifyOTP", method: .post, operationID: "verifyOTP", headers: [.idempotencyKey: "k-2"], retryable: false),
    ]

    /// Outcome name -> whether a retryable request retries on it.
    static let outcomes: [(name: String, retried: Bool)] = [
        ("200", false), ("400", false), ("401", false), ("408", true), ("409", false), ("429", false), ("429+RA", true),
        ("500", true), ("501", false), ("502", true), ("503", true), ("504", true), ("timeout", true), ("reset", true),
    ]

    static func reply(for outcome: String) -> LoopbackHTTPServer.Reply {
        switch outcome {
        case "429+RA": return .respond(status: 429, headers: [("Retry-After", "2")], body: "slow down")
        case "timeout": return .delayed(.seconds(3), .respond(status: 200, body: "late"))
        case "reset": return .dropConnection
        default: return .respond(status: Int(outcome)!, body: "")
        }
    }

    @Test func attemptsPerMethodAndOutcome() async throws {
        let server = try LoopbackHTTPServer(keepAlive: false) { request in
            // Path: /cell/<row>/<outcome>
            let parts = request.path.split(separator: "/")
            return Self.reply(for: String(parts.last ?? ""))
        }
        defer { server.shutdown() }
        let clock = VirtualClock()
        let started = ContinuousClock.now
        let policy = RetryPolicy(
            maximumAttempts: 3, idempotentOperations: ["recordImprint"], nonRetryableOperations: ["requestOTP", "verifyOTP"])
        let retry = RetryMiddleware(policy: policy, clock: clock)
        // Timeout cells use a 1 s request timeout (URLSession on Linux rounds
        // shorter ones down to none); the others a generous one, since
        // URLSession's timeout also runs while a request waits for a connection.
        let patient = TestClient(server: server, middlewares: [retry], timeout: 10)
        let impatient = TestClient(server: server, middlewares: [retry], timeout: 1)
        for phase in [false, true] {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (rowIndex, row) in Self.rows.enumerated() {
                    for outcome in Self.outcomes where (outcome.name == "timeout") == phase {
                        let client = phase ? impatient : patient
                        group.addTask {
                            _ = try? await client.send(row.method, "/cell/\(rowIndex)/\(outcome.name)", operationID: row.operationID, headers: row.headers)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }

        var attempts: [String: Int] = [:]
        for request in server.requests {
            let parts = request.path.split(separator: "/")
            attempts["\(parts[1])/\(parts[2])", default: 0] += 1
        }
        var table = "attempts".padding(toLength: 13, withPad: " ", startingAt: 0)
        table += Self.outcomes.map { $0.name.padding(toLength: 8, withPad: " ", startingAt: 0) }.joined() + "\n"
        for (rowIndex, row) in Self.rows.enumerated() {
            table += row.label.padding(toLength: 13, withPad: " ", startingAt: 0)
            for outcome in Self.outcomes {
                let count = attempts["\(rowIndex)/\(outcome.name)", default: 0]
                let expected = row.retryable && outcome.retried ? 3 : 1
                #expect(count == expected, "\(row.label) x \(outcome.name): \(count) attempts, expected \(expected)")
                table += String(count).padding(toLength: 8, withPad: " ", startingAt: 0)
            }
            table += "\n"
        }
        print(table)
        #expect(ContinuousClock.now - started >= .seconds(3), "timeout cells really waited for their 1 s timeouts")
        // Every wait is within backoff bounds, and no 429+RA wait is shorter than Retry-After.
        #expect(clock.sleeps.allSatisfy { $0 >= .zero && $0 <= .seconds(30) })
        #expect(clock.sleeps.filter { $0 >= .seconds(2) }.count >= 2 * 5, "Retry-After: 2 honoured for each retryable row")
    }
}


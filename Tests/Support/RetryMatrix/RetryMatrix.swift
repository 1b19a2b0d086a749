import BackendDoubles
import Foundation
import Logging
import LoopbackHTTPServer
import Resilience
import RuntimeSupport
import Safepocket
import SafepocketAPI
import Soul
import SoulAPI

/// Every SOUL and Safepocket operation, sent through its SDK's documented
/// middleware stack and real generated client to a backend double that
/// answers that one operation with a fault: how many attempts reach the
/// server, against what the backends' documents allow.
///
/// Expected: 3 attempts (the default policy's maximum) for the operations
/// the documents call repeatable (GETs, and Safepocket's RAG reads sent as
/// POST); exactly 1 for every other (OTP posts, token refresh, logout, mood
/// and finance writes, the token exchange). A 429's `Retry-After` (1 s here)
/// is waited before each retry.
package enum RetryMatrix {
    /// A fault injected on the operation under test.
    package enum Fault: String, Sendable, CaseIterable {
        case unavailable = "503"
        case rateLimited = "429+RA"
        case connectionReset = "reset"
        case timeout

        /// The reply; a timeout is an answer held at `stall` until the cell is
        /// over, so only the SDK's read timeout can end an attempt.
        func reply(stall: ReplyGate) -> LoopbackHTTPServer.Reply {
            switch self {
            case .unavailable: return .json(503, #"{"detail":"unavailable"}"#)
            case .rateLimited: return .json(429, #"{"detail":"Too many requests"}"#, headers: [("Retry-After", "1")])
            case .connectionReset: return .dropConnection
            case .timeout: return .gated(stall, .json(200, "{}"))
            }
        }

        /// The SDK's timeouts in the cell: a short read timeout where the
        /// timeout is the fault (its attempts end there, the server never
        /// answers), generous elsewhere, where a timeout would only be the
        /// machine's load. Short, because on Linux a request that waits for
        /// its answer keeps a core busy in URLSession until it ends.
        var timeouts: TransportTimeouts {
            self == .timeout ? TransportTimeouts(connect: .seconds(30), read: .seconds(1)) : Self.patient
        }

        /// The timeouts of the sign-in before the cell: it is not under test.
        static let patient = TransportTimeouts(connect: .seconds(30), read: .seconds(30))
    }

    /// One operation x fault.
    package struct Cell: Sendable {
        /// `SOUL` or `Safepocket`.
        package let backend: String
        /// The operation id.
        package let operation: String
        /// The fault.
        package let fault: Fault
        /// Attempts the documents allow.
        package let expected: Int
        /// Attempts the server received.
        package let attempts: Int
        /// The shortest gap between two attempts, when there were several.
        package let shortestGap: Duration?

        /// Whether the attempts are as expected and a `Retry-After` was waited.
        package var passed: Bool {
            attempts == expected && (fault != .rateLimited || attempts < 2 || (shortestGap ?? .zero) >= .milliseconds(950))
        }
    }

    /// The operations the documents allow to repeat.
    package static let repeatable: Set<String> = [
        "listMoods", "checkHealth",
        "listAccounts", "listTransactions", "getAnalyticsSummary", "getChatConversation", "getRAGSummaries", "searchRAG", "aggregateRAG",
    ]

    struct Probe: Sendable {
        let backend: String
        let operation: String
        let method: String
        let path: String
        let run: @Sendable (RetryMatrix.Fault) async throws -> Cell
    }

    /// Runs every cell, all at once (the timeout cells wait out their 1 s read timeouts).
    package static func run() async -> [Cell] {
        let probes = soulProbes() + safepocketProbes()
        return await withTaskGroup(of: Cell?.self) { group in
            for probe in probes {
                for fault in Fault.allCases {
                    group.addTask { try? await probe.run(fault) }
                }
            }
            var cells: [Cell] = []
            for await cell in group { if let cell { cells.append(cell) } }
            return cells.sorted { ($0.backend, $0.operation, $0.fault.rawValue) < ($1.backend, $1.operation, $1.fault.rawValue) }
        }
    }

    /// How many cells the run should have: every operation of both specs x every fault.
    package static var expectedCellCount: Int {
        (SoulAPI.Client.Operations.all.count + SafepocketAPI.Client.Operations.all.count) * Fault.allCases.count
    }

    /// The attempts as a table, one row per operation.
    package static func table(_ cells: [Cell]) -> String {
        let faults = Fault.allCases
        var text = "operation".padding(toLength: 36, withPad: " ", startingAt: 0) + faults.map { $0.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0) }.joined() + "\n"
        for (key, row) in Dictionary(grouping: cells, by: { "\($0.backend) \($0.operation)" }).sorted(by: { $0.key < $1.key }) {
            text += key.padding(toLength: 36, withPad: " ", startingAt: 0)
            for fault in faults {
                let cell = row.first { $0.fault == fault }
                let mark = cell.map { "\($0.attempts)/\($0.expected)\($0.passed ? "" : "!")" } ?? "-"
                text += mark.padding(toLength: 9, withPad: " ", startingAt: 0)
            }
            text += "\n"
        }
        return text
    }

    // MARK: Probes

    static func measure(
        backend: String, operation: String, fault: Fault, server: LoopbackHTTPServer, method: String, path: String,
        install: (@escaping @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply?) -> Void, call: () async throws -> Void
    ) async -> Cell {
        let arrivals = Locked<[ContinuousClock.Instant]>([])
        let stall = ReplyGate()
        defer { stall.open() }
        install { request in
            guard request.method == method, request.path == path else { return nil }
            arrivals.withLock { $0.append(.now) }
            return fault.reply(stall: stall)
        }
        _ = try? await call()
        let times = arrivals.withLock { $0 }
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        return Cell(
            backend: backend, operation: operation, fault: fault, expected: repeatable.contains(operation) ? 3 : 1, attempts: times.count,
            shortestGap: gaps.min())
    }

    /// The matrix's failures are its point: keep them out of the output.
    static let quiet = Logger(label: "retry-matrix") { _ in SwiftLogNoOpLogHandler() }
    static let retryPolicy = RetryPolicy(backoff: BackoffPolicy(baseDelay: .milliseconds(50), maximumDelay: .milliseconds(200)))

    static func soulProbes() -> [Probe] {
        func probe(_ operation: String, _ method: String, _ path: String, _ call: @escaping @Sendable (Soul) async throws -> Void) -> Probe {
            Probe(backend: "SOUL", operation: operation, method: method, path: path) { fault in
                let backend = try SoulBackend(keepAlive: false)
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("matrix-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: folder) }
                func launch(_ timeouts: TransportTimeouts) throws -> Soul {
                    try Soul(.init(
                        environment: .init(baseURL: backend.baseURL, isStaging: true), tokenStore: FileTokenStore(url: folder.appendingPathComponent("t")),
                        timeouts: timeouts, retryPolicy: retryPolicy, logger: quiet, storageFolder: folder))
                }
                // Signed in by a launch with generous timeouts, except that verifyOTP's probe stops with a
                // code requested (the number it went to survives a relaunch); the cell runs in the next
                // launch, with the fault's timeouts.
                let signingIn = try launch(Fault.patient)
                let request = try await signingIn.signIn.requestCode(phone: "+14155550123")
                if operation != "verifyOTP" { try await signingIn.signIn.verify(code: request.previewCode ?? "") }
                let soul = try launch(fault.timeouts)
                return await measure(
                    backend: "SOUL", operation: operation, fault: fault, server: backend.server, method: method, path: path,
                    install: { reply in backend.fault.withLock { $0 = reply } }, call: { try await call(soul) })
            }
        }
        return [
            probe("requestOTP", "POST", "/api/auth/otp/request") { _ = try await $0.client.requestOTP(body: .init(phone: "+61412345678")) },
            probe("verifyOTP", "POST", "/api/auth/verify-otp") { try await $0.signIn.verify(code: "123456") },
            probe("refreshToken", "POST", "/api/auth/refresh") { _ = try await $0.client.refreshToken(body: .init(oldRefreshToken: "rt-x")) },
            probe("logout", "POST", "/api/auth/logout") { _ = try await $0.client.logout(body: .init(refreshToken: "rt-x")) },
            probe("listMoods", "GET", "/api/moods") { _ = try await $0.listMoods() },
            probe("createMood", "POST", "/api/moods") { _ = try await $0.addMood(score: 5) },
            probe("checkHealth", "GET", "/healthz") { _ = try await $0.checkHealth() },
        ]
    }

    static func safepocketProbes() -> [Probe] {
        let transaction = try! LowercaseUUID("0b6e2a1c-3d4f-4a5b-8c6d-7e8f9a0b1c2d")
        func probe(_ operation: String, _ method: String, _ path: String, _ call: @escaping @Sendable (SafepocketAPI.Client) async throws -> Void) -> Probe {
            Probe(backend: "Safepocket", operation: operation, method: method, path: path) { fault in
                let backend = try SafepocketBackend(keepAlive: false)
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("matrix-\(UUID().uuidString)")
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                defer { try? FileManager.default.removeItem(at: folder) }
                func launch(_ timeouts: TransportTimeouts) throws -> Safepocket {
                    try Safepocket(.init(
                        baseURL: backend.baseURL,
                        authorization: .init(authorizeEndpoint: URL(string: "https://auth.example/oauth2/authorize")!, clientID: "matrix"),
                        tokenStore: FileTokenStore(url: folder.appendingPathComponent("t")), timeouts: timeouts, retryPolicy: retryPolicy,
                        logger: quiet, storageFolder: folder))
                }
                // Signed in by a launch with generous timeouts; the cell runs in the next launch, with the fault's.
                let signingIn = try launch(Fault.patient)
                if let redirect = backend.authorize(try await signingIn.startSignIn()) { try await signingIn.completeSignIn(redirect: redirect) }
                let safepocket = try launch(fault.timeouts)
                return await measure(
                    backend: "Safepocket", operation: operation, fault: fault, server: backend.server, method: method, path: path,
                    install: { reply in backend.fault.withLock { $0 = reply } }, call: { try await call(safepocket.client) })
            }
        }
        return [
            probe("exchangeToken", "POST", "/auth/token") {
                _ = try await $0.exchangeToken(body: .refreshTokenGrant(.init(grantType: .refreshToken, refreshToken: "rt-x")))
            },
            probe("listAccounts", "GET", "/accounts") { _ = try await $0.listAccounts() },
            probe("listTransactions", "GET", "/transactions") { _ = try await $0.listTransactions(month: "2024-06") },
            probe("updateTransaction", "PATCH", "/transactions/\(transaction.uuidString)") {
                _ = try await $0.updateTransaction(transactionID: transaction, body: .init(category: "Food"))
            },
            probe("syncTransactions", "POST", "/transactions/sync") { _ = try await $0.syncTransactions() },
            probe("resetTransactions", "POST", "/transactions/reset") { _ = try await $0.resetTransactions() },
            probe("getAnalyticsSummary", "GET", "/analytics/summary") { _ = try await $0.getAnalyticsSummary(month: "2024-06") },
            probe("getChatConversation", "GET", "/ai/chat") { _ = try await $0.getChatConversation() },
            probe("sendChatMessage", "POST", "/ai/chat") { _ = try await $0.sendChatMessage(body: .init(message: "hi")) },
            probe("createPlaidLinkToken", "POST", "/plaid/link-token") { _ = try await $0.createPlaidLinkToken() },
            probe("exchangePlaidPublicToken", "POST", "/plaid/exchange") { _ = try await $0.exchangePlaidPublicToken(body: .init(publicToken: "p")) },
            probe("searchRAG", "POST", "/rag/search") { _ = try await $0.searchRAG(body: .init(query: "coffee")) },
            probe("getRAGSummaries", "GET", "/rag/summaries") { _ = try await $0.getRAGSummaries(month: "2024-06") },
            probe("aggregateRAG", "POST", "/rag/aggregate") { _ = try await $0.aggregateRAG(body: .init(granularity: "month")) },
        ]
    }
}

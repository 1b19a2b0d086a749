import BackendDoubles
import Foundation
import LoopbackHTTPServer
import OpenAPIModel
import Resilience
import Safepocket
import SafepocketAPI
import Testing

@Suite struct SafepocketSessionTests {
    static let transactionID = try! LowercaseUUID("0b6e2a1c-3d4f-4a5b-8c6d-7e8f9a0b1c2d")

    @Test func everyOperationIsReachableThroughTheAuthenticatedClient() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let safepocket = try await harness.signedIn()
        let client = safepocket.client
        _ = try await client.listAccounts()
        _ = try await client.listTransactions(month: "2024-06", page: 0, pageSize: 15)
        _ = try await client.updateTransaction(transactionID: Self.transactionID, body: TransactionUpdate(category: "Groceries"))
        _ = try await client.syncTransactions(body: SyncRequest(forceFullSync: true))
        _ = try await client.resetTransactions(body: ResetRequest(unlinkPlaid: false))
        _ = try await client.getAnalyticsSummary(month: "2024-06", generateAI: false)
        _ = try await client.getChatConversation()
        _ = try await client.sendChatMessage(body: ChatMessageRequest(message: "How much did I spend on food?"))
        let linkToken = try await client.createPlaidLinkToken()
        let publicToken = try #require(harness.backend.completeLink(linkToken: linkToken.linkToken))
        _ = try await client.exchangePlaidPublicToken(body: PlaidExchangeRequest(publicToken: publicToken))
        _ = try await client.searchRAG(body: RAGSearchRequest(query: "coffee"))
        _ = try await client.getRAGSummaries(month: "2024-06")
        _ = try await client.aggregateRAG(body: RAGAggregateRequest(granularity: "month"))
        let operations = Set(harness.backend.server.requests.map { "\($0.method) \($0.path)" })
        #expect(operations.count == 14, "\(operations.sorted())")
        #expect(harness.backend.server.requests.filter { $0.path != "/auth/token" }.allSatisfy { $0.header("Authorization")?.hasPrefix("Bearer at-") == true })
        #expect(harness.backend.server.requests.filter { $0.path == "/auth/token" }.allSatisfy { $0.header("Authorization") == nil })
    }

    @Test func oneHundredConcurrentCallsAcrossAnExpiryMakeOneRefreshWithRotation() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let safepocket = try await harness.signedIn()
        let firstRefresh = harness.backend.issuedTokens[1]
        harness.backend.expireAccessTokens()
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<100 { group.addTask { (try? await safepocket.accounts()) != nil } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 100 && results.allSatisfy { $0 })
        #expect(harness.backend.counters.refreshes == 1)
        #expect(!harness.backend.liveRefreshTokens.contains(firstRefresh), "the used refresh token is spent")
        #expect(try FileTokenStore(url: harness.tokenFile).loadRefreshToken() == harness.backend.issuedTokens[3], "the rotated one is stored")
        // A relaunch refreshes with the rotated token.
        let relaunched = try harness.makeSafepocket()
        _ = try await relaunched.accounts()
        #expect(harness.backend.counters.refreshes == 2)
    }

    @Test func aRefusedRefreshEndsTheSession() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        let safepocket = try await harness.signedIn()
        var events = safepocket.sessionEvents.makeAsyncIterator()
        #expect(await events.next() == .signedIn)
        harness.backend.fault.withLock { $0 = { request in
            request.path == "/auth/token" ? SafepocketBackend.envelope(401, "UNAUTHENTICATED", "Invalid refresh token") : nil
        } }
        harness.backend.expireAccessTokens()
        let errors = await withTaskGroup(of: SafepocketError?.self) { group in
            for _ in 0..<10 { group.addTask { await safepocketError { try await safepocket.accounts() } } }
            return await group.reduce(into: [SafepocketError?]()) { $0.append($1) }
        }
        #expect(errors.allSatisfy { $0 == .sessionExpired })
        #expect(await events.next() == .sessionExpired)
        #expect(!(await safepocket.hasStoredSession()))
        #expect(harness.backend.server.requests.filter { $0.path == "/auth/token" }.count == 2, "one exchange, one refresh")
    }

    @Test func theErrorEnvelopeReachesTheAppEvenWhenItIsIncomplete() async throws {
        let harness = try SafepocketHarness(keepAlive: false)
        defer { harness.cleanUp() }
        let safepocket = try await harness.signedIn()
        let cases: [(LoopbackHTTPServer.Reply, SafepocketFailure)] = [
            (SafepocketBackend.envelope(404, "NOT_FOUND", "Transaction not found"),
             SafepocketFailure(status: 404, code: .notFound, message: "Transaction not found", traceID: "trace-404-not_found")),
            (.json(400, #"{"error":{"code":"INVALID_REQUEST","message":"Invalid month format (YYYY-MM)","details":{"month":"expected YYYY-MM"}},"traceId":"t-400"}"#),
             SafepocketFailure(status: 400, code: .invalidRequest, message: "Invalid month format (YYYY-MM)", details: ["month": "expected YYYY-MM"], traceID: "t-400")),
            (.json(500, #"{"error":"boom","traceId":"t-500"}"#), SafepocketFailure(status: 500, code: nil, message: nil, traceID: "t-500")),
            (.json(403, #"{"error":{"code":"FORBIDDEN"},"traceId":"t-403"}"#), SafepocketFailure(status: 403, code: .forbidden, message: nil, traceID: "t-403")),
            (.json(409, #"{"error":{"code":"CONFLICT","message":"stale"},"traceId":"t-409"}"#),
             SafepocketFailure(status: 409, code: .unknown("CONFLICT"), message: "stale", traceID: "t-409")),
            (.respond(status: 502, body: "<html>Bad gateway</html>"), SafepocketFailure(status: 502, code: nil, message: nil, traceID: nil)),
        ]
        for (reply, expected) in cases {
            harness.backend.fault.withLock { $0 = { request in request.path.hasPrefix("/transactions/") ? reply : nil } }
            let error = await safepocketError {
                try await safepocket.perform { try await $0.updateTransaction(transactionID: SafepocketSessionTests.transactionID, body: TransactionUpdate(notes: .value("x"))) }
            }
            #expect(error == .api(expected))
            #expect(error?.traceID == expected.traceID)
        }
    }

    /// A silent wait for the hour would overrun the test's ten-minute limit.
    @Test(.timeLimit(.minutes(10))) func aLong429KeepsItsTraceIdAndReachesTheAppAtOnce() async throws {
        let harness = try SafepocketHarness(keepAlive: false)
        defer { harness.cleanUp() }
        let safepocket = try await harness.signedIn()
        harness.backend.fault.withLock {
            $0 = { request in
                request.path == "/accounts"
                    ? .json(429, #"{"error":{"code":"RATE_LIMITED","message":"Slow down"},"traceId":"t-429"}"#, headers: [("Retry-After", "3600")]) : nil
            }
        }
        let before = harness.backend.server.requests.filter { $0.path == "/accounts" }.count
        let error = await safepocketError { try await safepocket.perform { try await $0.listAccounts() } }
        #expect(error == .api(SafepocketFailure(status: 429, code: .rateLimited, message: "Slow down", traceID: "t-429", retryAfter: .seconds(3600))))
        #expect(harness.backend.server.requests.filter { $0.path == "/accounts" }.count - before == 1, "not retried")
    }

    @Test func writesCarryOneIdempotencyKeyAcrossARefreshAndAreSentOnce() async throws {
        let harness = try SafepocketHarness(keepAlive: false)
        defer { harness.cleanUp() }
        let safepocket = try await harness.signedIn()
        harness.backend.expireAccessTokens()
        _ = try await safepocket.perform { try await $0.syncTransactions(body: SyncRequest(forceFullSync: true)) }
        let syncs = harness.backend.server.requests.filter { $0.path == "/transactions/sync" }
        #expect(syncs.count == 2, "a 401, then the retry after the refresh")
        let keys = Set(syncs.compactMap { $0.header("Idempotency-Key") })
        #expect(keys.count == 1 && UUID(uuidString: keys.first ?? "") != nil, "the same key on both attempts")

        harness.backend.fault.withLock { $0 = { request in request.path == "/transactions/sync" ? .respond(status: 503) : nil } }
        let error = await safepocketError { try await safepocket.perform { try await $0.syncTransactions() } }
        #expect(error == .api(SafepocketFailure(status: 503, code: nil, message: nil, traceID: nil)))
        #expect(harness.backend.server.requests.filter { $0.path == "/transactions/sync" }.count == 3, "a write is not retried: the backend does not deduplicate yet")
        let reads = harness.backend.server.requests.filter { $0.method == "GET" || $0.path == "/auth/token" || $0.path.hasPrefix("/rag/") }
        #expect(reads.allSatisfy { $0.header("Idempotency-Key") == nil }, "reads and the token endpoint carry no key")
    }

    @Test func theKeyedOperationsAreTheSpecsWritesWithTheHeader() throws {
        let examples = try SpecExamples("safepocket.yaml")
        let document = examples.document
        let declared = Set(document.operations.compactMap { _, _, operation, item -> String? in
            let parameters = document.parameters(of: operation, in: item)
            return parameters.contains { $0.location == .header && $0.name == "Idempotency-Key" } ? operation.operationId : nil
        })
        #expect(declared == Safepocket.idempotencyKeyOperations)
    }
}

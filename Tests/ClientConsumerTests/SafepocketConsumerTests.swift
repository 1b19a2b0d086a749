import BackendDoubles
import Foundation
import RuntimeSupport
import SafepocketAPI
import Testing

/// Identifiers and tokens the Safepocket spec's examples use.
private enum Fixture {
    static let idempotencyKey = try! LowercaseUUID("3f0c8f4e-1b2a-4c7d-9e8f-0a1b2c3d4e5f")
    static let accountID = try! LowercaseUUID("6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f")
    static let transactionID = try! LowercaseUUID("0b6e2a1c-3d4f-4a5b-8c6d-7e8f9a0b1c2d")
    static let conversationID = try! LowercaseUUID("5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b")
    static let messageID = try! LowercaseUUID("8b9c0d1e-2f3a-4b4c-9d5e-6f7a8b9c0d1e")
    static let codeVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let refreshToken = "eyJjdHkiOiJKV1QiLCJlbmMiOiJBMjU2R0NNIiwiYWxnIjoiUlNBLU9BRVAifQ.refresh"
    static let publicToken = "public-sandbox-b0e2c4ee-a763-4df5-bfe9-46a46bce993d"

    static func date(_ text: String) -> Date? { JSONCoding.parseDateTime(text) }
    static func day(_ text: String) -> CalendarDate { try! CalendarDate(text) }
    static func money(_ text: String) -> Decimal? { Decimal(string: text) }
}

/// Every Safepocket operation over loopback HTTP, answered with the spec's examples.
@Suite struct SafepocketConsumerTests {
    let examples: SpecExamples

    init() throws {
        examples = try SpecExamples("safepocket.yaml")
    }

    private func check(_ operationID: String) -> ConsumerCheck {
        ConsumerCheck(examples: examples, operationID: operationID)
    }

    private func client(_ server: ExampleReplay) -> Client {
        Client(serverURL: server.url, transport: ConsumerCheck.makeTransport())
    }

    // MARK: Auth

    @Test func exchangeToken() async throws {
        // The case says which grant it is: the discriminator is filled in.
        let grant = TokenRequest.authorizationCodeGrant(AuthorizationCodeGrant(
            code: "9a1f6c2e-7b3d-4e8a-a0c5-2f4d6e8b1c3a", redirectURI: "safepocket://auth/callback", codeVerifier: Fixture.codeVerifier))
        let exchanges = try await check("exchangeToken").run(errorBody: ErrorEnvelope.self) { url, transport in
            try await Client(serverURL: url, transport: transport).exchangeToken(body: grant)
        } checkRequest: { request in
            #expect(request.method == "POST")
            #expect(request.target == "/auth/token")
            #expect(request.header("Content-Type") == "application/json")
            #expect(request.header("Accept") == "application/json")
            // Public: no credential, and no Idempotency-Key on this endpoint.
            #expect(request.header("Authorization") == nil)
            #expect(request.header("Idempotency-Key") == nil)
            let body = try #require(request.jsonBody)
            #expect(body["grantType"] as? String == "authorization_code")
            #expect(body["code"] as? String == "9a1f6c2e-7b3d-4e8a-a0c5-2f4d6e8b1c3a")
            #expect(body["redirectUri"] as? String == "safepocket://auth/callback")
            #expect(body["codeVerifier"] as? String == Fixture.codeVerifier)
            #expect(body.count == 4)
        }
        #expect(exchanges.map(\.replayed.status) == [200, 400, 401, 429, 500])

        let server = try ExampleReplay(examples, operation: "exchangeToken", status: 200)
        let tokens = try await client(server).exchangeToken(body: grant)
        #expect(tokens.accessToken == "eyJraWQiOiJhYmMiLCJhbGciOiJSUzI1NiJ9.access.signature")
        #expect(tokens.refreshToken == Fixture.refreshToken)
        #expect(tokens.expiresIn == 3600)
        #expect(tokens.tokenType == "Bearer")
        #expect(tokens.scope == nil)

        // The other grant of the oneOf: only its own members, slashes unescaped.
        _ = try await client(server).exchangeToken(body: .refreshTokenGrant(RefreshTokenGrant(refreshToken: Fixture.refreshToken)))
        #expect(server.requests.last?.bodyText == #"{"grantType":"refresh_token","refreshToken":"\#(Fixture.refreshToken)"}"#)
    }

    // MARK: Accounts

    @Test func listAccounts() async throws {
        let exchanges = try await check("listAccounts").run(errorBody: ErrorEnvelope.self) { url, transport in
            try await Client(serverURL: url, transport: transport).listAccounts()
        } checkRequest: { request in
            #expect(request.method == "GET")
            #expect(request.target == "/accounts")
            #expect(request.body.isEmpty)
            #expect(request.header("Content-Type") == nil)
            #expect(request.header("Accept") == "application/json")
        }
        #expect(exchanges.map(\.replayed.status) == [200, 401, 403, 429, 500])

        let server = try ExampleReplay(examples, operation: "listAccounts", status: 200)
        let list = try await client(server).listAccounts()
        #expect(list.currency == "USD")
        #expect(list.totalBalance == Fixture.money("5234.17"))
        #expect(list.accounts.count == 2)
        #expect(list.accounts.first?.id == Fixture.accountID)
        #expect(list.accounts.first?.balance == Fixture.money("4110.42"))
        #expect(list.accounts.first?.createdAt == Fixture.date("2024-05-01T12:30:00Z"))
        #expect(list.accounts.last?.name == "Plaid Saving")
    }

    // MARK: Transactions

    @Test func listTransactions() async throws {
        let exchanges = try await check("listTransactions").run(errorBody: ErrorEnvelope.self) { url, transport in
            try await Client(serverURL: url, transport: transport).listTransactions(month: "2024-06", accountID: Fixture.accountID, page: 2, pageSize: 50)
        } checkRequest: { request in
            #expect(request.method == "GET")
            #expect(request.target == "/transactions?month=2024-06&accountId=6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f&page=2&pageSize=50")
            #expect(request.body.isEmpty)
            #expect(request.header("Accept") == "application/json")
        }
        #expect(exchanges.map(\.replayed.status) == [200, 400, 401, 403, 429, 500])

        let server = try ExampleReplay(examples, operation: "listTransactions", status: 200)
        let list = try await client(server).listTransactions(from: "2024-01", to: "2024-06")
        #expect(server.requests.last?.target == "/transactions?from=2024-01&to=2024-06")
        _ = try await client(server).listTransactions()
        #expect(server.requests.last?.target == "/transactions", "absent parameters add no query")
        // The spec's `pattern` refuses the value before it is sent; with the
        // checks off, encoding still keeps it from injecting a parameter.
        let refused = await #expect(throws: ConstraintViolation.self) { try await client(server).listTransactions(month: "2024-06&page=9") }
        #expect(refused?.path == "query.month")
        let unchecked = Client(serverURL: server.url, transport: ConsumerCheck.makeTransport(), constraintChecks: [])
        _ = try await unchecked.listTransactions(month: "2024-06&page=9", page: 0)
        #expect(server.requests.last?.target == "/transactions?month=2024-06%26page%3D9&page=0", "a value cannot inject a parameter")

        #expect(list.page == 0 && list.pageSize == 2 && list.total == 42)
        #expect(list.period?.month == "2024-06")
        #expect(list.period?.from == nil)
        #expect(list.aggregates?.netTotal == Fixture.money("1324.60"))
        #expect(list.aggregates?.categoryTotals?["Groceries"] == Fixture.money("-410.30"))
        #expect(list.aggregates?.monthNet?["2024-06"] == Fixture.money("1324.60"))
        let coffee = try #require(list.transactions.first)
        #expect(coffee.id == Fixture.transactionID)
        #expect(coffee.accountID == Fixture.accountID)
        #expect(coffee.amount == Fixture.money("-6.50"))
        #expect(coffee.occurredAt == Fixture.date("2024-06-28T08:15:00Z"))
        let authorizedAt = try #require(Fixture.date("2024-06-28T08:14:12Z"))
        #expect(coffee.authorizedAt == authorizedAt)
        #expect(coffee.notes == "Team coffee")
        let payroll = try #require(list.transactions.last)
        #expect(payroll.amount == Fixture.money("1600.00"))
        #expect(payroll.authorizedAt == nil)
        #expect(payroll.notes == nil)
    }

    @Test func updateTransaction() async throws {
        let exchanges = try await check("updateTransaction").run(errorBody: ErrorEnvelope.self) { url, transport in
            try await Client(serverURL: url, transport: transport).updateTransaction(
                transactionID: Fixture.transactionID,
                body: TransactionUpdate(category: "Groceries", notes: .value("Weekly shop")),
                idempotencyKey: Fixture.idempotencyKey)
        } checkRequest: { request in
            #expect(request.method == "PATCH")
            #expect(request.target == "/transactions/0b6e2a1c-3d4f-4a5b-8c6d-7e8f9a0b1c2d")
            #expect(request.header("Content-Type") == "application/json")
            #expect(request.header("Accept") == "application/json")
            #expect(request.header("Idempotency-Key") == "3f0c8f4e-1b2a-4c7d-9e8f-0a1b2c3d4e5f")
            #expect(request.bodyText == #"{"category":"Groceries","notes":"Weekly shop"}"#)
        }
        #expect(exchanges.map(\.replayed.status) == [200, 400, 401, 403, 404, 429, 500])

        let server = try ExampleReplay(examples, operation: "updateTransaction", status: 200)
        let updated = try await client(server).updateTransaction(transactionID: Fixture.transactionID, body: TransactionUpdate(notes: .null))
        // An explicit null clears the note; the category is left out; no key when none is passed.
        #expect(server.requests.last?.bodyText == #"{"notes":null}"#)
        #expect(server.requests.last?.header("Idempotency-Key") == nil)
        #expect(updated.merchantName == "Whole Foods Market")
        #expect(updated.amount == Fixture.money("-84.12"))
        #expect(updated.category == "Groceries")
        #expect(updated.notes == "Weekly shop")
        #expect(updated.pending == false)
    }

    @Test func syncTransactions() async throws {
        let exchanges = try await check("syncTransactions").run(errorBody: ErrorEnvelope.self) { url, transport in
            try await Client(serverURL: url, transport: transport).syncTransactions(
                body: SyncRequest(forceFullSync: true, demoSeed: false, startMonth: "2024-01"),
                idempotencyKey: Fixture.idempotencyKey)
        } checkRequest: { request in
            #expect(request.method == "POST")
            #expect(request.target == "/transactions/sync")
            #expect(request.header("Content-Type") == "application/json")
            #expect(request.header("Idempotency-Key") == "3f0c8f4e-1b2a-4c7d-9e8f-0a1b2c3d4e5f")
            #expect(request.bodyText == #"{"demoSeed":false,"forceFullSync":true,"startMonth":"2024-01"}"#)
        }
        #expect(exchanges.map(\.replayed.status) == [202, 400, 401, 403, 429, 500, 502])

        // The body is optional: without one nothing is sent, and no Content-Type.
        let server = try ExampleReplay(examples, operation: "syncTransactions", status: 202)
        let result = try await client(server).syncTransactions()
        let request = try #require(server.requests.last)
        #expect(request.body.isEmpty)
        #expect(request.header("Content-Type") == nil)
        #expect(result.status == "STARTED")
        #expect(result.syncedCount == 0 && result.pendingCount == 0)
        #expect(result.traceID == "d4b1e7c2-5a9f-4b3e-8c1d-2f6a7b8c9d0e")
    }

    @Test func resetTransactions() async throws {
        let exchanges = try await check("resetTransactions").run(errorBody: ErrorEnvelope.self) { url, transport in
            try await Client(serverURL: url, transport: transport).resetTransactions(body: ResetRequest(unlinkPlaid: true), idempotencyKey: Fixture.idempotencyKey)
        } checkRequest: { request in
            #expect(request.method == "POST")
            #expect(request.target == "/transactions/reset")
            #expect(request.header("Content-Type") == "application/json")
            #expect(request.header("Idempotency-Key") == "3f0c8f4e-1b2a-4c7d-9e8f-0a1b2c3d4e5f")
            #expect(request.bodyText == #"{"unlinkPlaid":true}"#)
        }
        #expect(exchanges.map(\.replayed.status) == [202, 400, 401, 403, 429, 500, 502])

        let server = try ExampleReplay(examples, operation: "resetTransactions", status: 202)
        let result = try await client(server).resetTransactions()
        #expect(server.requests.last?.body.isEmpty == true)
        #expect(result.status == "ACCEPTED")
    }

    // MARK: Analytics

    @Test func getAnalyticsSummary() async throws {
        let exchanges = try await check("getAnalyticsSummary").run(errorBody: ErrorEnvelope.self) { url, transport in
            try await Client(serverURL: url, transport: transport).getAnalyticsSummary(month: "2024-06", generateAI: true)
        } checkRequest: { request in
            #expect(request.method == "GET")
            #expect(request.target == "/analytics/summary?month=2024-06&generateAi=true")
            #expect(request.body.isEmpty)
            #expect(request.header("Accept") == "application/json")
        }
        #expect(exchanges.map(\.replayed.status) == [200, 400, 401, 403, 429, 500, 503])

        let server = try ExampleReplay(examples, operation: "getAnalyticsSummary", status: 200)
        let summary = try await client(server).getAnalyticsSummary(generateAI: false)
        #expect(server.requests.last?.target == "/analytics/summary?generateAi=false")
        #expect(summary.month == "2024-06")
        #expect(summary.totals?.income == Fixture.money("3200.00"))
        #expect(summary.totals?.expense == Fixture.money("-1875.40"))
        #expect(summary.byCategory?.first?.category == "Rent")
        #expect(summary.byCategory?.first?.percentage == 65.05)
        #expect(summary.topMerchants?.last?.transactionCount == 4)
        let anomaly = try #require(summary.anomalies?.first)
        #expect(anomaly.transactionID == (try! LowercaseUUID("2d8a4c3e-5f6b-4c7d-8e9f-0a1b2c3d4e5f")))
        #expect(anomaly.deltaAmount == Fixture.money("-180.00"))
        #expect(anomaly.occurredAt == Fixture.date("2024-06-14T19:02:00Z"))
        #expect(anomaly.commentary == "About 3.5x your usual spend at this merchant.")
        let highlight = try #require(summary.aiHighlight)
        #expect(highlight.title == "Solid month")
        #expect(highlight.sentiment == "POSITIVE")
        #expect(highlight.recommendations?.count == 2)
    }

    @Test func analyticsSummaryWithoutHighlight() async throws {
        // `aiHighlight: null` (none generated yet) is a value, not a decoding failure.
        let server = try ExampleReplay(status: 200, body: #"{"month":"2024-06","totals":{"income":0,"expense":0,"net":0},"aiHighlight":null}"#)
        let summary = try await client(server).getAnalyticsSummary(month: "2024-06")
        #expect(summary.aiHighlight == nil)
        #expect(summary.totals?.net == 0)
        #expect(summary.anomalies == nil)
    }

    // MARK: AI chat

    @Test func getChatConversation() async throws {
        let exchanges = try await check("getChatConversation").run(errorBody: ErrorEnvelope.self) { url, transport in
            try await Client(serverURL: url, transport: transport).getChatConversation(conversationID: Fixture.conversationID)
        } checkRequest: { request in
            #expect(request.method == "GET")
            #expect(request.target == "/ai/chat?conversationId=5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b")
            #expect(request.body.isEmpty)
            #expect(request.header("Accept") == "application/json")
        }
        #expect(exchanges.map(\.replayed.status) == [200, 400, 401, 403, 404, 429, 500])

        let server = try ExampleReplay(examples, operation: "getChatConversation", status: 200)
        let conversation = try await client(server).getChatConversation()
        #expect(server.requests.last?.target == "/ai/chat")
        #expect(conversation.conversationID == Fixture.conversationID)
        #expect(conversation.messages.map(\.role) == [.user, .assistant])
        #expect(conversation.messages.first?.id == Fixture.messageID)
        #expect(conversation.messages.last?.createdAt == Fixture.date("2024-07-01T09:00:03Z"))
    }

    @Test func sendChatMessage() async throws {
        let message = ChatMessageRequest(conversationID: Fixture.conversationID, message: "How much did I spend on groceries in June?", truncateFromMessageID: Fixture.messageID)
        let exchanges = try await check("sendChatMessage").run(errorBody: ErrorEnvelope.self) { url, transport in
            try await Client(serverURL: url, transport: transport).sendChatMessage(body: message, idempotencyKey: Fixture.idempotencyKey)
        } checkRequest: { request in
            #expect(request.method == "POST")
            #expect(request.target == "/ai/chat")
            #expect(request.header("Content-Type") == "application/json")
            #expect(request.header("Idempotency-Key") == "3f0c8f4e-1b2a-4c7d-9e8f-0a1b2c3d4e5f")
            let body = try #require(request.jsonBody)
            #expect(body["message"] as? String == "How much did I spend on groceries in June?")
            #expect((body["conversationId"] as? String) == "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b")
            #expect((body["truncateFromMessageId"] as? String) == "8b9c0d1e-2f3a-4b4c-9d5e-6f7a8b9c0d1e")
        }
        #expect(exchanges.map(\.replayed.status) == [200, 400, 401, 403, 404, 429, 500, 503])

        // A new conversation: only the message is sent.
        let server = try ExampleReplay(examples, operation: "sendChatMessage", status: 200)
        let conversation = try await client(server).sendChatMessage(body: ChatMessageRequest(message: "How much did I spend on dining in June?"))
        #expect(server.requests.last?.bodyText == #"{"message":"How much did I spend on dining in June?"}"#)
        #expect(conversation.messages.count == 2)
        #expect(conversation.messages.last?.role == .assistant)
        #expect(conversation.messages.last?.content.contains("$410.30") == true)
    }

    @Test func aiUnavailableCarriesTheEnvelope() async throws {
        let server = try ExampleReplay(examples, operation: "sendChatMessage", status: 503)
        do {
            _ = try await client(server).sendChatMessage(body: ChatMessageRequest(message: "Hi"))
            Issue.record("expected APIError<ErrorEnvelope>")
        } catch let error as APIError<ErrorEnvelope> {
            #expect(error.status == 503)
            #expect(error.operationID == "sendChatMessage")
            #expect(error.body.error.code == .aiUnavailable)
            #expect(error.body.error.message == "AI provider is temporarily unavailable")
            #expect(error.body.traceID == "6f7a8b9c-0d1e-4f2a-8b3c-4d5e6f7a8b9c")
        }
    }

    // MARK: Plaid

    @Test func createPlaidLinkToken() async throws {
        let exchanges = try await check("createPlaidLinkToken").run(errorBody: ErrorEnvelope.self) { url, transport in
            try await Client(serverURL: url, transport: transport).createPlaidLinkToken(idempotencyKey: Fixture.idempotencyKey)
        } checkRequest: { request in
            #expect(request.method == "POST")
            #expect(request.target == "/plaid/link-token")
            #expect(request.body.isEmpty)
            #expect(request.header("Content-Type") == nil)
            #expect(request.header("Accept") == "application/json")
            #expect(request.header("Idempotency-Key") == "3f0c8f4e-1b2a-4c7d-9e8f-0a1b2c3d4e5f")
        }
        #expect(exchanges.map(\.replayed.status) == [200, 400, 401, 403, 429, 500, 502])

        let server = try ExampleReplay(examples, operation: "createPlaidLinkToken", status: 200)
        let token = try await client(server).createPlaidLinkToken()
        #expect(token.linkToken == "link-sandbox-af1a0311-da53-4636-b754-dd15cc058176")
        #expect(token.expiration == Fixture.date("2024-07-01T13:00:00Z"))
        #expect(token.requestID == "XQVgFigpGHXkb0b")
    }

    @Test func exchangePlaidPublicToken() async throws {
        let exchanges = try await check("exchangePlaidPublicToken").run(errorBody: ErrorEnvelope.self) { url, transport in
            try await Client(serverURL: url, transport: transport).exchangePlaidPublicToken(body: PlaidExchangeRequest(publicToken: Fixture.publicToken), idempotencyKey: Fixture.idempotencyKey)
        } checkRequest: { request in
            #expect(request.method == "POST")
            #expect(request.target == "/plaid/exchange")
            #expect(request.header("Content-Type") == "application/json")
            #expect(request.header("Idempotency-Key") == "3f0c8f4e-1b2a-4c7d-9e8f-0a1b2c3d4e5f")
            #expect(request.bodyText == #"{"publicToken":"\#(Fixture.publicToken)"}"#)
        }
        #expect(exchanges.map(\.replayed.status) == [200, 400, 401, 403, 429, 500, 502])

        let server = try ExampleReplay(examples, operation: "exchangePlaidPublicToken", status: 200)
        let result = try await client(server).exchangePlaidPublicToken(body: PlaidExchangeRequest(publicToken: Fixture.publicToken))
        #expect(result.itemID == "eVBnVMp7zdTJLkRNr33Rs6zr7KNJqBFL9DrE6")
        #expect(result.status == "LINKED")
    }

    @Test func plaidErrorCarriesDetails() async throws {
        let server = try ExampleReplay(examples, operation: "exchangePlaidPublicToken", status: 502)
        do {
            _ = try await client(server).exchangePlaidPublicToken(body: PlaidExchangeRequest(publicToken: Fixture.publicToken))
            Issue.record("expected APIError<ErrorEnvelope>")
        } catch let error as APIError<ErrorEnvelope> {
            #expect(error.status == 502)
            #expect(error.body.error.code == .plaidError)
            #expect(error.body.error.details == ["plaidErrorCode": "ITEM_LOGIN_REQUIRED"])
        }
    }

    // MARK: RAG

    @Test func searchRAG() async throws {
        let search = RAGSearchRequest(
            query: "coffee shops last month", category: "Dining", merchant: "Blue Bottle Coffee",
            from: Fixture.day("2024-06-01"), to: Fixture.day("2024-06-30"), amountMin: 100, amountMax: 2000, topK: 20)
        let exchanges = try await check("searchRAG").run(errorBody: ErrorEnvelope.self) { url, transport in
            try await Client(serverURL: url, transport: transport).searchRAG(body: search)
        } checkRequest: { request in
            #expect(request.method == "POST")
            #expect(request.target == "/rag/search")
            #expect(request.header("Content-Type") == "application/json")
            #expect(request.header("Accept") == "application/json")
            // A read: no Idempotency-Key.
            #expect(request.header("Idempotency-Key") == nil)
            #expect(request.bodyText == #"{"amountMax":2000,"amountMin":100,"category":"Dining","from":"2024-06-01","merchant":"Blue Bottle Coffee","query":"coffee shops last month","to":"2024-06-30","topK":20}"#)
        }
        #expect(exchanges.map(\.replayed.status) == [200, 400, 401, 403, 429, 500])

        let server = try ExampleReplay(examples, operation: "searchRAG", status: 200)
        let result = try await client(server).searchRAG(body: RAGSearchRequest(query: "coffee"))
        #expect(server.requests.last?.bodyText == #"{"query":"coffee"}"#)
        let hit = try #require(result.results?.first)
        #expect(hit.transactionID == Fixture.transactionID)
        #expect(hit.occurredOn == Fixture.day("2024-06-28"))
        #expect(hit.amountCents == -650)
        #expect(hit.score == 0.92)
        #expect(result.stats?.count == 1 && result.stats?.sum == -650 && result.stats?.avg == -650)
    }

    @Test func getRAGSummaries() async throws {
        let exchanges = try await check("getRAGSummaries").run(errorBody: ErrorEnvelope.self) { url, transport in
            try await Client(serverURL: url, transport: transport).getRAGSummaries(month: "2024-06")
        } checkRequest: { request in
            #expect(request.method == "GET")
            #expect(request.target == "/rag/summaries?month=2024-06")
            #expect(request.body.isEmpty)
            #expect(request.header("Accept") == "application/json")
        }
        #expect(exchanges.map(\.replayed.status) == [200, 400, 401, 403, 429, 500])

        let server = try ExampleReplay(examples, operation: "getRAGSummaries", status: 200)
        let summaries = try await client(server).getRAGSummaries()
        #expect(server.requests.last?.target == "/rag/summaries")
        #expect(summaries.month == "2024-06")
        #expect(summaries.totals?.net == 132460)
        #expect(summaries.categories?.first?.code == "dining")
        #expect(summaries.categories?.first?.avg == -1751)
        #expect(summaries.merchants?.first?.merchantID == "m_blue_bottle")
        #expect(summaries.merchants?.first?.sum == -3900)
    }

    @Test func aggregateRAG() async throws {
        let exchanges = try await check("aggregateRAG").run(errorBody: ErrorEnvelope.self) { url, transport in
            try await Client(serverURL: url, transport: transport).aggregateRAG(body: RAGAggregateRequest(from: Fixture.day("2024-04-01"), to: Fixture.day("2024-06-30"), granularity: "month"))
        } checkRequest: { request in
            #expect(request.method == "POST")
            #expect(request.target == "/rag/aggregate")
            #expect(request.header("Content-Type") == "application/json")
            #expect(request.header("Idempotency-Key") == nil)
            #expect(request.bodyText == #"{"from":"2024-04-01","granularity":"month","to":"2024-06-30"}"#)
        }
        #expect(exchanges.map(\.replayed.status) == [200, 400, 401, 403, 429, 500])

        let server = try ExampleReplay(examples, operation: "aggregateRAG", status: 200)
        let result = try await client(server).aggregateRAG(body: RAGAggregateRequest(granularity: "week"))
        #expect(server.requests.last?.bodyText == #"{"granularity":"week"}"#)
        #expect(result.granularity == "month")
        #expect(result.from == Fixture.day("2024-04-01"))
        #expect(result.to == Fixture.day("2024-06-30"))
        #expect(result.buckets?.map(\.key) == ["2024-04", "2024-05", "2024-06"])
        #expect(result.buckets?.last?.label == "June 2024")
        #expect(result.timeline?.map(\.sum) == [-171220, -180310, -187540])
    }

    // MARK: Decoding rules

    @Test func unknownEnumValuesAreKept() async throws {
        let body = #"{"conversationId":"5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b","messages":[{"id":"8b9c0d1e-2f3a-4b4c-9d5e-6f7a8b9c0d1e","role":"SYSTEM","content":"Conversation summarised.","createdAt":"2024-07-01T09:00:00Z"}]}"#
        let server = try ExampleReplay(status: 200, body: body)
        let conversation = try await client(server).getChatConversation()
        #expect(conversation.messages.first?.role == .unknown("SYSTEM"))
        #expect(conversation.messages.first?.role.rawValue == "SYSTEM")

        // An error code the client does not know still decodes the envelope.
        let failing = try ExampleReplay(status: 429, body: #"{"error":{"code":"QUOTA_EXCEEDED","message":"Monthly AI quota used up"},"traceId":"t-1"}"#)
        do {
            _ = try await client(failing).sendChatMessage(body: ChatMessageRequest(message: "Hi"))
            Issue.record("expected APIError<ErrorEnvelope>")
        } catch let error as APIError<ErrorEnvelope> {
            #expect(error.status == 429)
            #expect(error.body.error.code == .unknown("QUOTA_EXCEEDED"))
            #expect(error.body.error.details == nil)
        }
    }

    @Test func wrongTypedFieldNamesItsPath() async throws {
        let body = #"{"transactions":[{"id":"0b6e2a1c-3d4f-4a5b-8c6d-7e8f9a0b1c2d","accountId":"6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f","merchantName":"Blue Bottle Coffee","amount":"-6.50","currency":"USD","occurredAt":"2024-06-28T08:15:00Z","pending":false,"category":"Dining"}]}"#
        let server = try ExampleReplay(status: 200, body: body)
        let error = try await #require(throws: ResponseDecodingError.self) {
            try await client(server).listTransactions(month: "2024-06")
        }
        #expect(error.operationID == "listTransactions")
        #expect(error.status == 200)
        #expect(error.field == "transactions[0].amount")
        #expect(error.description.contains("transactions[0].amount"))
    }

    @Test func missingRequiredFieldNamesItsPath() async throws {
        let body = #"{"transactions":[{"id":"0b6e2a1c-3d4f-4a5b-8c6d-7e8f9a0b1c2d","accountId":"6f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f","merchantName":"Blue Bottle Coffee","amount":-6.50,"occurredAt":"2024-06-28T08:15:00Z","pending":false,"category":"Dining"}]}"#
        let server = try ExampleReplay(status: 200, body: body)
        let error = try await #require(throws: ResponseDecodingError.self) {
            try await client(server).listTransactions(month: "2024-06")
        }
        #expect(error.operationID == "listTransactions")
        #expect(error.field == "transactions[0].currency")
    }

    @Test func anAssumedFieldThatDiffersIsNilAndReportedOnceToEachObserver() async throws {
        // AnalyticsSummary is the spec's guess (x-assumed): an answer without `expense`, with a string `net` and extra fields still reads.
        let body = #"{"month":"2024-06","totals":{"income":3200.00,"net":"1324.60","tax":12},"extra":[1,2]}"#
        let server = try ExampleReplay(status: 200, body: body)
        let reports = Locked<[AssumedFieldReport]>([])
        let observation = AssumedFields.shared.observe { report in reports.withLock { $0.append(report) } }
        let summary = try await client(server).getAnalyticsSummary(month: "2024-06")
        _ = try await client(server).getAnalyticsSummary(month: "2024-06")
        #expect(summary.month == "2024-06" && summary.totals?.income == Fixture.money("3200.00"))
        #expect(summary.totals?.expense == nil && summary.totals?.net == nil)
        let heard = reports.read().filter { $0.type == "SafepocketAPI.AnalyticsTotals" }
        #expect(heard.sorted { $0.field < $1.field } == [
            AssumedFieldReport(type: "SafepocketAPI.AnalyticsTotals", field: "expense", difference: .absent),
            AssumedFieldReport(type: "SafepocketAPI.AnalyticsTotals", field: "net", difference: .otherType(expected: "Decimal")),
        ])
        #expect(heard.count == 2, "each field once, though two answers carried it")
        #expect(heard.first { $0.field == "expense" }?.description == "SafepocketAPI.AnalyticsTotals.expense was absent, not as the spec assumed (x-assumed); it decodes as nil")
        withExtendedLifetime(observation) {}
    }

    @Test func malformedDateNamesItsPath() async throws {
        let body = #"{"linkToken":"link-sandbox-1","expiration":"tomorrow"}"#
        let server = try ExampleReplay(status: 200, body: body)
        let error = try await #require(throws: ResponseDecodingError.self) {
            try await client(server).createPlaidLinkToken()
        }
        #expect(error.operationID == "createPlaidLinkToken")
        #expect(error.field == "expiration")
    }

    @Test func undocumentedStatusIsNotATypedError() async throws {
        let server = try ExampleReplay(status: 418, body: #"{"error":{"code":"INTERNAL","message":"teapot"},"traceId":"t-2"}"#)
        let error = try await #require(throws: UndocumentedResponseError.self) {
            try await client(server).listAccounts()
        }
        #expect(error.operationID == "listAccounts")
        #expect(error.response.status.code == 418)
    }

    // MARK: Descriptors

    @Test func operationsCarryTheirSecurityRequirements() {
        #expect(Client.Operations.byID.count == 14)
        // `POST /auth/token` overrides the global bearer requirement with `security: []`.
        #expect(Client.Operations.exchangeToken.isPublic)
        #expect(Client.Operations.exchangeToken.security.isEmpty)
        #expect(!Client.Operations.exchangeToken.accepts(scheme: "bearerAuth"))
        // Every other operation inherits `security: [bearerAuth: []]`.
        let bearer = SecuritySchemeDescriptor(name: "bearerAuth", kind: .http(scheme: "bearer"))
        for (id, operation) in Client.Operations.byID where id != "exchangeToken" {
            #expect(!operation.isPublic, "\(id)")
            #expect(operation.accepts(scheme: "bearerAuth"), "\(id)")
            #expect(operation.security == [[bearer]], "\(id)")
        }
        #expect(Client.Operations.listAccounts.security.first?.first?.headerName == .authorization)
        #expect(!Client.Operations.listAccounts.accepts(scheme: "ApiKeyAuth"))
        #expect(Client.Operations.updateTransaction.method == .patch)
        #expect(Client.Operations.updateTransaction.pathTemplate == "/transactions/{transactionId}")
        #expect(Client.Operations.getChatConversation.pathTemplate == Client.Operations.sendChatMessage.pathTemplate)
    }

    @Test func serversAreNamed() {
        #expect(Client.Server.allCases.count == 2)
        #expect(Client.Server.production.url.absoluteString == "https://api.safepocket.app")
        #expect(Client.Server.development.url.absoluteString == "http://localhost:8081")
    }
}

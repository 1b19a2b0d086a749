import BackendDoubles
import Foundation
import Resilience
import SoulAPI
import Testing

/// Every SOUL operation over loopback HTTP, answered with the spec's examples.
@Suite struct SoulConsumerTests {
    let examples: SpecExamples

    init() throws {
        examples = try SpecExamples("soul.yaml")
    }

    private func check(_ operationID: String) -> ConsumerCheck {
        ConsumerCheck(examples: examples, operationID: operationID)
    }

    @Test func requestOTP() async throws {
        let exchanges = try await check("requestOTP").run(errorBody: ErrorDetail.self) { url, transport in
            try await Client(serverURL: url, transport: transport).requestOTP(body: RequestOTPBody(phone: "+15555550123"))
        } checkRequest: { request in
            #expect(request.method == "POST")
            #expect(request.target == "/api/auth/otp/request")
            #expect(request.header("Content-Type") == "application/json")
            #expect(request.jsonBody?["phone"] as? String == "+15555550123")
        }
        #expect(exchanges.map(\.replayed.status) == [200, 400, 429, 500])
    }

    @Test func verifyOTP() async throws {
        try await check("verifyOTP").run(errorBody: ErrorDetail.self) { url, transport in
            try await Client(serverURL: url, transport: transport).verifyOTP(body: VerifyOTPBody(phone: "+15555550123", otp: "123456"))
        } checkRequest: { request in
            #expect(request.method == "POST")
            #expect(request.target == "/api/auth/verify-otp")
            #expect(request.jsonBody?["otp"] as? String == "123456")
            #expect(request.jsonBody?["phone"] as? String == "+15555550123")
        }
        // The decoded value itself, not only its re-encoding.
        let server = try ExampleReplay(examples, operation: "verifyOTP", status: 200)
        let tokens = try await Client(serverURL: server.url, transport: ConsumerCheck.makeTransport()).verifyOTP(body: VerifyOTPBody(phone: "+15555550123", otp: "123456"))
        #expect(tokens.tokenType == .bearer)
        #expect(!tokens.accessToken.isEmpty && !tokens.refreshToken.isEmpty)
        #expect(tokens.user.email.hasSuffix("@example.com"))
    }

    @Test func aPhoneOrCodeTheSpecForbidsIsNotSentNorShown() async throws {
        let server = try ExampleReplay(examples, operation: "verifyOTP", status: 200)
        let client = Client(serverURL: server.url, transport: ConsumerCheck.makeTransport())
        let badPhone = await #expect(throws: ConstraintViolation.self) {
            try await client.verifyOTP(body: VerifyOTPBody(phone: "5555550123", otp: "123456"))
        }
        #expect(badPhone?.description == #"verifyOTP: body.phone does not match ^\+[1-9]\d{1,14}$"#)
        let shortCode = await #expect(throws: ConstraintViolation.self) {
            try await client.verifyOTP(body: VerifyOTPBody(phone: "+15555550123", otp: "12345"))
        }
        #expect(shortCode?.description == "verifyOTP: body.otp is shorter than 6 characters")
        #expect(server.requests.isEmpty, "nothing was sent")

        // The spec's own example answer keeps the spec's constraints.
        let strict = Client(serverURL: server.url, transport: ConsumerCheck.makeTransport(), constraintChecks: [.requests, .responses])
        #expect(try await strict.verifyOTP(body: VerifyOTPBody(phone: "+15555550123", otp: "123456")).tokenType == .bearer)
    }

    @Test func refreshToken() async throws {
        try await check("refreshToken").run(errorBody: ErrorDetail.self) { url, transport in
            try await Client(serverURL: url, transport: transport).refreshToken(body: RefreshTokenBody(oldRefreshToken: "refresh-1"))
        } checkRequest: { request in
            #expect(request.method == "POST")
            #expect(request.target == "/api/auth/refresh")
            #expect(request.jsonBody?["old_refresh_token"] as? String == "refresh-1")
        }
    }

    @Test func logout() async throws {
        try await check("logout").run(errorBody: ErrorDetail.self) { url, transport in
            try await Client(serverURL: url, transport: transport).logout(body: LogoutBody(refreshToken: "refresh-1"))
        } checkRequest: { request in
            #expect(request.method == "POST")
            #expect(request.target == "/api/auth/logout")
            #expect(request.jsonBody?["refresh_token"] as? String == "refresh-1")
        }
    }

    @Test func listMoods() async throws {
        try await check("listMoods").run(errorBody: ErrorDetail.self) { url, transport in
            try await Client(serverURL: url, transport: transport).listMoods()
        } checkRequest: { request in
            #expect(request.method == "GET")
            #expect(request.target == "/api/moods")
            #expect(request.body.isEmpty)
            #expect(request.header("Accept") == "application/json")
        }
    }

    @Test func createMood() async throws {
        try await check("createMood").run(errorBody: ErrorDetail.self) { url, transport in
            try await Client(serverURL: url, transport: transport).createMood(body: CreateMoodBody(score: 7, note: .null))
        } checkRequest: { request in
            #expect(request.method == "POST")
            #expect(request.target == "/api/moods")
            // An explicit null is sent as null, not left out.
            #expect(request.bodyText == #"{"note":null,"score":7}"#)
        }
        let server = try ExampleReplay(examples, operation: "createMood", status: 200)
        _ = try await Client(serverURL: server.url, transport: ConsumerCheck.makeTransport()).createMood(body: CreateMoodBody(score: 3))
        #expect(server.requests.last?.bodyText == #"{"score":3}"#, "an absent note is left out")
    }

    @Test func checkHealth() async throws {
        try await check("checkHealth").run(errorBody: ErrorDetail.self) { url, transport in
            try await Client(serverURL: url, transport: transport).checkHealth()
        } checkRequest: { request in
            #expect(request.method == "GET")
            #expect(request.target == "/healthz")
        }
    }

    @Test func operationsCarryTheirSecurityRequirements() {
        #expect(Client.Operations.verifyOTP.isPublic)
        #expect(Client.Operations.requestOTP.security.isEmpty)
        #expect(Client.Operations.listMoods.accepts(scheme: "bearerAuth"))
        #expect(Client.Operations.listMoods.security.first?.first?.headerName == .authorization)
        #expect(!Client.Operations.createMood.isPublic)
        #expect(Client.Operations.byID.count == 7)
    }

    @Test func serversAreNamed() {
        #expect(Client.Server.staging.url.absoluteString == "https://api-staging.soulapp.app")
        #expect(Client.Server.production.url.absoluteString == "https://api.soulapp.app")
    }
}

/// Credentials chosen from the spec's security requirements, with no table
/// of operation ids: the bearer token goes to protected operations only.
@Suite struct SoulSecurityFromSpecTests {
    @Test func bearerTokenGoesOnlyWhereTheSpecAsksForIt() async throws {
        let examples = try SpecExamples("soul.yaml")
        let server = try ExampleReplay(examples, operation: "listMoods", status: 200)
        let session = TokenSession(
            store: InMemoryTokenStore(refreshToken: "refresh-1"),
            refresher: ClosureTokenRefresher { _ in TokenPair(accessToken: "fresh", refreshToken: nil) },
            accessToken: "access-1")
        let client = Client(
            serverURL: server.url, transport: ConsumerCheck.makeTransport(),
            middlewares: [BearerTokenMiddleware(session: session, operations: .requiringScheme("bearerAuth"))])
        _ = try await client.listMoods()
        #expect(server.requests.last?.header("Authorization") == "Bearer access-1")
        _ = try? await client.requestOTP(body: RequestOTPBody(phone: "+15555550123"))
        #expect(server.requests.last?.target == "/api/auth/otp/request")
        #expect(server.requests.last?.header("Authorization") == nil, "requestOTP is public (security: [])")
        _ = try? await client.checkHealth()
        #expect(server.requests.last?.header("Authorization") == nil, "checkHealth is public")
    }
}

import ClientRuntime
import ClientRuntimeTesting
import FeatureClient
import Foundation
import Resilience
import Testing

/// Every security scheme type OpenAPI 3.0 and 3.1 define, applied by
/// `SecurityMiddleware` from the requirements the generated client carries
/// (`features.yaml` has one operation per type, alternatives, optional
/// security and none): what the transport sees is what the server gets.
@Suite struct SecuritySchemeTests {
    static let base = URL(string: "https://api.example.com")!

    /// A client over a transport that answers 204, with `credentials` applied.
    static func client(_ credentials: [String: CredentialSource]) -> (Client, ScriptedTransport) {
        let transport = ScriptedTransport { _ in .status(204) }
        return (Client(serverURL: base, transport: transport, middlewares: [SecurityMiddleware(credentials: credentials)]), transport)
    }

    @Test func apiKeysGoInTheHeaderQueryOrCookieTheSchemeNames() async throws {
        let key = CredentialSource.fixed(.apiKey("k&y=1;x"))
        let (client, transport) = Self.client([
            Client.SecuritySchemes.headerKey: key, Client.SecuritySchemes.queryKey: key, Client.SecuritySchemes.cookieKey: key,
        ])
        try await client.securedHeaderKey()
        try await client.securedQueryKey()
        try await client.securedCookieKey()
        let (header, query, cookie) = (transport.requests[0], transport.requests[1], transport.requests[2])
        #expect(header.header("X-Items-Key") == "k&y=1;x" && header.query == nil && header.header("Authorization") == nil)
        #expect(query.target == "/secured/query?api_key=k%26y%3D1%3Bx", "escaped, so the key cannot start another item")
        #expect(query.header("X-Items-Key") == nil)
        #expect(cookie.header("Cookie") == "items_session=k%26y%3D1%3Bx")
    }

    /// `Client.SecuritySchemes` names every scheme an operation uses, as the
    /// spec spells it, so credentials can be keyed by a constant the compiler
    /// checks.
    @Test func theGeneratedSchemeNamesAreTheOnesTheOperationsUse() {
        let used = Set(Client.Operations.all.flatMap { $0.security.joined().map(\.name) })
        #expect(Set(Client.SecuritySchemes.all) == used && Client.SecuritySchemes.all.count == used.count)
        #expect(Client.SecuritySchemes.digestAuth == "digestAuth" && Client.SecuritySchemes.openID == "openID")
    }

    @Test func aQueryKeyJoinsTheOperationsOwnQueryAndACookieKeyItsCookies() async throws {
        let key = CredentialSource.fixed(.apiKey("secret-1"))
        let (client, transport) = Self.client(["queryKey": key, "cookieKey": key])
        try await client.securedQueryKey(page: 2)
        try await client.securedCookieKey(theme: "dark")
        #expect(transport.requests[0].target == "/secured/query?page=2&api_key=secret-1")
        #expect(transport.requests[1].header("Cookie") == "theme=dark; items_session=secret-1", "one Cookie header, as HTTP/1.1 wants")
    }

    @Test func httpBearerBasicAndOtherSchemes() async throws {
        let (client, transport) = Self.client([
            "bearerAuth": .fixed(.bearerToken("tok-123")),
            "basicAuth": .fixed(.basic(username: "ada", password: "p:ss wörd")),
            "digestAuth": .fixed(.authorization(#"username="ada", nonce="n1", response="r1""#)),
        ])
        try await client.securedBearer()
        try await client.securedBasic()
        try await client.securedDigest()
        #expect(transport.requests[0].header("Authorization") == "Bearer tok-123")
        let basic = try #require(transport.requests[1].header("Authorization"))
        #expect(basic == "Basic " + Data("ada:p:ss wörd".utf8).base64EncodedString())
        #expect(basic == "Basic YWRhOnA6c3Mgd8O2cmQ=", "RFC 7617: user-id, a colon, the password, UTF-8, base64")
        #expect(transport.requests[2].header("Authorization") == #"Digest username="ada", nonce="n1", response="r1""#, "the scheme as the spec spells it")
    }

    @Test func oauth2AndOpenIDConnectSendTheSessionsAccessToken() async throws {
        let session = TokenSession(store: InMemoryTokenStore(), refresher: ClosureTokenRefresher { _ in TokenPair(accessToken: "unused", refreshToken: "unused") })
        let (client, transport) = Self.client(["oauth": .session(session), "openID": .session(session)])
        await #expect(throws: SecurityCredentialError.missingCredential(operationID: "securedOauth", alternatives: [["oauth"]])) {
            try await client.securedOauth()
        }
        #expect(transport.requests.isEmpty, "signed out: nothing is sent")
        try await session.signIn(TokenPair(accessToken: "access-1", refreshToken: "refresh-1"))
        try await client.securedOauth()
        try await client.securedOpenID()
        #expect(transport.requests.map { $0.header("Authorization") } == ["Bearer access-1", "Bearer access-1"])
        #expect(Client.Operations.securedOauth.security.first?.first?.scopes == ["items:read", "items:write"])
    }

    @Test func theFirstAlternativeThatCanBeMetIsSentAndOnlyIt() async throws {
        // Both alternatives available: the first (bearer) alone.
        let (both, bothSent) = Self.client([
            "bearerAuth": .fixed(.bearerToken("tok")), "headerKey": .fixed(.apiKey("h")), "queryKey": .fixed(.apiKey("q")),
        ])
        try await both.securedAlternatives()
        #expect(bothSent.requests[0].header("Authorization") == "Bearer tok" && bothSent.requests[0].header("X-Items-Key") == nil)
        #expect(bothSent.requests[0].query == nil)
        // No bearer: the second alternative needs both of its keys, together.
        let (keys, keysSent) = Self.client(["headerKey": .fixed(.apiKey("h")), "queryKey": .fixed(.apiKey("q"))])
        try await keys.securedAlternatives()
        #expect(keysSent.requests[0].header("X-Items-Key") == "h" && keysSent.requests[0].query == "api_key=q")
        #expect(keysSent.requests[0].header("Authorization") == nil)
        // Half of the second alternative meets nothing.
        let (half, halfSent) = Self.client(["headerKey": .fixed(.apiKey("h"))])
        let error = await #expect(throws: SecurityCredentialError.self) { try await half.securedAlternatives() }
        #expect(error == .missingCredential(operationID: "securedAlternatives", alternatives: [["bearerAuth"], ["headerKey", "queryKey"]]))
        #expect(error.map { "\($0)" }?.contains("bearerAuth or headerKey + queryKey") == true)
        #expect(halfSent.requests.isEmpty)
    }

    @Test func optionalSecuritySendsTheCredentialWhenThereIsOneAndGoesWithoutOtherwise() async throws {
        let token = TokenBox()
        let (client, transport) = Self.client(["bearerAuth": .provider { token.value.map(SecurityCredential.bearerToken) }])
        try await client.securedOptional()
        token.value = "tok-9"
        try await client.securedOptional()
        try await client.publicItem()
        #expect(transport.requests.map { $0.header("Authorization") } == [nil, "Bearer tok-9", nil], "read on every request; public gets none")
    }

    @Test func mutualTLSIsLeftToTheTransport() async throws {
        let (client, transport) = Self.client([:])
        try await client.securedMutualTLS()
        #expect(transport.requests.count == 1 && transport.requests[0].header("Authorization") == nil)
    }

    @Test func aCredentialOfTheWrongKindIsATypedErrorWithoutTheSecret() async throws {
        let (client, transport) = Self.client(["basicAuth": .fixed(.apiKey("top-secret-key")), "headerKey": .fixed(.bearerToken("top-secret-token"))])
        let basic = await #expect(throws: SecurityCredentialError.self) { try await client.securedBasic() }
        #expect(basic == .unsuitableCredential(operationID: "securedBasic", scheme: "basicAuth", schemeType: "http basic", given: ".apiKey", expected: ".basic or .authorization"))
        let header = await #expect(throws: SecurityCredentialError.self) { try await client.securedHeaderKey() }
        let message = header.map { "\($0)" } ?? ""
        #expect(message.contains("headerKey") && message.contains(".apiKey") && !message.contains("top-secret"))
        #expect(transport.requests.isEmpty)
    }

    @Test func credentialsAreReadAgainOnEveryAttempt() async throws {
        let token = TokenBox()
        token.value = "old"
        let transport = ScriptedTransport(replies: [.status(503), .status(204)])
        // Every option is an init parameter, on the real clock too (onRetry here).
        let retry = RetryMiddleware(
            policy: RetryPolicy(maximumAttempts: 2, backoff: BackoffPolicy(baseDelay: .milliseconds(1))), random: { _ in 0 },
            onRetry: { _, _, _ in token.value = "new" })
        let client = Client(serverURL: Self.base, transport: transport, middlewares: [retry, SecurityMiddleware(credentials: ["bearerAuth": .provider { token.value.map(SecurityCredential.bearerToken) }])])
        try await client.securedBearer()
        #expect(transport.requests.map { $0.header("Authorization") } == ["Bearer old", "Bearer new"])
    }
}

/// A credential the test changes between requests.
final class TokenBox: @unchecked Sendable {
    // Safe: every access holds `lock`.
    private let lock = NSLock()
    private var stored: String?

    var value: String? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// An error body the spec does not document is still the app's to read:
/// as text, or decoded as a type the app names, from `APIError<EmptyBody>`
/// and from an undocumented status alike, through `HTTPStatusError`.
@Suite struct UndocumentedErrorBodyTests {
    struct ServerError: Decodable, Equatable {
        let error: String
        let retryable: Bool
    }

    @Test func aDocumentedStatusWithoutABodySchemaKeepsTheBody() async throws {
        let transport = ScriptedTransport { _ in .json(401, #"{"error": "invalid_key", "retryable": false}"#) }
        let client = Client(serverURL: SecuritySchemeTests.base, transport: transport)
        let error = await #expect(throws: APIError<EmptyBody>.self) { try await client.publicItem() }
        let failure = try #require(error)
        #expect(failure.status == 401 && failure.bodyText == #"{"error": "invalid_key", "retryable": false}"#)
        #expect(try failure.decodeBody(as: ServerError.self) == ServerError(error: "invalid_key", retryable: false))
    }

    @Test func anyStatusIsCaughtOnceAndItsBodyReadTheSameWay() async throws {
        let transport = ScriptedTransport(replies: [.text(418, "short and stout"), .json(401, #"{"error": 7}"#)])
        let client = Client(serverURL: SecuritySchemeTests.base, transport: transport)
        var seen: [String] = []
        for _ in 0..<2 {
            do {
                try await client.publicItem()
            } catch let error as any HTTPStatusError {
                seen.append("\(error.status) \(error.operationID) \(error.bodyText)")
                // A body that is not the named type is a ResponseDecodingError naming the field.
                let decoding = #expect(throws: ResponseDecodingError.self) { try error.decodeBody(as: ServerError.self) }
                #expect(decoding?.status == error.status && decoding?.rawBody == error.rawBody)
            }
        }
        #expect(seen == ["418 publicItem short and stout", #"401 publicItem {"error": 7}"#])
    }
}

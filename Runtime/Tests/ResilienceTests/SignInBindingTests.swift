import ClientRuntimeTesting
import Foundation
import HTTPTypes
import OpenAPIRuntime
import RuntimeSupport
import SDKCore

@testable import Resilience
import Testing

/// A request belongs to the sign-in it started under: after another user
/// signs in (or the session ends) it is never sent, retried or refreshed
/// with the new sign-in's token (`TokenSession`'s guarantee 5).
@Suite struct SignInBindingTests {
    /// Records each request's `Authorization`; answers 401 to the first one,
    /// after running `duringFirst` (another sign-in, say) while it is out.
    final class RecordingEdge: ClientTransport, Sendable {
        let seen = Locked<[String]>([])
        let duringFirst: @Sendable () async throws -> Void

        init(duringFirst: @escaping @Sendable () async throws -> Void) { self.duringFirst = duringFirst }

        func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
            let isFirst = seen.withLock { seen -> Bool in
                seen.append(request.headerFields[.authorization] ?? "none")
                return seen.count == 1
            }
            if isFirst {
                try await duringFirst()
                return (HTTPResponse(status: .unauthorized), HTTPBody(#"{"detail":"expired"}"#))
            }
            return (HTTPResponse(status: .ok), HTTPBody("{}"))
        }
    }

    /// Sends a GET through `middlewares` and `transport`, as a generated client does.
    func get(_ transport: any ClientTransport, _ middlewares: [any ClientMiddleware]) async throws -> HTTPResponse {
        var next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?) = { request, body, url in
            try await transport.send(request, body: body, baseURL: url, operationID: "listMoods")
        }
        for middleware in middlewares.reversed() {
            let inner = next
            next = { request, body, url in try await middleware.intercept(request, body: body, baseURL: url, operationID: "listMoods", next: inner) }
        }
        return try await next(HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/api/moods"), nil, URL(string: "https://api.test")!).0
    }

    @Test func aRequestOfAliceIsNotRetriedWithBobsTokenAfterBobSignedIn() async throws {
        let refresher = ClosureTokenRefresher { _ in TokenPair(accessToken: "at-refreshed", refreshToken: "rt-refreshed") }
        let session = TokenSession(store: InMemoryTokenStore(), refresher: refresher)
        try await session.signIn(TokenPair(accessToken: "at-alice", refreshToken: "rt-alice"))
        // While Alice's request is out (and answered 401), Bob signs in on the same app.
        let edge = RecordingEdge { try await session.signIn(TokenPair(accessToken: "at-bob", refreshToken: "rt-bob")) }
        let stack: [any ClientMiddleware] = [TokenRefreshMiddleware(session: session), BearerTokenMiddleware(session: session)]
        await #expect(throws: TokenRefreshError.signInChanged) { _ = try await get(edge, stack) }
        #expect(edge.seen.read() == ["Bearer at-alice"], "sent once, with Alice's token; never again with Bob's")
        // Bob's own requests carry his token.
        #expect(try await get(edge, stack).status == .ok)
        #expect(edge.seen.read().last == "Bearer at-bob")
        #expect(CallFailure<String>(TokenRefreshError.signInChanged).isSessionExpired)
    }

    @Test func aRequestBoundToAnEndedSignInIsNotSentAtAll() async throws {
        let session = TokenSession(store: InMemoryTokenStore(), refresher: ClosureTokenRefresher { _ in throw TokenRefreshError.rejected })
        try await session.signIn(TokenPair(accessToken: "at-alice", refreshToken: "rt-alice"))
        let alice = session.signInEpoch
        try await session.signIn(TokenPair(accessToken: "at-bob", refreshToken: "rt-bob"))
        let edge = RecordingEdge {}
        // A queued write of Alice's, bound to her sign-in, meets Bob's session.
        await #expect(throws: TokenRefreshError.signInChanged) {
            try await TokenSession.$boundSignIn.withValue(alice) {
                _ = try await get(edge, [TokenRefreshMiddleware(session: session), BearerTokenMiddleware(session: session)])
            }
        }
        #expect(edge.seen.read().isEmpty, "nothing left with Bob's token")
        #expect(QueuedWriteSenders<Int>.classify(TokenRefreshError.signInChanged) == .notSent)
    }

    @Test func theSessionsEndRunsItsHandlerAtOnceThenAwaited() async throws {
        let steps = Locked<[String]>([])
        let handler = SessionEndHandler(
            immediately: { end in steps.withLock { $0.append("immediately \(end)") } },
            afterwards: { end in steps.withLock { $0.append("afterwards \(end)") } })
        let session = TokenSession(store: InMemoryTokenStore(), refresher: ClosureTokenRefresher { _ in throw TokenRefreshError.rejected }, onEnd: handler)
        try await session.signIn(TokenPair(accessToken: "at", refreshToken: "rt"))
        try await session.signOut()
        #expect(steps.read() == ["immediately signedOut", "afterwards signedOut"])
        try await session.signIn(TokenPair(accessToken: "at2", refreshToken: "rt2"))
        await #expect(throws: TokenRefreshError.sessionExpired) { try await session.refresh(after: session.generation) }
        #expect(steps.read().suffix(2) == ["immediately expired", "afterwards expired"], "the handler ran before the refresh's caller heard of the expiry")
    }
}

extension CallFailure {
    /// Whether this is `.sessionExpired`.
    var isSessionExpired: Bool {
        if case .sessionExpired = self { return true }
        return false
    }
}

import Foundation
import HTTPTypes
import LoopbackHTTPServer
import OpenAPIRuntime
import Testing
import Waiting

@testable import Resilience

@Suite struct TokenRefreshTests {
    /// Counts refresh calls; waits (up to 10 s) until `gate` says go, so that
    /// every concurrent first attempt has failed before the refresh ends.
    final class CountingRefresher: TokenRefresher, @unchecked Sendable {
        // `@unchecked Sendable` is safe: `count` is only touched under `lock`.
        private let lock = NSLock()
        private var count = 0
        let gate: @Sendable () -> Bool
        let result: @Sendable (Int) throws -> TokenPair

        init(gate: @escaping @Sendable () -> Bool = { true }, result: @escaping @Sendable (Int) throws -> TokenPair) {
            self.gate = gate
            self.result = result
        }

        var calls: Int { lock.withLock { count } }

        func refresh(using refreshToken: String) async throws -> TokenPair {
            let call = lock.withLock { count += 1; return count }
            try await waitUntil("the test to let the refresh answer") { gate() }
            return try result(call)
        }
    }

    static func stack(_ session: TokenSession, secondUnauthorized: TokenRefreshMiddleware.SecondUnauthorized = .endSession) -> [any ClientMiddleware] {
        [
            TokenRefreshMiddleware(session: session, secondUnauthorized: secondUnauthorized), RetryMiddleware(clock: VirtualClock()),
            BearerTokenMiddleware(session: session),
        ]
    }

    static let requestCount = 500

    @Test func fiveHundredConcurrent401sMakeOneRefresh() async throws {
        let server = try LoopbackHTTPServer { request in
            request.header("Authorization") == "Bearer fresh" ? .json(200, "{}") : .json(401, #"{"detail":"Invalid token"}"#)
        }
        defer { server.shutdown() }
        let refresher = CountingRefresher(gate: { server.requests.count >= Self.requestCount }) { _ in
            TokenPair(accessToken: "fresh", refreshToken: "r-2")
        }
        let store = InMemoryTokenStore(refreshToken: "r-1")
        let session = TokenSession(store: store, refresher: refresher, accessToken: "stale")
        let client = TestClient(server: server, middlewares: Self.stack(session), timeout: 30)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<Self.requestCount {
                group.addTask { try await client.send(.get, "/api/moods/\(index)", operationID: "listMoods").status }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(refresher.calls == 1)
        #expect(statuses.count == Self.requestCount && statuses.allSatisfy { $0 == 200 })
        var attempts: [String: [String]] = [:]
        for request in server.requests { attempts[request.path, default: []].append(request.header("Authorization") ?? "") }
        #expect(attempts.count == Self.requestCount)
        #expect(attempts.values.allSatisfy { $0 == ["Bearer stale", "Bearer fresh"] }, "each request: one 401, one retry with the new token")
        #expect(await store.loadRefreshToken() == "r-2", "the rotated refresh token is stored")
    }

    @Test func aRefusedRefreshEndsTheSessionOnce() async throws {
        let server = try LoopbackHTTPServer { _ in .json(401, #"{"detail":"Invalid token"}"#) }
        defer { server.shutdown() }
        let refresher = CountingRefresher(gate: { server.requests.count >= Self.requestCount }) { _ in throw TokenRefreshError.rejected }
        let store = InMemoryTokenStore(refreshToken: "r-1")
        let session = TokenSession(store: store, refresher: refresher, accessToken: "stale")
        let client = TestClient(server: server, middlewares: Self.stack(session), timeout: 30)
        let errors = await withTaskGroup(of: (any Error)?.self) { group in
            for index in 0..<Self.requestCount {
                group.addTask {
                    do {
                        _ = try await client.send(.get, "/api/moods/\(index)", operationID: "listMoods")
                        return nil
                    } catch {
                        return error
                    }
                }
            }
            return await group.reduce(into: [(any Error)?]()) { $0.append($1) }
        }
        #expect(refresher.calls == 1)
        #expect(errors.count == Self.requestCount)
        #expect(errors.allSatisfy { ($0 as? TokenRefreshError) == .sessionExpired })
        #expect(await store.loadRefreshToken() == nil, "tokens cleared")
        #expect(session.accessToken == nil)
        await session.finishEventsForTesting()
        let events = await session.events.reduce(into: [SessionEvent]()) { $0.append($1) }
        #expect(events == [.sessionExpired], "one logout event")
    }

    @Test func aServerThatAlwaysSays401CannotCauseARefreshLoop() async throws {
        let server = try LoopbackHTTPServer { _ in .json(401, "{}") }
        defer { server.shutdown() }
        let refresher = CountingRefresher { call in TokenPair(accessToken: "token-\(call)", refreshToken: nil) }
        // A window far longer than the test: on a loaded machine the 20
        // requests can take longer than the default 30 s, and the window
        // would then allow a sixth refresh, rightly.
        let session = TokenSession(
            store: InMemoryTokenStore(refreshToken: "r"), refresher: refresher, accessToken: "t0", refreshLimit: 5, refreshWindow: .seconds(3600))
        let client = TestClient(server: server, middlewares: Self.stack(session, secondUnauthorized: .returnResponse))
        var limited = 0
        for index in 0..<20 {
            do {
                let result = try await client.send(.get, "/x/\(index)", operationID: "listMoods")
                #expect(result.status == 401, "a second 401 after a refresh is returned, not refreshed again")
            } catch TokenRefreshError.refreshLimitExceeded(let limit, _) {
                #expect(limit == 5)
                limited += 1
            }
        }
        #expect(refresher.calls == 5)
        #expect(limited == 15)
    }

    @Test func aSecondUnauthorizedAfterARefreshEndsTheSession() async throws {
        let server = try LoopbackHTTPServer { _ in .json(401, #"{"detail":"Invalid token"}"#) }
        defer { server.shutdown() }
        let refresher = CountingRefresher { call in TokenPair(accessToken: "token-\(call)", refreshToken: "r-\(call + 1)") }
        let store = InMemoryTokenStore(refreshToken: "r-1")
        let session = TokenSession(store: store, refresher: refresher, accessToken: "t0")
        let client = TestClient(server: server, middlewares: Self.stack(session))
        await #expect(throws: TokenRefreshError.sessionExpired) { try await client.send(.get, "/api/moods", operationID: "listMoods") }
        #expect(refresher.calls == 1)
        #expect(server.requests.map { $0.header("Authorization") } == ["Bearer t0", "Bearer token-1"], "one refresh, one retry")
        #expect(await store.loadRefreshToken() == nil, "tokens cleared")
        #expect(session.accessToken == nil)
        // Later calls fail at once, without a request or a refresh.
        await #expect(throws: TokenRefreshError.sessionExpired) { try await client.send(.get, "/api/moods", operationID: "listMoods") }
        #expect(server.requests.count == 2 && refresher.calls == 1)
        await session.finishEventsForTesting()
        let events = await session.events.reduce(into: [SessionEvent]()) { $0.append($1) }
        #expect(events == [.refreshed, .sessionExpired])
    }

    @Test func withoutAnAccessTokenTheFirstRequestRefreshesBeforeSending() async throws {
        let server = try LoopbackHTTPServer { request in
            request.header("Authorization") == "Bearer token-1" ? .json(200, "[]") : .json(401, "{}")
        }
        defer { server.shutdown() }
        let refresher = CountingRefresher { call in TokenPair(accessToken: "token-\(call)", refreshToken: nil) }
        let session = TokenSession(store: InMemoryTokenStore(refreshToken: "stored"), refresher: refresher)
        let client = TestClient(server: server, middlewares: Self.stack(session))
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 { group.addTask { try await client.send(.get, "/api/moods", operationID: "listMoods").status } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 20))
        #expect(refresher.calls == 1, "one refresh for the launch, shared")
        #expect(server.requests.count == 20, "no request spent on a certain 401")
    }

    @Test func neverSignedInIsNotAnExpiry() async throws {
        let server = try LoopbackHTTPServer { _ in .json(200, "[]") }
        defer { server.shutdown() }
        let refresher = CountingRefresher { _ in TokenPair(accessToken: "x", refreshToken: nil) }
        let session = TokenSession(store: InMemoryTokenStore(), refresher: refresher)
        let client = TestClient(server: server, middlewares: Self.stack(session))
        await #expect(throws: TokenRefreshError.notSignedIn) { try await client.send(.get, "/api/moods", operationID: "listMoods") }
        #expect(server.requests.isEmpty && refresher.calls == 0)
        await session.finishEventsForTesting()
        let events = await session.events.reduce(into: [SessionEvent]()) { $0.append($1) }
        #expect(events.isEmpty, "no session-expired event for a user who never signed in")
    }

    @Test func aRequestWithAnOlderTokenIsRetriedWithoutAnotherRefresh() async throws {
        let refresher = CountingRefresher { call in TokenPair(accessToken: "token-\(call)", refreshToken: nil) }
        let session = TokenSession(store: InMemoryTokenStore(refreshToken: "r"), refresher: refresher, accessToken: "t0")
        let before = session.generation
        try await session.refresh(after: before)
        let token = session.accessToken
        #expect(refresher.calls == 1 && token == "token-1")
        try await session.refresh(after: before)
        #expect(refresher.calls == 1, "the token is already newer than the one that failed")
    }

    @Test func publicOperationsAreNotTouched() async throws {
        let server = try LoopbackHTTPServer { _ in .json(401, #"{"detail":"Invalid OTP"}"#) }
        defer { server.shutdown() }
        let refresher = CountingRefresher { _ in TokenPair(accessToken: "x", refreshToken: nil) }
        let session = TokenSession(store: InMemoryTokenStore(refreshToken: "r"), refresher: refresher, accessToken: "t0")
        let publicOperations: Set<String> = ["requestOTP", "verifyOTP", "refreshToken"]
        let stack: [any ClientMiddleware] = [
            TokenRefreshMiddleware(session: session, operations: .allExcept(publicOperations)),
            BearerTokenMiddleware(session: session, operations: .allExcept(publicOperations)),
        ]
        let result = try await TestClient(server: server, middlewares: stack).send(.post, "/api/auth/verify-otp", operationID: "verifyOTP", body: "{}")
        #expect(result.status == 401 && refresher.calls == 0)
        #expect(server.requests.first?.header("Authorization") == nil)
    }

    @Test func fileStoreIsPrivateAndAtomic() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tokens-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = FileTokenStore(url: folder.appendingPathComponent("session.json"))
        #expect(try store.loadRefreshToken() == nil)
        try store.save(refreshToken: "r-1")
        try store.save(refreshToken: "r-2")
        #expect(try store.loadRefreshToken() == "r-2")
        let attributes = try FileManager.default.attributesOfItem(atPath: store.url.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["session.json"], "no temporary file left")
        try store.clear()
        #expect(try store.loadRefreshToken() == nil)
    }
}

extension TokenSession {
    /// Ends the event stream so a test can read every event sent so far.
    func finishEventsForTesting() { finishEvents() }
}

@Suite struct TokenSessionLifecycleTests {
    /// A refresher that waits until released, to interleave a sign-out.
    final class GatedRefresher: TokenRefresher, @unchecked Sendable {
        // `@unchecked Sendable` is safe: `released` is only touched under `lock`.
        private let lock = NSLock()
        private var released = false
        func release() { lock.withLock { released = true } }
        func refresh(using refreshToken: String) async throws -> TokenPair {
            while !lock.withLock({ released }) { try await Task.sleep(for: .milliseconds(2)) }
            return TokenPair(accessToken: "revived", refreshToken: "r-revived")
        }
    }

    @Test func signingOutDuringARefreshStaysSignedOut() async throws {
        let refresher = GatedRefresher()
        let store = InMemoryTokenStore(refreshToken: "r-1")
        let session = TokenSession(store: store, refresher: refresher, accessToken: "a-1")
        let refresh = Task { try await session.refresh(after: session.generation) }
        try await Task.sleep(for: .milliseconds(20))
        try await session.signOut()
        refresher.release()
        _ = try? await refresh.value
        #expect(session.accessToken == nil, "the refresh must not bring the token back")
        #expect(await store.loadRefreshToken() == nil)
        await #expect(throws: TokenRefreshError.notSignedIn) { try await session.refresh(after: session.generation) }  // signed out, not expired
    }

    @Test func afterExpiryEveryLate401GetsTheTypedError() async throws {
        let session = TokenSession(
            store: InMemoryTokenStore(refreshToken: "r"), refresher: ClosureTokenRefresher { _ in throw TokenRefreshError.rejected },
            accessToken: "a")
        let sentWith = session.generation
        await #expect(throws: TokenRefreshError.sessionExpired) { try await session.refresh(after: sentWith) }
        // A request sent before the expiry whose 401 arrives afterwards.
        await #expect(throws: TokenRefreshError.sessionExpired) { try await session.refresh(after: sentWith) }
    }
}

@Suite struct RefreshWaiterCancellationTests {
    @Test func aCancelledWaiterLeavesWhileTheRefreshGoesOnForOthers() async throws {
        let refresher = TokenSessionLifecycleTests.GatedRefresher()
        let session = TokenSession(store: InMemoryTokenStore(refreshToken: "r"), refresher: refresher, accessToken: "a")
        let generation = session.generation
        let cancelled = Task { try await session.refresh(after: generation) }
        let patient = Task { try await session.refresh(after: generation) }
        try await Task.sleep(for: .milliseconds(20))
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        refresher.release()
        try await patient.value
        #expect(session.accessToken == "revived", "the shared refresh completed for the request still waiting")
    }
}

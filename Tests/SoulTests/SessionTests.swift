import BackendDoubles
import Foundation
import LoopbackHTTPServer
import Resilience
import RuntimeSupport
import Soul
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite struct SessionTests {
    @Test func aStoredSessionIsRestoredAtLaunchWithOneRefresh() async throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        let first = try await harness.signedIn()
        _ = try await first.addMood(score: 5)
        let relaunched = try harness.makeSoul()
        #expect(await relaunched.hasStoredSession())
        #expect(try await relaunched.listMoods().value.count == 1)
        #expect(harness.backend.counters.refreshCalls == 1)
        #expect(!harness.backend.server.requests.contains { $0.path == "/api/moods" && $0.header("Authorization") == nil },
                "no request was spent without a token")
    }

    @Test func oneHundredConcurrentCallsAcrossAnExpiryMakeOneRefresh() async throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        let soul = try await harness.signedIn()
        let oldRefresh = harness.backend.issuedTokens[1]
        harness.backend.expireAccessTokens()
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<100 { group.addTask { (try? await soul.listMoods()) != nil } }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 100 && results.allSatisfy { $0 })
        #expect(harness.backend.counters.refreshCalls == 1)
        #expect(harness.backend.counters.refusedRefreshes == 0)
        #expect(!harness.backend.liveRefreshTokens.contains(oldRefresh), "rotated: the old refresh token is spent")
        let stored = try String(contentsOf: harness.tokenFile, encoding: .utf8)
        #expect(stored.contains(harness.backend.issuedTokens[3]), "the new refresh token replaced the old one")
    }

    @Test func aRefusedRefreshEndsTheSessionOnce() async throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        let soul = try await harness.signedIn()
        var events = soul.sessionEvents.makeAsyncIterator()
        #expect(await events.next() == .signedIn)
        // The server forgets every refresh token (revoked elsewhere), and the access token expires.
        let stored = try FileTokenStore(url: harness.tokenFile).loadRefreshToken()
        _ = try await harness.backend.server.baseURL.post("/api/auth/logout", json: ["refresh_token": stored ?? ""])
        harness.backend.expireAccessTokens()
        let errors = await withTaskGroup(of: SoulError?.self) { group in
            for _ in 0..<20 { group.addTask { await soulError { try await soul.listMoods() } } }
            return await group.reduce(into: [SoulError?]()) { $0.append($1) }
        }
        #expect(errors.allSatisfy { $0 == .sessionExpired })
        #expect(harness.backend.counters.refreshCalls == 1)
        #expect(await events.next() == .sessionExpired)
        #expect(!FileManager.default.fileExists(atPath: harness.tokenFile.path), "tokens cleared")
        #expect(!(await soul.hasStoredSession()))
        let requestsBefore = harness.backend.server.requests.count
        #expect(await soulError { try await soul.addMood(score: 3) } == .sessionExpired)
        #expect(harness.backend.server.requests.count == requestsBefore, "an ended session sends nothing")
    }

    @Test func aSecondUnauthorizedAfterARefreshEndsTheSession() async throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        let soul = try await harness.signedIn()
        harness.backend.fault.withLock { $0 = { request in request.path == "/api/moods" ? .json(401, #"{"detail":"Invalid token"}"#) : nil } }
        #expect(await soulError { try await soul.listMoods() } == .sessionExpired)
        #expect(harness.backend.counters.refreshCalls == 1, "refreshed once, retried once, then signed out")
        #expect(harness.backend.server.requests.filter { $0.path == "/api/moods" }.count == 2)
        #expect(!(await soul.hasStoredSession()))
    }

    @Test func logoutIsBestEffortAndNeverRefreshes() async throws {
        let harness = try SoulHarness(keepAlive: false)
        defer { harness.cleanUp() }
        let soul = try await harness.signedIn()
        harness.backend.fault.withLock { $0 = { request in request.path == "/api/auth/logout" ? .json(401, #"{"detail":"nope"}"#) : nil } }
        await soul.signOut()
        #expect(harness.backend.counters.refreshCalls == 0, "a 401 to logout does not refresh")
        #expect(harness.backend.server.requests.filter { $0.path == "/api/auth/logout" }.count == 1)
        #expect(!(await soul.hasStoredSession()), "tokens cleared whatever the server said")

        let again = try await harness.signedIn()
        harness.backend.fault.withLock { $0 = { request in request.path == "/api/auth/logout" ? .dropConnection : nil } }
        await again.signOut()
        #expect(!(await again.hasStoredSession()))
        #expect(harness.backend.server.requests.filter { $0.path == "/api/auth/logout" }.count == 2, "not retried")
        #expect(await soulError { try await again.listMoods() } == .notSignedIn)
    }

    @Test func eachOutcomeMapsToOneTypedError() async throws {
        let harness = try SoulHarness(keepAlive: false)
        defer { harness.cleanUp() }
        let soul = try await harness.signedIn()
        let replies: [(LoopbackHTTPServer.Reply, SoulError)] = [
            (.json(500, #"{"detail":"Internal server error"}"#), .server(status: 500, detail: "Internal server error")),
            (.respond(status: 502), .server(status: 502, detail: nil)),
            (.json(429, #"{"detail":"Too many requests"}"#, headers: [("Retry-After", "12")]), .rateLimited(retryAfter: .seconds(12))),
            (.json(422, #"{"detail":"score must be 1 to 10"}"#), .invalidInput(detail: "score must be 1 to 10")),
            // The mood's fields are the spec's guess (x-assumed), each nil when it differs; a body that is no object at all is still refused.
            (.json(200, #"[{"id":"x"}]"#), .unexpectedResponse(status: 200, reason: "the body does not match the spec")),
            (.json(418, "{}"), .unexpectedResponse(status: 418, reason: "status not in the spec")),
            (.dropConnection, .outcomeUnknown),
        ]
        for (reply, expected) in replies {
            harness.backend.fault.withLock { $0 = { request in request.path == "/api/moods" ? reply : nil } }
            #expect(await soulError { try await soul.addMood(score: 4) } == expected)
        }
    }

    /// A silent wait for the hour would overrun the test's ten-minute limit.
    @Test(.timeLimit(.minutes(10))) func a429OnAReadReachesTheAppAtOnceWithItsCountdown() async throws {
        let harness = try SoulHarness(keepAlive: false)
        defer { harness.cleanUp() }
        let soul = try await harness.signedIn()
        for retryAfter in ["5", "3600"] {
            harness.backend.fault.withLock {
                $0 = { request in request.path == "/api/moods" ? .json(429, #"{"detail":"Too many requests"}"#, headers: [("Retry-After", retryAfter)]) : nil }
            }
            let before = harness.backend.server.requests.filter { $0.path == "/api/moods" }.count
            #expect(await soulError { try await soul.listMoods() } == .rateLimited(retryAfter: .seconds(Int(retryAfter)!)))
            #expect(harness.backend.server.requests.filter { $0.path == "/api/moods" }.count - before == 1, "Retry-After \(retryAfter): not retried")
        }
        // A wait within the 2 s budget is waited for: the user sees the moods.
        let served = Locked(0)
        harness.backend.fault.withLock {
            $0 = { request in
                guard request.path == "/api/moods", request.method == "GET" else { return nil }
                return served.withLock { count in
                    count += 1
                    return count == 1 ? .json(429, #"{"detail":"Too many requests"}"#, headers: [("Retry-After", "1")]) : nil
                }
            }
        }
        _ = try await soul.listMoods()
        #expect(served.read() == 2)
    }

    @Test func offlineIsTypedAndFast() async throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        let connectivity = Connectivity(isOnline: true)
        let soul = try harness.makeSoul(connectivity: connectivity)
        let request = try await soul.signIn.requestCode(phone: "+14155550123")
        try await soul.signIn.verify(code: request.previewCode ?? "")
        await connectivity.update(isOnline: false)
        let before = harness.backend.server.requests.count
        #expect(await soulError { try await soul.listMoods() } == .offline)
        #expect(harness.backend.server.requests.count == before, "nothing sent while the app reports offline")
        await connectivity.update(isOnline: true)
        harness.backend.server.shutdown()
        let queued = try await soul.addMood(score: 2)
        #expect(queued.queued?.operationID == "createMood", "a refused connection sent nothing: the mood is queued")
        #expect(await soul.pendingWrites().count == 1)
    }

    @Test func timeoutsAreAppliedToTheTransportTheSDKBuilds() async throws {
        #expect(Soul.Configuration(environment: .production).connection.timeouts == TransportTimeouts(connect: .seconds(5), read: .seconds(10)))
        let harness = try SoulHarness(keepAlive: false)
        defer { harness.cleanUp() }
        // Signed in by a launch with generous timeouts (the sign-in is not under test); the next
        // launch has 3 s an attempt, and the mood's answer comes after 8 s: only those 3 s can end it.
        let patient = try harness.makeSoul(timeouts: TransportTimeouts(connect: .seconds(30), read: .seconds(30)))
        let request = try await patient.signIn.requestCode(phone: "+14155550123")
        try await patient.signIn.verify(code: request.previewCode ?? "")
        let soul = try harness.makeSoul(timeouts: TransportTimeouts(connect: .seconds(1), read: .seconds(3)))
        harness.backend.fault.withLock { $0 = { request in request.path == "/api/moods" ? .delayed(.seconds(8), .json(200, "{}")) : nil } }
        #expect(await soulError { try await soul.addMood(score: 6) } == .outcomeUnknown, "a mood POST that timed out may have arrived")
        #expect(harness.backend.server.requests.filter { $0.path == "/api/moods" }.count == 1, "a mood POST that timed out is not resent")
        #expect(await soul.pendingWrites().isEmpty, "nor queued")
    }

    @Test func anHTTPBaseURLIsRefusedUnlessLoopback() throws {
        #expect(throws: SoulError.insecureBaseURL) {
            try Soul(.init(environment: .init(baseURL: URL(string: "http://api.soulapp.app")!, isStaging: false)))
        }
    }
}

extension URL {
    /// A bare JSON POST, outside the SDK (a test's own call to the backend).
    func post(_ path: String, json: [String: String]) async throws -> Int {
        var request = URLRequest(url: appendingPathComponent(path))
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: json)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}

import ContractCheck
import Foundation
import SandboxCore
import Testing

/// The sandbox's backends with state, in strict mode (every answer checked
/// against its spec too): SOUL's sign-in, rotation, rate limit and expiry;
/// Safepocket's PKCE sign-in, seeded ledger and idempotent writes;
/// SecureNode's seeded dataset, incremental syncs and billing once per
/// event_key; MobileTracker's sessions and events; and the faults that need
/// state.
@Suite struct StatefulBackendTests {
    /// A sandbox of the four backends on a clock the test moves.
    struct Harness {
        let sandbox: Sandbox
        let clock = TestClock()
        let lines = LogLines()

        init(faults: FaultPlan = .none, _ configure: (inout StandardBackends) -> Void = { _ in }) throws {
            var standard = StandardBackends()
            standard.now = clock.now
            configure(&standard)
            sandbox = Sandbox(
                backends: try standard.load(specsFolder: SandboxTests.root.appendingPathComponent("specs").path), faults: faults, strict: true,
                log: lines.append)
        }

        /// Sends a request; a JSON object or array body is encoded.
        func send(_ method: String, _ path: String, query: String? = nil, headers: [(name: String, value: String)] = [], json: Any? = nil) -> SandboxReply {
            var headers = headers
            var body: [UInt8]?
            if let json {
                headers.append(("Content-Type", "application/json"))
                body = Array(try! JSONSerialization.data(withJSONObject: json))
            }
            return sandbox.handle(ContractRequest(method: method, path: path, query: query, headers: headers, body: body))
        }

        func object(_ reply: SandboxReply) -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(reply.collectedBody()))) as? [String: Any] ?? [:]
        }

        /// What `GET /_sandbox/requests` says a backend holds.
        func state(_ backend: String) -> [String: Any] {
            (object(send("GET", Sandbox.requestsPath))[backend] as? [String: Any])?["state"] as? [String: Any] ?? [:]
        }
    }

    static func bearer(_ token: String) -> [(name: String, value: String)] { [("Authorization", "Bearer " + token)] }

    // MARK: SOUL

    /// Signs in on SOUL staging; returns (access, refresh).
    static func soulSignIn(_ harness: Harness, phone: String = "+15555550123") throws -> (String, String) {
        let requested = harness.send("POST", "/soul/api/auth/otp/request", json: ["phone": phone])
        #expect(requested.status == 200)
        let code = try #require(harness.object(requested)["preview_code"] as? String)
        let verified = harness.send("POST", "/soul/api/auth/verify-otp", json: ["phone": phone, "otp": code])
        #expect(verified.status == 200, "\(String(decoding: verified.body, as: UTF8.self))")
        let body = harness.object(verified)
        return (try #require(body["access_token"] as? String), try #require(body["refresh_token"] as? String))
    }

    @Test func soulSignsInKeepsMoodsAndRotatesRefreshTokens() throws {
        let harness = try Harness()
        let (access, refresh) = try Self.soulSignIn(harness)
        #expect(harness.send("POST", "/soul/api/moods", headers: Self.bearer(access), json: ["score": 7, "note": "calm"]).status == 200)
        let moods = try #require(try JSONSerialization.jsonObject(with: Data(harness.send("GET", "/soul/api/moods", headers: Self.bearer(access)).body)) as? [[String: Any]])
        #expect(moods.count == 1 && moods[0]["score"] as? Int == 7)

        let rotated = harness.send("POST", "/soul/api/auth/refresh", json: ["old_refresh_token": refresh])
        #expect(rotated.status == 200)
        let reused = harness.send("POST", "/soul/api/auth/refresh", json: ["old_refresh_token": refresh])
        #expect(reused.status == 401, "a used refresh token is refused")
        #expect(harness.state("soul")["refusedRefreshes"] as? Int == 1)
        #expect(harness.lines.all.isEmpty, "strict mode found nothing wrong: \(harness.lines.all)")
    }

    @Test func soulRateLimitsCodeRequestsPerWindowAndExpiresAccessTokens() throws {
        let harness = try Harness { $0.soul.accessTokenLifetime = .seconds(30) }
        let (access, _) = try Self.soulSignIn(harness)
        for _ in 0..<2 { #expect(harness.send("POST", "/soul/api/auth/otp/request", json: ["phone": "+15555550123"]).status == 200) }
        let limited = harness.send("POST", "/soul/api/auth/otp/request", json: ["phone": "+15555550123"])
        #expect(limited.status == 429 && limited.header("Retry-After") == "30")
        harness.clock.advance(seconds: 61)
        #expect(harness.send("POST", "/soul/api/auth/otp/request", json: ["phone": "+15555550123"]).status == 200, "the window moved on")
        #expect(harness.send("GET", "/soul/api/moods", headers: Self.bearer(access)).status == 401, "the 30 s token expired")
        #expect(harness.state("soul")["expiredTokens"] as? Int == 1)
    }

    // MARK: Safepocket

    /// Runs the PKCE sign-in; returns the token answer.
    static func safepocketSignIn(_ harness: Harness, verifier: String = String(repeating: "v", count: 43)) throws -> [String: Any] {
        let challenge = SafepocketBehaviour.challenge(for: verifier)
        let query = "response_type=code&client_id=app&redirect_uri=safepocket%3A%2F%2Fauth%2Fcallback&state=xyz&code_challenge=\(challenge)&code_challenge_method=S256&scope=openid"
        let redirect = harness.send("GET", "/safepocket/oauth2/authorize", query: query)
        #expect(redirect.status == 302)
        let location = try #require(redirect.header("Location").flatMap(URLComponents.init(string:)))
        #expect(location.scheme == "safepocket" && location.queryItems?.first { $0.name == "state" }?.value == "xyz")
        let code = try #require(location.queryItems?.first { $0.name == "code" }?.value)
        let token = harness.send("POST", "/safepocket/auth/token", json: [
            "grantType": "authorization_code", "code": code, "codeVerifier": verifier, "redirectUri": "safepocket://auth/callback",
        ])
        #expect(token.status == 200, "\(String(decoding: token.body, as: UTF8.self))")
        return harness.object(token)
    }

    @Test func safepocketRedeemsACodeOnlyWithTheVerifierOfItsChallenge() throws {
        let harness = try Harness()
        let challenge = SafepocketBehaviour.challenge(for: String(repeating: "a", count: 43))
        let query = "response_type=code&client_id=app&redirect_uri=app%3A%2F%2Fcb&state=s1&code_challenge=\(challenge)&code_challenge_method=S256"
        let location = try #require(harness.send("GET", "/safepocket/oauth2/authorize", query: query).header("Location"))
        let code = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "code" }?.value)
        let wrong = harness.send("POST", "/safepocket/auth/token", json: [
            "grantType": "authorization_code", "code": code, "codeVerifier": String(repeating: "b", count: 43), "redirectUri": "app://cb",
        ])
        #expect(wrong.status == 400)
        #expect(((harness.object(wrong)["error"] as? [String: Any])?["message"] as? String)?.contains("PKCE") == true)
        #expect(harness.send("GET", "/safepocket/oauth2/authorize", query: "response_type=code").status == 400)
        let tokens = try Self.safepocketSignIn(harness)
        #expect(harness.send("GET", "/safepocket/accounts", headers: Self.bearer(try #require(tokens["accessToken"] as? String))).status == 200)
        #expect(harness.send("GET", "/safepocket/accounts").status == 401, "no bearer: the spec's 401, as the backend answers it")
    }

    @Test func safepocketLedgerIsTheSameForASeedAndPagesWithWholeWindowTotals() throws {
        func firstPage(seed: UInt64) throws -> (String, [String: Any]) {
            let harness = try Harness { $0.safepocketSeed = seed }
            let access = try #require(try Self.safepocketSignIn(harness)["accessToken"] as? String)
            let accounts = harness.object(harness.send("GET", "/safepocket/accounts", headers: Self.bearer(access)))
            let month = try #require(((accounts["accounts"] as? [[String: Any]])?.first?["createdAt"] as? String)?.prefix(7))
            let reply = harness.send("GET", "/safepocket/transactions", query: "month=\(month)&pageSize=5&page=1", headers: Self.bearer(access))
            #expect(reply.status == 200)
            #expect(harness.lines.all.isEmpty, "strict mode: \(harness.lines.all)")
            return (String(decoding: reply.body, as: UTF8.self), harness.object(reply))
        }
        let (text, page) = try firstPage(seed: 7)
        #expect(try firstPage(seed: 7).0 == text, "one seed, one ledger")
        #expect(try firstPage(seed: 8).0 != text)
        let transactions = try #require(page["transactions"] as? [[String: Any]])
        let aggregates = try #require(page["aggregates"] as? [String: Any])
        #expect(transactions.count == 5 && page["page"] as? Int == 1)
        #expect((page["total"] as? Int ?? 0) > 10 && aggregates["count"] as? Int == page["total"] as? Int)
        let dates = transactions.compactMap { $0["occurredAt"] as? String }
        #expect(dates == dates.sorted(by: >), "newest first")
        let income = try #require(aggregates["incomeTotal"] as? NSNumber).doubleValue
        let expense = try #require(aggregates["expenseTotal"] as? NSNumber).doubleValue
        let net = try #require(aggregates["netTotal"] as? NSNumber).doubleValue
        #expect(abs(income + expense - net) < 0.005)
    }

    @Test func safepocketAppliesAWriteOncePerIdempotencyKey() throws {
        let harness = try Harness()
        let access = try #require(try Self.safepocketSignIn(harness)["accessToken"] as? String)
        let list = harness.object(harness.send("GET", "/safepocket/transactions", headers: Self.bearer(access)))
        let id = try #require((list["transactions"] as? [[String: Any]])?.first?["id"] as? String)
        let key = [(name: "Idempotency-Key", value: "3f0c8f4e-1b2a-4c7d-9e8f-0a1b2c3d4e5f")]
        let first = harness.send("PATCH", "/safepocket/transactions/\(id)", headers: Self.bearer(access) + key, json: ["category": "Groceries", "notes": "Weekly shop"])
        let again = harness.send("PATCH", "/safepocket/transactions/\(id)", headers: Self.bearer(access) + key, json: ["category": "Groceries", "notes": "Weekly shop"])
        #expect(first.status == 200 && again == first)
        #expect(harness.object(first)["notes"] as? String == "Weekly shop")
        #expect(harness.state("safepocket")["writesApplied"] as? Int == 1 && harness.state("safepocket")["writesReplayed"] as? Int == 1)
    }

    // MARK: SecureNode

    static let apiKey = [(name: "X-API-Key", value: "sk_sandbox")]

    @Test func secureNodeStreamsAFullSyncOfTheSeededDatasetAndThenOnlyWhatChanged() throws {
        let harness = try Harness {
            $0.secureNode.datasetSize = 10_000
            $0.secureNode.changeInterval = .seconds(10)
            $0.secureNode.changesPerInterval = 20
        }
        let full = harness.send("GET", "/securenode/api/mobile/branding/sync", headers: Self.apiKey)
        #expect(full.status == 200 && full.stream != nil, "a large answer is streamed")
        let fullBody = harness.object(full)
        let records = try #require(fullBody["branding"] as? [[String: Any]])
        #expect(records.count == 10_000 && records.allSatisfy { $0["is_active"] as? Bool == true })
        #expect(Set(records.compactMap { $0["phone_number_e164"] as? String }).count == 10_000)
        let cursor = try #require(fullBody["synced_at"] as? String)

        let unchanged = harness.object(harness.send("GET", "/securenode/api/mobile/branding/sync", query: "since=\(cursor)", headers: Self.apiKey))
        #expect((unchanged["branding"] as? [Any])?.count == 0, "nothing changed yet")

        harness.clock.advance(seconds: 25)
        let delta = harness.object(harness.send("GET", "/securenode/api/mobile/branding/sync", query: "since=\(cursor)", headers: Self.apiKey))
        let changed = try #require(delta["branding"] as? [[String: Any]])
        #expect((30...40).contains(changed.count), "two batches of 20 (a number changed twice counts once): \(changed.count)")
        #expect(changed.contains { $0["is_active"] as? Bool == false }, "deactivations reach devices so they purge")
        #expect(harness.lines.all.isEmpty, "strict mode: \(harness.lines.all)")

        let number = try #require(records[42]["phone_number_e164"] as? String)
        let lookup = harness.send("GET", "/securenode/api/mobile/branding/lookup", query: "e164=\(number.replacingOccurrences(of: "+", with: "%2B"))", headers: Self.apiKey)
        #expect(lookup.status == 200 && harness.object(lookup)["brand_name"] as? String == records[42]["brand_name"] as? String)
        #expect(harness.send("GET", "/securenode/api/mobile/branding/lookup", query: "e164=%2B19995550000", headers: Self.apiKey).status == 404)
    }

    @Test func secureNodeBillsEachEventKeyOnceAndAnswersAReplayWithTheSameID() throws {
        let harness = try Harness()
        let event: [String: Any] = [
            "event_key": "call-1-answered", "phone_number_e164": "+15550000042", "outcome": "displayed", "surface": "display",
            "displayed_at": "2025-01-15T08:30:00Z",
        ]
        let first = harness.send("POST", "/securenode/api/mobile/branding/event", headers: Self.apiKey, json: event)
        let replay = harness.send("POST", "/securenode/api/mobile/branding/event", headers: Self.apiKey, json: event)
        #expect(first.status == 200, "\(String(decoding: first.body, as: UTF8.self))")
        #expect(harness.object(first)["event_id"] as? String == harness.object(replay)["event_id"] as? String)
        let state = harness.state("securenode")
        #expect(state["eventsBilled"] as? Int == 1 && state["billingReplays"] as? Int == 1)
    }

    // MARK: MobileTracker

    @Test func mobileTrackerRecordsSessionsAndEventsAndCountsRepeats() throws {
        let harness = try Harness()
        let session = harness.send("POST", "/mobiletracker/v2/tracking-session", headers: Self.apiKey, json: [
            "device_id": "6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b", "os_name": "iOS", "device_type": "Mobile", "brand_id": 7,
        ])
        let id = try #require((harness.object(session)["data"] as? [String: Any])?["id"] as? String, "\(String(decoding: session.body, as: UTF8.self))")
        let event: [String: Any] = ["brand_id": 7, "session_id": id, "event_name": "VIEW_PAGE", "data": ["screen": "home"]]
        for _ in 0..<2 { #expect(harness.send("POST", "/mobiletracker/v2/tracking-session-data", headers: Self.apiKey, json: event).status == 200) }
        let state = harness.state("mobiletracker")
        #expect(state["sessions"] as? Int == 1 && state["events"] as? Int == 2 && state["repeatedEvents"] as? Int == 1)
        #expect(harness.lines.all.isEmpty, "strict mode: \(harness.lines.all)")
    }

    // MARK: Faults that need state

    @Test func aDroppedResponseWasAppliedSoTheRetryIsAReplay() throws {
        let harness = try Harness(faults: FaultPlan(droppedResponseShare: 1))
        let event: [String: Any] = [
            "event_key": "k-1", "phone_number_e164": "+15550000042", "outcome": "displayed", "surface": "display", "displayed_at": "2025-01-15T08:30:00Z",
        ]
        let dropped = harness.send("POST", "/securenode/api/mobile/branding/event", headers: Self.apiKey, json: event)
        #expect(dropped.dropsConnection)
        #expect(harness.state("securenode")["eventsBilled"] as? Int == 1, "applied before the answer was lost")
        _ = harness.send("PUT", Sandbox.faultsPath, json: [String: Any]())
        #expect(harness.send("POST", "/securenode/api/mobile/branding/event", headers: Self.apiKey, json: event).status == 200)
        #expect(harness.state("securenode")["eventsBilled"] as? Int == 1 && harness.state("securenode")["billingReplays"] as? Int == 1)
    }

    @Test func anExpiredTokenFaultExpiresTheTokenSoTheClientMustRefresh() throws {
        let harness = try Harness()
        let (access, refresh) = try Self.soulSignIn(harness)
        _ = harness.send("PUT", Sandbox.faultsPath, json: ["expiredTokenShare": 1])
        #expect(harness.send("GET", "/soul/api/moods", headers: Self.bearer(access)).status == 401)
        _ = harness.send("PUT", Sandbox.faultsPath, json: [String: Any]())
        #expect(harness.send("GET", "/soul/api/moods", headers: Self.bearer(access)).status == 401, "expired for good, not for one answer")
        let rotated = harness.object(harness.send("POST", "/soul/api/auth/refresh", json: ["old_refresh_token": refresh]))
        #expect(harness.send("GET", "/soul/api/moods", headers: Self.bearer(try #require(rotated["access_token"] as? String))).status == 200)
        let counts = try #require(harness.object(harness.send("GET", Sandbox.requestsPath))["soul"] as? [String: Any])
        #expect(counts["injected"] as? Int == 1)
    }

    @Test func strictModeTurnsAnAnswerThatBreaksTheSpecIntoA500() throws {
        let lines = LogLines()
        let items = try SandboxTests.backend("items", spec: """
            openapi: 3.0.3
            info: {title: Items, version: '1'}
            paths:
              /items:
                get:
                  operationId: listItems
                  responses:
                    '200':
                      description: The items.
                      content:
                        application/json:
                          schema:
                            type: object
                            required: [items]
                            properties:
                              items: {type: array, items: {type: integer}}
                          example: {items: [1, "two"]}
            """)
        let sandbox = Sandbox(backends: [items], strict: true, log: lines.append)
        let reply = sandbox.handle(ContractRequest(method: "GET", path: "/items/items"))
        #expect(reply.status == 500)
        let body = try #require(try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any])
        let violations = try #require(body["violations"] as? [[String: String]])
        #expect(violations.first?["field"] == "response.body.items[1]" && violations.first?["rule"] == "type")
        #expect(violations.first?["spec"]?.hasSuffix("items.yaml:16:47") == true, "\(violations)")
        #expect(lines.all.count == 1 && lines.all[0].contains("strict"))
    }
}

/// A clock a test moves by hand.
final class TestClock: @unchecked Sendable {
    // Safe: `current` is only touched while holding `lock`.
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_767_225_600)

    var now: @Sendable () -> Date { { [self] in lock.withLock { current } } }
    func advance(seconds: Double) { lock.withLock { current = current.addingTimeInterval(seconds) } }
}

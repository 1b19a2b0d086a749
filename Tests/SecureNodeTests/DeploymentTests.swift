import BackendDoubles
import BrandingStore
import ClientRuntime
import ClientRuntimeTesting
import Foundation
import LoopbackHTTPServer
import Resilience
import SecureNodeEngine
import SecureNodeAPI
import Testing
import Waiting

/// What a real deployment sends that the happy path does not: error bodies
/// of any shape, acknowledgements without `success`, an API mounted at the
/// root or under `/api`, refused credentials while events wait.
@Suite struct DeploymentTests {
    let fake: FakeSecureNode
    let folder: URL

    init() throws {
        fake = try FakeSecureNode()
        folder = try makeFolder("deployment")
        route("POST /api/mobile/device/register", .json(200, #"{"success":true,"device_id":"device-1"}"#))
        route("POST /api/mobile/device/presence", .json(200, #"{"success":true}"#))
        route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([FakeSecureNode.record("+61412345678", "Acme Bank")], syncedAt: "2024-01-02T08:15:00Z")))
    }

    func route(_ route: String, _ reply: LoopbackHTTPServer.Reply) { fake.route(route, reply) }

    func makeSDK(clock: ManualClock? = nil) throws -> SecureNodeEngine {
        try SecureNodeEngine(.init(
            apiURL: fake.server.baseURL, apiKey: "sk_live_secret", folder: folder,
            device: DeviceProfile(deviceID: "device-1", platform: .ios, sdkVersion: "1.0.0"), transport: FakeSecureNode.transport(), sendsHeartbeats: false)
            .with {
                $0.logoFetch = { _ in testLogo() }
                if let clock { $0.connection.clock = clock.sdkClock }
            })
    }


    @Test(arguments: [
        (401, LoopbackHTTPServer.Reply.respond(status: 401, body: "")),
        (401, .respond(status: 401, headers: [("Content-Type", "text/plain")], body: "Unauthorized")),
        (401, .json(401, #"{"error":"unauthorized"}"#)),
        (403, .respond(status: 403, headers: [("Content-Type", "text/html")], body: "<html>Forbidden</html>")),
        (403, .json(403, #"{"error":"forbidden","message":"key revoked"}"#)),
    ])
    func anAuthenticationFailureDisablesBrandingWhateverTheBody(status: Int, reply: LoopbackHTTPServer.Reply) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let sdk = try makeSDK()
        _ = await sdk.sync()
        #expect(sdk.lookup(e164: "+61412345678", atRingTime: false) != nil)
        route("GET /api/mobile/branding/sync", reply)
        #expect(await sdk.sync() == .disabled(status: status))
        #expect(sdk.lookup(e164: "+61412345678", atRingTime: false) == nil)
    }

    @Test func everyRequestCarriesTheContractsHeaders() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        route("POST /api/mobile/branding/event", .json(200, #"{"success":true,"event_id":"evt_1"}"#))
        route("GET /api/mobile/branding/lookup", .json(404, #"{"error":"not_found"}"#))
        let sdk = try makeSDK()
        _ = await sdk.sync()
        _ = sdk.lookup(e164: "+447700900123", atRingTime: false)
        sdk.recordMissedCall(phoneNumberE164: "+61412345678", brandingDisplayed: true)
        await sdk.deliverPendingEvents()
        #expect(try await eventually { !fake.requests("/api/mobile/branding/lookup").isEmpty })
        let requests = fake.server.requests
        #expect(Set(requests.map { "\($0.method) \($0.path)" }).isSuperset(of: [
            "GET /api/mobile/branding/sync", "GET /api/mobile/branding/lookup", "POST /api/mobile/branding/event",
            "POST /api/mobile/device/register", "POST /api/mobile/device/presence",
        ]))
        for request in requests {
            #expect(request.header("Content-Type") == "application/json", "\(request.method) \(request.target)")
            #expect(request.header("X-API-Key") == "sk_live_secret")
        }
    }

    @Test(arguments: [#"{}"#, #"{"device_id":"device-1"}"#, #"{"success":"yes"}"#])
    func aRegistrationAcknowledgedWithoutSuccessIsNotRepeated(body: String) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        route("POST /api/mobile/device/register", .json(200, body))
        let sdk = try makeSDK()
        _ = await sdk.sync()
        _ = await sdk.sync()
        _ = try await makeSDK().sync()
        #expect(fake.requests("/api/mobile/device/register").count == 1)
    }

    @Test func aRegistrationRefusedWithSuccessFalseIsTriedAgain() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        route("POST /api/mobile/device/register", .json(200, #"{"success":false}"#))
        let sdk = try makeSDK()
        _ = await sdk.sync()
        route("POST /api/mobile/device/register", .json(200, #"{"success":true}"#))
        _ = await sdk.sync()
        _ = await sdk.sync()
        #expect(fake.requests("/api/mobile/device/register").count == 2)
    }

    @Test func timerHeartbeatsCarryTheLastSyncTime() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = ManualClock()
        let sdk = try makeSDK(clock: clock)
        #expect(await sdk.heartbeatIfDue())
        let beforeSync = try #require(fake.requests("/api/mobile/device/presence").last).bodyText
        #expect(!beforeSync.contains("last_synced_at"), "no sync yet: nothing to report")
        _ = await sdk.sync()
        let afterSync = try #require(fake.requests("/api/mobile/device/presence").last).bodyText
        let synced = try #require(afterSync.range(of: #""last_synced_at":"[^"]+""#, options: .regularExpression).map { String(afterSync[$0]) })
        #expect(await !sdk.heartbeatIfDue(), "the sync's heartbeat was the last: none due yet")
        clock.advance(by: .seconds(301))
        #expect(await sdk.heartbeatIfDue())
        #expect(try #require(fake.requests("/api/mobile/device/presence").last).bodyText.contains(synced), "the timer's heartbeat too")
        clock.advance(by: .seconds(301))
        #expect(try await makeSDK(clock: clock).heartbeatIfDue())
        #expect(try #require(fake.requests("/api/mobile/device/presence").last).bodyText.contains(synced), "and after a restart: \(fake.requests("/api/mobile/device/presence").map(\.bodyText))")
    }

    // MARK: Where the API is mounted

    /// Routes the SDK's calls at `prefix` (`""`: the root) and nowhere else.
    func mount(at prefix: String) {
        for route in ["POST /mobile/device/register", "POST /mobile/device/presence", "GET /mobile/branding/sync", "POST /mobile/branding/event"] {
            let parts = route.split(separator: " ")
            for candidate in ["", "/api"] {
                fake.route("\(parts[0]) \(candidate)\(parts[1])", .json(404, #"{"error":"not_found"}"#))
            }
        }
        route("POST \(prefix)/mobile/device/register", .json(200, #"{"success":true}"#))
        route("POST \(prefix)/mobile/device/presence", .json(200, #"{"success":true}"#))
        route("GET \(prefix)/mobile/branding/sync", .json(200, FakeSecureNode.sync([FakeSecureNode.record("+61412345678", "Acme Bank")], syncedAt: "2024-01-02T08:15:00Z")))
    }

    @Test func theAPIAtTheRootIsFoundAfterOne404AtSlashAPIAndRemembered() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        mount(at: "")
        guard case .upToDate = try await makeSDK().sync() else {
            Issue.record("sync failed")
            return
        }
        #expect(fake.server.requests.filter { $0.path.hasPrefix("/api/") }.count == 1, "one 404 at /api, the spec's mount, then the root")
        let sdk = try makeSDK()
        let before = fake.server.requests.count
        _ = await sdk.sync()
        #expect(fake.server.requests.dropFirst(before).allSatisfy { !$0.path.hasPrefix("/api/") }, "a restart goes straight to the root")
    }

    @Test func anAPIUnderSlashAPIIsFoundFirstAndRediscoveredWhenItMoves() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        mount(at: "/api")
        let sdk = try makeSDK()
        guard case .upToDate = await sdk.sync() else {
            Issue.record("sync failed: \(await sdk.syncStatus())")
            return
        }
        #expect(fake.server.requests.allSatisfy { $0.path.hasPrefix("/api/") }, "the spec's mount answered: the root was never asked")
        // The API moves to the root: one 404 at /api, then the root is found.
        mount(at: "")
        guard case .upToDate = await sdk.sync() else {
            Issue.record("sync after the move failed: \(await sdk.syncStatus())")
            return
        }
        let afterMove = fake.server.requests.count
        _ = await sdk.sync()
        #expect(fake.server.requests.dropFirst(afterMove).allSatisfy { !$0.path.hasPrefix("/api/") })
    }

    /// What a gateway, a proxy or a web server in front of the API answers at a mount where the API is not.
    static let notTheAPI: [(String, LoopbackHTTPServer.Reply)] = [
        ("a gateway's 403 page", .respond(status: 403, headers: [("Content-Type", "text/html")], body: "<html>Forbidden</html>")),
        ("a gateway's 403 JSON", .json(403, #"{"message":"Missing Authentication Token"}"#)),
        ("a proxy's 502", .respond(status: 502, headers: [("Content-Type", "text/html")], body: "<html>Bad Gateway</html>")),
        ("a 503 JSON", .json(503, #"{"error":"unavailable"}"#)),
        ("a 200 HTML page", .respond(status: 200, headers: [("Content-Type", "text/html")], body: "<!doctype html><title>Welcome</title>")),
    ]

    @Test(arguments: 0..<notTheAPI.count)
    func whatIsNotTheAPIAtOneMountMovesOnToTheOtherAndPinsNothing(case index: Int) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (name, reply) = Self.notTheAPI[index]
        mount(at: "")
        for path in ["POST /api/mobile/device/register", "POST /api/mobile/device/presence", "GET /api/mobile/branding/sync"] {
            route(path, reply)
        }
        let sdk = try makeSDK()
        guard case .upToDate = await sdk.sync() else {
            Issue.record("\(name) at /api: \(await sdk.syncStatus())")
            return
        }
        #expect(sdk.lookup(e164: "+61412345678", atRingTime: false)?.brandName == "Acme Bank", "\(name): branding works from the root")
        #expect(try String(contentsOf: folder.appendingPathComponent("api-mount"), encoding: .utf8) == "root", "\(name): the root is pinned, /api never")
    }

    @Test func aMountPinnedByAGatewayBeforeIsLeftForTheAPI() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // An earlier version pinned the root on a gateway's 403; the API is under /api.
        try Data("root".utf8).write(to: folder.appendingPathComponent("api-mount"))
        route("GET /mobile/branding/sync", .respond(status: 403, headers: [("Content-Type", "text/html")], body: "<html>Forbidden</html>"))
        let sdk = try makeSDK()
        guard case .upToDate = await sdk.sync() else {
            Issue.record("a stale root pin: \(await sdk.syncStatus())")
            return
        }
        #expect(sdk.isBrandingActive && sdk.lookup(e164: "+61412345678", atRingTime: false) != nil, "the gateway's 403 does not disable branding")
        #expect(try String(contentsOf: folder.appendingPathComponent("api-mount"), encoding: .utf8) == "/api")
    }

    @Test func aWriteIsNotSentToASecondMountAfterAnAnswerThatMayHaveAppliedIt() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        route("POST /api/mobile/device/register", .respond(status: 502, headers: [("Content-Type", "text/html")], body: "<html>Bad Gateway</html>"))
        let sdk = try makeSDK()
        _ = await sdk.sync()
        #expect(fake.requests("/mobile/device/register").isEmpty, "registration is not idempotent by the spec: not repeated at the root")
    }

    @Test func anyOtherRequestEndsAtTheAttemptBound() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // The server holds its answer until the test ends: only the SDK's own bound can end the request.
        let stall = ReplyGate()
        defer { stall.open() }
        route("POST /api/mobile/device/presence", .gated(stall, .json(200, #"{"success":true}"#)))
        let sdk = try SecureNodeEngine(.init(
            apiURL: fake.server.baseURL, apiKey: "sk_live_secret", folder: folder,
            device: DeviceProfile(deviceID: "device-1", platform: .ios, sdkVersion: "1.0.0"), transport: FakeSecureNode.transport(), sendsHeartbeats: false, timeouts: TransportTimeouts(attemptDeadline: .milliseconds(500)))
            .with { $0.logoFetch = { _ in testLogo() } })
        #expect(await !sdk.heartbeatIfDue(), "the server did not answer within the bound")
        #expect(stall.arrivals == 1, "the request reached the server, which never answered it")
    }

    // MARK: Refused credentials come back

    func makeSDK(recheck: BackoffPolicy, clock: ManualClock? = nil) throws -> SecureNodeEngine {
        try SecureNodeEngine(.init(
            apiURL: fake.server.baseURL, apiKey: "sk_live_secret", folder: folder,
            device: DeviceProfile(deviceID: "device-1", platform: .ios, sdkVersion: "1.0.0"), transport: FakeSecureNode.transport(), sendsHeartbeats: false)
            .with {
                $0.logoFetch = { _ in testLogo() }
                $0.refusalRecheck = recheck
                if let clock { $0.connection.clock = clock.sdkClock }
            })
    }

    @Test func aRefusedKeyIsAskedAboutAgainAndBrandingComesBackByItself() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = ManualClock()
        let sdk = try makeSDK(recheck: BackoffPolicy(baseDelay: .seconds(60), maximumDelay: .seconds(3600)), clock: clock)
        _ = await sdk.sync()
        let refused = LoopbackHTTPServer.Reply.json(401, #"{"error":"unauthorized"}"#)
        route("GET /api/mobile/branding/sync", refused)
        #expect(await sdk.sync() == .disabled(status: 401))
        #expect(sdk.lookup(e164: "+61412345678", atRingTime: false) == nil)
        let refusedAt = fake.requests("/api/mobile/branding/sync").count
        let checks = { fake.requests("/api/mobile/branding/sync").count - refusedAt }
        for check in 1...3 {
            // The watch sleeps its backoff on the clock: no check until it has passed.
            #expect(try await eventually { checks() == check - 1 && clock.sleeperCount == 1 }, "check \(check) waits")
            clock.advance(by: .seconds(29))
            #expect(clock.sleeperCount == 1 && checks() == check - 1, "never two checks within half the first backoff (30 s)")
            clock.advance(by: .seconds(3600))
            #expect(try await eventually { checks() == check }, "checked again, on its own: one cheap request per check")
        }
        #expect(fake.requests("/api/mobile/branding/sync").dropFirst(refusedAt).allSatisfy { $0.query?.contains("since=") == true },
            "each check asks for changes since now: nothing to download")

        route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([FakeSecureNode.record("+61412345678", "Acme Bank")], syncedAt: "2024-01-03T00:00:00Z")))
        #expect(try await eventually { clock.sleeperCount == 1 })
        clock.advance(by: .seconds(3600))
        #expect(try await eventually { sdk.isBrandingActive }, "the key is accepted again: branding is back without the app doing anything")
        #expect(try await eventually { sdk.lookup(e164: "+61412345678", atRingTime: false)?.brandName == "Acme Bank" })
        #expect(try await eventually { await sdk.syncStatus().isUpToDate })
        #expect(try await eventually { clock.sleeperCount == 0 }, "the watch ended: nothing waits for a next check")
        let settled = fake.requests("/api/mobile/branding/sync").count
        clock.advance(by: .seconds(7200))
        #expect(fake.requests("/api/mobile/branding/sync").count == settled, "no check after the key was accepted")
    }

    @Test func aRelaunchWithARefusedKeyAsksAtOnceInsteadOfNever() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let slow = BackoffPolicy(baseDelay: .seconds(3600), maximumDelay: .seconds(3600))
        do {
            let first = try makeSDK(recheck: slow)
            _ = await first.sync()
            route("GET /api/mobile/branding/sync", .respond(status: 403, headers: [("Content-Type", "text/html")], body: "<html>Forbidden</html>"))
            #expect(await first.sync() == .disabled(status: 403))
        }
        // The server's outage of the key is over; the app relaunches with the same key and does nothing else.
        route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([FakeSecureNode.record("+61412345678", "Acme Bank")], syncedAt: "2024-01-03T00:00:00Z")))
        let relaunched = try makeSDK(recheck: slow)
        #expect(!relaunched.isBrandingActive, "it starts refused, as the last launch left it")
        #expect(try await eventually { relaunched.isBrandingActive }, "one check at launch brings branding back")
        #expect(try await eventually { relaunched.lookup(e164: "+61412345678", atRingTime: false) != nil })
    }

    @Test func aLookupsNoMatchIsAnAnswerNotAMove() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        route("GET /api/mobile/branding/lookup", .json(404, #"{"error":"not_found"}"#))
        let sdk = try makeSDK()
        _ = await sdk.sync()
        let before = fake.server.requests.count
        #expect(sdk.lookup(e164: "+447700900123", atRingTime: false) == nil)
        #expect(try await eventually {
            guard fake.server.requests.count > before else { return false }
            return await sdk.fallback.isIdle
        }, "the lookup is answered")
        #expect(fake.server.requests.dropFirst(before).map(\.path) == ["/api/mobile/branding/lookup"], "no probe of the root")
    }

    // MARK: Billing and credentials

    @Test func refusedCredentialsPauseBillingAndNothingIsLost() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        route("POST /api/mobile/branding/event", .respond(status: 401, body: "no"))
        let sdk = try makeSDK()
        _ = await sdk.sync()
        let notices = await sdk.billingNotices()
        let keys = (0..<3).compactMap { _ in sdk.recordMissedCall(phoneNumberE164: "+61412345678", brandingDisplayed: true) }
        #expect(keys.count == 3)
        await sdk.deliverPendingEvents()
        #expect(await sdk.billingPausedForStatus() == 401)
        let attempts = fake.requests("/api/mobile/branding/event").count
        #expect(attempts >= 1 && attempts <= 3)
        await sdk.deliverPendingEvents()
        _ = await sdk.sync()
        #expect(fake.requests("/api/mobile/branding/event").count == attempts, "paused: nothing sent until the credentials change")
        #expect(try sdk.outbox.counts() == BillingOutbox.Counts(pending: 3, delivered: 0, dropped: 0))

        route("POST /api/mobile/branding/event", .json(200, #"{"success":true,"event_id":"evt"}"#))
        await sdk.configure(apiKey: "sk_live_rotated")
        await sdk.deliverPendingEvents()
        #expect(try sdk.outbox.counts() == BillingOutbox.Counts(pending: 0, delivered: 3, dropped: 0))
        let delivered = fake.requests("/api/mobile/branding/event").filter { $0.header("X-API-Key") == "sk_live_rotated" }
        for key in keys { #expect(delivered.contains { $0.bodyText.contains(key) }, "sent again with the same key") }
        var seen: [BillingNotice] = []
        for await notice in notices {
            seen.append(notice)
            if seen.count == 2 { break }
        }
        #expect(seen == [.paused(status: 401), .resumed])
    }

    @Test func onlyAStatedRefusalDropsABillableEvent() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let sdk = try makeSDK()
        let notices = await sdk.billingNotices()
        let replies: [(LoopbackHTTPServer.Reply, dropped: Bool)] = [
            (.json(400, #"{"error":"invalid_request","message":"phone_number_e164 too long"}"#), true),
            (.json(422, #"{"error":"unprocessable"}"#), true),
            (.respond(status: 400, headers: [("Content-Type", "text/html")], body: "<html>Bad Request</html>"), false),
            (.json(404, #"{"error":"not_found"}"#), false),
            (.json(409, #"{"error":"conflict"}"#), false),
        ]
        var expectedDrops: [BillingNotice] = []
        for (index, (reply, dropped)) in replies.enumerated() {
            route("POST /api/mobile/branding/event", reply)
            let key = try #require(sdk.recordMissedCall(phoneNumberE164: "+61412345678", brandingDisplayed: true))
            // Settled: dropped, or kept with its attempt counted.
            #expect(try await eventually {
                let kept = ((try? sdk.outbox.due(at: .distantFuture, limit: 100)) ?? []).contains { $0.eventKey == key && $0.attempts > 0 }
                let gone = ((try? sdk.outbox.due(at: .distantFuture, limit: 100)) ?? []).allSatisfy { $0.eventKey != key }
                return kept || gone
            })
            let counts = try sdk.outbox.counts()
            #expect(counts.dropped == expectedDrops.count + (dropped ? 1 : 0), "reply \(index)")
            if dropped {
                let status = index == 0 ? 400 : 422
                expectedDrops.append(.dropped(eventKey: key, kind: .callEvent, status: status, reason: index == 0 ? "invalid_request" : "unprocessable"))
            }
        }
        #expect(try sdk.outbox.counts().pending == 3, "the three kept for a later attempt")
        var seen: [BillingNotice] = []
        for await notice in notices {
            seen.append(notice)
            if seen.count == expectedDrops.count { break }
        }
        #expect(seen == expectedDrops)
    }
}

import BackendDoubles
import BrandingStore
import ClientRuntime
import ClientRuntimeTesting
import Foundation
import LoopbackHTTPServer
import RuntimeSupport
import SDKCore
import SecureNodeEngine
import SecureNodeAPI
import Testing
import Waiting

/// The `SecureNode` facade as a host app drives it, against a loopback server.
@Suite struct FacadeTests {
    let fake: FakeSecureNode
    let folder: URL
    let sdk: SecureNodeEngine

    init() throws {
        fake = try FakeSecureNode()
        folder = try makeFolder("facade")
        fake.acceptDevice()
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([
            FakeSecureNode.record("+61412345678", "Acme Bank", extra: "").replacingOccurrences(of: #""logo_url":null"#, with: #""logo_url":"https://assets.securenode.io/logos/acme.png""#),
            FakeSecureNode.record("+1234567890", "Contoso Health"),
        ], syncedAt: "2024-01-02T08:15:00Z")))
        sdk = try SecureNodeEngine(.init(
            apiURL: fake.server.baseURL, apiKey: "sk_live_secret", folder: folder,
            device: DeviceProfile(deviceID: "device-1", platform: .ios, sdkVersion: "1.0.0"), transport: FakeSecureNode.transport(), sendsHeartbeats: false)
            .with { $0.logoFetch = { url in testLogo("logo \(url.lastPathComponent)") } })
    }


    @Test func launchFlowRegistersSyncsBeatsAndCachesLogos() async throws {
        guard case .upToDate(_, .full, _) = await sdk.sync() else {
            Issue.record("sync: \(await sdk.syncStatus())")
            return
        }
        #expect(fake.requests("/api/mobile/device/register").count == 1)
        #expect(fake.requests("/api/mobile/device/presence").count == 1, "a heartbeat after the sync")
        #expect(fake.server.requests.allSatisfy { $0.header("X-API-Key") == "sk_live_secret" }, "every request carries the key")
        let record = try #require(sdk.lookup(e164: "+61412345678", atRingTime: false))
        #expect(record.brandName == "Acme Bank")
        #expect(sdk.cachedLogo(for: record) == testLogo("logo acme.png"), "logos fetched after the sync, read from disk")
        try sdk.clearImageCache()
        #expect(sdk.cachedLogo(for: record) == nil)
        await sdk.configure(apiKey: "sk_live_rotated")
        _ = await sdk.sync()
        #expect(fake.server.requests.last?.header("X-API-Key") == "sk_live_rotated")
        #expect(fake.requests("/api/mobile/device/register").count == 1, "registered once per install")
    }

    @Test func aLaunchDuringACallReturnsAtOnceAndSendsNothing() async throws {
        // The app launched while a call rings (CallKit woke it): the launch
        // flow must not wait for the call's end behind the device's
        // registration, which the call holds back.
        sdk.calls.callStarted()
        let synced = Locked<BrandingSyncStatus?>(nil)
        Task { let status = await sdk.sync(); synced.withLock { $0 = status } }
        try await waitUntil("sync() to return while the call is in progress, not when it ends") { synced.read() != nil }
        #expect(synced.read() == .deferredForCall)
        #expect(sdk.calls.heldBack == 0 && fake.server.requests.isEmpty, "nothing of the launch flow sent or held during the call")
        sdk.calls.callEnded()
        guard case .upToDate(_, .full, _) = await sdk.sync() else {
            Issue.record("sync after the call: \(await sdk.syncStatus())")
            return
        }
        #expect(fake.requests("/api/mobile/device/register").count == 1, "registered after the call")
    }

    @Test func logosOfPurgedRecordsAreDeleted() async throws {
        _ = await sdk.sync()
        let record = try #require(sdk.lookup(e164: "+61412345678", atRingTime: false))
        #expect(sdk.cachedLogo(for: record) != nil)
        let file = sdk.logos.folder.appendingPathComponent(LogoCache.fileName(for: "https://assets.securenode.io/logos/acme.png"))
        #expect(FileManager.default.fileExists(atPath: file.path))
        // The record is purged: its logo goes with it.
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync(
            [FakeSecureNode.record("+61412345678", "Acme Bank", active: false)], syncedAt: "2024-01-03T00:00:00Z")))
        guard case .upToDate(_, .incremental, let outcome) = await sdk.sync(), outcome.deleted == 1 else {
            Issue.record("purge: \(await sdk.syncStatus())")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: file.path), "the purged record's logo is deleted")
        #expect(sdk.logos.totalBytes() == 0)
    }

    @Test func unauthorizedTurnsBrandingOffUntilConfigured() async throws {
        _ = await sdk.sync()
        #expect(sdk.lookup(e164: "+61412345678", atRingTime: false) != nil)
        fake.route("GET /api/mobile/branding/sync", .json(401, #"{"error":"unauthorized"}"#))
        #expect(await sdk.sync() == .disabled(status: 401))
        #expect(sdk.lookup(e164: "+61412345678", atRingTime: false) == nil, "branding is off")
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([], syncedAt: "2024-01-03T00:00:00Z")))
        await sdk.configure(apiKey: "sk_live_new")
        #expect(sdk.lookup(e164: "+61412345678", atRingTime: false) != nil, "on again with new credentials")

        // The server can switch branding off in its config, and on again.
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([], syncedAt: "2024-01-04T00:00:00Z", config: #"{"branding_enabled":false}"#)))
        _ = await sdk.sync()
        #expect(sdk.lookup(e164: "+61412345678", atRingTime: false) == nil, "branding_enabled: false")
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([], syncedAt: "2024-01-05T00:00:00Z")))
        _ = await sdk.sync()
        #expect(sdk.lookup(e164: "+61412345678", atRingTime: false) != nil)
    }

    @Test func aMissReturnsAtOnceAndLearnsInTheBackground() async throws {
        _ = await sdk.sync()
        fake.route("GET /api/mobile/branding/lookup", .delayed(.milliseconds(200), .json(200,
            #"{"e164":"+447700900123","brand_name":"Northwind","logo_url":null,"call_reason":null}"#)))
        #expect(sdk.lookup(e164: "+447700900123", atRingTime: false) == nil, "a miss returns without waiting for the network")
        #expect(try await eventually { sdk.lookup(e164: "+447700900123", atRingTime: false)?.brandName == "Northwind" })
    }

    @Test func noRequestOfAnyKindLeavesWhileACallIsInProgress() async throws {
        fake.route("POST /api/mobile/branding/imprint", .json(200, #"{"success":true}"#))
        fake.route("POST /api/mobile/branding/event", .json(200, #"{"success":true,"event_id":"evt_1"}"#))
        fake.route("GET /api/mobile/branding/lookup", .json(200,
            #"{"e164":"+447700900123","brand_name":"Northwind","logo_url":null,"call_reason":null}"#))
        _ = await sdk.sync()
        let before = fake.server.requests.count

        sdk.calls.callStarted()
        sdk.calls.callStarted()  // call waiting: two calls at once
        #expect(sdk.lookup(e164: "+447700900123") == nil, "a miss at ring time")
        #expect(sdk.assistIncomingCall(phoneNumberE164: "+61412345678") != nil, "a hit, imprinted")
        #expect(sdk.recordMissedCall(phoneNumberE164: "+447700900123", brandingDisplayed: false) != nil)
        let delivering = Task { await sdk.deliverPendingEvents() }
        let syncing = Task { await sdk.sync() }
        // The miss's lookup, the imprint and the event (sent by whichever of
        // the two asked first): each held back before it is sent.
        #expect(try await eventually { sdk.calls.heldBack == 3 })
        sdk.calls.callEnded()
        #expect(sdk.calls.heldBack == 3, "one of two calls ended: the other still holds everything back")
        #expect(fake.server.requests.count == before, "zero requests while any call is in progress, however many were asked for")

        sdk.calls.callEnded()
        await delivering.value
        #expect(await syncing.value == .deferredForCall, "no sync during a call")
        #expect(try await eventually { sdk.lookup(e164: "+447700900123", atRingTime: false)?.brandName == "Northwind" }, "the miss is looked up after the call")
        #expect(fake.requests("/api/mobile/branding/imprint").count == 1 && fake.requests("/api/mobile/branding/event").count == 1,
                "what was recorded during the call is delivered after it")
    }

    @Test func aRingTimeLookupBeforeTheCallIsReportedKeepsTheCallQuiet() async throws {
        fake.route("GET /api/mobile/branding/lookup", .json(200,
            #"{"e164":"+447700900123","brand_name":"Northwind","logo_url":null,"call_reason":null}"#))
        fake.route("POST /api/mobile/branding/event", .json(200, #"{"success":true,"event_id":"evt_1"}"#))
        _ = await sdk.sync()
        _ = sdk.recordMissedCall(phoneNumberE164: "+61412345678", brandingDisplayed: true)
        await sdk.deliverPendingEvents()
        let before = fake.server.requests.count
        // The usual CallKit order: the app looks the caller up, then reports the call.
        #expect(sdk.lookup(e164: "+447700900123") == nil, "a miss")
        _ = sdk.recordMissedCall(phoneNumberE164: "+61412345678", brandingDisplayed: true)
        let delivering = Task { await sdk.deliverPendingEvents() }
        // The miss's lookup and the event, held back before the host reported the call.
        #expect(try await eventually { sdk.calls.heldBack == 2 })
        #expect(fake.server.requests.count == before, "nothing between the lookup and the call")
        sdk.calls.callStarted()
        #expect(sdk.calls.heldBack == 2 && fake.server.requests.count == before, "nor during it")
        sdk.calls.callEnded()
        await delivering.value
        #expect(try await eventually { sdk.lookup(e164: "+447700900123", atRingTime: false)?.brandName == "Northwind" },
            "the miss is looked up once the call ended")
        #expect(fake.requests("/api/mobile/branding/event").count == 2)
    }

    @Test func aRingTimeLookupWithoutAReportedCallIsQuietForItsBoundOnly() async throws {
        let folder = try makeFolder("ring-bound")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = ManualClock()
        fake.route("GET /api/mobile/branding/lookup", .json(200,
            #"{"e164":"+447700900123","brand_name":"Northwind","logo_url":null,"call_reason":null}"#))
        let sdk = try SecureNodeEngine(.init(
            apiURL: fake.server.baseURL, apiKey: "sk_live_secret", folder: folder,
            device: DeviceProfile(deviceID: "device-3", platform: .ios, sdkVersion: "1.0.0"), transport: FakeSecureNode.transport(), sendsHeartbeats: false)
            .with { $0.logoFetch = { _ in testLogo() }; $0.connection.clock = clock.sdkClock })
        _ = await sdk.sync()
        let before = fake.server.requests.count
        #expect(sdk.lookup(e164: "+447700900123") == nil)
        #expect(await sdk.sync() == .deferredForCall, "ring time: no sync either")
        // The miss's lookup waits; the window's timer sleeps on the clock.
        #expect(try await eventually { sdk.calls.heldBack == 1 && clock.sleeperCount == 1 })
        clock.advance(by: .seconds(59))
        #expect(clock.sleeperCount == 1 && sdk.calls.heldBack == 1 && fake.server.requests.count == before,
            "quiet while the phone may still ring (59 of 60 s): the window's timer still asleep")
        clock.advance(by: .seconds(1))
        #expect(try await eventually { sdk.lookup(e164: "+447700900123", atRingTime: false)?.brandName == "Northwind" },
            "the host reported no call: quiet for the bound (60 s), then the miss is learned")
    }

    @Test func theSeenEventIsTheREADMEsBodyWithTheCallsOutcomeInMeta() async throws {
        fake.route("POST /api/mobile/branding/event", .json(200, #"{"success":true,"event_id":"evt_seen"}"#))
        let folder = try makeFolder("seen-event")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The system's clock, set 30 s ahead while the call rings: the
        // events are recorded later than identity was shown.
        let ahead = Locked(0.0)
        let clock = SDKClock(now: { Date().addingTimeInterval(ahead.read()) }, elapsed: SDKClock.system.elapsed, sleep: SDKClock.system.sleep)
        let sdk = try SecureNodeEngine(.init(
            apiURL: fake.server.baseURL, apiKey: "sk_live_secret", folder: folder,
            device: DeviceProfile(deviceID: "device-4", platform: .ios, sdkVersion: "1.0.0"), transport: FakeSecureNode.transport(), sendsHeartbeats: false)
            .with { $0.logoFetch = { _ in testLogo() }; $0.connection.clock = clock })
        _ = await sdk.sync()
        sdk.calls.callStarted()
        let shownAt = clock.now()
        #expect(sdk.lookup(e164: "+61412345678") != nil, "identity shown at ring time")
        ahead.withLock { $0 = 30 }
        sdk.calls.callEnded()
        let seen = try #require(sdk.recordCallSeen(phoneNumberE164: "+61412345678", brandingDisplayed: true, callOutcome: .answered, ringDurationSeconds: 7))
        _ = sdk.recordMissedCall(phoneNumberE164: "+61412345678", brandingDisplayed: true)
        _ = sdk.recordCallReturned(phoneNumberE164: "+61412345678", callEventKey: seen, returnCallLatencySeconds: 60)
        await sdk.deliverPendingEvents()
        let bodies = try fake.requests("/api/mobile/branding/event").map { try #require(JSONSerialization.jsonObject(with: Data($0.body)) as? [String: Any]) }
        #expect(bodies.count == 3)
        let seenBody = try #require(bodies.first { ($0["meta"] as? [String: Any])?["call_outcome"] as? String == "ANSWERED" })
        #expect(seenBody["outcome"] as? String == "displayed" && seenBody["surface"] as? String == "display")
        let displayedAt = try #require((seenBody["displayed_at"] as? String).flatMap(JSONCoding.parseDateTime))
        #expect(abs(displayedAt.timeIntervalSince(shownAt)) < 0.5, "displayed_at is when identity was shown, not when the event was recorded")
        let missed = try #require(bodies.first { ($0["meta"] as? [String: Any])?["call_outcome"] as? String == "MISSED" })
        #expect(missed["outcome"] as? String == "displayed" && missed["surface"] as? String == "display")
        let returned = try #require(bodies.first { ($0["meta"] as? [String: Any])?["return_call_detected"] as? Bool == true })
        #expect(returned["outcome"] as? String == "returned" && returned["surface"] as? String == "display")
        #expect((returned["meta"] as? [String: Any])?["call_event_id"] as? String == "evt_seen")
        #expect((returned["meta"] as? [String: Any])?["return_call_latency_seconds"] as? Int == 60)
    }

    @Test func callDirectoryReloadsOnlyForChangesAndNotTooOften() async throws {
        _ = await sdk.sync()
        var reloads = 0
        let start = Date()
        #expect(try sdk.reloadCallDirectoryIfNeeded(now: start) { reloads += 1 })
        let lines = try String(contentsOf: sdk.callDirectory.current, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("1234567890"), "ascending by numeric value")
        #expect(try sdk.reloadCallDirectoryIfNeeded(now: start.addingTimeInterval(3600)) { reloads += 1 } == false, "unchanged dataset")
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([FakeSecureNode.record("+447700900123", "Northwind")], syncedAt: "2024-01-03T00:00:00Z")))
        _ = await sdk.sync()
        #expect(try sdk.reloadCallDirectoryIfNeeded(now: start.addingTimeInterval(60)) { reloads += 1 } == false, "changed, but within 15 minutes")
        #expect(try sdk.reloadCallDirectoryIfNeeded(now: start.addingTimeInterval(16 * 60)) { reloads += 1 })
        #expect(reloads == 2)
        #expect(try String(contentsOf: sdk.callDirectory.current, encoding: .utf8).split(separator: "\n").count == 3)
    }

    @Test func aFailedCallDirectoryReloadPutsTheLoadedSnapshotBack() async throws {
        struct ReloadRefused: Error {}
        _ = await sdk.sync()
        let start = Date()
        #expect(try sdk.reloadCallDirectoryIfNeeded(now: start) {})
        let loaded = try String(contentsOf: sdk.callDirectory.current, encoding: .utf8)
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([FakeSecureNode.record("+447700900123", "Northwind")], syncedAt: "2024-01-03T00:00:00Z")))
        _ = await sdk.sync()
        // iOS refuses the reload (the extension failed, or was disabled).
        await #expect(throws: ReloadRefused.self) {
            try await sdk.reloadCallDirectoryIfNeeded(now: start.addingTimeInterval(16 * 60)) { () async throws in throw ReloadRefused() }
        }
        #expect(try String(contentsOf: sdk.callDirectory.current, encoding: .utf8) == loaded, "the extension serves what iOS loaded")
        // The next attempt exports again and succeeds.
        var reloads = 0
        #expect(try await sdk.reloadCallDirectoryIfNeeded(now: start.addingTimeInterval(17 * 60)) { () async throws in reloads += 1 })
        #expect(reloads == 1)
        #expect(try String(contentsOf: sdk.callDirectory.current, encoding: .utf8).split(separator: "\n").count == 3)
    }

    @Test func anAssistedCallIsImprintedAndAFullEventCarriesEveryField() async throws {
        fake.route("POST /api/mobile/branding/imprint", .json(200, #"{"success":true}"#))
        fake.route("POST /api/mobile/branding/event", .json(200, #"{"success":true,"event_id":"evt_1"}"#))
        _ = await sdk.sync()
        // A number without branding: nothing shown, nothing billed.
        sdk.calls.callStarted()
        #expect(sdk.assistIncomingCall(phoneNumberE164: "+19995550000") == nil)
        sdk.calls.callEnded()
        sdk.calls.callStarted()
        let assisted = try #require(sdk.assistIncomingCall(phoneNumberE164: "+61412345678"))
        sdk.calls.callEnded()
        #expect(assisted.record.brandName == "Acme Bank")
        #expect(assisted.logo == testLogo("logo acme.png"), "the cached logo, read from disk")
        let outcome: CallOutcome = "VOICEMAIL"
        let key = sdk.recordCallEvent(
            phoneNumberE164: "+61412345678", callOutcome: outcome, brandingApplied: true, identityType: "verified_brand",
            brandingProfileID: "profile_7", ringDurationSeconds: 9, callDurationSeconds: 31, callEventKey: assisted.imprintKey)
        #expect(key != nil)
        await sdk.deliverPendingEvents()
        let imprints = fake.requests("/api/mobile/branding/imprint").map(\.bodyText)
        #expect(imprints.count == 1, "one imprint, for the branded call only")
        let imprint = try #require(imprints.first)
        #expect(imprint.contains(#""phone_number_e164":"+61412345678""#) && imprint.contains(#""brand_id":"brand_1""#))
        #expect(imprint.contains(#""outcome":"displayed""#) && imprint.contains(#""surface":"display""#))
        let event = try #require(fake.requests("/api/mobile/branding/event").map(\.bodyText).first)
        for field in [#""identity_type":"verified_brand""#, #""branding_profile_id":"profile_7""#, #""call_outcome":"VOICEMAIL""#,
                      #""branding_applied":true"#, #""ring_duration_seconds":9"#, #""call_duration_seconds":31"#, #""outcome":"displayed""#,
                      #""surface":"display""#] {
            #expect(event.contains(field), "\(field) in \(event)")
        }
        #expect(CallOutcome.answered.rawValue == "ANSWERED" && CallOutcome.missed.rawValue == "MISSED" && CallOutcome.rejected.rawValue == "REJECTED")
    }

    @Test func aReturnedCallIsSentWithTheSeenEventsServerID() async throws {
        fake.route("POST /api/mobile/branding/event", .json(200, #"{"success":true,"event_id":"evt_seen_1"}"#))
        let seen = try #require(sdk.recordCallSeen(phoneNumberE164: "+61412345678", brandingDisplayed: true, callOutcome: "ANSWERED", ringDurationSeconds: 12))
        sdk.recordCallReturned(phoneNumberE164: "+61412345678", callEventKey: seen, returnCallLatencySeconds: 120)
        await sdk.deliverPendingEvents()
        let events = fake.requests("/api/mobile/branding/event").map(\.bodyText)
        let first = try #require(events.first { $0.contains(seen) })
        #expect(first.contains(#""call_outcome":"ANSWERED""#) && first.contains(#""branding_applied":true"#))
        let returned = try #require(events.first { $0.contains(#""return_call_detected":true"#) })
        #expect(returned.contains(#""call_event_id":"evt_seen_1""#), "the follow-up carries the server's id: \(returned)")
        #expect(try sdk.outbox.counts() == BillingOutbox.Counts(pending: 0, delivered: 2, dropped: 0))
    }

    @Test func heartbeatsGoOnTheirOwnWhileTheSDKLives() async throws {
        let folder = try makeFolder("heartbeat")
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = ManualClock()
        var sdk: SecureNodeEngine? = try SecureNodeEngine(.init(
            apiURL: fake.server.baseURL, apiKey: "sk_live_secret", folder: folder,
            device: DeviceProfile(deviceID: "device-2", platform: .android), transport: FakeSecureNode.transport())
            .with { $0.connection.clock = clock.sdkClock })
        let presence = { fake.requests("/api/mobile/device/presence").count }
        for beat in 1...3 {
            // Sent, and the loop asleep until the next one is due (every 5 minutes).
            #expect(try await eventually { presence() == beat && clock.sleeperCount == 1 }, "heartbeat \(beat)")
            clock.advance(by: .seconds(300))
        }
        #expect(try await eventually { presence() == 4 && clock.sleeperCount == 1 })
        #expect(sdk != nil)
        sdk = nil
        #expect(try await eventually { clock.sleeperCount == 0 }, "the heartbeat loop ended with the SDK")
        clock.advance(by: .seconds(3000))
        #expect(presence() == 4, "no heartbeats once the SDK is released")
    }
}

import BackendDoubles
import Foundation
import LoopbackHTTPServer
import MobileTracker
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the reference documents and today's users met: any session id,
/// the 30-second initialization limit that holds against a stalled server,
/// `networkError(underlying:)`, `setMetadata` with neither a session nor a
/// user, and the exact bodies of `set` and `setMetadata`.
@Suite struct DocumentedBehaviourTests {
    @Test(arguments: [TrackerBackend.SessionIDStyle.numeric, .prefixed, .uuid])
    func anyNonEmptySessionIdTheBackendGivesIsUsed(style: TrackerBackend.SessionIDStyle) async throws {
        let harness = try TrackerHarness(sessionIDStyle: style)
        defer { harness.cleanUp() }
        let tracker = try await harness.initialized()
        let session = try #require(await tracker.sessionID())
        #expect(session == harness.backend.sessions.first, "kept as the backend gave it (\(style): \(session))")
        await tracker.track(eventName: "AFTER_INIT")
        await tracker.setMetadata(["plan": "pro"])
        #expect(await tracker.flush(timeout: .seconds(60)))
        #expect(harness.backend.events.map(\.sessionID) == [session])
        #expect(harness.backend.received.filter { $0.kind == "profile" }.allSatisfy { $0.json["session_id"] as? String == session })
        // A relaunch restores it as it was stored.
        let relaunched = try await harness.initialized()
        #expect(await relaunched.sessionID() == session && harness.backend.sessions.count == 1)
    }

    @Test func initializationGivesUpAtItsLimitAgainstAStalledServerAndSaysHowLongItWaited() async throws {
        let harness = try TrackerHarness(keepAlive: false)
        defer { harness.cleanUp() }
        // Headers and half a body, then nothing until the test ends, the connection left open:
        // only the SDK's limit can end the initialization.
        let stall = ReplyGate()
        defer { stall.open() }
        harness.backend.fault.withLock {
            $0 = { request in
                guard request.path == "/v2/tracking-session" else { return nil }
                let body = Array(#"{"data":{"id":"stalled-session"}}"#.utf8)
                return .streamed(status: 200, headers: [("Content-Type", "application/json")], length: body.count) { write in
                    _ = write(Array(body.prefix(10)))
                    stall.hold()
                }
            }
        }
        let tracker = harness.makeTracker(initializationTimeout: .seconds(1))
        do {
            try await tracker.initialize(brandId: "925", config: harness.config)
            Issue.record("a stalled server cannot give a session")
        } catch {
            guard case .sessionCreationFailed(let reason) = error else {
                Issue.record("expected sessionCreationFailed: \(error)")
                return
            }
            // The time it really waited: at least the limit (a loaded machine may wake it later).
            let waited = reason.split(separator: "(waited ").last.flatMap { Double($0.prefix { $0 != " " }) } ?? 0
            #expect(reason.hasPrefix("initialization did not finish within 1 seconds (waited ") && waited >= 1, "\(reason)")
        }
        #expect(stall.arrivals == 1, "the session request reached the server, which never finished its answer")
    }

    @Test func aSessionThatCannotBeReachedIsANetworkError() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        harness.backend.server.shutdown()
        do {
            try await harness.makeTracker().initialize(brandId: "925", config: harness.config)
            Issue.record("nobody listening: no session")
        } catch {
            guard case .networkError(let underlying) = error else {
                Issue.record("expected networkError(underlying:): \(error)")
                return
            }
            #expect(underlying is URLError || "\(type(of: underlying))".contains("Error"), "what the transport threw: \(underlying)")
            #expect(error.description.hasPrefix("network error: "))
        }
    }

    @Test func setMetadataWithNeitherASessionNorAUserLogsAnErrorAndSendsNothing() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let tracker = harness.makeTracker(logLevel: .info)
        await tracker.setMetadata(["plan": "pro"])
        #expect(harness.log.all.contains { $0.hasPrefix("error ") && $0.contains("setMetadata needs") }, "the reference: logs error if neither exists")
        #expect(harness.backend.server.requests.isEmpty)
    }

    @Test func theBodiesOfSetAndSetMetadataAreExactlyTheReferences() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let tracker = try await harness.initialized()
        let session = try #require(await tracker.sessionID())
        await tracker.identify(userId: "user123")
        await tracker.set(profileData: ["plan": "enterprise", "last_login": "2025-11-27", "preferences": ["theme": "dark", "language": "en"]])
        await tracker.setMetadata(["session_type": "premium", "feature_flags": ["new_ui", "dark_mode"], "experiment_group": "variant_a"])
        #expect(await tracker.flush(timeout: .seconds(60)))
        let profiles = harness.backend.received.filter { $0.kind == "profile" }.map { $0.json }
        #expect(profiles.count == 4, "identify: the link and the profile; then set; then setMetadata")
        let set = try #require(profiles.dropLast().last)
        #expect(NSDictionary(dictionary: set) == NSDictionary(dictionary: [
            "brand_id": 925, "user_id": "user123", "session_id": session,
            "metadata": ["plan": "enterprise", "last_login": "2025-11-27", "preferences": ["theme": "dark", "language": "en"]],
        ]), "set: \(set)")
        let metadata = try #require(profiles.last)
        #expect(NSDictionary(dictionary: metadata) == NSDictionary(dictionary: [
            "brand_id": 925, "user_id": "user123", "session_id": session,
            "metadata": ["session_type": "premium", "feature_flags": ["new_ui", "dark_mode"], "experiment_group": "variant_a"],
        ]), "setMetadata: \(metadata)")
    }

    @Test func updateProfileSendsTheReferencesUpdateProfileDataAndLinksANewUserFirst() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let tracker = try await harness.initialized()
        let session = try #require(await tracker.sessionID())
        await tracker.updateProfile(UpdateProfileData(
            name: "John Doe", phone: "+1234567890", gender: "male", businessDomain: "retail", metadata: ["plan": "premium", "seats": 5, "tags": ["a"]],
            email: "user@example.com", source: "referral", birthday: "1990-04-01", userId: "user123"))
        await tracker.updateProfile(UpdateProfileData(metadata: ["plan": "enterprise"]))
        #expect(await tracker.flush(timeout: .seconds(60)))
        let profiles = harness.backend.received.filter { $0.kind == "profile" }.map { $0.json }
        #expect(profiles.count == 3, "the link of the session to user123, its profile, then the update of the identified user")
        #expect(NSDictionary(dictionary: profiles[0]) == NSDictionary(dictionary: ["brand_id": 925, "user_id": "user123", "session_id": session]))
        #expect(NSDictionary(dictionary: profiles[1]) == NSDictionary(dictionary: [
            "brand_id": 925, "user_id": "user123", "session_id": session, "name": "John Doe", "phone": "+1234567890", "gender": "male",
            "business_domain": "retail", "email": "user@example.com", "source": "referral", "birthday": "1990-04-01",
            "metadata": ["plan": "premium", "seats": 5, "tags": ["a"]],
        ]), "updateProfile: \(profiles[1])")
        #expect(NSDictionary(dictionary: profiles[2]) == NSDictionary(dictionary: [
            "brand_id": 925, "user_id": "user123", "session_id": session, "metadata": ["plan": "enterprise"],
        ]))
        #expect(harness.storedFile("session_email")?.contains("user@example.com") == true, "the session's email stored")
        #expect(harness.primary.string(forKey: "__GT_925_session_email") == nil, "in the protected file only, not in the backed-up primary store")
        #expect(!harness.log.all.contains { $0.contains("+1234567890") }, "a full phone number is masked in logs")
    }

    @Test func deviceInfoIsWhatTheSessionWasCreatedWith() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        let tracker = harness.makeTracker()
        #expect(await tracker.deviceInfo() == nil, "before initialize")
        try await tracker.initialize(brandId: "925", config: harness.config)
        let info = try #require(await tracker.deviceInfo())
        let created = try #require(harness.backend.received.first { $0.kind == "session" }).json
        #expect(info == DeviceInfo(deviceId: created["device_id"] as? String ?? "", osName: "Linux", deviceType: "Mobile"))
        #expect(info.deviceId == (await tracker.deviceID()))
        let encoded = try JSONSerialization.jsonObject(with: JSONEncoder().encode(info)) as? [String: String]
        #expect(encoded?.keys.sorted() == ["deviceId", "deviceType", "osName"], "the reference's Codable shape")
    }
}

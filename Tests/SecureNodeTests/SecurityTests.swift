import BrandingStore
import Foundation
import LoopbackHTTPServer
import ProcessTestSupport
import Resilience
import SDKCore
import SecureNodeEngine
import Testing
import Waiting

/// SecureNode puts server-supplied names on the call screen: whoever
/// answers for its API must be the API. Its connections are verified as
/// every SDK's are, its key never travels in clear or follows a redirect,
/// and the callers' numbers it keeps are erased once delivered.
@Suite struct SecureNodeSecurityTests {
    static let device = DeviceProfile(deviceID: "device-1", platform: .ios, sdkVersion: "1.0.0")

    @Test func anInterceptedConnectionIsNotOfflineAndSendsNothing() async throws {
        let tls = try UntrustedTLSServer()
        defer { tls.stop() }
        let folder = try makeFolder("intercepted")
        // The SDK's own transport (no transport given): what an app gets.
        let sdk = try SecureNodeEngine(.init(apiURL: tls.url, apiKey: "sk_live_secret", folder: folder, device: Self.device, sendsHeartbeats: false))
        let status = await sdk.sync()
        guard case .connectionNotVerified(let refusal, _) = status else {
            Issue.record("not a security error: \(status)")
            return
        }
        #expect(refusal.reason == .systemRefused && refusal.host == "127.0.0.1")
        #expect(sdk.lookup(e164: "+61412345678", atRingTime: false) == nil)
    }

    @Test func aRedirectToAnotherHostIsNotFollowedAndTheKeyGoesNowhere() async throws {
        let elsewhere = try LoopbackHTTPServer { _ in .json(200, #"{"branding":[],"synced_at":"2024-01-01T00:00:00Z"}"#) }
        defer { elsewhere.shutdown() }
        let api = try LoopbackHTTPServer { request in
            .respond(status: 302, headers: [("Location", elsewhere.baseURL.absoluteString + request.target)], body: "")
        }
        defer { api.shutdown() }
        let sdk = try SecureNodeEngine(.init(apiURL: api.baseURL, apiKey: "sk_live_secret", folder: try makeFolder("redirected"), device: Self.device, sendsHeartbeats: false))
        let status = await sdk.sync()
        guard case .connectionNotVerified(let refusal, _) = status else {
            Issue.record("\(status)")
            return
        }
        #expect(refusal.reason == .redirectRefused)
        #expect(refusal.redirectTarget?.hasPrefix(elsewhere.baseURL.absoluteString) == true)
        #expect(elsewhere.requests.isEmpty, "the API key went to no other host")
        #expect(api.requests.allSatisfy { $0.header("X-API-Key") == "sk_live_secret" })
    }

    @Test func aPlainHTTPURLIsRefusedExceptToALoopbackHost() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("insecure-\(UUID().uuidString)")
        #expect(throws: SecureNodeError.insecureAPIURL("http://api.securenode.io")) {
            _ = try SecureNodeEngine(.init(apiURL: URL(string: "http://api.securenode.io")!, apiKey: "sk_live_secret", folder: folder, device: Self.device))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.path), "refused before any file was made")
        #expect(SecureNodeError.insecureAPIURL("http://x").description.contains("the API key would travel in clear"))
    }

    @Test func pinsWithATransportThatDoesNotEnforceThemAreRefused() throws {
        let pinning = try CertificatePinning(pins: ["api.securenode.io": [
            "sha256/4sEBer2Lpb8nKWkQmA0+1KulJEtftPQA9TsEAJRvL/A=", "sha256/MKSwfbFgC0cuPG2r5af1fKfFM1Jlrjw9NidOkoEcY0E=",
        ]])
        #expect(throws: SecureNodeError.invalidPinning(.transportDoesNotEnforcePins(transport: "URLSessionTransport"))) {
            _ = try SecureNodeEngine(.init(
                apiKey: "sk_live_secret", folder: try makeFolder("pinned"), device: Self.device, transport: FakeSecureNode.transport(), pinning: pinning))
        }
        // The SDK's own transport takes them (on Linux it cannot show certificates, so the pinned host is refused at each request).
        let sdk = try SecureNodeEngine(.init(apiKey: "sk_live_secret", folder: try makeFolder("pinned-own"), device: Self.device, sendsHeartbeats: false, pinning: pinning))
        _ = sdk
    }

    @Test func aDeliveredEventsNumbersAreErasedFromTheFiles() async throws {
        let fake = try FakeSecureNode()
        fake.acceptDevice()
        fake.route("POST /api/mobile/branding/event", .json(200, #"{"success":true,"event_id":"evt_1"}"#))
        let folder = try makeFolder("erased")
        let sdk = try SecureNodeEngine(.init(
            apiURL: fake.server.baseURL, apiKey: "sk_live_secret", folder: folder, device: Self.device, transport: FakeSecureNode.transport(),
            sendsHeartbeats: false))
        let caller = "+61499887766"
        func filesHold(_ text: String) throws -> Bool {
            let needle = Data(text.utf8)
            return try ["outbox.sqlite", "outbox.sqlite-wal"].contains { name in
                let url = folder.appendingPathComponent(name)
                guard FileManager.default.fileExists(atPath: url.path) else { return false }
                return try Data(contentsOf: url).range(of: needle) != nil
            }
        }
        // Delivery held back while the caller is written: the number is in the files.
        let gate = ReplyGate()
        fake.route("POST /api/mobile/branding/event", .gated(gate, .json(200, #"{"success":true,"event_id":"evt_1"}"#)))
        let key = try #require(sdk.recordCallSeen(phoneNumberE164: caller, brandingDisplayed: true, callOutcome: .answered, callerNumberE164: caller))
        #expect(try filesHold("61499887766"), "recorded: the number is in the outbox")
        gate.open()
        #expect(await sdk.waitForDelivery(of: key, upTo: hangGuard) == .delivered(eventID: "evt_1"))
        try await waitUntil("the delivered event's bytes to be erased") { try !filesHold("61499887766") }
    }

    @Test func theFirstLaunchAfterAnInstallDeletesAnEarlierInstallsKey() throws {
        let keychain = FileManager.default.temporaryDirectory.appendingPathComponent("key-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: keychain) }
        try SecretKeyStore(.file(keychain)).saveKey("sk_live_of_the_previous_install")
        let folder = try makeFolder("fresh")
        #expect(throws: SecureNodeError.noAPIKey, "an earlier install's key is not used") {
            _ = try SecureNodeEngine(.init(apiKey: nil, keyStore: SecretKeyStore(.file(keychain)), folder: folder, device: Self.device, sendsHeartbeats: false))
        }
        #expect(try SecretKeyStore(.file(keychain)).loadKey() == nil)
        // Given on this install, it is kept for the next launch.
        _ = try SecureNodeEngine(.init(apiKey: "sk_live_new", keyStore: SecretKeyStore(.file(keychain)), folder: folder, device: Self.device, sendsHeartbeats: false))
        _ = try SecureNodeEngine(.init(apiKey: nil, keyStore: SecretKeyStore(.file(keychain)), folder: folder, device: Self.device, sendsHeartbeats: false))
    }

    @Test func itsFilesAreReadableInTheBackgroundAndOutOfBackups() async throws {
        #if !canImport(Darwin)
        let fake = try FakeSecureNode()
        fake.acceptDevice()
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([FakeSecureNode.record("+61412345678", "Acme Bank")], syncedAt: "2024-01-02T08:15:00Z")))
        let folder = try makeFolder("at-rest")
        let sdk = try SecureNodeEngine(.init(
            apiURL: fake.server.baseURL, apiKey: "sk_live_secret", folder: folder, device: Self.device, transport: FakeSecureNode.transport(), sendsHeartbeats: false)
            .with { $0.logoFetch = { _ in testLogo("logo") } })
        guard case .upToDate = await sdk.sync() else {
            Issue.record("\(await sdk.syncStatus())")
            return
        }
        _ = sdk.recordCallSeen(phoneNumberE164: "+61412345678", brandingDisplayed: true, callOutcome: .answered)
        let wrong = DataAtRest.files(in: folder, notProtectedAs: .background).filter { !$0.hasSuffix("/api-key") }
        #expect(wrong.isEmpty, "\(wrong)")
        #expect(DataAtRest.applied(to: sdk.logos.folder) == .background)
        #endif
    }

    @Test func aHostWithoutPinsIsWarnedAbout() throws {
        // The production API, no pins (the transport answers nothing: only the configuration matters).
        _ = try SecureNodeEngine(.init(
            apiKey: "sk_live_secret", folder: try makeFolder("unpinned"), device: Self.device, transport: FakeSecureNode.transport(), sendsHeartbeats: false))
        #expect(ConnectionConfiguration.hasWarnedUnpinned(sdk: "SecureNode"), "labels shown on the call screen, over a connection no pin holds")
    }
}

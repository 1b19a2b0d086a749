import BackendDoubles
import ClientRuntimeTesting
import Foundation
import LoopbackHTTPServer
import Resilience
import RuntimeSupport
import SampleAppModels
import MobileTracker
import Soul
import Testing

/// A folder of its own for each test.
func makeFolder(_ name: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// SOUL's screens as its iOS plan asks: the phone number checked as typed,
/// the code with its resend cooldown, precise messages, the 429 countdown,
/// a sign-in that survives a relaunch, "session expired" back to the phone
/// screen, and moods cached and queued offline.
@Suite @MainActor struct SoulScreensTests {
    let backend: SoulBackend
    let folder: URL
    let clock = ManualClock()

    init() throws {
        backend = try SoulBackend()
        folder = try makeFolder("soul-screens")
    }

    func makeSoul(baseURL: URL? = nil, connectivity: Connectivity? = nil) throws -> Soul {
        let clock = self.clock
        var configuration = Soul.Configuration(
            environment: .init(baseURL: baseURL ?? backend.baseURL, isStaging: true),
            tokenStore: FileTokenStore(url: folder.appendingPathComponent("refresh-token.json")),
            retryPolicy: RetryPolicy(backoff: BackoffPolicy(baseDelay: .milliseconds(10))), connectivity: connectivity, storageFolder: folder)
        configuration.connection.clock.now = { clock.now }
        return try Soul(configuration)
    }

    /// Asks `screen` for a code to `phone` and returns staging's preview
    /// code from the code screen it shows.
    func requestCode(_ screen: SoulSignInModel, phone: String = "+14155550123", sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        screen.phoneText = phone
        await screen.requestCode()
        guard case .code(_, let preview?) = screen.step else {
            Issue.record("the code screen, with staging's preview code: \(screen.step)", sourceLocation: sourceLocation)
            throw CodeScreenMissing()
        }
        return preview
    }

    struct CodeScreenMissing: Error {}

    @Test func theOTPFlowWithItsCooldownAndMessagesSurvivesARelaunch() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let clock = self.clock
        let screen = SoulSignInModel(soul: try makeSoul(), now: { clock.now })
        var changes = 0
        screen.onChange = { changes += 1 }
        await screen.start()
        #expect(screen.step == .phone)

        screen.phoneText = "0412 345 678"
        #expect(screen.phoneProblem != nil, "not E.164: said while typing")
        screen.phoneText = "+14155550123"
        #expect(screen.phoneProblem == nil)
        await screen.requestCode()
        guard case .code(let masked, let preview?) = screen.step else {
            Issue.record("the code screen, with staging's preview code: \(screen.step) \(screen.message ?? "")")
            return
        }
        #expect(!masked.contains("5550123"), "the number is masked on screen: \(masked)")
        #expect(screen.secondsUntilResend > 0, "the resend cooldown runs")
        #expect(changes > 0, "the view is told")

        await screen.verify(code: "12345")
        #expect(screen.message == SoulError.invalidCodeFormat.userMessage, "a precise message for a malformed code")
        clock.advance(by: 61)
        #expect(screen.secondsUntilResend == 0, "the cooldown is over: resend is allowed")

        // The app is killed on the code screen; at relaunch the code can still be entered.
        let relaunched = SoulSignInModel(soul: try makeSoul(), now: { clock.now })
        await relaunched.start()
        guard case .code = relaunched.step else {
            Issue.record("the code screen after a relaunch: \(relaunched.step)")
            return
        }
        await relaunched.verify(code: preview)
        #expect(relaunched.step == .consent && relaunched.message == nil, "the consent comes after the code")
        relaunched.acceptConsent()
        #expect(relaunched.step == .signedIn)

        // A later launch resumes the session (consent kept in memory here: see the consent test for a relaunch).
        let later = SoulSignInModel(soul: try makeSoul(), now: { clock.now })
        await later.start()
        #expect(later.step == .consent, "a consent not kept on disk is asked again")
    }

    @Test func a429ShowsTheFriendlyMessageAndItsCountdown() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var settings = SoulBackend.Settings()
        settings.codeRequestsPerNumber = 0
        settings.rateLimitRetryAfter = 90
        let limited = try SoulBackend(settings: settings)
        let clock = self.clock
        let screen = SoulSignInModel(soul: try makeSoul(baseURL: limited.baseURL), now: { clock.now })
        screen.phoneText = "+14155550123"
        await screen.requestCode()
        #expect(screen.step == .phone)
        #expect(screen.message == SoulError.rateLimited(retryAfter: .seconds(90)).userMessage)
        #expect(screen.secondsUntilResend == 90, "the Retry-After countdown, at once")
        clock.advance(by: 30)
        #expect(screen.secondsUntilResend == 60)
    }

    @Test func aSessionWhoseRefreshIsRefusedGoesBackToThePhoneScreen() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let soul = try makeSoul()
        let screen = SoulSignInModel(soul: soul, now: { Date() })
        await screen.start()
        await screen.verify(code: try await requestCode(screen))
        screen.acceptConsent()
        #expect(screen.step == .signedIn)
        // The access token expires and the server refuses the refresh token: the one refresh fails.
        backend.fault.withLock {
            $0 = { request in request.path == "/api/auth/refresh" ? .json(401, #"{"detail":"Invalid refresh token"}"#) : nil }
        }
        backend.expireAccessTokens()
        let moods = MoodsModel(soul: soul)
        await moods.load()
        try await waitUntilMain { screen.step == .phone }
        #expect(screen.message == SoulError.sessionExpired.userMessage)
    }

    @Test func theConsentComesAfterTheCodeSurvivesARelaunchAndGoesWithTheSession() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let consentFile = folder.appendingPathComponent("soul-consent")
        let screen = SoulSignInModel(soul: try makeSoul(), now: { Date() }, consent: SignInConsent(file: consentFile))
        await screen.start()
        await screen.verify(code: try await requestCode(screen))
        #expect(screen.step == .consent)
        // Killed on the consent screen: the next launch asks again, the session kept.
        let relaunched = SoulSignInModel(soul: try makeSoul(), now: { Date() }, consent: SignInConsent(file: consentFile))
        await relaunched.start()
        #expect(relaunched.step == .consent)
        relaunched.acceptConsent()
        #expect(relaunched.step == .signedIn)
        let later = SoulSignInModel(soul: try makeSoul(), now: { Date() }, consent: SignInConsent(file: consentFile))
        await later.start()
        #expect(later.step == .signedIn, "consent given: kept across launches")
        // Sign-out withdraws it; declining signs out.
        await later.signOut()
        #expect(SignInConsent(file: consentFile).isGiven == false)
        let next = SoulSignInModel(soul: try makeSoul(), now: { Date() }, consent: SignInConsent(file: consentFile))
        await next.verify(code: try await requestCode(next, phone: "+14155550199"))
        #expect(next.step == .consent, "the next user is asked too")
        await next.declineConsent()
        #expect(next.step == .phone)
        #expect(await (try makeSoul()).session.hasStoredRefreshToken() == false, "declining signed out")
    }

    @Test func theSignInFunnelIsTrackedThroughMobileTrackerInOrderOncePerSignIn() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let tracking = try TrackerBackend()
        let trackerFolder = try makeFolder("soul-funnel")
        defer { try? FileManager.default.removeItem(at: trackerFolder) }
        let tracker = MobileTracker(options: .init(
            folder: trackerFolder, primaryStore: InMemoryKeyValueStore(), transport: RedirectingTransport(to: tracking.baseURL), connectivity: nil))
        try await tracker.initialize(brandId: "925", config: TrackerConfig(apiUrl: "https://tracker.sample.example", xApiKey: tracking.apiKey))
        let funnel = SoulFunnel(tracker: tracker, environment: "staging")
        let soul = try makeSoul()
        let screen = SoulSignInModel(soul: soul, now: { Date() }, funnel: funnel)
        let moods = MoodsModel(soul: soul, funnel: funnel)
        let preview = try await requestCode(screen)
        await moods.load()  // not signed in: no protected call succeeded
        await screen.verify(code: preview)
        screen.acceptConsent()
        await moods.load()
        await moods.add(score: 6, note: nil)
        await moods.load()
        #expect(await tracker.flush(timeout: .seconds(60)))
        let steps = tracking.events.compactMap { $0.eventName }.filter { SoulFunnel.Step(rawValue: $0) != nil }
        #expect(steps == ["otp_request", "otp_verify", "first_protected_call"], "each step once, in order")
        let data = tracking.events.compactMap { $0.json["data"] as? [String: Any] }
        #expect(data.allSatisfy { ($0["environment"] as? String) == "staging" || $0["environment"] == nil })
        let bodies = tracking.received.map { String(decoding: $0.bytes, as: UTF8.self) }
        #expect(!bodies.contains { $0.contains("4155550123") || $0.contains(preview) }, "never the number or the code")
        // A new sign-in runs the funnel again.
        await screen.signOut()
        screen.phoneText = "+14155550123"
        await screen.requestCode()
        #expect(await tracker.flush(timeout: .seconds(60)))
        let resend = tracking.events.last { $0.eventName == "otp_request" }?.json["data"] as? [String: Any]
        #expect(resend?["resend"] as? String == "true", "the same number again is a resend")
    }

    @Test func moodsAreServedFromTheCacheWithTheirAgeAndANewOneIsQueuedOffline() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let connectivity = Connectivity(isOnline: true)
        let soul = try makeSoul(connectivity: connectivity)
        let request = try await soul.signIn.requestCode(phone: "+14155550123")
        try await soul.signIn.verify(code: request.previewCode ?? "")
        let screen = MoodsModel(soul: soul)
        await screen.add(score: 7, note: "sunny")
        await screen.load()
        #expect(screen.moods.map(\.score) == [7] && screen.cacheAge == nil && !screen.isOffline)

        await connectivity.update(isOnline: false)
        clock.advance(by: 120)
        await screen.load()
        #expect(screen.moods.compactMap(\.score) == [7], "the cached list")
        #expect(screen.cacheAge == .seconds(120) && screen.isOffline, "with its age, under the offline banner")
        await screen.add(score: 3, note: nil)
        #expect(screen.pendingCount == 1, "queued while offline")

        await connectivity.update(isOnline: true)
        await screen.retryPending()
        #expect(screen.pendingCount == 0)
        #expect(screen.moods.compactMap(\.score).sorted() == [3, 7], "sent once the server is reachable")
    }
}

/// Waits on the main actor until `condition` holds (a one-minute hang guard).
@MainActor
func waitUntilMain(_ condition: @MainActor () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while !condition() {
        guard ContinuousClock.now < deadline else { throw MainWaitTimedOut() }
        try await Task.sleep(for: .milliseconds(5))
    }
}

struct MainWaitTimedOut: Error {}

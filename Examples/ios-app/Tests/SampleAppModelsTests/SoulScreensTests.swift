import BackendDoubles
import Foundation
import LoopbackHTTPServer
import Resilience
import RuntimeSupport
import SampleAppModels
import Soul
import Testing

/// A clock the tests move by hand, for countdowns.
final class ScreenClock: Sendable {
    private let current = Locked(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { current.read() }
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

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
    let clock = ScreenClock()

    init() throws {
        backend = try SoulBackend()
        folder = try makeFolder("soul-screens")
    }

    func makeSoul(baseURL: URL? = nil, connectivity: Connectivity? = nil) throws -> Soul {
        let clock = self.clock
        return try Soul(.init(
            environment: .init(baseURL: baseURL ?? backend.baseURL, isStaging: true),
            tokenStore: FileTokenStore(url: folder.appendingPathComponent("refresh-token.json")),
            retryPolicy: RetryPolicy(backoff: BackoffPolicy(baseDelay: .milliseconds(10))), connectivity: connectivity, now: { clock.now },
            storageFolder: folder))
    }

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
        #expect(relaunched.step == .signedIn && relaunched.message == nil)

        // A later launch resumes the session.
        let later = SoulSignInModel(soul: try makeSoul(), now: { clock.now })
        await later.start()
        #expect(later.step == .signedIn)
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
        screen.phoneText = "+14155550123"
        await screen.requestCode()
        guard case .code(_, let preview?) = screen.step else {
            Issue.record("code screen: \(screen.step)")
            return
        }
        await screen.verify(code: preview)
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

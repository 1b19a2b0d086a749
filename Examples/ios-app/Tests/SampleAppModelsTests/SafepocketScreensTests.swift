import BackendDoubles
import Foundation
import PlatformRules
import Resilience
import Safepocket
import SafepocketAPI
import SampleAppModels
import Testing

/// Safepocket's screens: the hosted sign-in with PKCE and the custom-scheme
/// redirect, accounts and transactions cached with their age, and an edit
/// queued offline.
@Suite @MainActor struct SafepocketScreensTests {
    static let redirectURI = "app.safepocket.sample:/oauth/callback"
    let backend: SafepocketBackend
    let folder: URL

    init() throws {
        backend = try SafepocketBackend()
        folder = try makeFolder("safepocket-screens")
    }

    func makeSafepocket(connectivity: Connectivity? = nil) throws -> Safepocket {
        try Safepocket(.init(
            baseURL: backend.baseURL,
            authorization: AuthorizationConfiguration(
                authorizeEndpoint: URL(string: "https://auth.safepocket.example/oauth2/authorize")!, clientID: "ios-client",
                redirectURI: Self.redirectURI),
            tokenStore: FileTokenStore(url: folder.appendingPathComponent("refresh-token.json")),
            retryPolicy: RetryPolicy(backoff: BackoffPolicy(baseDelay: .milliseconds(10))), connectivity: connectivity, storageFolder: folder))
    }

    @Test func theHostedSignInWithPKCECompletesFromTheRedirectEvenAfterARelaunch() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let screen = SafepocketSignInModel(safepocket: try makeSafepocket(), redirectURI: Self.redirectURI)
        #expect(screen.callbackScheme == "app.safepocket.sample", "what the browser session waits for")
        await screen.start()
        #expect(screen.step == .signedOut)
        await screen.begin()
        guard case .browsing(let url) = screen.step else {
            Issue.record("the browser session opens: \(screen.step) \(screen.message ?? "")")
            return
        }
        let query = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
        #expect(query.contains { $0.name == "code_challenge_method" && $0.value == "S256" })
        let redirect = try #require(backend.authorize(url), "the hosted page accepts the request")
        #expect(redirect.absoluteString.hasPrefix(Self.redirectURI))

        // The app was killed while the browser was open; the redirect arrives at the next launch.
        let relaunched = SafepocketSignInModel(safepocket: try makeSafepocket(), redirectURI: Self.redirectURI)
        await relaunched.complete(redirect: redirect)
        #expect(relaunched.step == .signedIn && relaunched.message == nil)
        let later = SafepocketSignInModel(safepocket: try makeSafepocket(), redirectURI: Self.redirectURI)
        await later.start()
        #expect(later.step == .signedIn, "a later launch resumes the session")

        // A forged redirect does not sign anyone in.
        let forged = SafepocketSignInModel(safepocket: try makeSafepocket(), redirectURI: Self.redirectURI)
        await forged.complete(redirect: URL(string: "\(Self.redirectURI)?code=stolen&state=forged")!)
        #expect(forged.step == .signedOut && forged.message == "Sign-in did not complete. Please try again.")
    }

    @Test func theBrowserSessionIsOneAtATimeAndClosingItIsNotAnError() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let screen = SafepocketSignInModel(safepocket: try makeSafepocket(), redirectURI: Self.redirectURI)
        let browser = SimulatedWebAuthenticationSession()
        // The user taps "Sign in" twice: one browser session, the second tap ignored.
        async let first: Void = screen.signIn(using: browser)
        await browser.waitForPresentation()
        await screen.signIn(using: browser)
        #expect(browser.opened.count == 1 && browser.violations.isEmpty)
        // They close it: signed out, no error shown.
        browser.cancel()
        await first
        #expect(screen.step == .signedOut && screen.message == nil)
        // They try again and sign in: the hosted page redirects to the app's scheme.
        async let second: Void = screen.signIn(using: browser)
        await browser.waitForPresentation()
        let url = try #require(browser.opened.last)
        browser.complete(with: try #require(backend.authorize(url)))
        await second
        #expect(screen.step == .signedIn && screen.message == nil, "\(screen.message ?? "")")
        #expect(browser.violations.isEmpty)
    }

    @Test func financesAreCachedWithTheirAgeAndAnEditIsQueuedOffline() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let connectivity = Connectivity(isOnline: true)
        let safepocket = try makeSafepocket(connectivity: connectivity)
        let signIn = SafepocketSignInModel(safepocket: safepocket, redirectURI: Self.redirectURI)
        await signIn.begin()
        guard case .browsing(let url) = signIn.step, let redirect = backend.authorize(url) else {
            Issue.record("sign-in: \(signIn.step)")
            return
        }
        await signIn.complete(redirect: redirect)
        let screen = FinanceModel(safepocket: safepocket)
        await screen.load(month: "2024-06")
        #expect(!screen.accounts.isEmpty && screen.cacheAge == nil && screen.message == nil, "\(screen.message ?? "")")
        let transaction = try #require(screen.transactions.first)

        await connectivity.update(isOnline: false)
        await screen.load(month: "2024-06")
        #expect(!screen.accounts.isEmpty && screen.cacheAge != nil, "served from the cache, with its age")
        await screen.edit(transaction, category: "Groceries", notes: "weekly shop")
        #expect(screen.pendingCount == 1 && screen.message == "Saved. It will be sent when you are back online.")
    }

    @Test func theFinanceScreenIsCoveredInTheAppSwitcher() {
        // iOS takes the app switcher's snapshot as the app leaves the
        // foreground (inactive) and shows it while in the background.
        for activity in AppActivity.allCases {
            #expect(AppSwitcherCover.covers(showingFinances: true, activity: activity) == (activity != .active), "\(activity)")
            #expect(!AppSwitcherCover.covers(showingFinances: false, activity: activity), "\(activity)")
        }
    }
}

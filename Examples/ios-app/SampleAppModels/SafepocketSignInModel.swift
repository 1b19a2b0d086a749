import Foundation
import Safepocket

/// Safepocket's hosted sign-in, as its guide describes it: the app opens
/// the authorization URL (with its PKCE challenge) in a browser session
/// (`ASWebAuthenticationSession` on iOS), the browser comes back to the
/// app's custom-scheme redirect, and the code is exchanged for the session.
/// The verifier and state wait on disk, so a redirect that arrives after a
/// relaunch still completes the sign-in.
@MainActor
public final class SafepocketSignInModel: ScreenModel {
    /// Where the sign-in stands.
    public enum Step: Equatable, Sendable {
        /// Not signed in.
        case signedOut
        /// The browser session is open at this URL.
        case browsing(URL)
        /// Signed in.
        case signedIn
    }

    /// Where the sign-in stands.
    public private(set) var step: Step = .signedOut { didSet { onChange?() } }
    /// The message of the last failure, for the user.
    public private(set) var message: String? { didSet { onChange?() } }
    /// The redirect's scheme, which the browser session waits for.
    public let callbackScheme: String?
    /// Called after every change of what the screen shows.
    public var onChange: (@MainActor () -> Void)?

    private let safepocket: Safepocket

    /// The sign-in of `safepocket`, whose redirect URI is `redirectURI`.
    public init(safepocket: Safepocket, redirectURI: String) {
        self.safepocket = safepocket
        callbackScheme = URLComponents(string: redirectURI)?.scheme
    }

    /// At launch: a stored session is resumed.
    public func start() async {
        if await safepocket.session.hasStoredRefreshToken() { step = .signedIn }
    }

    /// The authorization URL to open in the browser session.
    public func begin() async {
        do {
            step = .browsing(try await safepocket.startSignIn())
            message = nil
        } catch {
            step = .signedOut
            message = error.userMessage
        }
    }

    /// The browser came back to the app's redirect URI.
    public func complete(redirect: URL) async {
        do {
            try await safepocket.completeSignIn(redirect: redirect)
            message = nil
            step = .signedIn
        } catch {
            step = .signedOut
            message = error.userMessage
        }
    }

    /// The user closed the browser without signing in: not an error (no
    /// message); the started sign-in stays pending until it expires, so a
    /// redirect that still arrives completes it.
    public func cancelled() {
        step = .signedOut
    }

    /// The whole hosted sign-in through `browser`: the authorization URL
    /// opened in one browser session, then the redirect exchanged, or the
    /// cancellation taken as the user's choice. A second call while a
    /// session is open does nothing: one browser session at a time.
    public func signIn(using browser: some WebAuthenticating) async {
        if case .browsing = step { return }
        await begin()
        guard case .browsing(let url) = step else { return }
        if let redirect = await browser.authenticate(url, callbackScheme: callbackScheme) {
            await complete(redirect: redirect)
        } else {
            cancelled()
        }
    }

    /// Signs out.
    public func signOut() async {
        await safepocket.signOut()
        step = .signedOut
    }
}

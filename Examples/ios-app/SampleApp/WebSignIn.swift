import AuthenticationServices
import SampleAppModels
import UIKit

/// Safepocket's hosted sign-in page in `ASWebAuthenticationSession`: it
/// opens the authorization URL and returns the redirect to the app's
/// custom scheme, or nil when the user closed it.
@MainActor
final class WebSignIn: NSObject, WebAuthenticating, ASWebAuthenticationPresentationContextProviding {
    private var session: ASWebAuthenticationSession?

    /// Opens `url`; the redirect to `callbackScheme`, or nil when cancelled
    /// (or when iOS refused to start: one session is presented at a time).
    func authenticate(_ url: URL, callbackScheme: String?) async -> URL? {
        await withCheckedContinuation { continuation in
            let session = ASWebAuthenticationSession(url: url, callbackURLScheme: callbackScheme) { redirect, _ in
                continuation.resume(returning: redirect)
            }
            session.presentationContextProvider = self
            // Nothing of the sign-in stays in Safari's cookies.
            session.prefersEphemeralWebBrowserSession = true
            self.session = session
            if !session.start() { continuation.resume(returning: nil) }
        }
    }

    nonisolated func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
        MainActor.assumeIsolated {
            UIApplication.shared.connectedScenes.compactMap { ($0 as? UIWindowScene)?.keyWindow }.first ?? ASPresentationAnchor()
        }
    }
}

import Foundation

/// The browser session the hosted sign-in opens: `ASWebAuthenticationSession`
/// on iOS (the sample app's `WebSignIn`), a double in tests that keeps its
/// rules (one session presented at a time; closing it is a cancellation,
/// not an error; only a redirect to the callback scheme comes back).
@MainActor
public protocol WebAuthenticating: AnyObject {
    /// Opens `url`; returns the redirect to `callbackScheme`, or nil when
    /// the user closed the session (or the system refused to start one).
    func authenticate(_ url: URL, callbackScheme: String?) async -> URL?
}

import Resilience
/// An SDK facade whose users sign in: what it offers about its session, the
/// same in every SDK.
public protocol SessionOwner: Sendable {
    /// The token lifecycle (single-flight refresh, events).
    var session: TokenSession { get }
}

extension SessionOwner {
    /// The session's events (signed in, refreshed, expired, signed out), for
    /// the app to show "session expired".
    public var sessionEvents: AsyncStream<SessionEvent> { session.events }

    /// Whether a session exists: a refresh token is stored (after a sign-in
    /// in this launch or an earlier one).
    public func hasStoredSession() async -> Bool {
        await session.hasStoredRefreshToken()
    }
}

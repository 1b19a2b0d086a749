import Foundation
import Resilience
import RuntimeSupport
import SafepocketAPI

/// The signed-in user's Plaid Link token, as the guide asks ("cache
/// client-side until expiry"): created once by the server, served again
/// while enough of its life is left, then created anew.
///
/// - **Never past expiry.** A token is served only while more than the
///   renewal margin is left before its `expiration`: a Plaid Link session
///   can run 30 minutes, and a token that expires during it makes Link exit
///   with `INVALID_LINK_TOKEN`. The margin is at most half the token's
///   lifetime, so a short-lived token is still served.
/// - **One creation at a time.** Callers that ask while a token is being
///   created wait for that one (one request, one `Idempotency-Key`).
/// - **Per sign-in.** A token belongs to the sign-in it was created under
///   (``TokenSession/signInEpoch``): after a sign-out, an expired session or
///   another user's sign-in it is never served, and the SDK forgets it when
///   the session ends. A creation that finishes after its sign-in ended is
///   neither kept nor handed to anyone: its callers get
///   ``SafepocketError/sessionExpired``.
/// - **In memory only.** The token is a secret and lives four hours: it is
///   not written to disk, so a relaunch creates a new one.
final class PlaidLinkTokenCache: Sendable {
    /// A token and the sign-in it was created under.
    private struct Entry: Sendable {
        let token: PlaidLinkToken
        let signIn: Int
        /// After this the token is not served any more.
        let servedUntil: Date
    }

    /// What one creation produced, and for which sign-in.
    private struct Creation: Sendable {
        let result: Result<PlaidLinkToken, SafepocketError>
        let signIn: Int
    }

    private let entry = Locked<Entry?>(nil)
    private let creations = SharedRun<Creation>()
    private let renewalMargin: Duration
    private let now: @Sendable () -> Date

    /// A cache serving a token while more than `renewalMargin` (or half its
    /// lifetime, if less) is left, by the clock `now`.
    init(renewalMargin: Duration, now: @escaping @Sendable () -> Date) {
        self.renewalMargin = renewalMargin
        self.now = now
    }

    /// The token of sign-in `signIn`: the cached one while it may still be
    /// served, otherwise one made by `create` (joined by every caller of the
    /// same sign-in that asks meanwhile). `currentSignIn` reads the session's
    /// sign-in as it is now; `create` runs bound to it.
    func token(
        signIn: Int, currentSignIn: @escaping @Sendable () -> Int,
        create: @escaping @Sendable () async -> Result<PlaidLinkToken, SafepocketError>
    ) async throws(SafepocketError) -> PlaidLinkToken {
        if let cached = servable(for: signIn) { return cached }
        let creation: Creation
        do {
            creation = try await creations.run(generation: signIn) { [self] in
                let signIn = currentSignIn()
                // A run that joined late finds the token its predecessor kept.
                if let cached = servable(for: signIn) { return Creation(result: .success(cached), signIn: signIn) }
                let requestedAt = now()
                let result = await TokenSession.$boundSignIn.withValue(signIn) { await create() }
                // Made for a sign-in that ended meanwhile: that user's secret, handed to no one.
                guard currentSignIn() == signIn else { return Creation(result: .failure(.sessionExpired), signIn: signIn) }
                if case .success(let token) = result { keep(token, signIn: signIn, requestedAt: requestedAt) }
                return Creation(result: result, signIn: signIn)
            }
        } catch {
            throw .cancelled
        }
        // A creation made for a later sign-in is another user's token.
        guard creation.signIn == signIn else { throw .sessionExpired }
        return try creation.result.get()
    }

    /// Forgets the token (sign-out, expiry, a Link session that used it or
    /// found it invalid).
    func forget() {
        entry.withLock { $0 = nil }
    }

    /// Whether a token is kept (for tests: the secret is gone after sign-out).
    var holdsToken: Bool { entry.read() != nil }

    /// How many callers wait for a creation (for tests: they joined it).
    var waiterCount: Int { creations.waiterCount }

    /// The kept token, when it belongs to `signIn` and may still be served.
    private func servable(for signIn: Int) -> PlaidLinkToken? {
        let time = now()
        return entry.withLock { entry in
            guard let kept = entry else { return nil }
            guard kept.signIn == signIn else {
                entry = nil
                return nil
            }
            return time < kept.servedUntil ? kept.token : nil
        }
    }

    /// Keeps `token` for `signIn` until the margin before its expiry; the
    /// lifetime is counted from when it was requested, the earliest the
    /// server can have started it. A token already expired by this clock is
    /// handed to its caller (the server just made it) but not kept.
    private func keep(_ token: PlaidLinkToken, signIn: Int, requestedAt: Date) {
        let lifetime = token.expiration.timeIntervalSince(requestedAt)
        guard lifetime > 0 else { return }
        let margin = min(renewalMargin.totalSeconds, lifetime / 2)
        let servedUntil = token.expiration.addingTimeInterval(-margin)
        entry.withLock { $0 = Entry(token: token, signIn: signIn, servedUntil: servedUntil) }
    }
}

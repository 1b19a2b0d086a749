import Resilience
import SafepocketAPI

/// Safepocket's refresh: `POST /auth/token` with the `refresh_token` grant.
/// A new `refreshToken` in the answer replaces the stored one (rotation);
/// without one the old token stays. A 400 or 401 means the refresh token is
/// refused and ends the session; anything else (offline, 5xx) keeps it.
struct SafepocketTokenRefresher: TokenRefresher {
    /// A client without the session's middlewares.
    let client: SafepocketAPI.Client

    func refresh(using refreshToken: String) async throws -> TokenPair {
        do {
            let tokens = try await client.exchangeToken(
                body: .refreshTokenGrant(RefreshTokenGrant(refreshToken: refreshToken)))
            return TokenPair(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken)
        } catch let error as APIError<ErrorEnvelope> where error.status == 400 || error.status == 401 {
            throw TokenRefreshError.rejected
        }
    }
}

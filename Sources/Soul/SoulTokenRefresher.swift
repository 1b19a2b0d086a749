import Resilience
import SoulAPI

/// SOUL's refresh: `POST /api/auth/refresh` with `old_refresh_token`; the
/// answer rotates both tokens. A 401 means the refresh token is refused and
/// ends the session; anything else (offline, 5xx) keeps it.
struct SoulTokenRefresher: TokenRefresher {
    /// A client without the session's middlewares: the refresh must not
    /// wait for the refresh it is.
    let client: SoulAPI.Client

    func refresh(using refreshToken: String) async throws -> TokenPair {
        do {
            let tokens = try await client.refreshToken(body: RefreshTokenBody(oldRefreshToken: refreshToken))
            return TokenPair(accessToken: tokens.accessToken, refreshToken: tokens.refreshToken)
        } catch let error as APIError<ErrorDetail> where error.status == 401 {
            throw TokenRefreshError.rejected
        }
    }
}

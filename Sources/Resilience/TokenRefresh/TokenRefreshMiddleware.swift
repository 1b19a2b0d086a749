import Foundation
import HTTPTypes
import OpenAPIRuntime

/// On a 401 from a protected operation, refreshes the session's tokens
/// (once, however many requests fail together) and retries the request once.
///
/// Place it above ``RetryMiddleware`` and ``BearerTokenMiddleware``: the
/// retry goes through the bearer layer again, which sends the new token.
/// When the refresh fails, the request throws the session's
/// ``TokenRefreshError`` (``TokenRefreshError/sessionExpired`` when the
/// refresh token was refused). A second 401 after the refresh is returned as
/// it is: no request triggers two refreshes.
public struct TokenRefreshMiddleware: ClientMiddleware {
    /// The session to refresh.
    public let session: TokenSession
    /// The protected operations. Never include the refresh call itself.
    public var operations: OperationSelector
    /// The largest request body kept for the retry. Default 10 MiB.
    public var maximumBufferedBodyBytes: Int

    /// Creates the middleware.
    public init(session: TokenSession, operations: OperationSelector = .all, maximumBufferedBodyBytes: Int = 10 * 1024 * 1024) {
        self.session = session
        self.operations = operations
        self.maximumBufferedBodyBytes = maximumBufferedBodyBytes
    }

    /// Sends the request; on 401, refreshes and sends it once more.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard operations.contains(operationID) else { return try await next(request, body, baseURL) }
        guard let replayable = try await ReplayableBody.prepare(body, upTo: maximumBufferedBodyBytes) else {
            // Too large to keep for a second attempt: sent once, a 401 returned as it is.
            return try await next(request, body, baseURL)
        }
        let generation = session.generation
        let first = try await next(request, replayable.copy(), baseURL)
        guard first.0.status == .unauthorized else { return first }
        try await session.refresh(after: generation)
        return try await next(request, replayable.copy(), baseURL)
    }
}

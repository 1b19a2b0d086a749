import HTTPTypes

/// The server asked to wait before trying again (a 429 with a
/// `Retry-After`): for middlewares and transports of the app's own that
/// stop a rate-limited call (``RetryMiddleware`` returns the 429 itself, so
/// the SDKs also read its body). Apps show a cooldown from ``retryAfter``.
public struct RateLimitedError: Error, Sendable, CustomStringConvertible {
    /// The operation that was rate limited.
    public let operationID: String
    /// How long the server asked to wait.
    public let retryAfter: Duration
    /// The response that asked for it (status 429, with its headers).
    public let response: HTTPResponse

    /// Creates the error.
    public init(operationID: String, retryAfter: Duration, response: HTTPResponse) {
        self.operationID = operationID
        self.retryAfter = retryAfter
        self.response = response
    }

    /// A readable summary.
    public var description: String {
        "\(operationID) was rate limited: the server asks to wait \(Int(retryAfter.totalSeconds.rounded(.up))) s (status \(response.status.code))"
    }
}

import HTTPTypes

/// The server asked to wait longer than the retry policy's
/// ``RetryPolicy/maximumRetryAfter`` before trying again (a 429 with a long
/// `Retry-After`), so the request was not retried. Apps show a cooldown from
/// ``retryAfter``.
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

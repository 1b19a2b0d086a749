import Foundation
import HTTPTypes

/// An error that carries the HTTP status the server answered with, whatever
/// the operation's error body type: what retry and outbox code classifies
/// by (retry a 503, drop a 400) without knowing each generic `APIError`.
public protocol HTTPStatusError: Error, Sendable {
    /// The status code.
    var status: Int { get }
    /// The response headers (for `Retry-After`).
    var headerFields: HTTPFields { get }
}

extension APIError: HTTPStatusError {}

extension UndocumentedResponseError: HTTPStatusError {
    /// The status code.
    public var status: Int { response.status.code }
    /// The response headers.
    public var headerFields: HTTPFields { response.headerFields }
}

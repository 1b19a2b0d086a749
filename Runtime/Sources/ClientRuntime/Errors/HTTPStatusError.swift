import Foundation
import HTTPTypes

/// An error that carries the HTTP status the server answered with, whatever
/// the operation's error body type: what retry and outbox code classifies
/// by (retry a 503, drop a 400) without knowing each generic `APIError`,
/// and what an app catches to handle any status in one place:
///
/// ```swift
/// do {
///     _ = try await client.getMuseumHours()
/// } catch let error as any HTTPStatusError {
///     print(error.status, error.bodyText)
/// }
/// ```
public protocol HTTPStatusError: Error, Sendable {
    /// The operation that was called.
    var operationID: String { get }
    /// The status code.
    var status: Int { get }
    /// The response headers (for `Retry-After`).
    var headerFields: HTTPFields { get }
    /// The response body's bytes as received.
    var rawBody: Data { get }
}

extension HTTPStatusError {
    /// The response body as UTF-8 text (bytes that are not UTF-8 become
    /// U+FFFD): for a spec that documents no error body, or a server that
    /// sends plain text.
    public var bodyText: String { String(decoding: rawBody, as: UTF8.self) }

    /// The response body decoded as a JSON type the app names, for an error
    /// body the spec does not document (`APIError<EmptyBody>`,
    /// ``UndocumentedResponseError``). A body that does not match throws
    /// ``ResponseDecodingError`` naming the field.
    public func decodeBody<Body: Decodable>(as type: Body.Type = Body.self) throws -> Body {
        do {
            return try JSONCoding.makeDecoder().decode(Body.self, from: rawBody)
        } catch {
            throw ResponseDecodingError(operationID: operationID, status: status, decoding: error, headerFields: headerFields, rawBody: rawBody)
        }
    }
}

extension APIError: HTTPStatusError {}

extension UndocumentedResponseError: HTTPStatusError {
    /// The status code.
    public var status: Int { response.status.code }
    /// The response headers.
    public var headerFields: HTTPFields { response.headerFields }
    /// The response body's bytes (at most the first MiB).
    public var rawBody: Data { Data(body) }
}

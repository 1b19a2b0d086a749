import OpenAPIRuntime

/// A request body that every attempt of one call can send again: the retry
/// and token-refresh layers both repeat requests.
enum ReplayableBody: Sendable {
    /// No body.
    case empty
    /// A body that can be iterated more than once (bytes in memory): reused as it is.
    case reusable(HTTPBody)
    /// A single-pass body, read into memory once.
    case buffered([UInt8])

    /// Makes `body` replayable, or returns nil when it is single-pass and
    /// either known to be larger than `limit` or of unknown length (a body
    /// written while it is sent, such as a generated client's event stream:
    /// buffering it would hold the request until the app's sequence ends).
    /// Such a body is sent once, not repeated.
    static func prepare(_ body: HTTPBody?, upTo limit: Int) async throws -> ReplayableBody? {
        guard let body else { return .empty }
        if body.iterationBehavior == .multiple { return .reusable(body) }
        guard case .known(let length) = body.length, length <= limit else { return nil }
        return .buffered(try await [UInt8](collecting: body, upTo: limit))
    }

    /// The body for one attempt.
    func copy() -> HTTPBody? {
        switch self {
        case .empty: return nil
        case .reusable(let body): return body
        case .buffered(let bytes): return HTTPBody(bytes)
        }
    }
}

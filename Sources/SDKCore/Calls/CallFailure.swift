import ClientRuntime
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Resilience

/// What made a call through a generated client fail, classified once for
/// every SDK: each SDK's error type maps these cases to its own (the words
/// its document uses), instead of each re-reading the runtime's error types.
///
/// ```swift
/// switch CallFailure<ErrorDetail>(error) {
/// case .errorResponse(let response) where response.status == 429: ...
/// case .offline: ...
/// default: ...
/// }
/// ```
package enum CallFailure<ErrorBody: Decodable & Sendable>: Sendable {
    /// The server answered with an error status (400 and up), documented or
    /// not; the body as the spec's error schema when it reads as one.
    case errorResponse(FailedResponse<ErrorBody>)
    /// The server answered below 400 outside the contract: a status the spec
    /// does not document, or a body that does not match it.
    case unexpectedResponse(status: Int, reason: String)
    /// A value broke the spec's constraints before anything was sent.
    case constraintViolated(ConstraintViolation)
    /// The session ended (the refresh token, or the new access token, was refused).
    case sessionExpired
    /// No one is signed in.
    case notSignedIn
    /// The base URL is not https (http only to a loopback host).
    case insecureBaseURL
    /// The secure token store could not be read or written.
    case storageFailed
    /// The network could not be reached (no connectivity, the connection
    /// lost, or the device known to be offline and nothing sent).
    case offline
    /// The device is online but the server did not take the connection (its
    /// host not found, or the connection refused).
    case unreachable
    /// A write that is not deduplicated may or may not have reached the
    /// server; it was not sent again.
    case outcomeUnknown
    /// The server did not answer in time.
    case timeout
    /// The connection could not be verified (a pinned host whose chain has
    /// no pinned key or cannot be checked, a certificate the system refused
    /// on any host, a redirect to another host), so nothing was sent. Never
    /// retried, never "offline", never answered from a cache.
    case connectionNotVerified(CertificatePinningError)
    /// The call was cancelled.
    case cancelled
    /// Something else; `typeName` is the error's type, never its text (which
    /// could carry a secret).
    case unknown(typeName: String)

    /// Classifies whatever a call threw: the generated client's errors, the
    /// middlewares', the transport's.
    package init(_ error: any Error) {
        switch error {
        case let error as APIError<ErrorBody>:
            self = .errorResponse(FailedResponse(
                status: error.status, headerFields: error.headerFields, body: error.body, rawBody: error.rawBody,
                reason: "documented error status"))
        case let error as UndocumentedResponseError where error.status >= 400:
            let bytes = Data(error.body)
            self = .errorResponse(FailedResponse(
                status: error.status, headerFields: error.headerFields,
                body: try? JSONCoding.makeDecoder().decode(ErrorBody.self, from: bytes), rawBody: bytes, reason: "status not in the spec"))
        case let error as UndocumentedResponseError:
            self = .unexpectedResponse(status: error.status, reason: "status not in the spec")
        case let error as ResponseDecodingError:
            let reason = "the body does not match the spec" + (error.field.isEmpty ? "" : " at \(error.field)")
            self = error.status >= 400
                ? .errorResponse(FailedResponse(status: error.status, headerFields: error.headerFields, body: nil, rawBody: error.rawBody, reason: reason))
                : .unexpectedResponse(status: error.status, reason: reason)
        case let error as ConstraintViolation: self = .constraintViolated(error)
        case let error as TokenRefreshError: self = error == .notSignedIn ? .notSignedIn : .sessionExpired
        case is InsecureBaseURLError: self = .insecureBaseURL
        case is PrivateFileError: self = .storageFailed
        case is DeviceOfflineError: self = .offline
        case is WriteOutcomeUnknownError: self = .outcomeUnknown
        default:
            // Under the runtime's `ClientError` too (clients that wrap transport errors in it).
            let cause = (error as? ClientError)?.underlyingError ?? error
            if let refusal = cause as? CertificatePinningError {
                self = .connectionNotVerified(refusal)
                return
            }
            // A TLS failure from a transport that did not name it (an app's own).
            if TLSFailure.matches(cause) {
                let host = (cause as? URLError)?.failingURL?.host ?? "the server"
                self = .connectionNotVerified(CertificatePinningError(host: host, reason: .systemRefused, expected: []))
                return
            }
            switch NetworkFailure(error) {
            case .timeout?: self = .timeout
            case .cancelled?: self = .cancelled
            case .offline?: self = .offline
            case .unreachable?: self = .unreachable
            case nil: self = .unknown(typeName: String(describing: type(of: error)))
            }
        }
    }
}

/// An error status the server answered with, and what came with it.
package struct FailedResponse<Body: Sendable>: Sendable {
    /// The HTTP status (400 and up).
    package let status: Int
    /// The response headers.
    package let headerFields: HTTPFields
    /// The body as the spec's error schema, when it reads as one.
    package let body: Body?
    /// The body's bytes as received (for a lenient read of what did not decode).
    package let rawBody: Data
    /// Why the response is an error in the contract's terms: "documented
    /// error status", "status not in the spec", or the field that did not decode.
    package let reason: String

    /// Creates a response.
    package init(status: Int, headerFields: HTTPFields, body: Body?, rawBody: Data, reason: String) {
        self.status = status
        self.headerFields = headerFields
        self.body = body
        self.rawBody = rawBody
        self.reason = reason
    }

    /// The wait the server's `Retry-After` asks for (seconds or an HTTP date), if it sent one.
    package func retryAfter(now: Date = Date()) -> Duration? {
        headerFields[.retryAfter].flatMap { RetryAfter.parse($0, now: now) }
    }
}

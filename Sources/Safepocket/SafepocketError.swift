import ClientRuntime
import Foundation
import HTTPTypes
import Resilience
import SDKCore
import SafepocketAPI

/// A non-2xx answer from Safepocket, with what its error envelope carried:
/// `error.code`, `error.message`, `error.details` and `traceId`. A body that
/// does not fully match the envelope still gives whatever it had (the
/// `traceId` above all, for support tickets) and its status.
public struct SafepocketFailure: Sendable, Hashable, CustomStringConvertible {
    /// The HTTP status.
    public let status: Int
    /// The envelope's `error.code`, when readable (unknown codes kept).
    public let code: ErrorCode?
    /// The envelope's `error.message`, masked by the `Redactor`.
    public let message: String?
    /// The envelope's `error.details` (field -> reason).
    public let details: [String: String]
    /// The envelope's `traceId`: persist it in crash logs and support tickets.
    public let traceID: String?
    /// The server's `Retry-After` (429, 503), when it sent one.
    public let retryAfter: Duration?

    /// Creates a failure.
    public init(
        status: Int, code: ErrorCode?, message: String?, details: [String: String] = [:], traceID: String?, retryAfter: Duration? = nil
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.traceID = traceID
        self.retryAfter = retryAfter
    }

    /// `status 404 NOT_FOUND: Transaction not found (trace d4b1...)`.
    public var description: String {
        "status \(status)" + (code.map { " \($0.rawValue)" } ?? "") + (message.map { ": \($0)" } ?? "")
            + (traceID.map { " (trace \($0))" } ?? "")
    }

    /// Reads an error body leniently: the envelope's fields that are there.
    static func read(status: Int, headers: HTTPFields, body: Data, redactor: Redactor, now: Date) -> SafepocketFailure {
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        let error = object?["error"] as? [String: Any]
        return SafepocketFailure(
            status: status, code: (error?["code"] as? String).map(ErrorCode.init(rawValue:)),
            message: (error?["message"] as? String).map(redactor.text),
            details: (error?["details"] as? [String: Any])?.compactMapValues { ($0 as? String).map(redactor.text) } ?? [:],
            traceID: object?["traceId"] as? String, retryAfter: headers[.retryAfter].flatMap { RetryAfter.parse($0, now: now) })
    }
}

/// Every way a Safepocket call or sign-in can fail, for the app to act on.
public enum SafepocketError: Error, Sendable, Hashable, CustomStringConvertible, SDKErrorCases {
    /// The server answered with an error status (400, 403, 404, 429, 5xx...);
    /// the envelope's code, message and trace id are in the failure.
    case api(SafepocketFailure)
    /// The session is over (the refresh token was refused, or the new access
    /// token too): tokens are cleared; sign in again.
    case sessionExpired
    /// No one is signed in.
    case notSignedIn
    /// The redirect's `state` is not the one this sign-in sent: a forged or
    /// stale redirect. Nothing was exchanged.
    case stateMismatch
    /// A redirect or code arrived but no sign-in was started.
    case noSignInInProgress
    /// The authorization server sent the browser back with an error
    /// (`error=access_denied`, ...).
    case authorizationFailed(error: String)
    /// The redirect carried no `code`.
    case missingAuthorizationCode
    /// The network could not be reached (no connectivity, or the
    /// connection was lost).
    case offline
    /// The device is online but the server did not take the connection: its
    /// host was not found, or it refused the connection (a wrong base URL,
    /// a server that is down).
    case unreachable
    /// The server did not answer in time.
    case timeout
    /// The secure connection could not be verified: the system does not
    /// trust the server's certificate (or the TLS handshake failed), in
    /// production its chain has none of the pinned public keys or cannot be
    /// checked (plain http, or a platform without a server-trust check), or
    /// the server redirected to another host. Nothing was sent (no request
    /// body, no token), nothing was served from the cache or queued, and it
    /// is not retried: the network works, but the server reached is not the
    /// one it should be. The refusal names the host and the keys presented,
    /// for the app's logs and support.
    case connectionNotVerified(CertificatePinningError)
    /// The configuration's pins were refused before any connection (fewer
    /// than two for a host, or a transport of the app's own that does not
    /// enforce them); the error says what to change.
    case invalidPinning(PinningConfigurationError)
    /// The URL given to ``Safepocket/completeSignIn(redirect:)`` is not the
    /// configured redirect URI (scheme, host and path): it was not read, and
    /// nothing was exchanged.
    case redirectMismatch
    /// A write may or may not have reached the server and could not be
    /// sent again safely; check before repeating it.
    case outcomeUnknown
    /// A success whose body does not match the spec.
    case unexpectedResponse(status: Int, reason: String)
    /// The base URL is not https (http is allowed to loopback hosts only).
    case insecureBaseURL
    /// A secret could not be stored.
    case storageFailed
    /// The call was cancelled.
    case cancelled
    /// A value breaks the spec's constraints (a pattern, a length, a bound):
    /// nothing was sent. The violation names the field and rule, never a
    /// secret value.
    case constraintViolated(ConstraintViolation)

    /// A short text for developers and logs; never a token or a verifier.
    public var description: String {
        switch self {
        case .api(let failure): return "Safepocket error \(failure)"
        case .sessionExpired: return "the session expired; sign in again"
        case .notSignedIn: return "not signed in"
        case .stateMismatch: return "the redirect's state does not match this sign-in; it was ignored"
        case .noSignInInProgress: return "no sign-in was started: open an authorization URL first"
        case .authorizationFailed(let error): return "the authorization server refused: \(error)"
        case .missingAuthorizationCode: return "the redirect carried no authorization code"
        case .offline: return "the network could not be reached (offline?)"
        case .unreachable: return "the server refused the connection or its host was not found (is the base URL right?)"
        case .timeout: return "the server did not answer in time"
        case .connectionNotVerified(let refusal): return "the secure connection could not be verified (\(refusal.host): \(refusal.summary))"
        case .invalidPinning(let problem): return "the pinning configuration was refused: \(problem)"
        case .redirectMismatch: return "the redirect is not the configured redirect URI; it was ignored"
        case .outcomeUnknown: return "the request may or may not have reached the server; it was not sent again"
        case .unexpectedResponse(let status, let reason): return "unexpected response \(status): \(reason)"
        case .insecureBaseURL: return "the base URL must use https (http only to a loopback host)"
        case .storageFailed: return "the SDK's files (secure store, cache, queued writes) could not be read or written"
        case .cancelled: return "cancelled"
        case .constraintViolated(let violation): return "not sent: \(violation)"
        }
    }

    /// The case's name (`stateMismatch`), for analytics and scripts.
    public var kind: String {
        switch self {
        case .api: return "api"
        case .sessionExpired: return "sessionExpired"
        case .notSignedIn: return "notSignedIn"
        case .stateMismatch: return "stateMismatch"
        case .noSignInInProgress: return "noSignInInProgress"
        case .authorizationFailed: return "authorizationFailed"
        case .missingAuthorizationCode: return "missingAuthorizationCode"
        case .offline: return "offline"
        case .unreachable: return "unreachable"
        case .timeout: return "timeout"
        case .connectionNotVerified: return "connectionNotVerified"
        case .invalidPinning: return "invalidPinning"
        case .redirectMismatch: return "redirectMismatch"
        case .outcomeUnknown: return "outcomeUnknown"
        case .unexpectedResponse: return "unexpectedResponse"
        case .insecureBaseURL: return "insecureBaseURL"
        case .storageFailed: return "storageFailed"
        case .cancelled: return "cancelled"
        case .constraintViolated: return "constraintViolated"
        }
    }

    /// The trace id to quote to support, when the server sent one.
    public var traceID: String? {
        if case .api(let failure) = self { return failure.traceID }
        return nil
    }

    /// Maps whatever a call threw (generated client, middlewares, transport),
    /// as the runtime classifies it (`CallFailure`); server messages are
    /// masked by `redactor`.
    init(_ error: any Error, redactor: Redactor, now: Date = Date()) {
        if let error = error as? SafepocketError {
            self = error
            return
        }
        self = CallFailure<ErrorEnvelope>(error).sdkError(SafepocketError.self) { response in
            guard let envelope = response.body else {
                // An error body that is not quite the envelope: keep what it has.
                return .api(SafepocketFailure.read(
                    status: response.status, headers: response.headerFields, body: response.rawBody, redactor: redactor, now: now))
            }
            return .api(SafepocketFailure(
                status: response.status, code: envelope.error.code, message: redactor.text(envelope.error.message),
                details: (envelope.error.details ?? [:]).mapValues(redactor.text), traceID: envelope.traceID, retryAfter: response.retryAfter(now: now)))
        }
    }
}

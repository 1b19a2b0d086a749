import ClientRuntime
import Foundation
import HTTPTypes
import Resilience
import SDKCore
import SoulAPI

/// Every way a SOUL call can fail, as the UI needs to tell them apart: the
/// document's input errors (400), rate limits (429, with the wait), an ended
/// session, offline, server errors (5xx) and timeouts.
///
/// Descriptions never hold a phone number, an OTP code or a token: server
/// messages are passed through the `Redactor` before they are kept.
public enum SoulError: Error, Sendable, Hashable, CustomStringConvertible, SDKErrorCases {
    /// The phone number is not E.164; nothing was sent.
    case invalidPhoneNumber(E164PhoneNumber.Problem)
    /// The code is not 6 digits; nothing was sent.
    case invalidCodeFormat
    /// ``SignInFlow/verify(code:)`` before a code was requested.
    case noCodeRequested
    /// A resend before the cooldown is over; nothing was sent.
    case resendTooSoon(remaining: Duration)
    /// The server rejected the input (400, 422) of a call other than the
    /// sign-in steps (a mood's score). `detail` is the server's message, masked.
    case invalidInput(detail: String)
    /// The server does not accept the phone number (invalid, or not one it
    /// can send codes to): a 400 to a code request, or one to a
    /// verification that names the number. `detail` is its message, masked.
    case phoneNumberRejected(detail: String)
    /// The code is not the one sent (a 400 to a verification). `detail` is
    /// the server's message, masked.
    case invalidCode(detail: String)
    /// The code has expired: request a new one. `detail` is the server's
    /// message, masked.
    case codeExpired(detail: String)
    /// Too many attempts (429): wait `retryAfter` (the server's `Retry-After`,
    /// or the configured default when it sent none).
    case rateLimited(retryAfter: Duration)
    /// The session is over (the refresh token was refused, or the new access
    /// token too): tokens are cleared; sign in again.
    case sessionExpired
    /// No one is signed in.
    case notSignedIn
    /// The network could not be reached (no connectivity, or the
    /// connection was lost).
    case offline
    /// The device is online but the server did not take the connection: its
    /// host was not found, or it refused the connection (a wrong base URL,
    /// a server that is down).
    case unreachable
    /// The server did not answer in time.
    case timeout
    /// A mood may or may not have reached the server (the connection was
    /// lost or timed out after it was sent). SOUL does not deduplicate
    /// moods, so it is not sent again: list the moods to see whether it
    /// arrived.
    case outcomeUnknown
    /// The SDK's files (the response cache, the queue of writes, the
    /// sign-in state, the token file) could not be read or written.
    case storageFailed
    /// The server failed (5xx). `detail` is its message, masked, if any.
    case server(status: Int, detail: String?)
    /// The server answered outside the contract (an undocumented status, or
    /// a body that does not match the spec).
    case unexpectedResponse(status: Int, reason: String)
    /// The base URL is not https (http is allowed to loopback hosts only).
    case insecureBaseURL
    /// The secure connection could not be verified: the system does not
    /// trust the server's certificate (or the TLS handshake failed), its
    /// chain has none of the pinned keys, or the server redirected to
    /// another host. Nothing was sent, nothing served from the cache or
    /// queued, and it is not retried: the network works, but the server
    /// reached is not the one it should be.
    case connectionNotVerified(CertificatePinningError)
    /// The configuration's pins were refused before any connection; the
    /// error says what to change.
    case invalidPinning(PinningConfigurationError)
    /// The call was cancelled.
    case cancelled
    /// A value breaks the spec's constraints (a pattern, a length, a bound):
    /// nothing was sent. The violation names the field and rule, never a
    /// secret value.
    case constraintViolated(ConstraintViolation)

    /// A short text for developers and logs.
    public var description: String {
        switch self {
        case .invalidPhoneNumber(let problem): return "invalid phone number: \(problem)"
        case .invalidCodeFormat: return "the code must be the 6 digits received by SMS"
        case .noCodeRequested: return "no code was requested: call requestCode(phone:) first"
        case .resendTooSoon(let remaining): return "a new code can be requested in \(Self.seconds(remaining)) s"
        case .invalidInput(let detail): return "rejected by the server: \(detail)"
        case .phoneNumberRejected(let detail): return "the server rejected the phone number: \(detail)"
        case .invalidCode(let detail): return "the server rejected the code: \(detail)"
        case .codeExpired(let detail): return "the code has expired: \(detail)"
        case .rateLimited(let wait): return "too many attempts; try again in \(Self.seconds(wait)) s"
        case .sessionExpired: return "the session expired; sign in again"
        case .notSignedIn: return "not signed in"
        case .offline: return "the network could not be reached (offline?)"
        case .unreachable: return "the server refused the connection or its host was not found (is the base URL right?)"
        case .timeout: return "the server did not answer in time"
        case .outcomeUnknown: return "the request may or may not have reached the server; it was not sent again"
        case .storageFailed: return "the SDK's files could not be read or written"
        case .server(let status, let detail): return "server error \(status)" + (detail.map { ": \($0)" } ?? "")
        case .unexpectedResponse(let status, let reason): return "unexpected response \(status): \(reason)"
        case .insecureBaseURL: return "the base URL must use https (http only to a loopback host)"
        case .connectionNotVerified(let refusal): return "the secure connection could not be verified (\(refusal.host): \(refusal.summary))"
        case .invalidPinning(let problem): return "the pinning configuration was refused: \(problem)"
        case .cancelled: return "cancelled"
        case .constraintViolated(let violation): return "not sent: \(violation)"
        }
    }

    /// The case's name (`rateLimited`), for analytics and scripts.
    public var kind: String {
        switch self {
        case .invalidPhoneNumber: return "invalidPhoneNumber"
        case .invalidCodeFormat: return "invalidCodeFormat"
        case .noCodeRequested: return "noCodeRequested"
        case .resendTooSoon: return "resendTooSoon"
        case .invalidInput: return "invalidInput"
        case .phoneNumberRejected: return "phoneNumberRejected"
        case .invalidCode: return "invalidCode"
        case .codeExpired: return "codeExpired"
        case .rateLimited: return "rateLimited"
        case .sessionExpired: return "sessionExpired"
        case .notSignedIn: return "notSignedIn"
        case .offline: return "offline"
        case .unreachable: return "unreachable"
        case .timeout: return "timeout"
        case .outcomeUnknown: return "outcomeUnknown"
        case .storageFailed: return "storageFailed"
        case .server: return "server"
        case .unexpectedResponse: return "unexpectedResponse"
        case .insecureBaseURL: return "insecureBaseURL"
        case .connectionNotVerified: return "connectionNotVerified"
        case .invalidPinning: return "invalidPinning"
        case .cancelled: return "cancelled"
        case .constraintViolated: return "constraintViolated"
        }
    }

    /// A message to show a person, as the SOUL document words them.
    public var userMessage: String {
        switch self {
        case .invalidPhoneNumber(let problem): return problem.description.prefix(1).uppercased() + problem.description.dropFirst() + "."
        case .invalidCodeFormat: return "Enter the 6-digit code we sent you."
        case .noCodeRequested: return "Request a code first."
        case .resendTooSoon(let remaining): return "You can request a new code in \(Self.seconds(remaining)) seconds."
        case .invalidInput(let detail): return detail
        case .phoneNumberRejected: return "We can't send a code to this number. Check it, with its country code (for example +1 415 555 0123)."
        case .invalidCode: return "That code isn't right. Check the SMS and enter the 6 digits again."
        case .codeExpired: return "That code has expired. Request a new code."
        case .rateLimited(let wait): return "Too many attempts. Please try again in \(Self.seconds(wait)) seconds."
        case .sessionExpired: return "Your session expired. Please sign in again."
        case .notSignedIn: return "Please sign in."
        case .offline: return "You appear to be offline."
        case .unreachable: return "The server cannot be reached right now. Please try again later."
        case .timeout: return "The server is taking too long. Please try again."
        case .outcomeUnknown: return "We could not confirm your mood was saved. Check your moods before adding it again."
        case .storageFailed: return "Your device's storage could not be used. Free some space and try again."
        case .server: return "Something went wrong on our side. Please try again later."
        case .unexpectedResponse: return "Something went wrong. Please try again later."
        case .insecureBaseURL, .invalidPinning: return "The app is misconfigured."
        case .connectionNotVerified: return "A secure connection to the server could not be established. Check your network and try again."
        case .cancelled: return ""
        case .constraintViolated: return "Please check what you entered."
        }
    }

    /// Whole seconds, rounded up, so a countdown never shows 0 too early.
    public static func wholeSeconds(_ duration: Duration) -> Int { seconds(duration) }

    /// Whole seconds, rounded up, so a countdown never shows 0 too early.
    static func seconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) + (attoseconds > 0 ? 1 : 0)
    }

    /// Maps whatever a call threw (generated client, middlewares, transport),
    /// as the runtime classifies it (`CallFailure`). `rateLimitFallback` is
    /// the wait for a 429 without `Retry-After`; server messages are masked
    /// by `redactor`.
    init(_ error: any Error, rateLimitFallback: Duration, redactor: Redactor, now: Date = Date()) {
        if let error = error as? SoulError {
            self = error
            return
        }
        self = CallFailure<ErrorDetail>(error).sdkError(SoulError.self, unknownReason: redactor.text) { response in
            let detail = response.body.map { redactor.text($0.detail) }
            switch response.status {
            case 400, 422: return .invalidInput(detail: detail ?? "invalid input")
            case 401: return .sessionExpired
            case 429: return .rateLimited(retryAfter: response.retryAfter(now: now) ?? rateLimitFallback)
            case 500...599: return .server(status: response.status, detail: detail)
            default: return .unexpectedResponse(status: response.status, reason: response.reason)
            }
        }
    }
}

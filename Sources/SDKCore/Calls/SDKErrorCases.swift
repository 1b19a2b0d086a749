import ClientRuntime
import Resilience

/// The cases every signed-in SDK's error has for what the runtime
/// classifies the same way for each (``CallFailure``, and why the SDK could
/// not start, ``SignedInSDK/StartFailure``). Each SDK's error enum conforms
/// with its own cases (an enum case is the witness of a static
/// requirement), so the mapping from those failures is written once, here,
/// and an SDK maps only what it reads its own way: the server's error body.
package protocol SDKErrorCases: Error {
    /// The session ended.
    static var sessionExpired: Self { get }
    /// No one is signed in.
    static var notSignedIn: Self { get }
    /// The base URL is http to a host that is not loopback.
    static var insecureBaseURL: Self { get }
    /// The SDK's files or the secure token store could not be used.
    static var storageFailed: Self { get }
    /// The device's network could not be reached.
    static var offline: Self { get }
    /// The device is online but the server did not take the connection.
    static var unreachable: Self { get }
    /// The server did not answer in time.
    static var timeout: Self { get }
    /// A write that is not deduplicated may or may not have reached the server.
    static var outcomeUnknown: Self { get }
    /// The call was cancelled.
    static var cancelled: Self { get }
    /// The connection could not be verified, so nothing was sent.
    static func connectionNotVerified(_ refusal: CertificatePinningError) -> Self
    /// A transport of the app's own cannot enforce the configured pins.
    static func invalidPinning(_ error: PinningConfigurationError) -> Self
    /// A value broke the spec's constraints before anything was sent.
    static func constraintViolated(_ violation: ConstraintViolation) -> Self
    /// The server answered outside the contract.
    static func unexpectedResponse(status: Int, reason: String) -> Self
}

extension CallFailure {
    /// The SDK's error: `errorResponse` reads an error status the SDK's own
    /// way (its error body); every other case maps the same for each SDK.
    /// `unknownReason` words an error of an unknown type from its type's
    /// name (never its text).
    package func sdkError<Failure: SDKErrorCases>(
        _: Failure.Type, unknownReason: (String) -> String = { $0 }, errorResponse: (FailedResponse<ErrorBody>) -> Failure
    ) -> Failure {
        switch self {
        case .errorResponse(let response): return errorResponse(response)
        case .unexpectedResponse(let status, let reason): return .unexpectedResponse(status: status, reason: reason)
        case .constraintViolated(let violation): return .constraintViolated(violation)
        case .sessionExpired: return .sessionExpired
        case .notSignedIn: return .notSignedIn
        case .insecureBaseURL: return .insecureBaseURL
        case .storageFailed: return .storageFailed
        case .offline: return .offline
        case .unreachable: return .unreachable
        case .timeout: return .timeout
        case .connectionNotVerified(let refusal): return .connectionNotVerified(refusal)
        case .outcomeUnknown: return .outcomeUnknown
        case .cancelled: return .cancelled
        case .unknown(let typeName): return .unexpectedResponse(status: 0, reason: unknownReason(typeName))
        }
    }
}

extension SignedInSDK.StartFailure {
    /// The SDK's error for why it could not start.
    package func sdkError<Failure: SDKErrorCases>(_: Failure.Type) -> Failure {
        switch self {
        case .insecureBaseURL: return .insecureBaseURL
        case .storageFailed: return .storageFailed
        case .invalidPinning(let error): return .invalidPinning(error)
        }
    }
}

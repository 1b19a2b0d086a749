import Safepocket

extension SafepocketError {
    /// What the sample app tells the user (the SDK's `description` is for logs).
    public var userMessage: String {
        switch self {
        case .offline: return "You are offline. What you see was saved earlier."
        case .timeout: return "The server is taking too long. Please try again."
        case .unreachable: return "Safepocket cannot be reached right now. What you see was saved earlier."
        case .sessionExpired, .notSignedIn: return "Please sign in again."
        case .connectionNotVerified: return "The secure connection could not be verified."
        case .outcomeUnknown: return "We could not confirm your change. Please check it before trying again."
        case .stateMismatch, .noSignInInProgress, .missingAuthorizationCode, .authorizationFailed: return "Sign-in did not complete. Please try again."
        case .api(let failure): return failure.message ?? "The server refused the request (\(failure.status))."
        default: return "Something went wrong. Please try again."
        }
    }
}

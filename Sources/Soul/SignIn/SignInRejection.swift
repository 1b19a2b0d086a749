import ClientRuntime
import Foundation
import Resilience
import SDKCore
import SoulAPI

/// What a 400/422 to a sign-in step means, for the app's input guidance
/// ("400 invalid phone/code: display precise input guidance").
///
/// Decided from the operation and status first, the body second, never
/// from the server's wording alone:
/// 1. `POST /api/auth/otp/request` has one input, the phone number (already
///    checked as E.164 on the device): its 400 is
///    ``SoulError/phoneNumberRejected(detail:)``, the number is invalid or
///    not supported by the server.
/// 2. `POST /api/auth/otp/verify` sends the number the server accepted for
///    this code, and the code: its 400 is about the code,
///    ``SoulError/invalidCode(detail:)``, unless the body says otherwise:
///    a machine-readable `code`/`error` field (`otp_expired`,
///    `code_expired`, `invalid_phone`, ...) when the server sends one, else
///    a `detail` that names the phone number without the code
///    (``SoulError/phoneNumberRejected(detail:)``) or says the code expired
///    (``SoulError/codeExpired(detail:)``).
/// 3. A 429 is ``SoulError/rateLimited(retryAfter:)`` whatever the body.
///
/// The server's `detail` stays in the case, masked, for logs.
enum SignInRejection {
    /// The sign-in step that was refused.
    enum Step {
        case requestCode, verify
    }

    /// `mapped` (a SOUL error from `error`) made precise for `step`.
    static func classify(_ mapped: SoulError, step: Step, error: any Error) -> SoulError {
        guard case .invalidInput(let detail) = mapped else { return mapped }
        switch step {
        case .requestCode:
            return .phoneNumberRejected(detail: detail)
        case .verify:
            let code = machineCode(in: error)?.lowercased() ?? ""
            let text = detail.lowercased()
            if code.contains("expire") || (code.isEmpty && text.contains("expire")) { return .codeExpired(detail: detail) }
            if code.contains("phone") || (code.isEmpty && text.contains("phone") && !text.contains("otp") && !text.contains("code")) {
                return .phoneNumberRejected(detail: detail)
            }
            return .invalidCode(detail: detail)
        }
    }

    /// The body's `code` (or `error`) string, when the server sends one.
    static func machineCode(in error: any Error) -> String? {
        guard case .errorResponse(let response) = CallFailure<ErrorDetail>(error),
            let object = (try? JSONSerialization.jsonObject(with: response.rawBody)) as? [String: Any]
        else { return nil }
        return (object["code"] as? String) ?? (object["error"] as? String)
    }
}

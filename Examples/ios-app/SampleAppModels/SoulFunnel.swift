import Foundation
import MobileTracker

/// The analytics funnel of SOUL's plan ("Track funnel: otp_request →
/// otp_verify → first_protected_call"), tracked through MobileTracker: a
/// code requested (each request, resends marked), the code accepted, and
/// the first protected call that succeeds after it, once per sign-in.
/// Never the number or the code: only the step, whether it was a resend,
/// and the environment.
@MainActor
public final class SoulFunnel {
    /// The funnel's steps, by their event names.
    public enum Step: String, Sendable, CaseIterable {
        /// A code was sent (`POST /api/auth/otp/request` succeeded).
        case otpRequest = "otp_request"
        /// The code was accepted (`POST /api/auth/verify-otp` succeeded).
        case otpVerify = "otp_verify"
        /// The first protected call of the sign-in succeeded (the moods).
        case firstProtectedCall = "first_protected_call"
    }

    private let track: @Sendable (Step, [String: String]) async -> Void
    private let environment: String
    /// Signed in by a code, and no protected call has succeeded since.
    private var awaitingFirstCall = false

    /// A funnel that reports each step to `track` with its attributes
    /// (`environment`, and `resend` for a code request).
    public init(environment: String, track: @escaping @Sendable (Step, [String: String]) async -> Void) {
        self.environment = environment
        self.track = track
    }

    /// A funnel tracked as MobileTracker events named after the steps.
    public convenience init(tracker: MobileTracker, environment: String) {
        self.init(environment: environment) { step, attributes in
            await tracker.track(eventName: step.rawValue, attributes: attributes)
        }
    }

    /// A code was sent; `resend` when it was not the first for the number.
    func codeRequested(resend: Bool) async {
        await track(.otpRequest, ["environment": environment, "resend": resend ? "true" : "false"])
    }

    /// The code was accepted: the next protected call that succeeds is the first.
    func codeVerified() async {
        awaitingFirstCall = true
        await track(.otpVerify, ["environment": environment])
    }

    /// A protected call succeeded (from the server, not the cache).
    func protectedCallSucceeded() async {
        guard awaitingFirstCall else { return }
        awaitingFirstCall = false
        await track(.firstProtectedCall, ["environment": environment])
    }

    /// The session ended: no first call is awaited any more.
    func signedOut() {
        awaitingFirstCall = false
    }
}

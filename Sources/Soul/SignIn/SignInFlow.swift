import Foundation
import Resilience
import RuntimeSupport
import SoulAPI

/// The OTP sign-in of SOUL: request a code for a phone number, verify it,
/// and start the session; with the resend cooldown the UI shows.
///
/// ```swift
/// let request = try await soul.signIn.requestCode(phone: "+14155550123")
/// if let preview = request.previewCode { prefill(preview) }   // staging only
/// countdown(try await soul.signIn.secondsUntilResend(phone: "+14155550123"))
/// let user = try await soul.signIn.verify(code: enteredCode)
/// ```
///
/// Rules (from the SOUL document):
/// - The phone is checked as E.164 before anything is sent; a wrong one is
///   ``SoulError/invalidPhoneNumber(_:)`` and is never corrected.
/// - After a code is sent, a resend of the same number is refused with
///   ``SoulError/resendTooSoon(remaining:)`` until the cooldown is over
///   (``Soul/Configuration/resendCooldown``). A 429 starts a cooldown of its
///   `Retry-After`, or ``Soul/Configuration/rateLimitFallback`` without one.
/// - `requestOTP` and `verifyOTP` are sent once: never retried, never a
///   token refresh.
/// - The staging preview code is returned only when the environment is
///   staging; production ignores it even if a server sent one.
/// - The number a code was sent to and the cooldowns are kept in a 0600
///   file: after a relaunch ``verify(code:)`` still completes the sign-in
///   (until ``Soul/Configuration/codeLifetime`` has passed since the code
///   was requested) and a cooldown still runs.
public actor SignInFlow {
    /// A code was sent.
    public struct CodeRequest: Sendable, Hashable {
        /// The number the code went to.
        public let phone: E164PhoneNumber
        /// The staging preview code (`DEV_MODE`), nil in production.
        public let previewCode: String?
        /// When a resend to this number is allowed.
        public let resendAllowedAt: Date
    }

    private let client: SoulAPI.Client
    private let session: TokenSession
    private let isStaging: Bool
    private let resendCooldown: Duration
    private let rateLimitFallback: Duration
    private let now: @Sendable () -> Date
    private let redactor: Redactor
    private let codeLifetime: Duration
    private let stateFile: SignInStateFile
    private let willSignIn: @Sendable (User) async -> Void
    private var state: SignInState

    /// `willSignIn` runs after the code is verified and before the tokens
    /// are stored (the SDK's user data changes user there).
    init(
        client: SoulAPI.Client, session: TokenSession, isStaging: Bool, resendCooldown: Duration, rateLimitFallback: Duration,
        codeLifetime: Duration, stateFile: SignInStateFile, redactor: Redactor, now: @escaping @Sendable () -> Date,
        willSignIn: @escaping @Sendable (User) async -> Void
    ) {
        self.redactor = redactor
        self.client = client
        self.session = session
        self.isStaging = isStaging
        self.resendCooldown = resendCooldown
        self.rateLimitFallback = rateLimitFallback
        self.codeLifetime = codeLifetime
        self.stateFile = stateFile
        self.now = now
        self.willSignIn = willSignIn
        state = stateFile.load()
    }

    /// The number the last code was sent to (masked when printed), while
    /// that code can still be verified; it survives a relaunch.
    public var pendingNumber: E164PhoneNumber? { pendingPhone }

    private var pendingPhone: E164PhoneNumber? {
        guard let phone = state.pendingPhone, let requestedAt = state.codeRequestedAt,
              now().timeIntervalSince(requestedAt) < codeLifetime.totalSeconds
        else { return nil }
        return try? E164PhoneNumber(phone)
    }

    /// Seconds before a code can be requested again for `phone` (0: now).
    /// An invalid number has no cooldown.
    public func secondsUntilResend(phone: String) -> Int {
        guard let number = try? E164PhoneNumber(phone) else { return 0 }
        return remaining(for: number).map(SoulError.seconds) ?? 0
    }

    /// Sends a code by SMS to `phone` (E.164, as entered).
    public func requestCode(phone: String) async throws(SoulError) -> CodeRequest {
        let number: E164PhoneNumber
        do {
            number = try E164PhoneNumber(phone)
        } catch {
            throw .invalidPhoneNumber(error)
        }
        if let remaining = remaining(for: number) { throw .resendTooSoon(remaining: remaining) }
        let response: RequestOTPResponse
        do {
            response = try await client.requestOTP(body: RequestOTPBody(phone: number.e164))
        } catch {
            let mapped = SignInRejection.classify(
                SoulError(error, rateLimitFallback: rateLimitFallback, redactor: redactor, now: now()), step: .requestCode, error: error)
            if case .rateLimited(let wait) = mapped { startCooldown(for: number, lasting: wait) }
            throw mapped
        }
        startCooldown(for: number, lasting: resendCooldown)
        state.pendingPhone = number.e164
        state.codeRequestedAt = now()
        // The code is on its way whatever happens to this file; a failed
        // write only means a relaunch asks for a new one.
        try? stateFile.save(state)
        return CodeRequest(
            phone: number, previewCode: isStaging ? response.previewCode : nil, resendAllowedAt: state.cooldowns[number.e164] ?? now())
    }

    /// Verifies the 6-digit `code` sent to the last requested number and
    /// starts the session: the refresh token goes to the secure store, the
    /// access token stays in memory.
    @discardableResult
    public func verify(code: String) async throws(SoulError) -> User {
        guard let number = pendingPhone else { throw .noCodeRequested }
        guard code.utf8.count == 6, code.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw .invalidCodeFormat
        }
        do {
            let response = try await client.verifyOTP(body: VerifyOTPBody(phone: number.e164, otp: code))
            await willSignIn(response.user)
            try await session.signIn(TokenPair(accessToken: response.accessToken, refreshToken: response.refreshToken))
            // The number is no longer needed: nothing of the sign-in stays.
            state = SignInState()
            try? stateFile.save(state)
            return response.user
        } catch {
            let mapped = SignInRejection.classify(
                SoulError(error, rateLimitFallback: rateLimitFallback, redactor: redactor, now: now()), step: .verify, error: error)
            if case .rateLimited(let wait) = mapped { startCooldown(for: number, lasting: wait) }
            throw mapped
        }
    }

    /// Forgets the sign-in the ended session's user left: a pending number
    /// whose code was requested before `date` (one requested after is the
    /// next user's, kept), and the cooldowns, which name phone numbers.
    func forgetPending(requestedBefore date: Date) {
        if let requestedAt = state.codeRequestedAt, requestedAt >= date { return }
        state = SignInState()
        try? stateFile.save(state)
    }

    private func remaining(for number: E164PhoneNumber) -> Duration? {
        guard let until = state.cooldowns[number.e164] else { return nil }
        let left = until.timeIntervalSince(now())
        return left > 0 ? .milliseconds(Int64((left * 1000).rounded(.up))) : nil
    }

    private func startCooldown(for number: E164PhoneNumber, lasting duration: Duration) {
        let until = now().addingTimeInterval(duration.totalSeconds)
        // A 429 can only lengthen a cooldown, never shorten it.
        state.cooldowns[number.e164] = max(until, state.cooldowns[number.e164] ?? until)
        state.cooldowns = state.cooldowns.filter { $0.value > now() || $0.key == number.e164 }
        try? stateFile.save(state)
    }
}

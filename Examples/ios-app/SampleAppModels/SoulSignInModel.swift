import Foundation
import Soul

/// SOUL's sign-in screens, as its iOS plan lists them: the phone number
/// (checked as E.164 while typed), the 6-digit code with its resend
/// cooldown, a precise message for every refusal, the friendly 429 message
/// with its countdown, and "session expired" back to the phone screen when
/// the session's one refresh fails; after the code, the consent to go on
/// ("OTP UI flow and consent to continue using app after verify"); the
/// plan's funnel (`otp_request`, `otp_verify`, then the first protected
/// call) tracked through ``SoulFunnel``. A sign-in survives a relaunch: a
/// code requested before it can still be entered, a stored session is
/// resumed (at the consent screen until the user consented).
@MainActor
public final class SoulSignInModel: ScreenModel {
    /// Which screen is shown.
    public enum Step: Equatable, Sendable {
        /// The phone number.
        case phone
        /// The code sent to `maskedPhone`; `previewCode` on staging only.
        case code(maskedPhone: String, previewCode: String?)
        /// Signed in, asked to consent before the protected screens.
        case consent
        /// Signed in and consented: the app's protected screens.
        case signedIn
    }

    /// The screen shown.
    public private(set) var step: Step = .phone { didSet { onChange?() } }
    /// The number as typed.
    public var phoneText = "" { didSet { onChange?() } }
    /// What is wrong with the number as typed (nil when it is a valid E.164
    /// number, or nothing was typed yet).
    public var phoneProblem: String? {
        guard !phoneText.isEmpty else { return nil }
        do {
            _ = try E164PhoneNumber(phoneText)
            return nil
        } catch {
            return SoulError.invalidPhoneNumber(error).userMessage
        }
    }
    /// The message of the last failure, for the user.
    public private(set) var message: String? { didSet { onChange?() } }
    /// Whether a request is out (the buttons are disabled).
    public private(set) var isWorking = false { didSet { onChange?() } }
    /// Seconds before a code can be sent again (the resend cooldown, or a 429's Retry-After); 0: now.
    public var secondsUntilResend: Int { Self.seconds(until: resendAllowedAt, now: now()) }
    /// Called after every change of what the screen shows.
    public var onChange: (@MainActor () -> Void)?

    private let soul: Soul
    private let now: @Sendable () -> Date
    private let consent: SignInConsent
    private let funnel: SoulFunnel?
    private var resendAllowedAt: Date? { didSet { onChange?() } }
    private var sessionWatch: Task<Void, Never>?
    /// The number a code was last sent to (a new request to it is a resend).
    private var codeSentTo: String?

    /// The sign-in of `soul`; `now` is the clock the countdowns read,
    /// `consent` where the user's consent is kept, `funnel` where the
    /// sign-in's steps are tracked.
    public init(soul: Soul, now: @escaping @Sendable () -> Date = { Date() }, consent: SignInConsent = SignInConsent(), funnel: SoulFunnel? = nil) {
        self.soul = soul
        self.now = now
        self.consent = consent
        self.funnel = funnel
    }

    deinit { sessionWatch?.cancel() }

    /// At launch: a stored session is resumed (signed in), a code sent
    /// before the relaunch can still be entered; and from now on a session
    /// that expires sends the user back to the phone screen.
    public func start() async {
        watchSession()
        if await soul.session.hasStoredRefreshToken() {
            step = consent.isGiven ? .signedIn : .consent
        } else if let pending = await soul.signIn.pendingNumber {
            codeSentTo = pending.e164
            phoneText = pending.e164
            resendAllowedAt = now().addingTimeInterval(TimeInterval(await soul.signIn.secondsUntilResend(phone: pending.e164)))
            step = .code(maskedPhone: pending.description, previewCode: nil)
        }
    }

    /// Sends a code to the number typed.
    public func requestCode() async {
        await sendCode()
    }

    /// Sends a new code to the same number (allowed once the countdown is over).
    public func resend() async {
        await sendCode()
    }

    /// Checks the code typed.
    public func verify(code: String) async {
        isWorking = true
        defer { isWorking = false }
        do {
            try await soul.signIn.verify(code: code)
            message = nil
            consent.withdraw()
            step = .consent
            await funnel?.codeVerified()
        } catch {
            show(error)
        }
    }

    /// Back to the phone screen (a wrong number).
    public func changeNumber() {
        message = nil
        step = .phone
    }

    /// The user consents to go on: the protected screens.
    public func acceptConsent() {
        guard step == .consent else { return }
        consent.give()
        step = .signedIn
    }

    /// The user does not consent: signed out, back to the phone screen.
    public func declineConsent() async {
        await signOut()
    }

    /// Signs out: the tokens and the consent go, the phone screen comes back.
    public func signOut() async {
        await soul.signOut()
        consent.withdraw()
        funnel?.signedOut()
        message = nil
        step = .phone
    }

    private func sendCode() async {
        isWorking = true
        defer { isWorking = false }
        do {
            let request = try await soul.signIn.requestCode(phone: phoneText)
            resendAllowedAt = request.resendAllowedAt
            message = nil
            step = .code(maskedPhone: request.phone.description, previewCode: request.previewCode)
            let resend = codeSentTo == request.phone.e164
            codeSentTo = request.phone.e164
            await funnel?.codeRequested(resend: resend)
        } catch {
            show(error)
        }
    }

    private func show(_ error: SoulError) {
        switch error {
        case .rateLimited(let wait), .resendTooSoon(let wait):
            resendAllowedAt = now().addingTimeInterval(TimeInterval(SoulError.wholeSeconds(wait)))
        case .sessionExpired:
            step = .phone
        default:
            break
        }
        message = error.userMessage
    }

    /// The session's events: an expiry (its one refresh refused) ends the signed-in screens.
    private func watchSession() {
        guard sessionWatch == nil else { return }
        let events = soul.sessionEvents
        sessionWatch = Task { [weak self] in
            for await event in events where event == .sessionExpired {
                guard let self else { return }
                self.consent.withdraw()
                self.funnel?.signedOut()
                self.message = SoulError.sessionExpired.userMessage
                self.step = .phone
            }
        }
    }

    /// Whole seconds from `now` to `deadline`, rounded up; 0 once it passed.
    static func seconds(until deadline: Date?, now: Date) -> Int {
        guard let deadline else { return 0 }
        return max(0, Int((deadline.timeIntervalSince(now)).rounded(.up)))
    }
}

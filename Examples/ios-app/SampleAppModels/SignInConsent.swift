import Foundation
import Soul

/// The user's consent to go on using the app once signed in (SOUL's iOS
/// plan: "OTP UI flow and consent to continue using app after verify"):
/// asked after each sign-in, kept with the session across relaunches (an
/// app killed on the consent screen asks again), withdrawn at sign-out so
/// the next user is asked too.
@MainActor
public final class SignInConsent {
    private let file: URL?
    private var given: Bool

    /// Consent kept in `file` (written atomically; it holds no secret,
    /// only that the user said yes), or in memory only when nil.
    public init(file: URL? = nil) {
        self.file = file
        given = file.map { FileManager.default.fileExists(atPath: $0.path) } ?? false
    }

    /// Whether the signed-in user consented.
    public var isGiven: Bool { given }

    /// The user consented.
    func give() {
        given = true
        if let file { try? Data("given".utf8).write(to: file, options: .atomic) }
    }

    /// The session ended: the next sign-in asks again.
    func withdraw() {
        given = false
        if let file { try? FileManager.default.removeItem(at: file) }
    }
}

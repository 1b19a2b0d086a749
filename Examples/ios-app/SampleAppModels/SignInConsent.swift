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

    /// Consent kept in `file` (a 0600 file left out of backups), or in
    /// memory only when nil.
    public init(file: URL? = nil) {
        self.file = file
        given = file.flatMap { try? PrivateFile.read($0) } != nil
    }

    /// Whether the signed-in user consented.
    public var isGiven: Bool { given }

    /// The user consented.
    func give() {
        given = true
        if let file { try? PrivateFile.write(Data("given".utf8), to: file) }
    }

    /// The session ended: the next sign-in asks again.
    func withdraw() {
        given = false
        if let file { try? PrivateFile.remove(file) }
    }
}

import Foundation
import Resilience

/// What of the OTP flow survives a relaunch: the number a code was sent to
/// (so an app killed while the user reads the SMS can still verify) and the
/// resend cooldowns (so a relaunch does not reset them).
struct SignInState: Codable, Sendable, Hashable {
    /// The number the last code went to, E.164.
    var pendingPhone: String?
    /// When that code was requested.
    var codeRequestedAt: Date?
    /// E.164 number -> when a resend is allowed.
    var cooldowns: [String: Date] = [:]
}

/// The sign-in state in a 0600 file, replaced atomically (the phone number
/// is personal data: never in a log, only in this owner-only file). No file
/// means a fresh state; an unreadable one too (the user requests a new code).
struct SignInStateFile: Sendable {
    /// The file, or nil to keep the state in memory only.
    let url: URL?

    func load() -> SignInState {
        guard let url, let data = try? PrivateFile.read(url), let state = try? JSONDecoder().decode(SignInState.self, from: data) else {
            return SignInState()
        }
        return state
    }

    /// Writes it with `complete` protection, out of backups: phone numbers
    /// no background work needs.
    func save(_ state: SignInState) throws {
        guard let url else { return }
        try PrivateFile.write(JSONEncoder().encode(state), to: url, protection: .foregroundOnly)
    }
}

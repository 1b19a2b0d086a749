import Foundation
import Resilience
import RuntimeSupport

/// A sign-in that has started: the verifier and `state` wait here between
/// opening the authorization URL and the redirect back. Kept in memory, and
/// in a 0600 file when a folder is given, so an app killed while the browser
/// was open (or a command-line tool run twice) can finish the sign-in,
/// until its lifetime has passed.
struct PendingAuthorization: Codable, Sendable, Hashable {
    var state: String
    var verifier: String
    var redirectURI: String
    /// When the sign-in started (absent in files of older versions: then
    /// it counts as expired).
    var startedAt: Date?
}

/// Where the pending authorization is kept.
struct PendingAuthorizationStore: Sendable {
    let file: URL?
    /// How long a started sign-in can be completed.
    var lifetime: Duration = .seconds(600)

    /// The pending sign-in, or nil when there is none or it has expired
    /// (an expired one is deleted).
    func load(now: Date = Date()) throws -> PendingAuthorization? {
        guard let file, let data = try PrivateFile.read(file) else { return nil }
        let pending = try JSONDecoder().decode(PendingAuthorization.self, from: data)
        guard let startedAt = pending.startedAt, now.timeIntervalSince(startedAt) < lifetime.totalSeconds else {
            try? clear()
            return nil
        }
        return pending
    }

    /// Writes it with `complete` protection, out of backups: the verifier
    /// is a secret no background work needs.
    func save(_ pending: PendingAuthorization) throws {
        guard let file else { return }
        try PrivateFile.write(JSONEncoder().encode(pending), to: file, protection: .foregroundOnly)
    }

    func clear() throws {
        guard let file else { return }
        try PrivateFile.remove(file)
    }
}

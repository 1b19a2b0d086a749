import Foundation
import Resilience

/// A sign-in that has started: the verifier and `state` wait here between
/// opening the authorization URL and the redirect back. Kept in memory, and
/// in a 0600 file when a folder is given, so an app killed while the browser
/// was open (or a command-line tool run twice) can finish the sign-in.
struct PendingAuthorization: Codable, Sendable, Hashable {
    var state: String
    var verifier: String
    var redirectURI: String
}

/// Where the pending authorization is kept.
struct PendingAuthorizationStore: Sendable {
    let file: URL?

    func load() throws -> PendingAuthorization? {
        guard let file, let data = try PrivateFile.read(file) else { return nil }
        return try JSONDecoder().decode(PendingAuthorization.self, from: data)
    }

    func save(_ pending: PendingAuthorization) throws {
        guard let file else { return }
        try PrivateFile.write(JSONEncoder().encode(pending), to: file)
    }

    func clear() throws {
        guard let file else { return }
        try PrivateFile.remove(file)
    }
}

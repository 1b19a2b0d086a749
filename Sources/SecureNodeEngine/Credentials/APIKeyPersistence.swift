import Foundation
import Resilience

/// The API key across launches: kept in a ``KeyStore`` (the Keychain on
/// Apple platforms), and the server's refusal of it (a 401/403) remembered
/// in a small file, so a relaunch with the same refused key starts with
/// branding off instead of showing labels until the next sync fails again.
struct APIKeyPersistence: Sendable {
    let keyStore: any KeyStore
    /// Holds the refusing status while the stored key is refused.
    let refusalFile: URL

    /// The key to start with and, when the server refused that very key
    /// before, the status it refused it with. A key given by the app that
    /// differs from the stored one is new credentials: it is stored and
    /// any refusal forgotten. Without a given key the stored one is used;
    /// without either, ``SecureNodeError/noAPIKey``.
    func launchKey(given: String?) throws(SecureNodeError) -> (key: String, refusedWithStatus: Int?) {
        // A store that cannot be read now (a Keychain before first unlock)
        // is as good as empty when the app passes its key.
        let stored = try? keyStore.loadKey()
        if let given, !given.isEmpty {
            if given != stored { adopt(given) }
            return (given, given == stored ? refusal() : nil)
        }
        guard let stored, !stored.isEmpty else { throw .noAPIKey }
        return (stored, refusal())
    }

    /// New credentials: stored for later launches, any refusal forgotten.
    /// A store that fails keeps the key for this launch only.
    func adopt(_ key: String) {
        try? keyStore.saveKey(key)
        forgetRefusal()
    }

    /// The server accepts the current key again: the refusal is forgotten.
    func forgetRefusal() {
        try? PrivateFile.remove(refusalFile)
    }

    /// The server refused the current key with `status`.
    func recordRefusal(status: Int) {
        try? PrivateFile.write(Data(String(status).utf8), to: refusalFile)
    }

    private func refusal() -> Int? {
        ((try? PrivateFile.read(refusalFile)) ?? nil).flatMap { Int(String(decoding: $0, as: UTF8.self)) }
    }
}

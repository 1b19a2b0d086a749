import Foundation

/// Where an API key is kept between launches, so the app does not have to
/// ship it in code it passes at every start. An SDK given none keeps it in
/// the Keychain on Apple platforms and in a file only the owner can read
/// elsewhere; an app that keeps its keys its own way conforms a type of its
/// own (say, over its Keychain wrapper).
public protocol KeyStore: Sendable {
    /// The stored key, nil when none was saved.
    func loadKey() throws -> String?
    /// Stores `key`, replacing any previous one.
    func saveKey(_ key: String) throws
    /// Removes the stored key.
    func deleteKey() throws
}

/// An API key in one ``SecretPlace``: a Keychain item or a 0600 file.
package struct SecretKeyStore: KeyStore {
    /// Where the key is kept.
    package let place: SecretPlace

    /// A store over `place`.
    package init(_ place: SecretPlace) {
        self.place = place
    }

    /// Where an SDK keeps its API key unless the app says otherwise: the
    /// Keychain item `service` (account `api-key`, readable after the
    /// first unlock: background work sends it) on Apple platforms,
    /// otherwise a 0600 file `fileName` in `folder`.
    package static func platformDefault(service: String, folder: URL, fileName: String) -> SecretKeyStore {
        SecretKeyStore(.platformDefault(service: service, account: "api-key", folder: folder, fileName: fileName, accessibility: .afterFirstUnlockThisDeviceOnly))
    }

    /// The key, nil when none is kept.
    package func loadKey() throws -> String? { try place.read().map { String(decoding: $0, as: UTF8.self) } }
    /// Keeps `key`, replacing any previous one atomically.
    package func saveKey(_ key: String) throws { try place.write(Data(key.utf8)) }
    /// Removes the key.
    package func deleteKey() throws { try place.delete() }
}

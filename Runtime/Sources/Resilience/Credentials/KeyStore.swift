import Foundation

/// Where an API key is kept between launches, so the app does not have to
/// ship it in code it passes at every start: the Keychain on Apple
/// platforms (`SecureKeyStorage/platformDefault(service:folder:fileName:)`),
/// a file only the owner can read elsewhere.
public protocol KeyStore: Sendable {
    /// The stored key, nil when none was saved.
    func loadKey() throws -> String?
    /// Stores `key`, replacing any previous one.
    func saveKey(_ key: String) throws
    /// Removes the stored key.
    func deleteKey() throws
}

/// A key in one file, mode 0600, replaced atomically (see ``PrivateFile``).
/// For Linux and tests; Apple platforms use the Keychain.
package struct FileKeyStore: KeyStore {
    /// The file.
    package let url: URL

    /// A store at `url` (its folder must exist).
    package init(url: URL) {
        self.url = url
    }

    /// The file's content, nil without a file.
    package func loadKey() throws -> String? {
        try PrivateFile.read(url).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Writes the key to a 0600 temporary file, fsyncs it, renames it over the old one.
    package func saveKey(_ key: String) throws {
        try PrivateFile.write(Data(key.utf8), to: url)
    }

    /// Deletes the file.
    package func deleteKey() throws {
        try PrivateFile.remove(url)
    }
}

/// A key in one platform-kept secret item (``SecretItem``): on Apple
/// platforms the Keychain (`KeychainKeyStore`).
package struct SecretItemKeyStore<Item: SecretItem>: KeyStore {
    /// The item that holds the key.
    package let item: Item

    /// A store for the item `service`/`account`.
    package init(service: String, account: String = "api-key") {
        item = Item(service: service, account: account)
    }

    /// Reads the item.
    package func loadKey() throws -> String? { try item.read().map { String(decoding: $0, as: UTF8.self) } }
    /// Adds or updates the item.
    package func saveKey(_ key: String) throws { try item.write(Data(key.utf8)) }
    /// Deletes the item.
    package func deleteKey() throws { try item.delete() }
}

#if canImport(Security)
/// An API key in the Keychain (a generic password item, this device only).
package typealias KeychainKeyStore = SecretItemKeyStore<KeychainItem>
#endif

/// Where an SDK keeps an API key unless the app says otherwise.
package enum SecureKeyStorage {
    /// The Keychain item `service` where the `Security` framework exists
    /// (Apple platforms), otherwise a 0600 file `fileName` in `folder`.
    package static func platformDefault(service: String, folder: URL, fileName: String) -> any KeyStore {
        #if canImport(Security)
        return KeychainKeyStore(service: service)
        #else
        return FileKeyStore(url: folder.appendingPathComponent(fileName))
        #endif
    }
}

import Foundation

/// Where an API key is kept between launches, so the app does not have to
/// ship it in code it passes at every start: the Keychain on Apple
/// platforms (``SecureKeyStorage/platformDefault(service:folder:fileName:)``),
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
public struct FileKeyStore: KeyStore {
    /// The file.
    public let url: URL

    /// A store at `url` (its folder must exist).
    public init(url: URL) {
        self.url = url
    }

    /// The file's content, nil without a file.
    public func loadKey() throws -> String? {
        try PrivateFile.read(url).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Writes the key to a 0600 temporary file, fsyncs it, renames it over the old one.
    public func saveKey(_ key: String) throws {
        try PrivateFile.write(Data(key.utf8), to: url)
    }

    /// Deletes the file.
    public func deleteKey() throws {
        try PrivateFile.remove(url)
    }
}

/// Where an SDK keeps an API key unless the app says otherwise.
public enum SecureKeyStorage {
    /// The Keychain item `service` where the `Security` framework exists
    /// (Apple platforms), otherwise a 0600 file `fileName` in `folder`.
    public static func platformDefault(service: String, folder: URL, fileName: String) -> any KeyStore {
        #if canImport(Security)
        return KeychainKeyStore(service: service)
        #else
        return FileKeyStore(url: folder.appendingPathComponent(fileName))
        #endif
    }
}

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files only the owner can read (0600), replaced atomically: the new bytes
/// are written to a temporary file in the same folder, flushed to disk and
/// renamed over the old file, so a reader sees the old content or the new,
/// never a mix or nothing. For secrets kept on disk: refresh tokens, PKCE
/// verifiers.
public enum PrivateFile {
    /// Writes `data` to `url` atomically with mode 0600, flushed to disk
    /// before the rename unless `synchronize` is false (a cache, which may
    /// lose its newest entries in a power cut). With `protection`, the file
    /// gets that ``DataAtRest`` policy before it takes its name, and a
    /// policy the file system refuses throws `DataAtRestError` with the
    /// old file left as it was (a file in a folder that has a policy
    /// inherits the folder's on iOS and needs none).
    package static func write(_ data: Data, to url: URL, synchronize: Bool = true, protection: DataAtRest? = nil) throws {
        #if canImport(Glibc)
        let systemWrite = Glibc.write
        #else
        let systemWrite = Darwin.write
        #endif
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw PrivateFileError.cannotWrite(path: url.path, errno: errno) }
        let written = data.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
        let synced = synchronize ? fsync(descriptor) : 0
        close(descriptor)
        guard written == data.count, synced == 0 else {
            let code = errno
            unlink(temporary.path)
            throw PrivateFileError.cannotWrite(path: url.path, errno: code)
        }
        // Protected before it takes the file's name: a file that cannot be
        // protected is not written, and the old one stays as it was.
        do {
            try protection?.apply(to: temporary)
        } catch {
            unlink(temporary.path)
            throw error
        }
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            unlink(temporary.path)
            throw PrivateFileError.cannotWrite(path: url.path, errno: code)
        }
        #if !canImport(Darwin)
        DataAtRest.moved(from: temporary, to: url)
        #endif
    }

    /// Creates `folder` (with its parents) if missing and gives it `policy`:
    /// files created in it inherit the protection class on iOS, and a folder
    /// left out of backups leaves its files out. A policy the file system
    /// refuses throws `DataAtRestError`: nothing is to be written there.
    package static func makeFolder(_ folder: URL, protection policy: DataAtRest) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try policy.apply(to: folder)
    }

    /// The file's bytes, or nil when there is no file.
    package static func read(_ url: URL) throws -> Data? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Data(contentsOf: url)
    }

    /// The app's Application Support folder (the home folder where there is
    /// none), where the SDKs keep their files unless told otherwise.
    public static var applicationSupportFolder: URL {
        FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first ?? URL(fileURLWithPath: NSHomeDirectory())
    }

    /// Deletes the file if it exists.
    package static func remove(_ url: URL) throws {
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
    }
}

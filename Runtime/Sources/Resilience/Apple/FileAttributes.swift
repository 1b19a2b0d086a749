#if canImport(Darwin)
import Foundation

/// Sets a file's data-protection class and its backup flag, as a
/// `DataAtRest` policy says (`FileManager`'s `protectionKey`,
/// `URLResourceValues.isExcludedFromBackup`).
///
/// An Apple adapter: this file imports only Foundation, and is gated by
/// Darwin (Foundation's Apple-only API), so `make ios-check` type-checks it
/// for iOS on its own.
enum FileAttributes {
    /// Gives `url` the class `complete` (else
    /// `completeUntilFirstUserAuthentication`) and the backup flag; throws
    /// what the file system refused. macOS's file systems have no
    /// protection classes, so there only the backup flag is set.
    static func apply(complete: Bool, excludedFromBackup: Bool, to url: URL) throws {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        let protection: FileProtectionType = complete ? .complete : .completeUntilFirstUserAuthentication
        try FileManager.default.setAttributes([.protectionKey: protection], ofItemAtPath: url.path)
        #endif
        var values = URLResourceValues()
        values.isExcludedFromBackup = excludedFromBackup
        var target = url
        try target.setResourceValues(values)
    }
}
#endif

import Foundation

/// Gives a cache folder the data-protection class the platform offers.
enum CacheFileProtection {
    /// On iOS and its relatives: `completeUntilFirstUserAuthentication`;
    /// elsewhere nothing (the folder's Unix permissions apply).
    static func apply(to folder: URL) {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        try? FileManager.default.setAttributes([.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: folder.path)
        #endif
    }
}

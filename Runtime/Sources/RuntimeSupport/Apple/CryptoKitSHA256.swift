#if canImport(CryptoKit)
import CryptoKit
import Foundation

/// SHA-256 through CryptoKit: ``SHA256`` on Apple platforms.
enum CryptoKitSHA256 {
    /// The digest of `data`: 32 bytes.
    static func hash(_ data: Data) -> [UInt8] {
        Array(CryptoKit.SHA256.hash(data: data))
    }
}
#endif

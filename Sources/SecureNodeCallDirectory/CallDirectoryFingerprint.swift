import Foundation

/// What names a snapshot's content for both processes: the 64-bit FNV-1a
/// hash of the file's bytes, 16 hexadecimal digits in the shared files.
///
/// The host computes it when it writes or reads a snapshot, the extension
/// while it reads the snapshot it hands to iOS, so "the snapshot iOS
/// holds" means the same bytes to both, whichever file name they had, and
/// however files were renamed or rolled back in between. It is a check
/// against mix-ups, not against tampering: the App Group container is
/// shared with the app alone.
public struct CallDirectoryFingerprint: Sendable, Hashable, CustomStringConvertible {
    /// The hash so far.
    public private(set) var value: UInt64

    private static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The fingerprint of no bytes (an empty file).
    public init() {
        value = Self.offsetBasis
    }

    /// The fingerprint `value`.
    public init(value: UInt64) {
        self.value = value
    }

    /// The fingerprint written as 16 hexadecimal digits, nil for anything else.
    public init?(hexadecimal text: some StringProtocol) {
        guard text.utf8.count == 16, let value = UInt64(text, radix: 16) else { return nil }
        self.value = value
    }

    /// Adds `bytes`, which follow the bytes already hashed.
    public mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        var hash = value
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* Self.prime
        }
        value = hash
    }

    /// 16 lowercase hexadecimal digits.
    public var description: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

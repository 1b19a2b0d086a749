import Foundation

/// One caller's branding as the device stores it, keyed by the E.164
/// number's numeric value (what the Call Directory extension sorts by).
public struct BrandingRecord: Sendable, Hashable {
    /// The number in E.164 form (`+61412345678`).
    public var e164: String
    /// The brand's display name (at most 100 characters).
    public var brandName: String
    /// The brand's id.
    public var brandID: String
    /// The logo's URL (at most 2048 characters), if any.
    public var logoURL: String?
    /// The reason for the call (at most 200 characters), if any.
    public var callReason: String?
    /// When the server last changed the record (RFC 3339, as sent).
    public var updatedAt: String

    /// Creates a record.
    public init(e164: String, brandName: String, brandID: String, logoURL: String? = nil, callReason: String? = nil, updatedAt: String) {
        self.e164 = e164
        self.brandName = brandName
        self.brandID = brandID
        self.logoURL = logoURL
        self.callReason = callReason
        self.updatedAt = updatedAt
    }

    /// The documented limits values are clamped to when stored.
    public enum Limits {
        /// The longest number (the server's column width).
        public static let number = 20
        /// The longest brand name.
        public static let brandName = 100
        /// The longest logo URL.
        public static let logoURL = 2048
        /// The longest call reason.
        public static let callReason = 200
        /// The longest brand id kept (bytes); a longer one is not an id.
        public static let brandID = 256
        /// The longest `updated_at` kept (bytes); a longer one is not a timestamp.
        public static let timestamp = 64
    }

    /// The numeric value of an E.164 number (`+61412345678` -> 61412345678),
    /// or nil when the text is not E.164 (`+`, a non-zero digit, at most 15 digits).
    public static func number(e164: String) -> Int64? {
        let bytes = Array(e164.utf8)
        guard bytes.count >= 3, bytes.count <= 16, bytes.count <= Limits.number, bytes[0] == UInt8(ascii: "+"),
            bytes[1] >= UInt8(ascii: "1"), bytes[1] <= UInt8(ascii: "9")
        else { return nil }
        var value: Int64 = 0
        for byte in bytes.dropFirst() {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        return value
    }
}

/// A record as a sync delivers it: the server's fields before validation.
public struct IncomingBrandingRecord: Sendable, Hashable {
    /// `phone_number_e164`.
    public var e164: String
    /// `brand_name`.
    public var brandName: String
    /// `brand_id`.
    public var brandID: String
    /// `logo_url`.
    public var logoURL: String?
    /// `call_reason`.
    public var callReason: String?
    /// `updated_at`.
    public var updatedAt: String
    /// `is_active`: false means "delete this number".
    public var isActive: Bool
    /// The record's position in the server's response, which a skipped
    /// record is reported by; nil: its position in the sequence applied.
    public var sourceIndex: Int?
    /// Why the server's record for this number cannot be applied (a field
    /// needed to show it is missing or unreadable), nil for a usable one.
    /// Such a record is skipped, and in an incremental sync the number's
    /// current branding is removed: the server says it changed, and an old
    /// brand must not show for a number that may belong to someone else now.
    public var unusableReason: String?

    /// Creates an incoming record.
    public init(
        e164: String, brandName: String, brandID: String, logoURL: String? = nil, callReason: String? = nil, updatedAt: String, isActive: Bool,
        sourceIndex: Int? = nil, unusableReason: String? = nil
    ) {
        self.sourceIndex = sourceIndex
        self.unusableReason = unusableReason
        self.e164 = e164
        self.brandName = brandName
        self.brandID = brandID
        self.logoURL = logoURL
        self.callReason = callReason
        self.updatedAt = updatedAt
        self.isActive = isActive
    }
}

import BrandingStore
import Foundation

/// What ``SecureNodeEngine/assistIncomingCall(phoneNumberE164:surface:)`` found
/// for a ringing number: the identity to show, and the imprint recorded
/// for showing it.
public struct AssistedCall: Sendable, Hashable {
    /// The branding to show (name, reason, logo URL).
    public let record: StoredBrandingRecord
    /// The logo from the cache, if it is there (never fetched at ring time).
    public let logo: Data?
    /// The key of the imprint recorded for this call (nil if the outbox
    /// could not write it); pass it on as `callEventKey` to attribute later events.
    public let imprintKey: String?

    /// Creates an assisted call.
    package init(record: StoredBrandingRecord, logo: Data?, imprintKey: String?) {
        self.record = record
        self.logo = logo
        self.imprintKey = imprintKey
    }
}

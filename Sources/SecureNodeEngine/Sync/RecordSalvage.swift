import BrandingStore
import ClientRuntime
import Foundation

/// What can be read of a sync record that did not decode as the spec says,
/// so that one bad field never costs a number its correct branding:
///
/// - a tombstone (`is_active: false`) needs only its number: it is applied
///   whatever else it lacks, so a deactivated number stops showing its old
///   brand (a number given to someone else must not ring as the old brand);
/// - an invalid optional field (`logo_url`, `call_reason`, `brand_id`,
///   `updated_at`) is dropped and counted, and the record is stored without it;
/// - a record with its number but no usable brand name, or an `is_active`
///   that is not a boolean, cannot be shown: its number is unbranded
///   (``IncomingBrandingRecord/unusableReason``) and the sync is fetched again;
/// - anything without a readable number is unreadable: it is counted and
///   the sync is fetched again, so the cursor never passes it.
enum RecordSalvage {
    /// What a salvage made of one record.
    enum Outcome: Equatable {
        /// A record to apply (a tombstone, a record with fields dropped, or
        /// one marked unusable for its number), and how many fields were dropped.
        case record(IncomingBrandingRecord, droppedFields: Int)
        /// No number could be read.
        case unreadable
    }

    /// Salvages the record at `index` whose JSON is `raw`; `decodingReason`
    /// is why the generated client refused it (the reason kept for an
    /// unusable record).
    static func salvage(_ raw: Data, index: Int, decodingReason: String) -> Outcome {
        guard case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: raw),
            case .string(let e164)? = fields["phone_number_e164"], !e164.isEmpty
        else { return .unreadable }
        var dropped = 0
        func optionalString(_ name: String) -> String? {
            switch fields[name] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            default:
                dropped += 1
                return nil
            }
        }
        func unusable(_ reason: String) -> Outcome {
            .record(
                IncomingBrandingRecord(
                    e164: e164, brandName: "", brandID: "", updatedAt: "", isActive: false, sourceIndex: index, unusableReason: reason),
                droppedFields: 0)
        }
        let isActive: Bool
        switch fields["is_active"] {
        case nil, .null?: isActive = true
        case .bool(let value)?: isActive = value
        default: return unusable("is_active: not a boolean")
        }
        guard isActive else {
            // A tombstone: the number is all it takes.
            return .record(IncomingBrandingRecord(e164: e164, brandName: "", brandID: "", updatedAt: "", isActive: false, sourceIndex: index), droppedFields: 0)
        }
        guard case .string(let brandName)? = fields["brand_name"], !brandName.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            return unusable(decodingReason.hasPrefix("brand_name") ? decodingReason : "brand_name: missing or not a text")
        }
        // The store drops a logo URL it cannot fetch from, and an empty call reason, counting each.
        let logoURL = optionalString("logo_url")
        let callReason = optionalString("call_reason")
        let brandID = optionalString("brand_id") ?? ""
        var updatedAt = optionalString("updated_at") ?? ""
        if fields["updated_at"] == nil {
            dropped += 1
        } else if !updatedAt.isEmpty, JSONCoding.parseDateTime(updatedAt) == nil {
            updatedAt = ""
            dropped += 1
        }
        return .record(
            IncomingBrandingRecord(
                e164: e164, brandName: brandName, brandID: brandID, logoURL: logoURL, callReason: callReason, updatedAt: updatedAt,
                isActive: true, sourceIndex: index),
            droppedFields: dropped)
    }

}

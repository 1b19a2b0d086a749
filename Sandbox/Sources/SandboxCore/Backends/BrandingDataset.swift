import Foundation
import RuntimeSupport

/// SecureNode's branding records, generated from a seed rather than stored:
/// record `i` of `size` is the number `+1555` followed by `i` in seven digits,
/// branded by one of a few dozen brands the seed picks, so a million records
/// cost no memory until they change. Changes (updates, deactivations, new
/// numbers) are kept as overrides with the time they happened, which is what
/// an incremental sync's `since` is compared with.
struct BrandingDataset: Sendable {
    /// One record as the sync returns it.
    struct Record: Sendable {
        var e164: String
        var brandName: String
        var brandID: String
        var logoURL: String?
        var callReason: String?
        var updatedAt: Date
        var isActive: Bool
    }

    /// Generated records (numbers `+1555 0000000` up to `size - 1`).
    let size: Int
    private let seed: UInt64
    /// When the generated records were last updated (before any change).
    let createdAt: Date
    /// ``createdAt`` as sync writes it (formatted once: a full sync of a
    /// million records would otherwise format it a million times).
    private let createdAtText: String
    /// Each brand's id, by index into ``brands``.
    private let brandIDs: [String]
    /// Changed or added records, by number.
    private(set) var changed: [String: Record] = [:]
    /// Added numbers, in the order they were added (after the generated ones).
    private(set) var added: [String] = []

    static let prefix = "+1555"
    static let brands = [
        "Acme Bank", "Contoso Health", "Northwind Energy", "Fabrikam Insurance", "Tailspin Airlines", "Wide World Telecom",
        "Litware Pharmacy", "Adatum Couriers", "Proseware Credit", "Woodgrove Bank", "Alpine Ski School", "Coho Vineyard",
        "Fourth Coffee", "Margie's Travel", "Lamna Healthcare", "Relecloud Internet", "Trey Research", "VanArsdel Motors",
        "Blue Yonder Airlines", "Bellows College", "Best For You Organics", "Consolidated Messenger", "Graphic Design Institute",
        "Humongous Insurance", "Lucerne Publishing", "Nod Publishers", "Southridge Video", "Wingtip Toys", "City Power & Light",
        "School of Fine Art", "Tailwind Traders", "Liberty's Delightful Sinful Bakery",
    ]
    static let reasons = ["Fraud alert about your card", "Appointment reminder", "Delivery update", "Payment due reminder", nil, nil]

    init(size: Int, seed: UInt64, createdAt: Date) {
        self.size = size
        self.seed = seed
        self.createdAt = createdAt
        createdAtText = SandboxJSON.timestamp(createdAt, fractional: true)
        brandIDs = Self.brands.indices.map { String(format: "brand_%06x", (seed &+ UInt64($0) &* 7919) % 0xFFFFFF) }
    }

    /// `+1555` and `index` in seven digits.
    private static func generatedNumber(_ index: Int) -> String {
        let digits = String(index)
        return prefix + String(repeating: "0", count: max(0, 7 - digits.count)) + digits
    }

    /// Every number, generated and added: the range sync walks.
    var count: Int { size + added.count }

    /// The number of record `index`.
    func number(at index: Int) -> String {
        index < size ? Self.generatedNumber(index) : added[index - size]
    }

    /// The record at `index` (generated, or its override).
    func record(at index: Int) -> Record {
        let number = number(at: index)
        return changed[number] ?? generated(index)
    }

    /// The record for `number`, if the dataset has one.
    func record(for number: String) -> Record? {
        if let record = changed[number] { return record }
        guard number.hasPrefix(Self.prefix), number.count == Self.prefix.count + 7, let index = Int(number.dropFirst(Self.prefix.count)), index < size
        else { return nil }
        return generated(index)
    }

    private func generated(_ index: Int) -> Record {
        var random = SplitMix64(seed: seed ^ (UInt64(index) &* 0x2545_F491_4F6C_DD1D))
        let brand = Int(random.next() % UInt64(Self.brands.count))
        let reason = Self.reasons[Int(random.next() % UInt64(Self.reasons.count))]
        return Record(
            e164: number(at: index), brandName: Self.brands[brand], brandID: brandIDs[brand],
            logoURL: brand % 4 == 3 ? nil : "https://assets.securenode.io/logos/\(brand).png", callReason: reason, updatedAt: createdAt, isActive: true)
    }

    /// Changes or adds the record for `number` at `time`.
    mutating func set(_ record: Record) {
        if changed[record.e164] == nil, self.record(for: record.e164) == nil { added.append(record.e164) }
        changed[record.e164] = record
    }

    /// `count` changes drawn from `random`, made at `time`: most update a
    /// record's call reason or logo, some deactivate one, some add a number.
    mutating func generateChanges(_ count: Int, at time: Date, random: inout SplitMix64) {
        for _ in 0..<count {
            let draw = random.next() % 10
            if draw < 2 || self.count == 0 {
                let number = "+1556" + String(format: "%07d", added.count % 10_000_000)
                let brand = Int(random.next() % UInt64(Self.brands.count))
                set(Record(e164: number, brandName: Self.brands[brand], brandID: brandIDs[brand],
                           logoURL: nil, callReason: Self.reasons[Int(random.next() % UInt64(Self.reasons.count))], updatedAt: time, isActive: true))
                continue
            }
            var record = self.record(at: Int(random.next() % UInt64(self.count)))
            record.updatedAt = time
            if draw < 4 {
                record.isActive = false
            } else {
                record.isActive = true
                record.callReason = Self.reasons[Int(random.next() % UInt64(Self.reasons.count))]
                record.logoURL = record.logoURL.map { $0.replacingOccurrences(of: ".png", with: "") + "-v\(random.next() % 100).png" }
            }
            set(record)
        }
    }

    /// The record as sync writes it.
    func json(_ record: Record) -> String {
        func text(_ value: String?) -> String {
            guard let value else { return "null" }
            return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        }
        return #"{"phone_number_e164":\#(text(record.e164)),"brand_name":\#(text(record.brandName)),"brand_id":\#(text(record.brandID)),"logo_url":\#(text(record.logoURL)),"call_reason":\#(text(record.callReason)),"updated_at":"\#(record.updatedAt == createdAt ? createdAtText : SandboxJSON.timestamp(record.updatedAt, fractional: true))","is_active":\#(record.isActive)}"#
    }
}

import BrandingStore
import Foundation

/// What a managed-contacts sync does: the contacts the dataset asks for,
/// compared with those the SDK has, by brand.
package struct ManagedContactsPlan: Sendable, Hashable {
    /// Contacts to add (brands without one).
    package var additions: [ManagedContact] = []
    /// Contacts to replace (their name, numbers or photo changed), with their identifiers.
    package var updates: [ManagedContact] = []
    /// Identifiers of contacts to remove: brands no longer in the dataset,
    /// and any second contact of one brand.
    package var removals: [String] = []
    /// Contacts already as they should be.
    package var unchanged = 0

    /// The plan that turns `existing` into `desired` (matched by ``ManagedContact/brandKey``).
    package static func plan(desired: [ManagedContact], existing: [ManagedContact]) -> ManagedContactsPlan {
        var plan = ManagedContactsPlan()
        var byBrand: [String: ManagedContact] = [:]
        for contact in existing {
            guard let identifier = contact.identifier else { continue }
            if byBrand[contact.brandKey] == nil {
                byBrand[contact.brandKey] = contact
            } else {
                plan.removals.append(identifier)
            }
        }
        for wanted in desired {
            guard let current = byBrand.removeValue(forKey: wanted.brandKey) else {
                plan.additions.append(wanted)
                continue
            }
            if current.showsTheSame(as: wanted) {
                plan.unchanged += 1
            } else {
                var update = wanted
                update.identifier = current.identifier
                plan.updates.append(update)
            }
        }
        plan.removals += byBrand.values.compactMap(\.identifier)
        plan.removals.sort()
        return plan
    }

    /// The contacts a dataset asks for: one per brand (its `brand_id`, or
    /// its name without one), named as the brand, with its numbers
    /// (ascending) and its logo; brands in ascending order of key, at most
    /// `maximumNumbers` numbers in all (the rest are counted in `leftOut`).
    package static func desiredContacts(
        from records: [StoredBrandingRecord], maximumNumbers: Int, logo: (String) -> Data?
    ) -> (contacts: [ManagedContact], leftOut: Int) {
        var brands: [String: (name: String, numbers: [String], logoURL: String?)] = [:]
        for record in records {
            let key = record.brandID.isEmpty ? record.brandName : record.brandID
            var brand = brands[key] ?? (record.brandName, [], record.logoURL)
            brand.numbers.append(record.e164)
            if brand.logoURL == nil { brand.logoURL = record.logoURL }
            brands[key] = brand
        }
        var contacts: [ManagedContact] = []
        var numbers = 0
        var leftOut = 0
        for key in brands.keys.sorted() {
            let brand = brands[key]!
            let sorted = brand.numbers.sorted()
            let room = max(0, maximumNumbers - numbers)
            leftOut += max(0, sorted.count - room)
            guard room > 0 else { continue }
            let kept = Array(sorted.prefix(room))
            numbers += kept.count
            contacts.append(ManagedContact(brandKey: key, displayName: brand.name, phoneNumbers: kept, photo: brand.logoURL.flatMap(logo)))
        }
        return (contacts, leftOut)
    }
}

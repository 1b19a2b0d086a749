import BrandingStore
import Foundation

/// What a managed-contacts sync did.
public struct ManagedContactsReport: Sendable, Hashable {
    /// Contacts added, replaced, removed and left as they were.
    public var added = 0, updated = 0, removed = 0, unchanged = 0
    /// Numbers left out past the limit (10,000 numbers).
    public var numbersLeftOut = 0
    /// Writes that failed (the next sync tries again).
    public var failures = 0
    /// Nothing was done: the user has not allowed access to contacts.
    public var notAuthorized = false

    /// An empty report.
    package init() {}
}

extension SecureNodeEngine {
    /// The managed contacts the dataset asks for, without touching the
    /// contacts store: one per brand with its numbers and its cached logo
    /// as the photo (none while branding is off), at most `maximumNumbers`
    /// numbers in all, and how many numbers were left out past that.
    public func desiredManagedContacts(maximumNumbers: Int) -> (contacts: [ManagedContact], leftOut: Int) {
        let records = isBrandingActive ? ((try? store.allRecords()) ?? []) : []
        return ManagedContactsPlan.desiredContacts(from: records, maximumNumbers: maximumNumbers) { logos.cachedLogo(for: $0) }
    }

    /// Brings the SDK's managed contacts in line with the dataset (the
    /// README's optional "Managed Contacts sync"): one contact per brand
    /// with its numbers and its cached logo as the photo, in the store's
    /// own container or group; brands no longer branded (purged, or
    /// branding off) lose theirs. Never reads or changes another contact.
    /// Does nothing without ``Configuration/managedContacts`` (off by
    /// default), without the user's permission, or during a call. Runs
    /// after each successful sync and when branding is turned off or on.
    /// Synchronous Contacts I/O: call it off the main thread.
    @discardableResult
    public func syncManagedContacts() -> ManagedContactsReport {
        var report = ManagedContactsReport()
        guard let contacts = managedContacts, !calls.isCallInProgress else { return report }
        guard contacts.isAuthorized else {
            report.notAuthorized = true
            return report
        }
        let (desired, leftOut) = desiredManagedContacts(maximumNumbers: managedContactsMaximumNumbers)
        report.numbersLeftOut = leftOut
        guard let existing = try? contacts.managedContacts() else {
            report.failures += 1
            return report
        }
        let plan = ManagedContactsPlan.plan(desired: desired, existing: existing)
        report.unchanged = plan.unchanged
        for identifier in plan.removals {
            if (try? contacts.remove(identifier: identifier)) != nil { report.removed += 1 } else { report.failures += 1 }
        }
        for contact in plan.updates {
            if (try? contacts.save(contact)) != nil { report.updated += 1 } else { report.failures += 1 }
        }
        for contact in plan.additions {
            if (try? contacts.save(contact)) != nil { report.added += 1 } else { report.failures += 1 }
        }
        return report
    }
}

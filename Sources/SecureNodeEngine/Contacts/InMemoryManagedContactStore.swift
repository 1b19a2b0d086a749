import Foundation
import RuntimeSupport

/// Managed contacts in memory, beside contacts that are not the SDK's (a
/// user's own, which the store holds to show they are never touched): for
/// tests and for hosts without a contacts database.
package final class InMemoryManagedContactStore: ManagedContactStore {
    private struct Contents {
        var managed: [String: ManagedContact] = [:]
        var nextID = 1
        var writes = 0
    }

    private let contents = Locked(Contents())
    private let authorized: Locked<Bool>
    /// The user's own contacts, by identifier: never read, changed or removed by the SDK.
    package let othersContacts: [String: String]

    /// A store; `authorized` stands for the user's permission, `othersContacts`
    /// for contacts that are not the SDK's (identifier: name).
    package init(authorized: Bool = true, othersContacts: [String: String] = [:]) {
        self.authorized = Locked(authorized)
        self.othersContacts = othersContacts
    }

    /// Whether access is allowed.
    package var isAuthorized: Bool { authorized.read() }

    /// Grants or withdraws the permission.
    package func setAuthorized(_ value: Bool) { authorized.withLock { $0 = value } }

    /// The SDK's contacts, by brand key.
    package func managedContacts() -> [ManagedContact] {
        contents.withLock { $0.managed.values.sorted { $0.brandKey < $1.brandKey } }
    }

    /// Adds or replaces a contact.
    package func save(_ contact: ManagedContact) throws -> String {
        try contents.withLock { contents in
            var saved = contact
            if let identifier = contact.identifier {
                guard contents.managed[identifier] != nil else { throw NotManaged(identifier: identifier) }
            } else {
                saved.identifier = "managed-\(contents.nextID)"
                contents.nextID += 1
            }
            contents.managed[saved.identifier!] = saved
            contents.writes += 1
            return saved.identifier!
        }
    }

    /// Removes one of the SDK's contacts; another's identifier is refused.
    package func remove(identifier: String) throws {
        try contents.withLock { contents in
            guard contents.managed.removeValue(forKey: identifier) != nil else { throw NotManaged(identifier: identifier) }
            contents.writes += 1
        }
    }

    /// Saves and removals so far.
    package var writes: Int { contents.withLock { $0.writes } }

    /// An identifier that is not one of the SDK's contacts.
    package struct NotManaged: Error, Sendable, Hashable {
        /// The identifier.
        package let identifier: String
    }
}

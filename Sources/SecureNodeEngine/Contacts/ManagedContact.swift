import Foundation

/// A SecureNode-managed contact: one per brand, holding the brand's name,
/// its numbers and its logo as the photo, so that the phone shows the
/// logo for a branded call (the README's "Managed Contacts sync
/// (optional)"). The SDK creates, updates and removes only such contacts,
/// never another one.
public struct ManagedContact: Sendable, Hashable {
    /// The contact store's identifier; nil before the contact is saved.
    public var identifier: String?
    /// What ties the contact to its brand: `brand_id`, or the brand name
    /// for records without one.
    public var brandKey: String
    /// The name shown (the brand's name).
    public var displayName: String
    /// The brand's numbers, E.164, ascending.
    public var phoneNumbers: [String]
    /// The brand's logo, nil when it is not cached (yet).
    public var photo: Data?

    /// A contact.
    public init(identifier: String? = nil, brandKey: String, displayName: String, phoneNumbers: [String], photo: Data? = nil) {
        self.identifier = identifier
        self.brandKey = brandKey
        self.displayName = displayName
        self.phoneNumbers = phoneNumbers
        self.photo = photo
    }

    /// Whether `other` shows the same (identifiers aside).
    package func showsTheSame(as other: ManagedContact) -> Bool {
        brandKey == other.brandKey && displayName == other.displayName && phoneNumbers == other.phoneNumbers && photo == other.photo
    }
}

/// Where managed contacts live: a container or group of the SDK's own
/// (`ContactsGroupStore` on iOS, `InMemoryManagedContactStore` in tests).
///
/// Rules for implementers: ``managedContacts()`` returns only the SDK's
/// own contacts (never reads another); ``save(_:)`` adds a contact without
/// an identifier and replaces the one with its identifier, returning the
/// identifier; ``remove(identifier:)`` removes only one of the SDK's own.
/// The SDK reads ``isAuthorized`` first and calls nothing else without it,
/// and calls the rest off the main thread (on iOS they do the Contacts
/// database's I/O synchronously).
public protocol ManagedContactStore: Sendable {
    /// Whether the user allowed access to contacts; without it the SDK does nothing.
    var isAuthorized: Bool { get }
    /// The SDK's own contacts.
    func managedContacts() throws -> [ManagedContact]
    /// Adds or replaces `contact`; its identifier.
    func save(_ contact: ManagedContact) throws -> String
    /// Removes the SDK's contact `identifier`.
    func remove(identifier: String) throws
}

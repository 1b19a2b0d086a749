#if canImport(Contacts)
// ios-check: with ../Contacts/ManagedContact.swift
import Contacts
import Foundation

/// SecureNode-managed contacts in the Contacts database, in a group of
/// their own (`SecureNode` by default, in the default container): the
/// README's optional Managed Contacts sync on iOS. It reads only the
/// group's contacts and changes or deletes only contacts in the group,
/// never another one; each carries its brand key as a URL
/// (`securenode:brand:<key>`, which needs no entitlement, unlike notes).
///
/// An Apple adapter: this file imports only Foundation and Contacts, and
/// `make ios-check` type-checks it for iOS with `ManagedContact.swift`.
public struct ContactsGroupStore: ManagedContactStore {
    /// The group the contacts live in.
    public let groupName: String
    private static let brandPrefix = "securenode:brand:"

    /// The store of the group `groupName`.
    public init(groupName: String = "SecureNode") {
        self.groupName = groupName
    }

    /// Whether the user allowed access to contacts (the app asks for it).
    public var isAuthorized: Bool {
        CNContactStore.authorizationStatus(for: .contacts) == .authorized
    }

    /// The group's contacts, none when the group does not exist yet.
    public func managedContacts() throws -> [ManagedContact] {
        let store = CNContactStore()
        guard let group = try group(in: store) else { return [] }
        return try contacts(in: group, store: store).compactMap { contact in
            guard let key = contact.urlAddresses.lazy.map({ $0.value as String }).first(where: { $0.hasPrefix(Self.brandPrefix) }) else { return nil }
            return ManagedContact(
                identifier: contact.identifier, brandKey: String(key.dropFirst(Self.brandPrefix.count)), displayName: contact.organizationName,
                phoneNumbers: contact.phoneNumbers.map { $0.value.stringValue }.sorted(), photo: contact.imageData)
        }
    }

    /// Adds `contact` to the group (creating the group once), or replaces
    /// the group's contact with its identifier.
    public func save(_ contact: ManagedContact) throws -> String {
        let store = CNContactStore()
        let request = CNSaveRequest()
        let group = try group(in: store) ?? {
            let created = CNMutableGroup()
            created.name = groupName
            request.add(created, toContainerWithIdentifier: nil)
            return created
        }()
        let mutable: CNMutableContact
        if let identifier = contact.identifier {
            guard let existing = try contacts(in: group, store: store).first(where: { $0.identifier == identifier }) else {
                throw CNError(.recordDoesNotExist)
            }
            mutable = existing.mutableCopy() as! CNMutableContact
            request.update(mutable)
        } else {
            mutable = CNMutableContact()
            request.add(mutable, toContainerWithIdentifier: nil)
            request.addMember(mutable, to: group)
        }
        mutable.contactType = .organization
        mutable.organizationName = contact.displayName
        mutable.phoneNumbers = contact.phoneNumbers.map { CNLabeledValue(label: CNLabelPhoneNumberMain, value: CNPhoneNumber(stringValue: $0)) }
        mutable.urlAddresses = [CNLabeledValue(label: "SecureNode", value: (Self.brandPrefix + contact.brandKey) as NSString)]
        mutable.imageData = contact.photo
        try store.execute(request)
        return mutable.identifier
    }

    /// Deletes the group's contact `identifier`; any other is refused.
    public func remove(identifier: String) throws {
        let store = CNContactStore()
        guard let group = try group(in: store),
            let contact = try contacts(in: group, store: store).first(where: { $0.identifier == identifier })
        else { throw CNError(.recordDoesNotExist) }
        let request = CNSaveRequest()
        request.delete(contact.mutableCopy() as! CNMutableContact)
        try store.execute(request)
    }

    private func group(in store: CNContactStore) throws -> CNGroup? {
        try store.groups(matching: nil).first { $0.name == groupName }
    }

    private func contacts(in group: CNGroup, store: CNContactStore) throws -> [CNContact] {
        let keys = [CNContactOrganizationNameKey, CNContactPhoneNumbersKey, CNContactImageDataKey, CNContactUrlAddressesKey, CNContactTypeKey]
        return try store.unifiedContacts(
            matching: CNContact.predicateForContactsInGroup(withIdentifier: group.identifier), keysToFetch: keys as [CNKeyDescriptor])
    }
}
#endif

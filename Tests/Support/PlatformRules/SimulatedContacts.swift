import Foundation
import RuntimeSupport
import SecureNodeEngine
import Testing

/// The Contacts database and its permission as iOS runs them
/// (`CNContactStore`), for the tests: the SDK's group of managed contacts
/// beside the user's own, the permission the user gives when asked, and
/// what the user does in the Contacts app between two syncs. It stands in
/// for `ContactsGroupStore` over iOS, and each rule an app breaks is
/// recorded as a test issue at `sourceLocation`:
///
/// - reading or writing contacts without full access: iOS fails the call
///   with `CNErrorCodeAuthorizationDenied` (denied, restricted), shows only
///   the contacts the user picked (limited, iOS 18), and when the user was
///   never asked, the call itself puts up the permission prompt in the
///   middle of a sync. An SDK looks at the permission first and never asks:
///   the app asks, once, where the user understands why;
/// - a fetch, save or removal on the main thread: Contacts does its I/O
///   synchronously, and Apple's documentation asks apps to keep it off the
///   main thread (the interface would stall);
/// - changing or removing a contact that is not one of the SDK's own (iOS
///   would let it, and the README promises it never happens).
///
/// What iOS refuses without ending anything is thrown, for the SDK to get
/// over: saving or removing a contact the user deleted meanwhile
/// (`CNErrorCodeRecordDoesNotExist`). Asking for permission follows iOS: the
/// prompt shows once; after an answer, asking again returns it without a
/// prompt (the user changes it in Settings, ``setAuthorization(_:)``).
public final class SimulatedContacts: ManagedContactStore {
    /// `CNAuthorizationStatus`.
    public enum Authorization: Sendable, Equatable {
        /// Never asked.
        case notDetermined
        /// Refused by the user.
        case denied
        /// Refused by a device policy (parental controls, management).
        case restricted
        /// Only contacts the user picked (iOS 18).
        case limited
        /// Full access.
        case authorized
    }

    /// What iOS throws (`CNError`).
    public enum ContactsError: Error, Equatable {
        /// `CNErrorCodeAuthorizationDenied`.
        case authorizationDenied
        /// `CNErrorCodeRecordDoesNotExist`.
        case recordDoesNotExist(String)
    }

    private struct State {
        var authorization: Authorization
        var answer: Authorization
        var prompts = 0
        var managed: [String: ManagedContact] = [:]
        var nextID = 1
        var writes = 0
        var beforeNextWrite: (@Sendable (SimulatedContacts) -> Void)?
        var violations: [String] = []
    }

    private let state: Locked<State>
    private let sourceLocation: SourceLocation
    /// The user's own contacts (identifier: name), never the SDK's to touch.
    public let usersOwnContacts: [String: String]

    /// Contacts with `authorization`; when the app asks and the user was
    /// never asked, the user answers `answer`.
    public init(
        authorization: Authorization, answer: Authorization = .authorized, usersOwnContacts: [String: String] = ["user-1": "Mum"],
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        state = Locked(State(authorization: authorization, answer: answer))
        self.usersOwnContacts = usersOwnContacts
        self.sourceLocation = sourceLocation
    }

    // MARK: The app's permission

    /// `CNContactStore.requestAccess(for: .contacts)`: the prompt when the
    /// user was never asked; the standing answer otherwise.
    public func request() async -> Bool {
        state.withLock { state in
            if state.authorization == .notDetermined {
                state.prompts += 1
                state.authorization = state.answer
            }
            return state.authorization == .authorized
        }
    }

    /// Prompts shown so far.
    public var prompts: Int { state.withLock { $0.prompts } }

    // MARK: The store the SDK is given

    /// `authorizationStatus(for: .contacts) == .authorized`, as
    /// `ContactsGroupStore` reads it (a status is no I/O).
    public var isAuthorized: Bool { state.withLock { $0.authorization == .authorized } }

    /// The SDK's group's contacts, by brand key.
    public func managedContacts() throws -> [ManagedContact] {
        try check("fetched the managed contacts")
        return contents
    }

    /// Adds `contact` to the group, or replaces the group's contact with its identifier.
    public func save(_ contact: ManagedContact) throws -> String {
        try check("saved a contact")
        try willWrite(contact.identifier)
        return try state.withLock { state in
            var saved = contact
            if let identifier = contact.identifier {
                guard state.managed[identifier] != nil else { throw ContactsError.recordDoesNotExist(identifier) }
            } else {
                saved.identifier = "managed-\(state.nextID)"
                state.nextID += 1
            }
            state.managed[saved.identifier!] = saved
            state.writes += 1
            return saved.identifier!
        }
    }

    /// Deletes the group's contact `identifier`.
    public func remove(identifier: String) throws {
        try check("removed a contact")
        try willWrite(identifier)
        try state.withLock { state in
            guard state.managed.removeValue(forKey: identifier) != nil else { throw ContactsError.recordDoesNotExist(identifier) }
            state.writes += 1
        }
    }

    private func check(_ what: String) throws {
        let authorization = state.withLock { $0.authorization }
        if MainThread.isCurrent {
            record("\(what) on the main thread: Contacts does its I/O synchronously; keep fetches and saves off the main thread")
        }
        guard authorization == .authorized else {
            switch authorization {
            case .notDetermined: record("\(what) before the user was asked: the call itself puts up the permission prompt; the app asks, never the SDK")
            default: record("\(what) without full access (\(authorization)): iOS refuses it (CNErrorCodeAuthorizationDenied)")
            }
            throw ContactsError.authorizationDenied
        }
    }

    private func willWrite(_ identifier: String?) throws {
        if let identifier, usersOwnContacts[identifier] != nil {
            record("changed the user's own contact \(identifier): only the SDK's group is its to change")
            throw ContactsError.recordDoesNotExist(identifier)
        }
        let hook = state.withLock { state -> (@Sendable (SimulatedContacts) -> Void)? in
            defer { state.beforeNextWrite = nil }
            return state.beforeNextWrite
        }
        hook?(self)
    }

    // MARK: The user, and what the test reads

    /// The user changes the permission in Settings.
    public func setAuthorization(_ authorization: Authorization) {
        state.withLock { $0.authorization = authorization }
    }

    /// The user deletes the managed contact of `brandKey` in the Contacts app.
    public func userDeletesContact(brandKey: String) {
        state.withLock { state in state.managed = state.managed.filter { $0.value.brandKey != brandKey } }
    }

    /// The user renames the managed contact of `brandKey` in the Contacts app.
    public func userRenamesContact(brandKey: String, to name: String) {
        state.withLock { state in
            for (identifier, contact) in state.managed where contact.brandKey == brandKey { state.managed[identifier]?.displayName = name }
        }
    }

    /// The user deletes the SDK's group with its contacts.
    public func userDeletesGroup() {
        state.withLock { $0.managed = [:] }
    }

    /// Runs `action` (the user, in the Contacts app) just before the next save or removal.
    public func beforeNextWrite(_ action: @escaping @Sendable (SimulatedContacts) -> Void) {
        state.withLock { $0.beforeNextWrite = action }
    }

    /// The group's contacts as they are, by brand key (read by the test, under no rule).
    public var contents: [ManagedContact] {
        state.withLock { $0.managed.values.sorted { $0.brandKey < $1.brandKey } }
    }

    /// Saves and removals so far.
    public var writes: Int { state.withLock { $0.writes } }

    /// Every rule broken so far (each also recorded as a test issue).
    public var violations: [String] { state.withLock { $0.violations } }

    private func record(_ violation: String) {
        state.withLock { $0.violations.append(violation) }
        Issue.record(Comment(rawValue: "iOS Contacts: \(violation)"), sourceLocation: sourceLocation)
    }
}

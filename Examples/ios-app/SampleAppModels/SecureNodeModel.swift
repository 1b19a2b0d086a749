import Foundation
import SecureNodeSDK

/// Asks the user for access to contacts (on iOS, `CNContactStore`'s
/// request); the Managed Contacts switch asks before it turns the feature on.
public protocol ContactsPermission: Sendable {
    /// Whether the user allows access (asking them when they were not asked yet).
    func request() async -> Bool
}

/// SecureNode as its README asks an app to run it: `SecureNode.configure`
/// and `SecureNodeSDK` at launch (heartbeats and the background refresh
/// task start there), a sync at launch, `reloadCallDirectoryIfNeeded()`
/// after it, and the optional Managed Contacts behind a settings switch
/// that asks for Contacts permission first.
@MainActor
public final class SecureNodeModel: ScreenModel {
    /// The last sync's status.
    public private(set) var status: BrandingSyncStatus = .neverSynced { didSet { onChange?() } }
    /// Whether the Call Directory was reloaded after the last sync.
    public private(set) var reloadedCallDirectory = false { didSet { onChange?() } }
    /// Whether Managed Contacts is on.
    public private(set) var managedContactsOn = false { didSet { onChange?() } }
    /// The message of the last refusal, for the user.
    public private(set) var message: String? { didSet { onChange?() } }
    /// The SDK the app keeps for its lifetime (call events go through it).
    public private(set) var sdk: SecureNodeSDK?
    /// Called after every change of what the screen shows.
    public var onChange: (@MainActor () -> Void)?

    private var configuration: SecureNode.Configuration
    private let permission: any ContactsPermission
    private let contactsStore: (any ManagedContactStore)?
    /// Flips of the Managed Contacts switch so far: a flip that waited (for
    /// the permission prompt, for the removal) gives way to a later one.
    private var switchFlips = 0

    /// SecureNode with `configuration`; Managed Contacts would write to
    /// `contactsStore` (`ContactsGroupStore` on iOS) once `permission` is given.
    public init(configuration: SecureNode.Configuration, permission: any ContactsPermission, contactsStore: (any ManagedContactStore)?) {
        self.configuration = configuration
        self.permission = permission
        self.contactsStore = contactsStore
    }

    /// At launch: configure, start the SDK, sync, reload the Call Directory if the snapshot changed.
    public func launch(managedContacts: Bool = false) async {
        if managedContacts, let contactsStore {
            configuration.managedContacts = contactsStore
            managedContactsOn = true
        }
        sdk = SecureNodeSDK(configuration)
        await sync()
    }

    /// A sync (at launch, pull to refresh); it joins one already running.
    public func sync() async {
        if let error = SecureNode.configurationError {
            message = "SecureNode could not start: \(error)"
            return
        }
        status = await SecureNode.sync()
        reloadedCallDirectory = await SecureNode.reloadCallDirectoryIfNeeded()
        message = Self.message(for: status)
    }

    /// The settings switch: on asks for Contacts permission first, and
    /// stays off without it; off removes the contacts the SDK made (and
    /// only those: the store holds the SDK's own).
    public func setManagedContacts(_ on: Bool) async {
        switchFlips += 1
        let flip = switchFlips
        if on {
            guard let contactsStore else {
                message = "Managed Contacts is not available on this device."
                return
            }
            let allowed = await permission.request()
            // The user flipped the switch again while the prompt was up: the last flip decides.
            guard flip == switchFlips else { return }
            guard allowed else {
                message = "Allow access to Contacts in Settings to show brands in Contacts."
                managedContactsOn = false
                return
            }
            configuration.managedContacts = contactsStore
        } else {
            configuration.managedContacts = nil
            if let contactsStore, contactsStore.isAuthorized { await Self.removeManagedContacts(from: contactsStore) }
            guard flip == switchFlips else { return }
        }
        managedContactsOn = on
        // Configuring again replaces the running SDK with one that (no longer) writes contacts.
        sdk = SecureNodeSDK(configuration)
        await sync()
    }

    /// Removes the contacts the SDK made, off the main thread (Contacts
    /// does its I/O synchronously).
    nonisolated private static func removeManagedContacts(from store: any ManagedContactStore) async {
        for contact in (try? store.managedContacts()) ?? [] {
            if let identifier = contact.identifier { try? store.remove(identifier: identifier) }
        }
    }

    /// What the user is told about a sync.
    static func message(for status: BrandingSyncStatus) -> String? {
        switch status {
        case .disabled: return "Caller branding is off: the app's key was refused."
        case .offline: return "Offline: calls are branded from the last update."
        case .connectionNotVerified: return "The update server could not be verified (the network may be intercepted); nothing was sent."
        case .timedOut, .connectionLost, .serverError: return "The last update did not complete; it will be tried again."
        default: return nil
        }
    }
}

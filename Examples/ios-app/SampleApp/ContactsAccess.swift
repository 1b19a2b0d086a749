import Contacts
import SampleAppModels

/// The Managed Contacts switch's question to the user: Contacts access,
/// asked the first time, answered from the system's record after that.
struct ContactsAccess: ContactsPermission {
    func request() async -> Bool {
        switch CNContactStore.authorizationStatus(for: .contacts) {
        case .authorized: return true
        case .notDetermined: return (try? await CNContactStore().requestAccess(for: .contacts)) ?? false
        default: return false
        }
    }
}

import SampleAppModels
import SecureNodeSDK
import SwiftUI

/// SecureNode: the last sync, a sync on demand, and the Managed Contacts switch.
struct CallerIDTab: View {
    let services: AppServices

    var body: some View {
        NavigationStack {
            if let secureNode = services.secureNode {
                CallerIDScreen(screen: ObservedScreen(secureNode))
                    .navigationTitle(SampleScreens.callerID)
            } else {
                SetupProblem(text: services.problems.first { $0.hasPrefix("SecureNode") } ?? "SecureNode did not start")
            }
        }
    }
}

struct CallerIDScreen: View {
    @StateObject var screen: ObservedScreen<SecureNodeModel>
    @AppStorage("managedContacts") private var managedContacts = false

    init(screen: ObservedScreen<SecureNodeModel>) {
        _screen = StateObject(wrappedValue: screen)
    }

    var body: some View {
        Form {
            Section("Branding") {
                LabeledContent("Last sync", value: Self.describe(screen.model.status))
                if screen.model.reloadedCallDirectory { Text("Caller ID labels updated").font(.footnote) }
                if let message = screen.model.message { Text(message).font(.footnote) }
                Button("Sync now") { Task { await screen.model.sync() } }
            }
            Section {
                Toggle("Show brands in Contacts", isOn: Binding(
                    get: { screen.model.managedContactsOn },
                    set: { on in
                        Task {
                            await screen.model.setManagedContacts(on)
                            managedContacts = screen.model.managedContactsOn
                        }
                    }))
            } footer: {
                Text("Adds one contact per brand, with its logo, in a group of its own. Asks for access to Contacts first.")
            }
        }
    }

    static func describe(_ status: BrandingSyncStatus) -> String {
        switch status {
        case .upToDate(let at, _, _): return at.formatted(date: .omitted, time: .shortened)
        case .syncing: return "Syncing…"
        case .neverSynced: return "Never"
        case .deferredForCall: return "After the call"
        case .disabled: return "Off (key refused)"
        default: return "Not up to date"
        }
    }
}

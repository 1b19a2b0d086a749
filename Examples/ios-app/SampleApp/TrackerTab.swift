import SampleAppModels
import SwiftUI

/// MobileTracker: the session, and an event from a button. Screen views
/// are tracked automatically: each tab's appearance is one, named by its
/// navigation title (`SampleScreens`), with no call of the app's.
struct TrackerTab: View {
    @StateObject var screen: ObservedScreen<TrackerModel>

    init(screen: ObservedScreen<TrackerModel>) {
        _screen = StateObject(wrappedValue: screen)
    }

    var body: some View {
        NavigationStack {
            Form {
                LabeledContent("Session", value: screen.model.sessionID ?? "not started")
                LabeledContent("Events waiting", value: "\(screen.model.pendingEvents)")
                if let message = screen.model.message { Text(message).font(.footnote).foregroundStyle(.red) }
                Button("Track a button click") { Task { await screen.model.buttonTapped("sample") } }
            }
            .navigationTitle(SampleScreens.tracking)
        }
    }
}

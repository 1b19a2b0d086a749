import MobileTracker
import SampleAppModels
import SecureNodeSDK
import SwiftUI

/// The sample app of all four SDKs, as their documents ask an app to use
/// them: SOUL's OTP sign-in and moods, Safepocket's hosted sign-in and
/// finances, SecureNode's caller ID (with its Call Directory extension and
/// background refresh), and MobileTracker's events and screen views.
@main
struct SampleApp: App {
    @UIApplicationDelegateAdaptor(SampleAppDelegate.self) private var delegate

    var body: some Scene {
        WindowGroup {
            RootView(services: delegate.services)
        }
    }
}

/// What must happen before the app finishes launching: SecureNode's
/// background refresh registered, synchronously (iOS ends an app that
/// registers it later); then, in the background, MobileTracker's
/// `initialize` and SecureNode's configure, SDK and first sync
/// (`AppLaunch`, tested on Linux against iOS's rules).
@MainActor
final class SampleAppDelegate: NSObject, UIApplicationDelegate {
    let services = AppServices()

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]? = nil) -> Bool {
        AppLaunch.didFinishLaunching(
            tracker: services.tracker, secureNode: services.secureNode, managedContacts: UserDefaults.standard.bool(forKey: "managedContacts"))
        return true
    }
}

/// The four SDKs' screens, one tab each, under the offline banner.
struct RootView: View {
    let services: AppServices

    var body: some View {
        TabView {
            SoulTab(services: services)
                .tabItem { Label("SOUL", systemImage: "face.smiling") }
            SafepocketTab(services: services)
                .tabItem { Label("Safepocket", systemImage: "creditcard") }
            CallerIDTab(services: services)
                .tabItem { Label("Caller ID", systemImage: "phone") }
            TrackerTab(screen: ObservedScreen(services.tracker))
                .tabItem { Label("Tracking", systemImage: "chart.bar") }
        }
    }
}

/// A problem of the app's set-up (a missing Info.plist key), shown where the feature would be.
struct SetupProblem: View {
    let text: String

    var body: some View {
        ContentUnavailableCompat(title: "Not configured", message: text)
    }
}

/// A title and a message, centred (ContentUnavailableView is iOS 17).
struct ContentUnavailableCompat: View {
    let title: String
    let message: String

    var body: some View {
        VStack(spacing: 8) {
            Text(title).font(.headline)
            Text(message).font(.subheadline).foregroundStyle(.secondary).multilineTextAlignment(.center)
        }
        .padding()
    }
}

/// The offline banner: shown while the last call could not reach the server.
struct OfflineBanner: View {
    let isOffline: Bool
    let age: Duration?

    var body: some View {
        if isOffline {
            HStack {
                Image(systemName: "wifi.slash")
                Text(age.map { "Offline. Showing what was saved \(AgeText.describe($0)) ago." } ?? "Offline. Changes are saved and sent later.")
            }
            .font(.footnote)
            .frame(maxWidth: .infinity)
            .padding(8)
            .background(.yellow.opacity(0.3))
        }
    }
}

/// "2 min", "3 h": how old a cached answer is.
enum AgeText {
    static func describe(_ age: Duration) -> String {
        let seconds = Int(age.components.seconds)
        if seconds < 60 { return "\(seconds) s" }
        if seconds < 3600 { return "\(seconds / 60) min" }
        return "\(seconds / 3600) h"
    }
}

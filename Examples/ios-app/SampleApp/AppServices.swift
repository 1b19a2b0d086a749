import Foundation
import MobileTracker
import Safepocket
import SampleAppModels
import SecureNodeSDK
import Soul

/// The app's SDKs, made once at launch from the Info.plist (build settings
/// fill it: README.md in this folder lists the keys).
@MainActor
final class AppServices {
    let configuration: AppConfiguration
    let soul: Soul?
    let safepocket: Safepocket?
    let safepocketRedirectURI: String
    let tracker: TrackerModel
    /// SOUL's sign-in funnel, tracked through MobileTracker.
    let soulFunnel: SoulFunnel
    /// The consent SOUL's sign-in asks for after the code, kept with the session.
    let soulConsent: SignInConsent
    let secureNode: SecureNodeModel?
    /// What could not start, for the developer's eye (a missing key).
    private(set) var problems: [String] = []

    init(bundle: Bundle = .main) {
        let info = bundle.infoDictionary ?? [:]
        func value(_ key: String) -> String? {
            (info[key] as? String).flatMap { $0.trimmingCharacters(in: .whitespaces).isEmpty ? nil : $0 }
        }
        configuration = AppConfiguration(info: info)
        if let problem = configuration.problem { problems.append(problem) }

        do {
            soul = try Soul(.init(environment: configuration.soul))
        } catch {
            soul = nil
            problems.append("SOUL: \(error)")
        }

        safepocketRedirectURI = value("SAFEPOCKET_REDIRECT_URI") ?? "app.safepocket.sample:/oauth/callback"
        if let authorize = value("SAFEPOCKET_AUTHORIZE_URL").flatMap(URL.init(string:)), let clientID = value("SAFEPOCKET_CLIENT_ID") {
            let authorization = AuthorizationConfiguration(authorizeEndpoint: authorize, clientID: clientID, redirectURI: safepocketRedirectURI)
            // SAFEPOCKET_BASE_URL for a development server; production otherwise.
            let settings = value("SAFEPOCKET_BASE_URL").flatMap(URL.init(string:)).map {
                Safepocket.Configuration(baseURL: $0, authorization: authorization)
            } ?? Safepocket.Configuration(authorization: authorization)
            do {
                safepocket = try Safepocket(settings)
            } catch {
                safepocket = nil
                problems.append("Safepocket: \(error)")
            }
        } else {
            safepocket = nil
            problems.append("Safepocket: set SAFEPOCKET_AUTHORIZE_URL and SAFEPOCKET_CLIENT_ID")
        }

        tracker = TrackerModel(
            tracker: MobileTracker.shared, brandID: value("TRACKER_BRAND_ID") ?? "925",
            config: TrackerConfig(apiUrl: value("TRACKER_API_URL"), xApiKey: value("TRACKER_API_KEY")))
        soulFunnel = SoulFunnel(tracker: MobileTracker.shared, environment: configuration.soul.isStaging ? "staging" : "production")
        soulConsent = SignInConsent(file: PrivateFile.applicationSupportFolder.appendingPathComponent("soul-consent"))

        if let apiKey = value("SECURENODE_API_KEY") {
            secureNode = SecureNodeModel(
                configuration: .init(
                    apiURL: value("SECURENODE_API_URL").flatMap(URL.init(string:)) ?? URL(string: "https://api.securenode.io")!, apiKey: apiKey,
                    appGroupId: value("SECURENODE_APP_GROUP"), callDirectoryExtensionBundleId: value("SECURENODE_CALL_DIRECTORY_EXTENSION")),
                permission: ContactsAccess(), contactsStore: ContactsGroupStore(groupName: "SecureNode"))
        } else {
            secureNode = nil
            problems.append("SecureNode: set SECURENODE_API_KEY")
        }
    }
}

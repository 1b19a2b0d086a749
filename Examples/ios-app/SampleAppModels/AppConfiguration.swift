import Foundation
import Soul

/// What the sample app reads from its Info.plist (build settings feed it):
/// which servers, and the keys. SOUL's plan chooses staging or production
/// by the `BASE_URL` key; a build setting per configuration (Debug and
/// Staging: staging, Release: production) sets it.
public struct AppConfiguration: Sendable, Equatable {
    /// SOUL's server, staging or production as `BASE_URL` names it.
    public var soul: Soul.Environment
    /// A configuration problem to show the developer (a missing or unknown key), nil when none.
    public var problem: String?

    /// Reads `info` (the app bundle's `infoDictionary`). `BASE_URL` is
    /// SOUL's staging or production URL, or another https URL (a server
    /// of the team's; staging when `SOUL_STAGING` is `YES`); absent or
    /// invalid, production, with the problem said.
    public init(info: [String: Any]) {
        let text = (info["BASE_URL"] as? String)?.trimmingCharacters(in: .whitespaces) ?? ""
        let staged = (info["SOUL_STAGING"] as? String)?.uppercased() == "YES" || (info["SOUL_STAGING"] as? Bool) == true
        guard let url = URL(string: text), url.scheme == "https" || url.host == "127.0.0.1" || url.host == "localhost" else {
            soul = .production
            problem = text.isEmpty ? "BASE_URL is not set in Info.plist: using production" : "BASE_URL \(text) is not an https URL: using production"
            return
        }
        problem = nil
        func same(_ a: URL, _ b: URL) -> Bool {
            a.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")) == b.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        }
        if same(url, Soul.Environment.staging.baseURL) {
            soul = .staging
        } else if same(url, Soul.Environment.production.baseURL) {
            soul = .production
        } else {
            soul = Soul.Environment(baseURL: url, isStaging: staged)
        }
    }
}

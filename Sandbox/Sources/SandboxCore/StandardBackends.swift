import Foundation

/// The four backends this project documents, each with the behaviour its
/// document describes: what `make sandbox` serves.
public struct StandardBackends: Sendable {
    /// SOUL's settings (staging by default).
    public var soul = SoulBehaviour.Settings()
    /// SecureNode's settings (dataset size, changes over time, API key).
    public var secureNode = SecureNodeBehaviour.Settings()
    /// The seed of Safepocket's ledger.
    public var safepocketSeed: UInt64 = 1
    /// How long a Safepocket access token lives.
    public var safepocketTokenLifetime: Duration = .seconds(3600)
    /// The key MobileTracker requests must carry; nil accepts any.
    public var trackerAPIKey: String?
    /// What MobileTracker's session ids look like (UUIDs by default).
    public var trackerSessionIDStyle: TrackerBehaviour.SessionIDStyle = .uuid
    /// The backends' clock (token expiry, SecureNode's changes over time).
    public var now: @Sendable () -> Date = Date.init

    /// The defaults.
    public init() {}

    /// The backends' names, which are also their path prefixes.
    public static let names = ["soul", "safepocket", "securenode", "mobiletracker"]

    /// The behaviour for the backend called `name`, or nil for a name this
    /// project does not document (its spec's examples answer alone).
    public func behaviour(for name: String) -> (any SandboxBehaviour)? {
        switch name {
        case "soul": SoulBehaviour(settings: soul, now: now)
        case "safepocket": SafepocketBehaviour(seed: safepocketSeed, accessTokenLifetime: safepocketTokenLifetime, now: now)
        case "securenode": SecureNodeBehaviour(settings: secureNode, now: now)
        case "mobiletracker": TrackerBehaviour(apiKey: trackerAPIKey, sessionIDStyle: trackerSessionIDStyle)
        default: nil
        }
    }

    /// The four backends, their specs read from `specsFolder` (`NAME.yaml`).
    public func load(specsFolder: String) throws -> [SandboxBackend] {
        try Self.names.map { name in
            try SandboxBackend(name: name, specPath: (specsFolder as NSString).appendingPathComponent("\(name).yaml"), behaviour: behaviour(for: name))
        }
    }
}

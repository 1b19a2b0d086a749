import BrandingStore
import Foundation
import OpenAPIRuntime
import Resilience
import RuntimeSupport
@_exported import SecureNodeEngine
import SDKCore

/// The SDK as its iOS README presents it: configured once, at launch,
/// with the API's base URL, the key, the App Group and the Call Directory
/// extension.
///
/// ```swift
/// import SecureNodeSDK
///
/// SecureNode.configure(.init(
///   apiURL: URL(string: "https://edge.securenode.io")!,
///   apiKey: "your-api-key-here",
///   appGroupId: "group.com.customer.app.securenode",
///   callDirectoryExtensionBundleId: "com.customer.app.CallDirectoryExtension"
/// ))
/// SecureNode.sync()                        // app launch, a scheduled task
/// SecureNode.reloadCallDirectoryIfNeeded() // the SDK throttles
/// ```
///
/// It is a thin layer over one `SecureNodeEngine` (the `SecureNodeEngine`
/// module's class), which ``engine`` gives for everything else (ring-time
/// lookups, the outbox, status streams). Every call is safe from any
/// thread; nothing throws at the app: `configure` keeps what went wrong in
/// ``configurationError``, and calls made before a successful `configure`
/// do nothing.
public enum SecureNode {
    /// What the README's `configure` takes.
    public struct Configuration: Sendable {
        /// The API's base URL (`https://api.securenode.io` by default; the
        /// README's quick start uses `https://edge.securenode.io`). The SDK
        /// finds whether the API is mounted under `/api` or at the root.
        public var apiURL: URL
        /// The API key, sent as `X-API-Key` and kept in the Keychain (a
        /// 0600 file elsewhere) for later launches.
        public var apiKey: String
        /// The App Group the host app shares with its Call Directory
        /// extension: on iOS the SDK's files (the dataset, the Call
        /// Directory snapshot the extension reads, the outbox) live in its
        /// container.
        public var appGroupId: String?
        /// The Call Directory extension the SDK reloads after a sync
        /// (`CXCallDirectoryManager`); nil: the app reloads it itself.
        public var callDirectoryExtensionBundleId: String?
        /// Where the SDK keeps its files when there is no App Group
        /// container (Linux, macOS, tests) or to choose another folder; nil:
        /// the App Group's container on iOS, else ``Defaults/storageFolder``
        /// or `<Application Support>/SecureNode/<appGroupId or "default">`.
        public var folder: URL?
        /// The bounds of every request and of a sync.
        public var timeouts: TransportTimeouts
        /// Where SecureNode-managed contacts (the brands' logos as contact
        /// photos) go: `ContactsGroupStore()` on iOS, once the app has the
        /// user's permission; nil, the default: off.
        public var managedContacts: (any ManagedContactStore)?
        /// Public-key pins of the API's and the logo host's names
        /// (`CertificatePinning`, at least two per host), checked on every
        /// connection the SDK opens, logo downloads included; default:
        /// nothing pinned (the system's trust evaluation alone). Branding
        /// puts names on the call screen: a production app pins.
        public var pinning: CertificatePinning

        /// The README's configuration.
        public init(
            apiURL: URL = URL(string: "https://api.securenode.io")!, apiKey: String, appGroupId: String? = nil,
            callDirectoryExtensionBundleId: String? = nil
        ) {
            self.apiURL = apiURL
            self.apiKey = apiKey
            self.appGroupId = appGroupId
            self.callDirectoryExtensionBundleId = callDirectoryExtensionBundleId
            folder = nil
            timeouts = SecureNodeEngine.defaultTimeouts
            managedContacts = nil
            pinning = .none
        }

        /// The README's configuration with a folder of the app's choosing.
        public init(
            apiURL: URL = URL(string: "https://api.securenode.io")!, apiKey: String, appGroupId: String? = nil,
            callDirectoryExtensionBundleId: String? = nil, folder: URL?, timeouts: TransportTimeouts = SecureNodeEngine.defaultTimeouts
        ) {
            self.init(apiURL: apiURL, apiKey: apiKey, appGroupId: appGroupId, callDirectoryExtensionBundleId: callDirectoryExtensionBundleId)
            self.folder = folder
            self.timeouts = timeouts
        }
    }

    /// What `configure` uses where its ``Configuration`` says nothing: set
    /// before `configure` (a custom transport, a folder on a desktop or in
    /// tests).
    public struct Defaults: Sendable {
        /// The transport; nil: the SDK's own, checking the configuration's
        /// pins (URLSession behind `CertificatePinningTransport`).
        /// A transport of the app's own bounds its own connections: the SDK
        /// then dials nothing first (`ConnectionConfiguration.dialsBeforeSending`);
        /// with pins it must enforce them (`PinEnforcingTransport`), or
        /// `configure` leaves the SDK off with the reason in ``configurationError``.
        public var transport: (any ClientTransport)?
        /// The folder where each configuration's files go (in a subfolder
        /// named by its App Group) when there is no App Group container.
        public var storageFolder: URL?
        /// Where completions run; nil: the main queue on Apple platforms,
        /// a background queue elsewhere.
        public var completionQueue: DispatchQueue?
        /// The device profile; nil: this install's id (kept in the SDK's
        /// folder), the platform and the SDK's version.
        public var device: DeviceProfile?

        /// No defaults of the app's own.
        public init(transport: (any ClientTransport)? = nil, storageFolder: URL? = nil, completionQueue: DispatchQueue? = nil, device: DeviceProfile? = nil) {
            self.transport = transport
            self.storageFolder = storageFolder
            self.completionQueue = completionQueue
            self.device = device
        }
    }

    /// The SDK's version, sent as the device's `sdk_version`.
    public static let sdkVersion = "1.0.0"

    private struct State: Sendable {
        var engine: SecureNodeEngine?
        var configuration: Configuration?
        var error: (any Error)?
        var defaults = Defaults()
    }

    private static let state = Locked(State())

    /// The defaults `configure` applies; set them before it.
    public static var defaults: Defaults {
        get { state.withLock { $0.defaults } }
        set { state.withLock { $0.defaults = newValue } }
    }

    /// Starts the SDK: opens (or creates) its files, keeps the key, and
    /// sends the events an earlier launch left. Calling it again replaces
    /// the running SDK. Never throws: when the files cannot be opened the
    /// SDK stays off and ``configurationError`` says why.
    public static func configure(_ configuration: Configuration) {
        let defaults = self.defaults
        do {
            let folder = try storageFolder(for: configuration, defaults: defaults)
            let device = try defaults.device ?? DeviceProfile(
                deviceID: installID(in: folder), platform: .ios, osVersion: ProcessInfo.processInfo.operatingSystemVersionString,
                sdkVersion: sdkVersion, capabilities: ["call_directory": configuration.callDirectoryExtensionBundleId != nil])
            let engine = try SecureNodeEngine(.init(
                apiURL: configuration.apiURL, apiKey: configuration.apiKey, folder: folder, device: device,
                transport: defaults.transport,
                callDirectoryReloader: configuration.callDirectoryExtensionBundleId.map { CallKitDirectoryReloader(extensionIdentifier: $0) },
                // SecureNodeSDK starts the heartbeat timer (the README's `SecureNodeSDK`), not `configure`.
                sendsHeartbeats: false, timeouts: configuration.timeouts,
                managedContacts: configuration.managedContacts, pinning: configuration.pinning))
            state.withLock { $0 = State(engine: engine, configuration: configuration, error: nil, defaults: $0.defaults) }
        } catch {
            state.withLock { $0 = State(engine: nil, configuration: configuration, error: error, defaults: $0.defaults) }
        }
    }

    /// Registers the background refresh task (`BGAppRefreshTask`
    /// `com.securenode.branding.sync`) with `scheduler`: the call an app
    /// makes once, synchronously, in
    /// `application(_:didFinishLaunchingWithOptions:)` (iOS ends an app
    /// that registers a launch handler after launch). Each launch syncs the
    /// SDK ``configure(_:)`` started last (nothing, completed as failed,
    /// before one did), delivers billing events, reloads the Call Directory
    /// when it changed, and asks for the next run `interval` later. Safe to
    /// call again: the system is asked once per process, and later calls
    /// return its first answer. False off iOS, or when the identifier is not
    /// listed under `BGTaskSchedulerPermittedIdentifiers` in Info.plist.
    ///
    /// ```swift
    /// func application(_ application: UIApplication, didFinishLaunchingWithOptions ...) -> Bool {
    ///     SecureNode.registerBackgroundRefresh()
    ///     SecureNode.configure(.init(apiURL: ..., apiKey: ..., appGroupId: ..., callDirectoryExtensionBundleId: ...))
    ///     return true
    /// }
    /// ```
    @discardableResult
    public static func registerBackgroundRefresh(
        every interval: Duration = .seconds(30 * 60), budget: Duration = .seconds(25), scheduler: BackgroundRefreshScheduler? = .system
    ) -> Bool {
        guard let scheduler else { return false }
        let identifier = SecureNodeEngine.backgroundRefreshTaskIdentifier
        let registered = scheduler.registerOnce(identifier) {
            guard let engine = Self.engine else { return false }
            engine.scheduleBackgroundRefresh(after: interval, scheduler: scheduler)
            return await engine.performBackgroundRefresh(budget: budget).succeeded
        }
        if registered { _ = try? scheduler.submit(identifier, Date(timeIntervalSinceNow: interval.totalSeconds)) }
        return registered
    }

    /// The running SDK's engine; nil before a successful ``configure(_:)``.
    public static var engine: SecureNodeEngine? { state.withLock { $0.engine } }

    /// Why the last ``configure(_:)`` left the SDK off, nil when it started.
    public static var configurationError: (any Error)? { state.withLock { $0.error } }

    /// Syncs the branding dataset in the background (the README's
    /// host-driven `SecureNode.sync()`: at launch or from a scheduled task;
    /// never during a call). `completion`, when given, receives the status
    /// on ``Defaults/completionQueue``.
    public static func sync(completion: (@Sendable (BrandingSyncStatus) -> Void)? = nil) {
        Task {
            let status = await sync()
            if let completion { deliver { completion(status) } }
        }
    }

    /// Syncs the branding dataset and returns the status; `neverSynced`
    /// while the SDK is not configured.
    @discardableResult
    public static func sync() async -> BrandingSyncStatus {
        guard let engine else { return .neverSynced }
        return await engine.sync()
    }

    /// Reloads the Call Directory extension when the snapshot changed and
    /// the last reload (this launch or an earlier one) is at least 15
    /// minutes old; the SDK throttles, so call it as often as is handy.
    /// `completion`, when given, says whether it reloaded.
    public static func reloadCallDirectoryIfNeeded(completion: (@Sendable (Bool) -> Void)? = nil) {
        Task {
            let reloaded = await reloadCallDirectoryIfNeeded()
            if let completion { deliver { completion(reloaded) } }
        }
    }

    /// ``reloadCallDirectoryIfNeeded(completion:)``, awaited: whether it reloaded.
    @discardableResult
    public static func reloadCallDirectoryIfNeeded() async -> Bool {
        guard let engine else { return false }
        return await engine.reloadCallDirectoryIfNeeded()
    }

    /// Runs `work` on the completion queue.
    static func deliver(_ work: @escaping @Sendable () -> Void) {
        (defaults.completionQueue ?? defaultCompletionQueue).async(execute: work)
    }

    private static var defaultCompletionQueue: DispatchQueue {
        #if canImport(Darwin)
        return .main
        #else
        return .global(qos: .userInitiated)
        #endif
    }

    /// The App Group's container on iOS; the app's folder, the defaults'
    /// folder or Application Support elsewhere (a subfolder per App Group).
    static func storageFolder(for configuration: Configuration, defaults: Defaults) throws -> URL {
        if let folder = configuration.folder { return folder }
        let group = configuration.appGroupId ?? "default"
        #if canImport(Darwin)
        if let id = configuration.appGroupId, let container = AppGroupContainer.folder(for: id) {
            return container.appendingPathComponent("SecureNode", isDirectory: true)
        }
        #endif
        let base = defaults.storageFolder ?? PrivateFile.applicationSupportFolder.appendingPathComponent("SecureNode", isDirectory: true)
        return base.appendingPathComponent(group, isDirectory: true)
    }

    /// This install's id: made once, kept in the SDK's folder.
    static func installID(in folder: URL) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("install-id")
        if let saved = try? String(contentsOf: file, encoding: .utf8), !saved.isEmpty { return saved }
        let id = UUID().uuidString.lowercased()
        try Data(id.utf8).write(to: file, options: .atomic)
        return id
    }
}

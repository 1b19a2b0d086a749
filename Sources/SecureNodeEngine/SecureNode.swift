import BrandingStore
import ClientRuntime
import Foundation
import Logging
import OpenAPIRuntime
import OpenAPIURLSession
import Resilience
import RuntimeSupport
import SDKCore
import SecureNodeAPI

/// The SecureNode SDK: caller branding resolved locally at ring time, a
/// dataset kept in step with the server, and billing events that are never
/// lost and never billed twice.
///
/// ```swift
/// let secureNode = try SecureNodeEngine(.init(
///     apiKey: key, folder: appGroupFolder,
///     device: DeviceProfile(deviceID: installID, platform: .ios, sdkVersion: "1.0.0"),
///     transport: URLSessionTransport()))
/// await secureNode.sync()                              // app launch, background task
/// let branding = secureNode.lookup(e164: caller)       // ring time: local, synchronous
/// let key = secureNode.recordCallSeen(phoneNumberE164: caller, brandingDisplayed: branding != nil, callOutcome: "ANSWERED")
/// secureNode.recordCallReturned(phoneNumberE164: caller, callEventKey: key, returnCallLatencySeconds: 120)
/// ```
///
/// Every call is safe from any thread. Network failures never reach the
/// app as errors: sync outcomes are ``syncStatus()``, events wait in the
/// outbox until delivered.
public final class SecureNodeEngine: Sendable {
    /// What the SDK needs to start.
    public struct Configuration: Sendable {
        /// How the SDK reaches the API: the family's one connection type.
        /// What SecureNode reads of it:
        ///
        /// - `baseURL`: The API's base URL (`https://api.securenode.io` by default).
        /// - `connectivity`: The device's connectivity. Default: the system's
        ///   (`Connectivity.systemDefault()`); pending billing events are sent
        ///   as soon as it comes back. Nil: no signal (backoff only).
        /// - `transport`: How requests are sent. Nil, the default: the SDK's own
        ///   (URLSession with `timeouts` and `pinning`), whose idle timeout ends a stalled
        ///   answer (`TransportTimeouts.read`). A transport of the app's own must
        ///   enforce `pinning` when anything is pinned (a
        ///   `PinEnforcingTransport` that says so), or `init` refuses it.
        /// - `pinning`: Public-key pins of the API's and the logo host's names
        ///   (`CertificatePinning`: at least two per host, the served key and a
        ///   backup), checked after the system's own trust evaluation on every
        ///   connection the SDK opens, logo downloads included. Whoever can
        ///   answer for the API can put a name on the incoming-call screen, so
        ///   a production app pins. A connection that fails them, a
        ///   certificate the system refuses, or a redirect to another host
        ///   sends nothing: a sync ends `connectionNotVerified`. Default:
        ///   nothing pinned (the system's trust evaluation alone).
        /// - `logger`: Where redacted request logs and connection refusals (pins, TLS
        ///   failures, redirects) go.
        /// - `timeouts`: The bounds of every request and of a sync (``SecureNodeEngine/defaultTimeouts``):
        ///
        ///   | wait | bound | what ends it |
        ///   | --- | --- | --- |
        ///   | connecting | `connect` (5 s) on Linux; `read` on Apple platforms | `offline` |
        ///   | no byte of an answer | `read` (10 s), the default transport's idle timeout | `timedOut` |
        ///   | one attempt of any request but the sync, until its answer starts | `attemptDeadline` (20 s) | `timedOut` |
        ///   | a whole sync, its body included | `whole` (connect + read + transfer: 120 s) | `timedOut`, nothing applied |
        ///   | a background refresh, everything in it | `performBackgroundRefresh(budget:)` (25 s) | `ranOutOfTime` |
        /// - `dialsBeforeSending`: Whether the connection is dialled first, within
        ///   `TransportTimeouts.connect` (`ConnectTimeoutMiddleware`). Nil, the
        ///   default: only for the SDK's own transport where it has no connect
        ///   timeout of its own (URLSession on Linux); a transport of the app's
        ///   own bounds its connections itself and may not connect to
        ///   `baseURL`'s host (a proxying or test transport).
        public var connection: ConnectionConfiguration
        /// The API key sent as `X-API-Key`. Given once, it is kept in
        /// ``keyStore`` and later launches may pass nil; a key that differs
        /// from the stored one replaces it.
        public var apiKey: String?
        /// Where the API key is kept between launches. Nil: the platform's
        /// (the Keychain on Apple platforms, a 0600 file `api-key` in
        /// ``folder`` elsewhere).
        public var keyStore: (any KeyStore)?
        /// Reloads the Call Directory extension (`CallKitDirectoryReloader`
        /// on iOS). When given, the SDK exports and reloads on its own: after
        /// a sync, when branding is turned off (an empty snapshot, at once)
        /// or back on, and in ``SecureNodeEngine/performBackgroundRefresh(budget:)``.
        public var callDirectoryReloader: (any CallDirectoryReloading)?
        /// Where the SDK keeps its files (an app-group container on iOS, so
        /// the Call Directory extension can read the snapshot).
        public var folder: URL
        /// This install.
        public var device: DeviceProfile
        /// Where SecureNode-managed contacts go (the README's optional
        /// Managed Contacts sync: `ContactsGroupStore` on iOS); nil, the
        /// default: off. Permission-gated: nothing happens until the user
        /// allowed access to contacts (the app asks).
        public var managedContacts: (any ManagedContactStore)?
        /// Whether the SDK sends presence heartbeats on its own while it is
        /// alive (every 5 minutes, as the iOS SDK does from `init`); off,
        /// the host calls ``SecureNodeEngine/heartbeatIfDue()`` itself.
        public var sendsHeartbeats: Bool

        // The README's fixed values. Not the app's to change: tests move
        // them (or the connection's clock) to run in milliseconds.

        /// Time between presence heartbeats (5 minutes).
        package var heartbeatInterval: Duration = .seconds(300)
        /// Shortest time between two Call Directory reloads (15 minutes).
        package var callDirectoryReloadInterval: Duration = .seconds(15 * 60)
        /// The most numbers managed contacts hold in all (10,000); brands
        /// past it are left out and counted.
        package var managedContactsMaximumNumbers = 10_000
        /// How logos are downloaded. Nil: the SDK's own
        /// (`LogoCache.verifiedFetch`: `connection.pinning` checked,
        /// redirects only over https to the assets host, reading stopped at
        /// the logo limit), the only one an app gets: a fetch of its own
        /// would put images from elsewhere on the call screen.
        package var logoFetch: LogoFetch?
        /// Where logos are cached. Nil: the README's
        /// `Library/Caches/SecureNodeBranding/` on Apple platforms (the
        /// app's caches folder: the system may empty it, the SDK fetches
        /// again), and `<folder>/Caches/SecureNodeBranding/` elsewhere.
        package var logoFolder: URL?
        /// How failed logo downloads are spaced out (30 s, doubling to 1 hour).
        package var logoRetry = BackoffPolicy(baseDelay: .seconds(30), maximumDelay: .seconds(3600))
        /// The most bytes the logo cache may hold (20 MiB).
        package var logoCacheBytes = 20 << 20
        /// How often refused credentials (a 401/403) are checked again while
        /// the app runs: one cheap request, first after `baseDelay` (1 minute),
        /// then doubling up to `maximumDelay` (1 hour); at launch at once.
        /// Branding comes back by itself when the server accepts the key again.
        package var refusalRecheck = BackoffPolicy(baseDelay: .seconds(60), maximumDelay: .seconds(3600))
        /// The longest quiet time a ring-time lookup opens when the host
        /// reports no call (60 s, longer than a phone rings); a reported
        /// call keeps it quiet until the call ends.
        package var ringQuietBound: Duration = .seconds(60)

        /// Creates a configuration.
        public init(
            apiURL: URL = SecureNodeAPI.Client.Server.production.url, apiKey: String?, keyStore: (any KeyStore)? = nil, folder: URL,
            device: DeviceProfile, transport: (any ClientTransport)? = nil, connectivity: Connectivity? = .systemDefault(),
            callDirectoryReloader: (any CallDirectoryReloading)? = nil, sendsHeartbeats: Bool = true,
            timeouts: TransportTimeouts = SecureNodeEngine.defaultTimeouts, dialsBeforeSending: Bool? = nil,
            managedContacts: (any ManagedContactStore)? = nil, pinning: CertificatePinning = .none,
            logger: Logger = .sdkDefault(subsystem: "OpenAPIMobileClients.SecureNode")
        ) {
            connection = ConnectionConfiguration(
                baseURL: apiURL, transport: transport, pinning: pinning, timeouts: timeouts, logger: logger, connectivity: connectivity,
                dialsBeforeSending: dialsBeforeSending)
            self.managedContacts = managedContacts
            self.keyStore = keyStore
            self.callDirectoryReloader = callDirectoryReloader
            self.sendsHeartbeats = sendsHeartbeats
            self.apiKey = apiKey
            self.folder = folder
            self.device = device
        }

        /// This configuration with `change` made: how a test sets what an
        /// app does not (`.with { $0.heartbeatInterval = .milliseconds(50) }`).
        package func with(_ change: (inout Configuration) -> Void) -> Configuration {
            var copy = self
            change(&copy)
            return copy
        }
    }

    /// The local branding dataset.
    public let store: BrandingStore
    /// Billing events waiting for delivery.
    package let outbox: BillingOutbox
    /// Brand logos on disk.
    package let logos: LogoCache
    /// Calls in progress, as the host app reports them.
    package let calls: CallActivity
    /// The Call Directory snapshot the iOS extension reads.
    public let callDirectory: CallDirectorySnapshot
    let syncEngine: BrandingSync
    let delivery: OutboxDelivery
    package let deliveryLoop: BillingDeliveryLoop
    let keys: APIKeyPersistence
    let reloader: (any CallDirectoryReloading)?
    let device: DeviceLifecycle
    package let fallback: LookupFallback
    let state: SharedState
    let deviceID: String
    let heartbeats = Locked<Task<Void, Never>?>(nil)
    /// The launch flow in flight (``sync()``), which later callers join.
    let syncPasses = SharedRun<SyncPass>()
    /// Bumped by every change a sync in flight cannot see (new credentials,
    /// branding back after a refusal): a sync asked for after it runs again.
    let syncGeneration = Locked(0)
    let heartbeatInterval: Duration
    /// Where the Call Directory reload throttle is kept across launches.
    let reloadStateFile: URL
    let refusalWatch: RefusalWatch
    let displays = IdentityDisplays()
    let ringQuietBound: Duration
    let managedContacts: (any ManagedContactStore)?
    let managedContactsMaximumNumbers: Int
    /// Logs the answers that differ from the spec's guesses (`x-assumed`), once per field.
    let assumedFields: AssumedFieldObservation
    /// The SDK's one clock (`connection.clock`).
    let clock: SDKClock
    /// Its wall time.
    let now: @Sendable () -> Date
    /// Where a sync's and a billing delivery's intervals go (Instruments).
    let intervals: Signposts

    /// Opens (or creates) the SDK's files under `configuration.folder`.
    /// Throws ``SecureNodeError/insecureAPIURL(_:)`` for an http URL to a
    /// host that is not loopback, ``SecureNodeError/invalidPinning(_:)`` for
    /// pins a transport of the app's own does not enforce (both before any
    /// file is touched), ``SecureNodeError/noAPIKey`` when no key is given or
    /// stored, and ``SecureNodeError/storageFailed(_:)`` when the files
    /// cannot be opened.
    public init(_ configuration: Configuration) throws(SecureNodeError) {
        guard (try? configuration.connection.validatedBaseURL()) != nil else {
            throw .insecureAPIURL(RedirectPolicy.describe(configuration.connection.baseURL))
        }
        let transport: CertificatePinningTransport
        do {
            transport = try configuration.connection.makeTransport(overSession: { URLSessionTransport(configuration: .init(session: $0)) })
        } catch {
            throw .invalidPinning(error)
        }
        configuration.connection.warnIfUnpinned(
            sdk: "SecureNode", advice: "the labels it syncs are shown on the call screen, so an intercepted sync could name any caller")
        let folder = configuration.folder
        deviceID = configuration.device.deviceID
        let clock = configuration.connection.clock
        self.clock = clock
        let now = clock.now
        self.now = now
        intervals = configuration.connection.intervals
        // Background refresh, ring-time recording and the Call Directory
        // extension read these files while the device may be locked (after
        // its first unlock); none goes into a backup.
        try SecureNodeError.storage("the folder") { try PrivateFile.makeFolder(folder, protection: .background) }
        let keyStore = configuration.keyStore ?? SecretKeyStore.platformDefault(service: "com.securenode.sdk", folder: folder, fileName: "api-key")
        // The first launch after an install deletes the key an earlier install left in the Keychain.
        let marker = InstallationMarker(folder: folder)
        if marker.secretsNeedDeleting(earlierFiles: [folder.appendingPathComponent("branding.sqlite")]), (try? keyStore.deleteKey()) != nil {
            marker.secretsDeleted()
        }
        keys = APIKeyPersistence(keyStore: keyStore, refusalFile: folder.appendingPathComponent("credentials-refused"))
        let (apiKey, refusedWithStatus) = try keys.launchKey(given: configuration.apiKey)
        reloader = configuration.callDirectoryReloader
        ringQuietBound = configuration.ringQuietBound
        managedContacts = configuration.managedContacts
        managedContactsMaximumNumbers = configuration.managedContactsMaximumNumbers
        reloadStateFile = folder.appendingPathComponent("call-directory-reload")
        state = SharedState(
            apiKey: apiKey,
            reloadPolicy: CallDirectoryReloadPolicy(
                minimumInterval: configuration.callDirectoryReloadInterval.totalSeconds, lastReload: Self.loadLastReload(from: reloadStateFile)))
        state.withLock { $0.brandingDisabled = refusedWithStatus != nil }
        let state = self.state
        let calls = CallActivity(clock: clock)
        self.calls = calls
        let mountFile = folder.appendingPathComponent("api-mount")
        var stack = SDKMiddlewareStack(connection: configuration.connection)
        stack.routing = [
            // The spec: `{base}/api/mobile/...` (the contract's mount) first, `{base}/mobile/...` as the
            // fallback; only an answer from the API itself (JSON, not a gateway's 403 or a 5xx) pins one.
            MountDiscoveryMiddleware(
                specPrefix: "/api", mounts: ["/api", ""], operationsAnswering404: ["lookupBranding"],
                known: (try? String(contentsOf: mountFile, encoding: .utf8)).map { $0 == "root" ? "" : $0 },
                onDiscover: { mount in try? Data((mount.isEmpty ? "root" : mount).utf8).write(to: mountFile, options: .atomic) }),
            // The contract lists it on every request, GETs included.
            DefaultHeadersMiddleware([.contentType: "application/json"]),
        ]
        stack.credentials = [
            APIKeyMiddleware { state.withLock { $0.apiKey } },
            // No request of any kind leaves while a call is in progress; the
            // attempt's bound, below, starts once it may go.
            CallQuietMiddleware(calls: calls),
        ]
        stack.knownSecrets = { state.withLock { [$0.apiKey] } }
        // The sync has its own bound, its body included (`TransportTimeouts.whole`).
        stack.attemptDeadlineExemptions = [SecureNodeAPI.Client.Operations.syncBranding.id]
        let middlewares = stack.middlewares()
        let client = SecureNodeAPI.Client(serverURL: configuration.connection.baseURL, transport: transport, middlewares: middlewares)
        assumedFields = AssumedFieldLogging.observe(module: "SecureNodeAPI", logger: configuration.connection.logger)
        // Recorded billing events go out as recorded, the server judging
        // them: a value the spec forbids is refused by the server (400 with
        // its error body: dropped and reported) or accepted, never held back
        // here, where no one could correct it and it would wait for ever.
        let deliveryClient = SecureNodeAPI.Client(
            serverURL: configuration.connection.baseURL, transport: transport, middlewares: middlewares, constraintChecks: [])
        store = try SecureNodeError.storage("the branding dataset") { try BrandingStore(path: folder.appendingPathComponent("branding.sqlite").path) }
        outbox = try SecureNodeError.storage("the billing outbox") { try BillingOutbox(path: folder.appendingPathComponent("outbox.sqlite").path, now: now) }
        let logoFolder = configuration.logoFolder ?? Self.defaultLogoFolder(folder: folder)
        Self.moveLogos(from: folder.appendingPathComponent("SecureNodeBranding", isDirectory: true), to: logoFolder)
        try? PrivateFile.makeFolder(logoFolder, protection: .background)
        logos = LogoCache(
            folder: logoFolder, maximumBytes: configuration.logoCacheBytes, retryBackoff: configuration.logoRetry,
            fetch: LogoCache.waitingForCalls(
                calls,
                configuration.logoFetch ?? LogoCache.verifiedFetch(
                    allowedHost: "assets.securenode.io", maximumBytes: LogoCache.defaultMaximumLogoBytes, pinning: configuration.connection.pinning,
                    logger: configuration.connection.logger)),
            clock: clock)
        callDirectory = CallDirectorySnapshot(folder: folder.appendingPathComponent("CallDirectory", isDirectory: true))
        syncEngine = BrandingSync(
            store: store, client: client, deviceID: configuration.device.deviceID, calls: calls, refusedWithStatus: refusedWithStatus,
            deadline: configuration.connection.timeouts.whole, clock: clock)
        delivery = OutboxDelivery(outbox: outbox, client: deliveryClient, clock: clock)
        let deliveryLoop = BillingDeliveryLoop(delivery: delivery, outbox: outbox, clock: clock, signposts: intervals)
        self.deliveryLoop = deliveryLoop
        device = DeviceLifecycle(
            client: client, profile: configuration.device, stateFile: folder.appendingPathComponent("device.json"),
            heartbeatInterval: configuration.heartbeatInterval, now: now)
        fallback = LookupFallback(store: store, client: client, deviceID: configuration.device.deviceID, now: now)
        refusalWatch = RefusalWatch(backoff: configuration.refusalRecheck, clock: clock, check: RefusalWatch.syncProbe(client: client, deviceID: configuration.device.deviceID, now: now))
        let enabled = Self.brandingEnabled(in: store)
        state.withLock { $0.brandingEnabledByServer = enabled }
        heartbeatInterval = configuration.heartbeatInterval
        if configuration.sendsHeartbeats { startHeartbeats() }
        // Events left by the last launch go out now; connectivity coming
        // back makes the waiting ones due at once (while this instance lives).
        let connectivity = configuration.connection.connectivity
        Task { [weak self] in
            if let connectivity, let self {
                await connectivity.whenOnline(while: self) { [weak deliveryLoop] in await deliveryLoop?.connectivityReturned() }
            }
            await deliveryLoop.kick()
            // Refused at an earlier launch: ask the server again now, not never.
            if refusedWithStatus != nil { await self?.watchRefusal(immediately: true) }
        }
    }

    /// `Library/Caches/SecureNodeBranding/` on Apple platforms (the README's
    /// folder), `<folder>/Caches/SecureNodeBranding/` elsewhere.
    static func defaultLogoFolder(folder: URL) -> URL {
        #if canImport(Darwin)
        if let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first {
            return caches.appendingPathComponent("SecureNodeBranding", isDirectory: true)
        }
        #endif
        return folder.appendingPathComponent("Caches", isDirectory: true).appendingPathComponent("SecureNodeBranding", isDirectory: true)
    }

    /// Logos an earlier version kept beside the dataset move to the cache
    /// folder (or go, when it already has logos: they are only a cache).
    static func moveLogos(from old: URL, to new: URL) {
        guard old.standardizedFileURL != new.standardizedFileURL, FileManager.default.fileExists(atPath: old.path) else { return }
        try? FileManager.default.createDirectory(at: new.deletingLastPathComponent(), withIntermediateDirectories: true)
        if (try? FileManager.default.moveItem(at: old, to: new)) == nil { try? FileManager.default.removeItem(at: old) }
    }

    /// Starts the presence heartbeat loop (every ``Configuration/heartbeatInterval``,
    /// as the iOS SDK does from `init`) unless it runs; it ends when the SDK
    /// is released.
    package func startHeartbeats() {
        heartbeats.withLock { task in
            guard task == nil else { return }
            // Holds the lifecycle actor, not the facade: the loop ends when
            // the facade is released (deinit cancels it).
            let device = self.device
            let interval = heartbeatInterval
            let clock = self.clock
            task = Task {
                while !Task.isCancelled {
                    _ = try? await device.heartbeat()
                    try? await clock.sleep(interval)
                }
            }
        }
    }

    /// The last Call Directory reload an earlier launch recorded (`version`
    /// on the first line, the time on the second), so a cold launch does
    /// not reload unchanged data.
    static func loadLastReload(from file: URL) -> (version: String, at: Date)? {
        guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n").map(String.init)
        guard lines.count == 2, let seconds = TimeInterval(lines[1]) else { return nil }
        return (lines[0], Date(timeIntervalSince1970: seconds))
    }

    deinit {
        heartbeats.withLock { $0 }?.cancel()
        let deliveryLoop = self.deliveryLoop
        Task { await deliveryLoop.stop() }
    }
}

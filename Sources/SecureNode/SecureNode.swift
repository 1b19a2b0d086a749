import BrandingStore
import ClientRuntime
import Foundation
import OpenAPIRuntime
import Resilience
import SecureNodeAPI

/// The SecureNode SDK: caller branding resolved locally at ring time, a
/// dataset kept in step with the server, and billing events that are never
/// lost and never billed twice.
///
/// ```swift
/// let secureNode = try SecureNode(.init(
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
public final class SecureNode: Sendable {
    /// What the SDK needs to start.
    public struct Configuration: Sendable {
        /// The API's base URL (`https://api.securenode.io` by default).
        public var apiURL: URL
        /// The API key sent as `X-API-Key`.
        public var apiKey: String
        /// Where the SDK keeps its files (an app-group container on iOS, so
        /// the Call Directory extension can read the snapshot).
        public var folder: URL
        /// This install.
        public var device: DeviceProfile
        /// How requests are sent (`URLSessionTransport()` in apps).
        public var transport: any ClientTransport
        /// Time between presence heartbeats (5 minutes).
        public var heartbeatInterval: Duration
        /// Shortest time between two Call Directory reloads (15 minutes).
        public var callDirectoryReloadInterval: TimeInterval
        /// How logos are downloaded (URLSession when nil).
        public var logoFetch: LogoCache.Fetch?
        /// The most bytes the logo cache may hold (20 MiB).
        public var logoCacheBytes: Int
        /// Whether the SDK sends presence heartbeats on its own while it is
        /// alive (every `heartbeatInterval`, as the iOS SDK does from `init`);
        /// off, the host calls ``SecureNode/heartbeatIfDue()`` itself.
        public var sendsHeartbeats: Bool

        /// Creates a configuration.
        public init(
            apiURL: URL = SecureNodeAPI.Client.Server.production.url, apiKey: String, folder: URL, device: DeviceProfile,
            transport: any ClientTransport, heartbeatInterval: Duration = .seconds(300), callDirectoryReloadInterval: TimeInterval = 15 * 60,
            logoFetch: LogoCache.Fetch? = nil, logoCacheBytes: Int = 20 << 20, sendsHeartbeats: Bool = true
        ) {
            self.logoFetch = logoFetch
            self.logoCacheBytes = logoCacheBytes
            self.sendsHeartbeats = sendsHeartbeats
            self.apiURL = apiURL
            self.apiKey = apiKey
            self.folder = folder
            self.device = device
            self.transport = transport
            self.heartbeatInterval = heartbeatInterval
            self.callDirectoryReloadInterval = callDirectoryReloadInterval
        }
    }

    /// The local branding dataset.
    public let store: BrandingStore
    /// Billing events waiting for delivery.
    public let outbox: BillingOutbox
    /// Brand logos on disk.
    public let logos: LogoCache
    /// Calls in progress, as the host app reports them.
    public let calls: CallActivity
    /// The Call Directory snapshot the iOS extension reads.
    public let callDirectory: CallDirectorySnapshot
    private let syncEngine: BrandingSync
    private let delivery: OutboxDelivery
    private let device: DeviceLifecycle
    private let fallback: LookupFallback
    private let state: SharedState
    private let deviceID: String
    private let heartbeats: Task<Void, Never>?

    /// Opens (or creates) the SDK's files under `configuration.folder`.
    public init(_ configuration: Configuration) throws {
        let folder = configuration.folder
        deviceID = configuration.device.deviceID
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        state = SharedState(apiKey: configuration.apiKey, reloadPolicy: CallDirectoryReloadPolicy(minimumInterval: configuration.callDirectoryReloadInterval))
        let state = self.state
        let mountFile = folder.appendingPathComponent("api-mount")
        let middlewares: [any ClientMiddleware] = [
            // The README: `{base}/mobile/...` first, `{base}/api/mobile/...` as the fallback.
            MountDiscoveryMiddleware(
                specPrefix: "/api", mounts: ["", "/api"], operationsAnswering404: ["lookupBranding"],
                known: (try? String(contentsOf: mountFile, encoding: .utf8)).map { $0 == "root" ? "" : $0 },
                onDiscover: { mount in try? Data((mount.isEmpty ? "root" : mount).utf8).write(to: mountFile, options: .atomic) }),
            // The contract lists it on every request, GETs included.
            DefaultHeadersMiddleware([.contentType: "application/json"]),
            APIKeyMiddleware { state.withLock { $0.apiKey } },
        ]
        let client = SecureNodeAPI.Client(serverURL: configuration.apiURL, transport: configuration.transport, middlewares: middlewares)
        // Recorded billing events go out as recorded, the server judging
        // them: a value the spec forbids is refused by the server (400 with
        // its error body: dropped and reported) or accepted, never held back
        // here, where no one could correct it and it would wait for ever.
        let deliveryClient = SecureNodeAPI.Client(
            serverURL: configuration.apiURL, transport: configuration.transport, middlewares: middlewares, constraintChecks: [])
        store = try BrandingStore(path: folder.appendingPathComponent("branding.sqlite").path)
        outbox = try BillingOutbox(path: folder.appendingPathComponent("outbox.sqlite").path)
        logos = LogoCache(
            folder: folder.appendingPathComponent("SecureNodeBranding", isDirectory: true), maximumBytes: configuration.logoCacheBytes,
            fetch: configuration.logoFetch)
        calls = CallActivity()
        callDirectory = CallDirectorySnapshot(folder: folder.appendingPathComponent("CallDirectory", isDirectory: true))
        syncEngine = BrandingSync(store: store, client: client, deviceID: configuration.device.deviceID, calls: calls)
        delivery = OutboxDelivery(outbox: outbox, client: deliveryClient)
        device = DeviceLifecycle(
            client: client, profile: configuration.device, stateFile: folder.appendingPathComponent("device.json"),
            heartbeatInterval: configuration.heartbeatInterval)
        fallback = LookupFallback(store: store, client: client, deviceID: configuration.device.deviceID)
        let enabled = Self.brandingEnabled(in: store)
        state.withLock { $0.brandingEnabledByServer = enabled }
        if configuration.sendsHeartbeats {
            // Holds the lifecycle actor, not the facade: the loop ends when
            // the facade is released (deinit cancels it).
            let device = self.device
            let interval = configuration.heartbeatInterval
            heartbeats = Task {
                while !Task.isCancelled {
                    _ = try? await device.heartbeat()
                    try? await Task.sleep(for: interval)
                }
            }
        } else {
            heartbeats = nil
        }
    }

    deinit {
        heartbeats?.cancel()
    }

    // MARK: Configuration

    /// New credentials: later requests send `apiKey`, branding turned off
    /// by a 401/403 is on again, and billing delivery paused by one resumes.
    public func configure(apiKey: String) async {
        state.withLock { values in
            values.apiKey = apiKey
            values.brandingDisabled = false
        }
        await syncEngine.reenable()
        await delivery.resume()
        let delivery = self.delivery
        Task { _ = try? await delivery.deliverDue() }
    }

    // MARK: Sync

    /// The app-launch flow: register or update the device, sync the
    /// branding dataset, then (after a successful sync) send a presence
    /// heartbeat, fetch new logos and deliver pending events. Returns the
    /// sync's status; never throws.
    @discardableResult
    public func sync() async -> BrandingSyncStatus {
        _ = try? await device.registerOrUpdate()
        let status = await syncEngine.sync()
        // The engine keeps a 401 to replaced credentials from disabling the
        // new ones; its status is what holds.
        if await syncEngine.status.isDisabled { state.withLock { $0.brandingDisabled = true } }
        if case .upToDate(let at, _, let outcome) = status {
            let enabled = Self.brandingEnabled(in: store)
            state.withLock { $0.brandingEnabledByServer = enabled }
            _ = try? await device.heartbeat(lastSyncedAt: at, force: true)
            // Logos of purged or changed records go; new ones can only come with stored records.
            if outcome.stored > 0 || outcome.deleted > 0, let urls = try? store.logoURLs() {
                logos.removeLogos(except: urls)
                if outcome.stored > 0 { await logos.prefetch(urls) }
            }
        }
        _ = try? await delivery.deliverDue()
        return status
    }

    /// The last sync's status.
    public func syncStatus() async -> BrandingSyncStatus { await syncEngine.status }

    /// Every sync status change, starting with the current one.
    public func syncStatusUpdates() async -> AsyncStream<BrandingSyncStatus> { await syncEngine.statusUpdates() }

    /// A presence heartbeat if 5 minutes have passed since the last one
    /// (call from a timer or background task); returns whether one was sent.
    @discardableResult
    public func heartbeatIfDue() async -> Bool {
        (try? await device.heartbeat()) ?? false
    }

    /// The server config stored with the last sync.
    private static func serverConfig(in store: BrandingStore) -> BrandingConfig? {
        ((try? store.config()) ?? nil).flatMap { try? JSONCoding.makeDecoder().decode(BrandingConfig.self, from: Data($0.utf8)) }
    }

    /// Whether the last config leaves branding on (`branding_enabled` absent or true).
    private static func brandingEnabled(in store: BrandingStore) -> Bool {
        serverConfig(in: store)?.brandingEnabled ?? true
    }

    /// Uploads debug logs when the server's last config enables it.
    @discardableResult
    public func uploadDebugLogs(_ logs: [DebugLogEntry], context: [String: JSONValue]? = nil) async -> Bool {
        (try? await device.uploadDebugLogs(logs, context: context, config: Self.serverConfig(in: store))) ?? false
    }

    // MARK: Ring time

    /// The branding for an incoming number, from the local dataset only:
    /// synchronous, no network, safe on any thread. A miss schedules the
    /// server lookup in the background so the next call from the number
    /// resolves; nil while branding is disabled (a 401/403, or the server's
    /// config saying `branding_enabled: false`).
    public func lookup(e164: String) -> StoredBrandingRecord? {
        guard state.withLock({ !$0.brandingDisabled && $0.brandingEnabledByServer }) else { return nil }
        if let record = store.lookup(e164: e164) { return record }
        fallback.schedule(e164: e164)
        return nil
    }

    /// The cached logo for a record, from disk only.
    public func cachedLogo(for record: StoredBrandingRecord) -> Data? {
        record.logoURL.flatMap(logos.cachedLogo(for:))
    }

    /// Removes every cached logo.
    public func clearImageCache() throws { try logos.clear() }

    /// Writes the Call Directory snapshot when the dataset changed, and calls
    /// `reload` (the host's `CXCallDirectoryManager.reloadExtension`) when
    /// the snapshot changed and the last reload is old enough. Returns
    /// whether it reloaded. When `reload` throws, the snapshot iOS last
    /// loaded is put back (the extension keeps serving what the phone
    /// shows) and the error is rethrown; the next call exports and tries again.
    @discardableResult
    public func reloadCallDirectoryIfNeeded(now: Date = Date(), reload: () throws -> Void) throws -> Bool {
        guard let version = try callDirectoryVersionToReload(now: now) else { return false }
        do {
            try reload()
        } catch {
            rollBackCallDirectory()
            throw error
        }
        try callDirectoryDidReload(version: version, at: now)
        return true
    }

    /// ``reloadCallDirectoryIfNeeded(now:reload:)`` for an asynchronous
    /// reload (`try await CXCallDirectoryManager.sharedInstance.reloadExtension(withIdentifier:)`).
    @discardableResult
    public func reloadCallDirectoryIfNeeded(now: Date = Date(), reload: () async throws -> Void) async throws -> Bool {
        guard let version = try callDirectoryVersionToReload(now: now) else { return false }
        do {
            try await reload()
        } catch {
            rollBackCallDirectory()
            throw error
        }
        try callDirectoryDidReload(version: version, at: now)
        return true
    }

    /// Exports the snapshot if the dataset changed since the last export;
    /// the version to reload, or nil when no reload is due.
    private func callDirectoryVersionToReload(now: Date) throws -> String? {
        let generation = try state.exportLock.withLock {
            let generation = store.syncGeneration
            if state.withLock({ $0.exportedGeneration }) != generation {
                try callDirectory.export(from: store)
                state.withLock { $0.exportedGeneration = generation }
            }
            return generation
        }
        let version = String(generation)
        return state.withLock({ $0.reloadPolicy.shouldReload(version: version, now: now) }) ? version : nil
    }

    private func callDirectoryDidReload(version: String, at now: Date) throws {
        try callDirectory.didReload()
        state.withLock { $0.reloadPolicy.didReload(version: version, at: now) }
    }

    /// A reload failed: the snapshot iOS last loaded becomes current again,
    /// and the next reload exports anew.
    private func rollBackCallDirectory() {
        state.exportLock.withLock {
            _ = try? callDirectory.rollbackToLastReload()
            state.withLock { $0.exportedGeneration = nil }
        }
    }

    // MARK: Billing events

    /// The assisted incoming-call path (the README's `assistIncomingCall`):
    /// looks the number up locally (no network, as ``lookup(e164:)``) and,
    /// when branding applies, records an imprint (`POST /branding/imprint`,
    /// billable, delivered in the background) and returns what to show. Nil
    /// when nothing applies (no record, branding off): nothing is billed.
    public func assistIncomingCall(phoneNumberE164: String, surface: String = "incoming_call") -> AssistedCall? {
        guard let record = lookup(e164: phoneNumberE164) else { return nil }
        let key = recordImprint(phoneNumberE164: record.e164, brandID: record.brandID.isEmpty ? nil : record.brandID, surface: surface)
        return AssistedCall(record: record, logo: cachedLogo(for: record), imprintKey: key)
    }

    /// Records a call event with every field the README names (`POST
    /// /branding/event`): the outcome the app observed (the SDK derives
    /// none), whether branding was applied, with which profile and identity
    /// type, durations and numbers. Written to the outbox and delivered in
    /// the background; returns the event's key, which later events take as
    /// `callEventKey` (sent as `meta.call_event_id` once the server has
    /// answered with the event's id).
    @discardableResult
    public func recordCallEvent(
        phoneNumberE164: String, callOutcome: CallOutcome, brandingApplied: Bool, identityType: IdentityType? = nil,
        brandingProfileID: String? = nil, ringDurationSeconds: Int? = nil, callDurationSeconds: Int? = nil, callerNumberE164: String? = nil,
        destinationNumberE164: String? = nil, observedAt: Date = Date(), surface: String = "incoming_call", callEventKey: String? = nil
    ) -> String? {
        recordEvent(phoneNumberE164: phoneNumberE164, outcome: callOutcome.rawValue.lowercased(), surface: surface, meta: EventMeta(
            callerNumberE164: callerNumberE164, destinationNumberE164: destinationNumberE164, observedAtUTC: observedAt,
            brandingApplied: brandingApplied, brandingProfileID: brandingProfileID, identityType: identityType?.rawValue,
            ringDurationSeconds: ringDurationSeconds.map(Int32.init(clamping:)), callDurationSeconds: callDurationSeconds.map(Int32.init(clamping:)),
            callOutcome: callOutcome.rawValue), refersTo: callEventKey)
    }

    /// Records that branding was shown on an incoming call (the README's
    /// `recordCallSeen`): ``recordCallEvent(phoneNumberE164:callOutcome:brandingApplied:identityType:brandingProfileID:ringDurationSeconds:callDurationSeconds:callerNumberE164:destinationNumberE164:observedAt:surface:callEventKey:)``
    /// with the common fields. Returns the event's key, which
    /// ``recordCallReturned(phoneNumberE164:callEventKey:returnCallLatencySeconds:)``
    /// takes to attribute a return call.
    @discardableResult
    public func recordCallSeen(
        phoneNumberE164: String, brandingDisplayed: Bool, callOutcome: CallOutcome, ringDurationSeconds: Int? = nil,
        callDurationSeconds: Int? = nil, callerNumberE164: String? = nil, destinationNumberE164: String? = nil, surface: String = "incoming_call"
    ) -> String? {
        recordCallEvent(
            phoneNumberE164: phoneNumberE164, callOutcome: callOutcome, brandingApplied: brandingDisplayed, ringDurationSeconds: ringDurationSeconds,
            callDurationSeconds: callDurationSeconds, callerNumberE164: callerNumberE164, destinationNumberE164: destinationNumberE164, surface: surface)
    }

    /// Records a missed call.
    @discardableResult
    public func recordMissedCall(phoneNumberE164: String, brandingDisplayed: Bool, ringDurationSeconds: Int? = nil) -> String? {
        recordCallSeen(phoneNumberE164: phoneNumberE164, brandingDisplayed: brandingDisplayed, callOutcome: .missed, ringDurationSeconds: ringDurationSeconds)
    }

    /// Records that the user called a branded number back; sent with the
    /// earlier event's server id (`meta.call_event_id`) once it is known.
    @discardableResult
    public func recordCallReturned(phoneNumberE164: String, callEventKey: String?, returnCallLatencySeconds: Int? = nil) -> String? {
        recordEvent(phoneNumberE164: phoneNumberE164, outcome: "returned", surface: "outgoing_call", meta: EventMeta(
            observedAtUTC: Date(), returnCallDetected: true, returnCallLatencySeconds: returnCallLatencySeconds.map(Int32.init(clamping:))),
            refersTo: callEventKey)
    }

    /// Records an imprint (branding applied to a call; `POST
    /// /branding/imprint`). Returns the event key.
    @discardableResult
    public func recordImprint(phoneNumberE164: String, brandID: String?, surface: String = "incoming_call") -> String? {
        let key = BillingOutbox.makeEventKey()
        let imprint = ImprintRequest(
            phoneNumberE164: phoneNumberE164, eventKey: key, brandID: brandID, deviceID: deviceID, displayedAt: Date(),
            outcome: "displayed", surface: surface)
        return recorded { try outbox.record(imprint) }
    }

    private func recordEvent(phoneNumberE164: String, outcome: String, surface: String, meta: EventMeta, refersTo: String? = nil) -> String? {
        let event = UsageEventRequest(
            phoneNumberE164: phoneNumberE164, outcome: outcome, surface: surface, displayedAt: Date(), deviceID: deviceID, meta: meta)
        return recorded { try outbox.record(event, refersTo: refersTo) }
    }

    /// Runs a recording, then starts a delivery pass in the background.
    private func recorded(_ write: () throws -> String) -> String? {
        guard let key = try? write() else { return nil }
        let delivery = self.delivery
        Task { _ = try? await delivery.deliverDue() }
        return key
    }

    /// Delivers every pending event, waiting out backoff (a background
    /// task's flush); returns when the outbox is empty, the task is
    /// cancelled, or the server refused the credentials (delivery paused).
    public func deliverPendingEvents() async {
        try? await delivery.deliverUntilEmpty()
    }

    /// Resumes billing delivery paused by a 401/403 without new credentials
    /// (the app knows the refusal was temporary). ``configure(apiKey:)``
    /// resumes it too.
    public func resumeBillingDelivery() async {
        await delivery.resume()
        _ = try? await delivery.deliverDue()
    }

    /// The status that paused billing delivery (401 or 403), nil while it runs.
    public func billingPausedForStatus() async -> Int? { await delivery.pausedForStatus }

    /// Every billing pause, resume and dropped event from now on (each drop
    /// is also in `outbox.counts().dropped`).
    public func billingNotices() async -> AsyncStream<BillingNotice> { await delivery.notices() }
}

/// The facade's small mutable state, shared with the API-key middleware.
final class SharedState: @unchecked Sendable {
    // `@unchecked Sendable` is safe: `values` is read and written only inside
    // `withLock`, which holds `lock` for the whole access; `exportLock` only
    // serializes Call Directory exports and guards no memory of its own.
    struct Values {
        var apiKey: String
        var brandingDisabled = false
        /// The server's `config.branding_enabled` from the last sync (true when absent).
        var brandingEnabledByServer = true
        var exportedGeneration: UInt64?
        var reloadPolicy: CallDirectoryReloadPolicy
    }

    private let lock = NSLock()
    private var values: Values
    /// Held while a Call Directory snapshot is written: one export at a time.
    let exportLock = NSLock()

    init(apiKey: String, reloadPolicy: CallDirectoryReloadPolicy) {
        values = Values(apiKey: apiKey, reloadPolicy: reloadPolicy)
    }

    func withLock<Result>(_ body: (inout Values) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&values)
    }
}

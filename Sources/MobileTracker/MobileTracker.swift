import ClientRuntime
import Foundation
import Logging
import MobileTrackerAPI
import OpenAPIRuntime
import OpenAPIURLSession
import Resilience
import RuntimeSupport
import SDKCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The MobileTracker SDK: sessions, dual storage and an event queue that
/// loses nothing, as the MobileTracker document describes for iOS, with a
/// durable queue where the document's is in memory only.
///
/// ```swift
/// try await MobileTracker.shared.initialize(brandId: "925", config: TrackerConfig(
///     apiUrl: "https://api.example.com", xApiKey: key))
/// await MobileTracker.shared.track(eventName: "PURCHASE", attributes: ["order_id": "ORD-789", "total": 149.99])
/// await MobileTracker.shared.identify(userId: "user123", profileData: ["email": "user@example.com"])
/// await MobileTracker.shared.screen(name: "ProductDetails")
/// ```
///
/// Guarantees:
/// - Every call is safe from any thread or task; only ``initialize(brandId:config:)``
///   throws. Other failures are logged (`debug` in the configuration turns
///   the log on) and the tracker carries on.
/// - A tracked event, profile or location update is in the on-disk queue
///   before the call returns, and leaves it only once the server accepted it
///   (or refused it with a 4xx other than 408 and 429, which is counted).
///   Calls made before the session is ready wait in the same queue and are
///   sent, in order, once it is.
/// - Delivery keeps the order calls were made in, retries 5xx, 408, 429
///   (after `Retry-After`) and network failures with backoff, pauses while
///   the app reports offline, and resumes on connectivity or at launch.
public final class MobileTracker: ScreenViewReporting, Sendable {
    /// Where and how the tracker keeps its state; the defaults suit an app.
    public struct Options: Sendable {
        /// How the SDK reaches its server: the family's one connection type.
        /// What the SDK reads of it:
        ///
        /// - `transport`: How requests are sent (when nil: a URLSession transport whose
        ///   session has no URL cache, checking `pinning`). With pins, a
        ///   transport of the app's own must enforce them (a
        ///   `PinEnforcingTransport` that says so), or `initialize` refuses
        ///   the configuration.
        /// - `pinning`: Public-key pins of the backend's hosts (`CertificatePinning`: at
        ///   least two per host), checked after the system's own trust
        ///   evaluation on every connection. A connection that fails them, a
        ///   certificate the system refuses, or a redirect to another host is
        ///   ``TrackerError/networkError(underlying:)`` with a
        ///   `CertificatePinningError` underneath (``TrackerError/connectionRefusal``),
        ///   with nothing sent.
        ///   Default: nothing pinned.
        /// - `connectivity`: The device's connectivity. Default: the system's
        ///   (`Connectivity.systemDefault()`); delivery waits while a reported
        ///   signal says offline. Nil: no signal.
        /// - `logger`: Where logs go (only when the configuration says `debug`).
        /// - `timeouts`: The bounds of one request (`TransportTimeouts`, the family's one
        ///   type): URLSession's idle and resource timeouts, and the whole
        ///   attempt within connect + read (15 s by default); with the
        ///   tracker's own transport on Linux, the connection within connect.
        ///   An attempt that outlasts them fails as the network's failure and
        ///   the event stays queued; at `initialize`, before
        ///   ``initializationTimeout`` when that is longer. Default: connect
        ///   5 s, read 10 s, the other SDKs' values.
        public var connection: ConnectionConfiguration
        /// The folder for the queue and the backup files (Application Support).
        public var folder: URL
        /// The primary key-value store (UserDefaults on Apple platforms, in
        /// memory elsewhere unless the app supplies one).
        public var primaryStore: any TrackerKeyValueStore
        /// The most rows the queue keeps before dropping the oldest. Default 10,000.
        public var maximumQueuedItems: Int
        /// The most payload bytes the queue keeps before dropping the oldest. Default 10 MiB.
        public var maximumQueuedBytes: Int
        /// The operating system's name sent with a new session.
        public var osName: String
        /// The device type sent with a new session.
        public var deviceType: String
        /// The waits between delivery attempts of a row that failed
        /// (default: full jitter from 0.5 s, doubling, at most 5 minutes).
        public var deliveryBackoff: BackoffPolicy
        /// Whether ``MobileTracker/initialize(brandId:config:)`` starts
        /// automatic `VIEW_PAGE` events for UIKit view controllers and
        /// SwiftUI screens, and tracks the screen already showing as the
        /// initial page view (default true; only where UIKit exists,
        /// elsewhere ignored).
        public var tracksScreensAutomatically: Bool
        /// Whether a SwiftUI screen whose root view is type-erased (a tab, a
        /// navigation destination) is named by its navigation title
        /// (`.navigationTitle`). Default true. A title that shows the user's
        /// data (a merchant, a contact) would become a screen name: give such
        /// screens a fixed title, or turn this off and name them with
        /// `.trackedScreen(_:in:)`.
        public var namesScreensByNavigationTitle: Bool
        /// Whether the tracker sends the device's location after it creates
        /// a session, as the reference says ("Update Session Location ...
        /// Called: After session creation if location permissions are
        /// granted"): one reading from ``locationSource``, only when the app
        /// already holds location permission (the tracker never asks for
        /// it). Default true; false sends no location unless the app calls
        /// ``MobileTracker/updateLocation(_:)``.
        public var tracksLocationAutomatically: Bool
        /// Where that reading comes from. Default: Core Location on Apple
        /// platforms (`CoreLocationManager`, an adapter, read by a
        /// ``DeviceLocationReader``), none elsewhere.
        public var locationSource: (any LocationSource)?
        /// The longest ``MobileTracker/initialize(brandId:config:)`` waits
        /// for the session (the document's 30 s), whatever the server does:
        /// past it the call fails with `sessionCreationFailed` naming the
        /// time it really waited.
        public var initializationTimeout: Duration

        /// The wall clock (the stored values' expiry, `cookieExpiration`, and
        /// `Retry-After` dates): the connection's one clock.
        var now: @Sendable () -> Date { connection.clock.now }

        /// Creates options.
        public init(
            folder: URL? = nil, primaryStore: (any TrackerKeyValueStore)? = nil, transport: (any ClientTransport)? = nil,
            connectivity: Connectivity? = .systemDefault(), logger: Logger = .sdkDefault(subsystem: "OpenAPIMobileClients.MobileTracker"), maximumQueuedItems: Int = 10_000,
            maximumQueuedBytes: Int = 10 << 20, osName: String = Options.currentOSName, deviceType: String = "Mobile",
            deliveryBackoff: BackoffPolicy = BackoffPolicy(baseDelay: .milliseconds(500), maximumDelay: .seconds(300)),
            tracksScreensAutomatically: Bool = true, initializationTimeout: Duration = .seconds(30), pinning: CertificatePinning = .none,
            namesScreensByNavigationTitle: Bool = true, tracksLocationAutomatically: Bool = true, locationSource: (any LocationSource)? = nil,
            timeouts: TransportTimeouts = TransportTimeouts()
        ) {
            connection = ConnectionConfiguration(
                baseURL: MobileTrackerAPI.Client.Server.allCases[0].url, transport: transport, pinning: pinning, timeouts: timeouts, logger: logger,
                connectivity: connectivity)
            self.namesScreensByNavigationTitle = namesScreensByNavigationTitle
            self.tracksLocationAutomatically = tracksLocationAutomatically
            #if canImport(CoreLocation) && !os(watchOS)
            self.locationSource = locationSource ?? DeviceLocationReader { CoreLocationManager() }
            #else
            self.locationSource = locationSource
            #endif
            self.initializationTimeout = initializationTimeout
            self.tracksScreensAutomatically = tracksScreensAutomatically
            self.deliveryBackoff = deliveryBackoff
            self.folder = folder ?? PrivateFile.applicationSupportFolder.appendingPathComponent("MobileTracker", isDirectory: true)
            #if canImport(Darwin)
            self.primaryStore = primaryStore ?? UserDefaultsStore()
            #else
            self.primaryStore = primaryStore ?? InMemoryKeyValueStore()
            #endif
            self.maximumQueuedItems = maximumQueuedItems
            self.maximumQueuedBytes = maximumQueuedBytes
            self.osName = osName
            self.deviceType = deviceType
        }

        /// `iOS`, `macOS`, `tvOS`, `watchOS`, `visionOS` or `Linux`.
        public static var currentOSName: String {
            #if os(iOS)
            return "iOS"
            #elseif os(macOS)
            return "macOS"
            #elseif os(tvOS)
            return "tvOS"
            #elseif os(watchOS)
            return "watchOS"
            #elseif os(visionOS)
            return "visionOS"
            #else
            return "Linux"
            #endif
        }
    }

    /// The tracker apps use, created on its first use with ``sharedOptions``.
    public static let shared = MobileTracker(options: sharedOptionsStorage.read())

    /// The options ``shared`` is created with: set them before its first use
    /// (a transport or folder of the app's own, tests); the defaults otherwise.
    public static var sharedOptions: Options {
        get { sharedOptionsStorage.read() }
        set { sharedOptionsStorage.withLock { $0 = newValue } }
    }

    private static let sharedOptionsStorage = Locked(Options())

    private let core: TrackerCore
    private let resets = OrderedResets()
    private let tracksScreensAutomatically: Bool
    private let namesScreensByNavigationTitle: Bool

    /// A tracker with its own options (tests, several brands, app extensions).
    public init(options: Options = Options()) {
        core = TrackerCore(options: options)
        tracksScreensAutomatically = options.tracksScreensAutomatically
        namesScreensByNavigationTitle = options.namesScreensByNavigationTitle
    }

    /// Validates `brandId` (non-empty, numeric) and `config` (an https
    /// `apiUrl`, used without a trailing slash, which is logged as a
    /// warning; an `xApiKey`; `cookieExpiration` > 0), then restores the
    /// stored session or creates one with `POST /v2/tracking-session`.
    /// Returns at once when already initialized; a call made while another
    /// is in progress waits for it (30 s at most). Where UIKit exists it
    /// also starts automatic screen tracking (see
    /// ``Options/tracksScreensAutomatically``); after creating a session it
    /// sends the device's location when the app holds the permission (see
    /// ``Options/tracksLocationAutomatically``).
    public func initialize(brandId: String, config: TrackerConfig?) async throws(TrackerError) {
        await resets.settled()
        _ = try TrackerCore.validate(brandID: brandId, config: config)
        #if canImport(UIKit) && !os(watchOS)
        // Before the session exists, so the first screen is not missed: its
        // event waits in the queue with the other early calls.
        if tracksScreensAutomatically {
            await AutomaticScreenTracking.shared.install(
                for: self, usesTitles: namesScreensByNavigationTitle, hook: ViewAppearanceHook.install, visible: ViewAppearanceHook.visibleScreen)
        }
        #endif
        try await core.initialize(brandID: brandId, config: config)
    }

    #if compiler(>=6.2)
    /// Queues an event (`POST /v2/tracking-session-data`); `attributes`,
    /// the session's metadata and `metadata` are merged into its `data`.
    /// A value JSON cannot carry is logged as `serializationFailed` and
    /// nothing is queued. Once a session exists this runs on the caller's
    /// executor without a hop: the event is encoded and written to the
    /// queue's journal (one `write(2)`) before it returns.
    nonisolated(nonsending)
    public func track(eventName: String, attributes: [String: Any]? = nil, metadata: [String: Any]? = nil) async {
        // After a reset, the event waits for it (the fast path only runs with none pending).
        if resets.isPending { await resets.settled() }
        guard let data = eventData(attributes, metadata), !core.trackNow(eventName: eventName, data: data) else { return }
        await core.track(eventName: eventName, data: data)
    }
    #else
    /// Queues an event (`POST /v2/tracking-session-data`); `attributes`,
    /// the session's metadata and `metadata` are merged into its `data`.
    /// A value JSON cannot carry is logged as `serializationFailed` and
    /// nothing is queued.
    public func track(eventName: String, attributes: [String: Any]? = nil, metadata: [String: Any]? = nil) async {
        // After a reset, the event waits for it (the fast path only runs with none pending).
        if resets.isPending { await resets.settled() }
        guard let data = eventData(attributes, metadata), !core.trackNow(eventName: eventName, data: data) else { return }
        await core.track(eventName: eventName, data: data)
    }
    #endif

    /// An event's `data` from the app's values; nil (logged) when JSON
    /// cannot carry one of them.
    private func eventData(_ attributes: [String: Any]?, _ metadata: [String: Any]?) -> [String: JSONValue]? {
        do {
            return try JSONConversion.object(attributes ?? [:], path: "attributes")
                .merging(try JSONConversion.object(metadata ?? [:], path: "metadata")) { $1 }
        } catch {
            core.log(error)
            return nil
        }
    }

    /// Associates `userId` with the session and updates the profile
    /// (`PUT /v1/customer-profiles/set`).
    public func identify(userId: String, profileData: [String: Any]? = nil) async {
        await resets.settled()
        do {
            let profile = try JSONConversion.object(profileData ?? [:], path: "profileData")
            await core.updateProfile(profile, userID: userId)
        } catch {
            core.log(error)
        }
    }

    /// Updates the profile (`PUT /v1/customer-profiles/set`) with the
    /// reference's `UpdateProfileData`: its profile fields, its `metadata`,
    /// and its `userId` (when it differs from the identified user, the
    /// session is linked to that user first, as ``identify(userId:profileData:)``
    /// does). What ``identify(userId:profileData:)`` and ``set(profileData:)``
    /// call, for an app that has the fields typed.
    public func updateProfile(_ data: UpdateProfileData) async {
        await resets.settled()
        await core.updateProfile(data)
    }

    /// Updates the profile without changing the user id.
    public func set(profileData: [String: Any]) async {
        await resets.settled()
        do {
            await core.updateProfile(try JSONConversion.object(profileData, path: "profileData"), userID: nil)
        } catch {
            core.log(error)
        }
    }

    /// Session metadata: sent with the profile now and merged into every
    /// later event of this session. Before ``initialize(brandId:config:)``
    /// (no session, no user) it is not set, and an error is logged.
    public func setMetadata(_ metadata: [String: Any]) async {
        await resets.settled()
        do {
            await core.setMetadata(try JSONConversion.object(metadata, path: "metadata"))
        } catch {
            core.log(error)
        }
    }

    /// The session's location (`PUT /v2/tracking-session/{id}/location`).
    public func updateLocation(latitude: Double, longitude: Double, accuracy: Double) async {
        await resets.settled()
        await core.updateLocation(LocationUpdateRequest(latitude: latitude, longitude: longitude, accuracy: accuracy))
    }

    /// The session's location, as the reference's `LocationData`.
    public func updateLocation(_ location: LocationData) async {
        await updateLocation(latitude: location.latitude, longitude: location.longitude, accuracy: location.accuracy)
    }

    /// Waits for the automatic location reading after the last session
    /// creation, if one runs (tests).
    func automaticLocationSettled() async {
        await resets.settled()
        await core.automaticLocationSettled()
    }

    /// Reports a screen view from a SwiftUI view's appearance
    /// (`.trackedScreen(_:in:)`): ``screen(name:properties:)`` in the background.
    public func reportScreenView(_ name: String) {
        Task { await self.screen(name: name) }
    }

    /// A screen view: a `VIEW_PAGE` event with `screen: name` and
    /// `properties`; the same screen twice in a row is tracked once. For
    /// SwiftUI (`.onAppear { Task { await tracker.screen(name: "Cart") } }`)
    /// and UIKit apps.
    public func screen(name: String, properties: [String: Any]? = nil) async {
        await resets.settled()
        guard await core.isNewScreen(name) else { return }
        await track(eventName: "VIEW_PAGE", attributes: (properties ?? [:]).merging(["screen": name]) { $1 })
    }

    /// Clears the stored session, identity and email (and the brand id when
    /// `all`) from both stores and starts a new session. Events already
    /// queued are still delivered, with the session they were tracked in.
    ///
    /// Synchronous, as the reference declares it (`MobileTracker.shared.reset(all: false)`):
    /// it starts the reset and returns; the tracker's later calls wait for
    /// it, in order, so what they record belongs to the new session. A
    /// caller that awaited it before still compiles (with a warning).
    public func reset(all: Bool = false) {
        let core = self.core
        resets.start { await core.reset(all: all) }
    }

    /// Waits until every queued row is delivered (or `timeout` passes);
    /// true when the queue is empty.
    @discardableResult
    public func flush(timeout: Duration = .seconds(30)) async -> Bool {
        await resets.settled()
        return await core.flush(timeout: timeout)
    }

    /// The queue's counters: pending, delivered, dropped as refused, dropped
    /// for space; whether delivery is paused, and the 404s it was answered.
    public func queueStatus() async -> QueueStatus {
        await resets.settled()
        return await core.queueStatus()
    }

    /// Whether no delivery loop runs: nothing is sent, and no timer is set,
    /// until the next event, a new key or connectivity coming back. What a
    /// test waits for before it asserts that nothing more is sent.
    package func deliveryIsIdle() async -> Bool {
        await core.deliveryIsIdle()
    }

    /// Whether delivery waits for connectivity to come back (the device is
    /// known to be offline): nothing is sent until it does.
    package func deliveryWaitsForConnectivity() async -> Bool {
        await core.deliveryWaitsForConnectivity()
    }

    /// Replaces the `X-API-Key` (a rotated key) for every request from now
    /// on, and resumes a delivery paused by a 401 or 403: the rows kept
    /// meanwhile go out in order. Throws ``TrackerError/invalidConfiguration(reason:)``
    /// for an empty key, changing nothing.
    public func updateApiKey(_ key: String) async throws(TrackerError) {
        await resets.settled()
        try await core.updateAPIKey(key)
    }

    /// Resumes a delivery paused by a 401 or 403 (``QueueStatus/pausedForStatus``),
    /// with the key it has: for a server that refused the key by mistake.
    public func resumeDelivery() async {
        await resets.settled()
        await core.resumeDelivery()
    }

    /// The session id, once known.
    public func sessionID() async -> String? {
        await resets.settled()
        return await core.currentSession
    }

    /// The install's device id, once initialized.
    public func deviceID() async -> String? {
        await resets.settled()
        return await core.currentDevice
    }

    /// What the tracker sends about the device when it creates a session
    /// (the reference's `DeviceInfo`), once initialized.
    public func deviceInfo() async -> DeviceInfo? {
        await resets.settled()
        return await core.deviceInfo
    }
}

/// The queue's counters (kept across launches).
public struct QueueStatus: Sendable, Hashable {
    /// Rows waiting for delivery.
    public let pending: Int
    /// Rows the server accepted.
    public let delivered: Int
    /// Rows the server refused with a 400 or 422 and its JSON error (a
    /// stated refusal: the only answer that drops a row).
    public let droppedAsRejected: Int
    /// Rows dropped, oldest first, because the queue was full.
    public let droppedForSpace: Int
    /// The status (401 or 403) delivery is paused at, keeping every row,
    /// until ``MobileTracker/updateApiKey(_:)`` or
    /// ``MobileTracker/resumeDelivery()``; nil while delivery runs.
    public let pausedForStatus: Int?
    /// The 404 answers delivery got in this launch (each row retried with
    /// backoff, never dropped): a wrong base URL shows here.
    public let notFoundAnswers: Int

    /// Whether delivery is paused by a refused API key.
    public var isPaused: Bool { pausedForStatus != nil }
}

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

/// The tracker's state, one actor so every call is safe from any task.
actor TrackerCore {
    /// What initialization produced.
    private struct Ready {
        let brandID: BrandID
        let brandText: String
        let storage: TrackerStorage
        let queue: EventQueue
        let delivery: QueueDelivery
        let client: MobileTrackerAPI.Client
    }

    private let options: Options
    private var ready: Ready?
    private var initializing: Task<Void, any Error>?
    private var sessionID: String?
    private var sessionMetadata: [String: JSONValue] = [:]
    /// The install's device id (stored; a new one after `reset`).
    private var deviceID: LowercaseUUID?
    private var lastScreen: String?
    /// The options' logger, at `debug` level when the configuration asks.
    private var logger: Logger
    /// The logger and the `debug` flag for `log(_:)`, which
    /// any thread may call.
    private nonisolated let logSink: Locked<(logger: Logger, debug: Bool)>
    private var lastSessionAttempt: Duration?
    /// After a session creation failed offline: one task waiting for
    /// connectivity, then one more attempt (nil: none waiting).
    private var sessionWatch: Task<Void, Never>?
    /// Every API key this launch was given, the current one last: requests
    /// carry the last, logs mask them all.
    private nonisolated let apiKeys = Locked<[String]>([])
    /// Calls made while initialization runs, before the queue exists.
    private var early: [EventQueue.Item] = []
    /// The reading of the location after the last session creation, while it runs.
    private var automaticLocation: Task<Void, Never>?
    /// Logs the answers that differ from the spec's guesses (`x-assumed`), once per field.
    private var assumedFields: AssumedFieldObservation?

    /// What `track` needs once a session exists, readable without a hop
    /// onto the actor (see ``trackNow(eventName:data:)``).
    struct HotPath: Sendable {
        let queue: EventQueue
        let delivery: QueueDelivery
        let sessionID: String
        let metadata: [String: JSONValue]
        /// The identified user (`identify`), sent as `user_id` in every event's `data` until `reset`.
        let userID: String?

        /// An event's `data`: the session's metadata, the call's values, and the user.
        func eventData(_ data: [String: JSONValue]) -> [String: JSONValue] {
            TrackerCore.eventData(data, metadata: metadata, userID: userID)
        }
    }

    /// The session's metadata, `data` over it, and `user_id` when a user is
    /// identified (the reference's payload: `"user_id": "user123"`).
    static func eventData(_ data: [String: JSONValue], metadata: [String: JSONValue], userID: String?) -> [String: JSONValue] {
        var merged = metadata.isEmpty ? data : metadata.merging(data) { $1 }
        if let userID, merged["user_id"] == nil { merged["user_id"] = .string(userID) }
        return merged
    }

    /// Published by the actor after every change to the session, the
    /// metadata or the queue; nil while there is no session. Appends made
    /// through it happen under its lock, so once the actor has published a
    /// change (a reset, say) no call can still append with the old state.
    nonisolated let hotPath = Locked<HotPath?>(nil)

    typealias Options = MobileTracker.Options

    init(options: Options) {
        self.options = options
        logger = options.connection.logger
        logSink = Locked((options.connection.logger, false))
    }

    var currentSession: String? { sessionID }
    var currentDevice: String? { deviceID?.uuidString }
    /// What a session creation sends about the device, once initialized.
    var deviceInfo: DeviceInfo? {
        deviceID.map { DeviceInfo(deviceId: $0.uuidString, osName: options.osName, deviceType: options.deviceType) }
    }

    // MARK: Initialization

    /// The brand ID as a number and the configuration's values, or the
    /// document's error for the first thing wrong with them.
    static func validate(brandID text: String, config: TrackerConfig?) throws(TrackerError) -> (
        brandID: BrandID, config: TrackerConfig, url: URL, apiKey: String, lifetime: TimeInterval, warning: String?
    ) {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let brandID = BrandID(text) else {
            throw .invalidBrandId
        }
        guard let config else { throw .invalidConfiguration(reason: "a configuration with apiUrl and xApiKey is required") }
        let (url, apiKey, lifetime, warning) = try config.validated()
        return (brandID, config, url, apiKey, lifetime, warning)
    }

    func initialize(brandID text: String, config: TrackerConfig?) async throws(TrackerError) {
        let (brandID, config, url, apiKey, lifetime, warning) = try Self.validate(brandID: text, config: config)
        if let ready, ready.brandText == text, sessionID != nil { return }
        if let initializing {
            try await waitFor(initializing)
            if sessionID != nil { return }
        }
        // `debug` raises the level to debug; an app's logger already at trace stays there.
        if config.debug, logger.logLevel > .debug { logger.logLevel = .debug }
        logSink.withLock { [logger] in $0 = (logger, config.debug) }
        if let warning { log(warning, level: .warning) }
        let task = Task { () async throws -> Void in
            try await self.start(brandID: brandID, text: text, url: url, apiKey: apiKey, lifetime: lifetime)
        }
        initializing = task
        defer { initializing = nil }
        try await waitFor(task)
    }

    /// Waits for an initialization, ``MobileTracker/Options/initializationTimeout``
    /// (the document's 30 s) at most, even while the initialization itself
    /// waits on a server that stopped answering: the waiter is woken at the
    /// limit, and the initialization is cancelled (its request with it).
    private func waitFor(_ task: Task<Void, any Error>) async throws(TrackerError) {
        let limit = options.initializationTimeout
        let clock = options.connection.clock
        let started = clock.elapsed()
        let outcome: Result<Void, any Error>? = await withCheckedContinuation { continuation in
            let resumed = Locked(false)
            let finish: @Sendable (Result<Void, any Error>?) -> Void = { value in
                guard resumed.withLock({ done in defer { done = true }; return !done }) else { return }
                continuation.resume(returning: value)
            }
            let timer = Task {
                // Cancelled once the initialization ended: no sleeper left behind.
                guard (try? await clock.sleep(limit)) != nil else { return }
                finish(nil)
            }
            Task {
                let result = await task.result
                timer.cancel()
                finish(result)
            }
        }
        switch outcome {
        case .success?: return
        case .failure(let error as TrackerError)?: throw error
        case .failure(let error)?: throw .sessionCreationFailed(reason: String(describing: type(of: error)))
        case nil:
            task.cancel()
            let waited = (clock.elapsed() - started).totalSeconds
            throw .sessionCreationFailed(
                reason: "initialization did not finish within \(limit.totalSeconds.formatted()) seconds (waited \(String(format: "%.1f", waited)) s)")
        }
    }

    private func start(brandID: BrandID, text: String, url: URL, apiKey: String, lifetime: TimeInterval) async throws {
        apiKeys.withLock { if $0.last != apiKey { $0.append(apiKey) } }
        if let ready, ready.brandText == text {
            // An earlier attempt opened the stores; only the session is missing.
            try await createSession()
            return
        }
        let folder = options.folder.appendingPathComponent("brand-\(text)", isDirectory: true)
        let storage: TrackerStorage
        let queue: EventQueue
        do {
            storage = try TrackerStorage(brandID: text, primary: options.primaryStore, folder: folder, lifetime: lifetime, now: options.now)
            queue = try EventQueue(
                path: folder.appendingPathComponent("queue.sqlite").path,
                limits: .init(maximumCount: options.maximumQueuedItems, maximumBytes: options.maximumQueuedBytes))
        } catch {
            throw TrackerError.invalidConfiguration(reason: "the tracker's folder cannot be written: \(error)")
        }
        // The documented `apiUrl`, and the logger that writes only when the configuration says `debug`.
        var connection = options.connection
        connection.baseURL = url
        connection.logger = logger
        let transport: any ClientTransport
        do {
            transport = try connection.makeTransport(overSession: { URLSessionTransport(configuration: .init(session: $0)) })
        } catch {
            throw TrackerError.invalidConfiguration(reason: "the pinning was refused: \(error)")
        }
        // To the app's logger, whatever `debug` says: a warning about the
        // connection is not debug output.
        var unfiltered = connection
        unfiltered.logger = options.connection.logger
        unfiltered.warnIfUnpinned(sdk: "MobileTracker", advice: "events and the user's profile then rest on the device's trust store alone")
        // Queued items go out as queued, the server judging them (a refusal
        // drops the item): checked here, a value the spec forbids would hold
        // the queue's head for ever, since nothing can correct it any more.
        // The family's stack: https only, the connectivity learnt from each
        // attempt, the API key, redacted logs, and below the log (its line
        // names the bound that ended an attempt) each attempt within connect
        // + read (one event per request, so no large body needs more); the
        // connection dialled first only for the tracker's own transport.
        var stack = SDKMiddlewareStack(connection: connection)
        stack.credentials = [APIKeyMiddleware { [apiKeys] in apiKeys.withLock { $0.last ?? "" } }]
        stack.knownSecrets = { [apiKeys] in apiKeys.withLock { $0 } }
        let client = MobileTrackerAPI.Client(
            serverURL: url, transport: transport, middlewares: stack.middlewares(),
            constraintChecks: [])
        assumedFields = AssumedFieldLogging.observe(module: "MobileTrackerAPI", logger: logger)
        let deviceID = storage.value(.deviceID).flatMap { try? LowercaseUUID($0) } ?? LowercaseUUID()
        try? storage.set(deviceID.uuidString, for: .deviceID)
        self.deviceID = deviceID
        try? storage.set(text, for: .brandID)
        let delivery = QueueDelivery(queue: queue, client: client, brandID: brandID, connectivity: options.connection.connectivity, backoff: options.deliveryBackoff, logger: logger,
            clock: connection.clock, signposts: connection.intervals)
        ready = Ready(brandID: brandID, brandText: text, storage: storage, queue: queue, delivery: delivery, client: client)
        // Calls made while the queue was being opened go in first, in order.
        for item in early { try? queue.append(Self.filled(item, brandID: brandID), sessionID: nil) }
        early.removeAll()
        if let stored = storage.value(.sessionID) {
            // The session's metadata comes back with it (merged under what
            // was set while this launch initialized).
            if let text = storage.value(.sessionMetadata),
                let saved = try? JSONDecoder().decode([String: JSONValue].self, from: Data(text.utf8))
            {
                sessionMetadata = saved.merging(sessionMetadata) { $1 }
            }
            await adopt(session: stored)
        } else {
            try await createSession()
        }
    }

    /// Creates a backend session and makes it current; throws
    /// ``TrackerError/sessionCreationFailed(reason:)``. A failure while the
    /// app reports the device offline is tried again as soon as it reports
    /// it online, without waiting for the next call.
    private func createSession() async throws(TrackerError) {
        do {
            try await attemptSession()
        } catch {
            await retrySessionWhenOnline()
            throw error
        }
    }

    private func retrySessionWhenOnline() async {
        guard let connectivity = options.connection.connectivity, sessionWatch == nil, await connectivity.isKnownOffline else { return }
        sessionWatch = Task { [weak self] in
            try? await connectivity.waitUntilOnline()
            await self?.connectivityReturned()
        }
    }

    private func connectivityReturned() async {
        sessionWatch = nil
        lastSessionAttempt = nil
        await retrySessionIfNeeded()
    }

    private func attemptSession() async throws(TrackerError) {
        guard let ready, let deviceID else { return }
        lastSessionAttempt = options.connection.clock.elapsed()
        let response: CreateTrackingSessionResponse
        do {
            response = try await ready.client.createTrackingSession(
                body: CreateTrackingSessionRequest(deviceID: deviceID, osName: options.osName, deviceType: options.deviceType, brandID: ready.brandID))
        } catch let error as ResponseDecodingError {
            throw .sessionCreationFailed(reason: "the response has no session id (\(error.field.isEmpty ? "body" : error.field))")
        } catch let error as any HTTPStatusError {
            throw .sessionCreationFailed(reason: "status \(error.status)")
        } catch let refusal as CertificatePinningError {
            // Not the network: typed underneath, told apart by `connectionRefusal`.
            throw .networkError(underlying: refusal)
        } catch {
            // No answer at all: the network is why.
            if NetworkFailure(error) != nil, NetworkFailure(error) != .cancelled { throw .networkError(underlying: error) }
            throw .sessionCreationFailed(reason: String(describing: type(of: error)))
        }
        // Any non-empty id the backend gives, kept as it came.
        let id = response.data.id
        try? ready.storage.set(id, for: .sessionID)
        await adopt(session: id)
        startAutomaticLocation(for: id)
    }

    /// The reference's "Update Session Location ... Called: After session
    /// creation if location permissions are granted": one reading from the
    /// options' source (which never prompts), queued for `id` unless the
    /// session changed meanwhile. In the background: the session is usable
    /// at once, and a first fix can take seconds.
    private func startAutomaticLocation(for id: String) {
        guard options.tracksLocationAutomatically, let source = options.locationSource else { return }
        automaticLocation?.cancel()
        automaticLocation = Task { [weak self] in
            let reading = await source.readingIfAuthorized()
            await self?.locationRead(reading, for: id)
        }
    }

    private func locationRead(_ reading: LocationData?, for id: String) async {
        guard let reading else {
            log("no location sent with the new session: the app has no location permission, or no reading came", level: .debug)
            return
        }
        guard sessionID == id, !Task.isCancelled else { return }
        await enqueue(.location(LocationUpdateRequest(latitude: reading.latitude, longitude: reading.longitude, accuracy: reading.accuracy)))
    }

    /// Waits for the automatic location reading of the last session
    /// creation, if one runs (tests).
    func automaticLocationSettled() async {
        await automaticLocation?.value
    }

    private func adopt(session id: String) async {
        sessionID = id
        guard let ready else { return }
        try? ready.queue.assignSession(id)
        publishHotPath()
        await ready.delivery.setSession(id)
    }

    private func publishHotPath() {
        let hot = ready.flatMap { ready in
            sessionID.map {
                HotPath(queue: ready.queue, delivery: ready.delivery, sessionID: $0, metadata: sessionMetadata, userID: ready.storage.value(.identifyID))
            }
        }
        hotPath.withLock { $0 = hot }
    }

    /// After a failed session creation, a later call tries again (at most
    /// every 5 s).
    private func retrySessionIfNeeded() async {
        guard ready != nil, sessionID == nil, initializing == nil else { return }
        if let last = lastSessionAttempt, options.connection.clock.elapsed() - last < .seconds(5) { return }
        do {
            try await createSession()
        } catch {
            log(error)
        }
    }

    // MARK: Calls

    /// Records an event on the caller's thread when a session exists (the
    /// common case: no hop onto the actor, so `track` costs its caller the
    /// encoding and one journal write). False: there is no session yet, or
    /// the write failed; the caller goes through ``track(eventName:data:)``,
    /// which queues it for the session to come, or logs the failure.
    nonisolated func trackNow(eventName: String, data: [String: JSONValue]) -> Bool {
        hotPath.withLock { hot in
            guard let hot else { return false }
            let merged = hot.eventData(data)
            do {
                try hot.queue.append(.event(name: eventName, data: merged.isEmpty ? nil : merged), sessionID: hot.sessionID)
            } catch {
                return false
            }
            let delivery = hot.delivery
            if delivery.idle.withLock({ $0 }) { Task { await delivery.kick() } }
            return true
        }
    }

    func track(eventName: String, data: [String: JSONValue]) async {
        let merged = Self.eventData(data, metadata: sessionMetadata, userID: ready?.storage.value(.identifyID))
        await enqueue(.event(name: eventName, data: merged.isEmpty ? nil : merged))
    }

    /// A profile from the app's dictionary (`identify`, `set`).
    func updateProfile(_ profile: [String: JSONValue], userID: String?) async {
        var data = Self.profileData(profile)
        data.userId = userID
        await updateProfile(data)
    }

    func updateProfile(_ data: UpdateProfileData) async {
        let userID = data.userId
        guard let ready else {
            await enqueue(.profile(Self.profileRequest(data, userID: userID, brandID: 0, sessionID: nil)))
            return
        }
        let previous = ready.storage.value(.identifyID)
        if let userID, userID != previous {
            // The reference: "if user_id differs from stored identify_id, calls identifyById() first".
            // It names no endpoint; the SDK links the session to the new user with the same
            // profile update, `user_id` and `session_id` only, before the profile data.
            await enqueue(.profile(CustomerProfileUpdateRequest(brandID: ready.brandID, userID: .value(userID), sessionID: sessionID)))
        }
        if let userID {
            try? ready.storage.set(userID, for: .identifyID)
            publishHotPath()
        }
        if let email = data.email { try? ready.storage.set(email, for: .sessionEmail) }
        let stored = ready.storage.value(.identifyID)
        await enqueue(.profile(Self.profileRequest(data, userID: userID ?? stored, brandID: ready.brandID, sessionID: sessionID)))
    }

    func setMetadata(_ metadata: [String: JSONValue]) async {
        guard ready != nil || initializing != nil else {
            // The reference: "Requires session_id or user_id (logs error if neither exists)".
            log("setMetadata needs a session or a user id: call initialize(brandId:config:) first; the metadata was not set", level: .error)
            return
        }
        sessionMetadata.merge(metadata) { $1 }
        if let ready, let data = try? JSONEncoder().encode(sessionMetadata) {
            try? ready.storage.set(String(decoding: data, as: UTF8.self), for: .sessionMetadata)
        }
        publishHotPath()
        await enqueue(.profile(CustomerProfileUpdateRequest(
            brandID: ready?.brandID ?? 0, userID: ready?.storage.value(.identifyID).map { .value($0) },
            sessionID: sessionID, metadata: .value(metadata))))
    }

    func updateLocation(_ location: LocationUpdateRequest) async {
        await enqueue(.location(location))
    }

    func isNewScreen(_ name: String) -> Bool {
        defer { lastScreen = name }
        return lastScreen != name
    }

    func reset(all: Bool) async {
        guard let ready else { return }
        ready.storage.clear(keepingBrand: !all)
        sessionID = nil
        sessionMetadata = [:]
        // The stores no longer hold the device id: the new session is the
        // new device's, at once (and the id is stored for the next launch).
        let newDevice = LowercaseUUID()
        try? ready.storage.set(newDevice.uuidString, for: .deviceID)
        deviceID = newDevice
        publishHotPath()
        lastScreen = nil
        await ready.delivery.setSession(nil)
        if !all { try? ready.storage.set(ready.brandText, for: .brandID) }
        do {
            try await createSession()
        } catch {
            log(error)
        }
    }

    func flush(timeout: Duration) async -> Bool {
        await retrySessionIfNeeded()
        guard let ready, sessionID != nil else { return false }
        return await ready.delivery.waitUntilEmpty(timeout: timeout)
    }

    func deliveryIsIdle() async -> Bool {
        guard let delivery = ready?.delivery else { return true }
        return await delivery.isIdle()
    }

    func deliveryWaitsForConnectivity() -> Bool {
        ready?.delivery.waitsForConnectivity.withLock { $0 } ?? false
    }

    func queueStatus() async -> QueueStatus {
        let counts = (try? ready?.queue.counts()) ?? nil
        let delivery = await ready?.delivery.state
        return QueueStatus(
            pending: counts?.pending ?? early.count, delivered: counts?.delivered ?? 0, droppedAsRejected: counts?.droppedRejected ?? 0,
            droppedForSpace: counts?.droppedOverflow ?? 0, pausedForStatus: delivery?.pausedForStatus,
            notFoundAnswers: delivery?.notFoundAnswers ?? 0)
    }

    func updateAPIKey(_ key: String) async throws(TrackerError) {
        guard !key.trimmingCharacters(in: .whitespaces).isEmpty else { throw .invalidConfiguration(reason: "xApiKey is required") }
        apiKeys.withLock { if $0.last != key { $0.append(key) } }
        await resumeDelivery()
    }

    func resumeDelivery() async {
        await ready?.delivery.resume()
    }

    // MARK: Queue

    private func enqueue(_ item: EventQueue.Item) async {
        guard let ready else {
            if initializing != nil {
                early.append(item)
            } else {
                // The reference: "If not initialized, warning is logged and event is dropped".
                log("the tracker is not initialized: call initialize(brandId:config:) first; \(item.kind) dropped", level: .warning)
            }
            return
        }
        do {
            try ready.queue.append(Self.filled(item, brandID: ready.brandID), sessionID: sessionID)
        } catch {
            log("could not queue a \(item.kind): \(error)")
            return
        }
        if sessionID == nil {
            await retrySessionIfNeeded()
        } else {
            // Only an idle delivery needs waking (a running one reads the
            // queue until it is empty), and not awaited: the row is on disk.
            let delivery = ready.delivery
            if delivery.idle.withLock({ $0 }) { Task { await delivery.kick() } }
        }
    }

    /// Profile rows queued before the brand was known get it now.
    private static func filled(_ item: EventQueue.Item, brandID: BrandID) -> EventQueue.Item {
        guard case .profile(var body) = item, body.brandID == 0 else { return item }
        body.brandID = brandID
        return .profile(body)
    }

    /// The document's profile fields from the app's dictionary (string
    /// values under their names); the rest goes to `metadata`.
    static func profileData(_ data: [String: JSONValue]) -> UpdateProfileData {
        var rest = data
        func take(_ keys: String...) -> String? {
            for key in keys {
                if let value = rest.removeValue(forKey: key) {
                    if case .string(let text) = value { return text }
                    rest[key] = value
                }
            }
            return nil
        }
        var profile = UpdateProfileData(
            name: take("name"), phone: take("phone"), gender: take("gender"), businessDomain: take("business_domain", "businessDomain"),
            email: take("email"), source: take("source"), birthday: take("birthday"))
        profile.metadata = rest.isEmpty ? nil : rest
        return profile
    }

    /// The request body of a profile update.
    static func profileRequest(_ data: UpdateProfileData, userID: String?, brandID: BrandID, sessionID: SessionID?) -> CustomerProfileUpdateRequest {
        CustomerProfileUpdateRequest(
            brandID: brandID, userID: userID.map { .value($0) }, sessionID: sessionID, name: data.name.map { .value($0) },
            email: data.email.map { .value($0) }, phone: data.phone.map { .value($0) }, gender: data.gender.map { .value($0) },
            businessDomain: data.businessDomain.map { .value($0) }, source: data.source.map { .value($0) },
            birthday: data.birthday.map { .value($0) }, metadata: data.metadata.map { .value($0) })
    }

    // MARK: Logs

    nonisolated func log(_ error: any Error) {
        log(String(describing: error))
    }

    /// Logs `message`: at `level` when it is a warning or worse (what the
    /// reference says is logged: misuse the app's developer must see);
    /// otherwise at `debug` when the configuration says `debug`, at `trace`
    /// when it does not.
    private nonisolated func log(_ message: String, level: Logger.Level = .debug) {
        let (logger, debug) = logSink.withLock { $0 }
        if level >= .warning {
            logger.log(level: level, "tracker: \(message)")
        } else if debug {
            logger.debug("tracker: \(message)")
        } else {
            logger.trace("tracker: \(message)")
        }
    }
}


import ClientRuntime
import Foundation
import Resilience
import RuntimeSupport
import SecureNodeAPI

/// The device's side of the contract: register once per install, update
/// when the profile changes (capabilities, SDK or OS version), a presence
/// heartbeat every 5 minutes and after each successful sync, and debug
/// uploads only when the server's config enables them.
///
/// What was registered and when the last heartbeat went are kept in a small
/// JSON file, so a restart neither registers again nor floods heartbeats.
package actor DeviceLifecycle {
    /// What ``registerOrUpdate()`` did.
    package enum RegistrationAction: Sendable, Hashable {
        /// First run of the install: `POST /device/register`.
        case registered
        /// The profile changed since: `POST /device/update`.
        case updated
        /// Nothing to tell the server.
        case unchanged
    }

    /// The config flag that allows debug uploads. The contract says uploads
    /// need "explicit" server config without naming the flag; this one is
    /// the SDK's assumption, read from the sync's `config` object.
    package static let debugUploadFlag = "debug_upload_enabled"

    struct State: Codable {
        var registered: DeviceProfile?
        var lastHeartbeat: Date?
        /// The last successful branding sync, sent with every heartbeat.
        var lastSyncedAt: Date?
    }

    private let client: SecureNodeAPI.Client
    private let profile: DeviceProfile
    private let stateFile: URL
    private let heartbeatInterval: TimeInterval
    private let now: @Sendable () -> Date
    private var state: State

    /// A lifecycle for `profile`, remembering its state in `stateFile`;
    /// `now` is the clock heartbeats are timed by (tests inject one).
    package init(
        client: SecureNodeAPI.Client, profile: DeviceProfile, stateFile: URL, heartbeatInterval: Duration = .seconds(300),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.client = client
        self.profile = profile
        self.stateFile = stateFile
        self.heartbeatInterval = heartbeatInterval.totalSeconds
        self.now = now
        state = (try? Data(contentsOf: stateFile)).flatMap { try? JSONCoding.makeDecoder().decode(State.self, from: $0) } ?? State()
    }

    private func save() throws {
        try JSONCoding.makeEncoder().encode(state).write(to: stateFile, options: .atomic)
    }

    /// Registers the install the first time, updates it when the profile
    /// changed; remembers the profile once the server accepted it. A 2xx
    /// is acceptance even when its body lacks `success` (the response shape
    /// is not documented); only `success: false` is a refusal.
    @discardableResult
    package func registerOrUpdate() async throws -> RegistrationAction {
        let request = DeviceRegisterRequest(
            deviceID: profile.deviceID, platform: profile.platform, osVersion: profile.osVersion,
            sdkVersion: profile.sdkVersion, appVersion: profile.appVersion, capabilities: profile.capabilities)
        guard let registered = state.registered else {
            guard try await accepted({ try await client.registerDevice(body: request).success }) else { return .unchanged }
            state.registered = profile
            try save()
            return .registered
        }
        guard registered != profile else { return .unchanged }
        guard try await accepted({
            try await client.updateDevice(body: DeviceUpdateRequest(
                deviceID: request.deviceID, platform: request.platform, osVersion: request.osVersion,
                sdkVersion: request.sdkVersion, appVersion: request.appVersion, capabilities: request.capabilities)).success
        }) else { return .unchanged }
        state.registered = profile
        try save()
        return .updated
    }

    /// Whether a call's 2xx answer accepted it: its `success` when the body
    /// decoded, true for a 2xx whose body does not match the assumed shape.
    private func accepted(_ call: () async throws -> Bool?) async throws -> Bool {
        do {
            return try await call() ?? true
        } catch let decoding as ResponseDecodingError where (200..<300).contains(decoding.status) {
            return true
        }
    }

    /// Sends a presence heartbeat when the last one is `heartbeatInterval`
    /// old or more (or after a sync, with `force`); returns whether it sent.
    /// Every heartbeat carries the last successful sync's time: the one
    /// given here (a sync just succeeded), else the one remembered.
    @discardableResult
    package func heartbeat(lastSyncedAt: Date? = nil, force: Bool = false) async throws -> Bool {
        let time = now()
        let newSync = lastSyncedAt.map { $0 != state.lastSyncedAt } ?? false
        if newSync { state.lastSyncedAt = lastSyncedAt }
        if !force, let last = state.lastHeartbeat, time.timeIntervalSince(last) < heartbeatInterval {
            if newSync { try save() }
            return false
        }
        _ = try await accepted({
            try await client.reportDevicePresence(body: PresenceRequest(
                deviceID: profile.deviceID, observedAt: time, platform: profile.platform, osVersion: profile.osVersion,
                lastSyncedAt: state.lastSyncedAt)).success
        })
        state.lastHeartbeat = time
        try save()
        return true
    }

    /// Uploads debug logs when the server's config enables it; returns
    /// false (and sends nothing) otherwise.
    @discardableResult
    package func uploadDebugLogs(_ logs: [DebugLogEntry], context: [String: JSONValue]? = nil, config: BrandingConfig?) async throws -> Bool {
        guard case .bool(true)? = config?.additionalProperties[Self.debugUploadFlag] else { return false }
        _ = try await client.uploadDebugLogs(body: DebugUploadRequest(
            deviceID: profile.deviceID, platform: profile.platform, osVersion: profile.osVersion, sdkVersion: profile.sdkVersion,
            logs: logs, context: context))
        return true
    }
}

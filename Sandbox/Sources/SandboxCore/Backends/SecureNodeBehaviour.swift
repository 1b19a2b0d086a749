import ContractCheck
import Foundation
import RuntimeSupport

/// SecureNode as its contract and iOS README describe it: device register,
/// update and presence; branding sync over a seeded dataset of up to a
/// million numbers (``BrandingDataset``), full without `since` and
/// incremental with it, while changes keep arriving every
/// ``Settings/changeInterval``; lookup of one number; call events and
/// imprints billed once per `event_key` (a replay answers the same
/// `event_id`); the API key checked when one is set.
public final class SecureNodeBehaviour: SandboxBehaviour {
    /// The backend's settings.
    public struct Settings: Sendable {
        /// Numbers in the generated dataset.
        public var datasetSize = 1_000
        /// The seed the dataset and its changes are drawn from.
        public var seed: UInt64 = 1
        /// How often a batch of changes arrives; nil: the data only changes through ``setRecord(_:name:active:logoURL:callReason:)``.
        public var changeInterval: Duration? = .seconds(60)
        /// Changes per batch.
        public var changesPerInterval = 5
        /// The key every request must carry in `X-API-Key`; nil accepts any.
        public var apiKey: String?
        /// Incremental syncs send records as some deployed servers do: every
        /// deactivation as a bare tombstone (`{"phone_number_e164": ..., "is_active": false}`)
        /// and every third active record with `"logo_url": ""`. Breaks the
        /// spec on purpose (not with `--strict`).
        public var damagedRecords = false
        /// What answers at the root mount (`{base}/mobile/...`), where the API
        /// is not (it is under `/api`): nil, the sandbox's 404; or something
        /// in front of the API that is not the API.
        public var rootAnswer: RootAnswer?

        /// The defaults: 1,000 numbers, 5 changes a minute, any key.
        public init() {}
    }

    /// What a gateway or web server in front of the API answers at a mount
    /// where the API is not.
    public enum RootAnswer: String, Sendable, CaseIterable {
        /// A gateway's `403 Forbidden` page (HTML).
        case forbidden
        /// A web server's `200` index page (HTML).
        case html
        /// A proxy's `502 Bad Gateway` page (HTML).
        case badGateway = "bad-gateway"

        var reply: SandboxReply {
            let (status, page) = switch self {
            case .forbidden: (403, "<html><head><title>403 Forbidden</title></head><body>Forbidden</body></html>")
            case .html: (200, "<!doctype html><html><head><title>Welcome</title></head><body>It works</body></html>")
            case .badGateway: (502, "<html><head><title>502 Bad Gateway</title></head><body>Bad Gateway</body></html>")
            }
            return SandboxReply(status: status, headers: [("Content-Type", "text/html")], body: Array(page.utf8))
        }
    }

    /// A billing request the backend applied (first delivery of its key).
    public struct Billed: Sendable {
        /// `event` or `imprint`.
        public let kind: String
        /// The body as sent.
        public let bytes: [UInt8]
    }

    private struct State {
        var settings: Settings
        var dataset: BrandingDataset
        var start: Date
        var ticksApplied = 0
        var lastTime: Date
        var eventIDs: [String: String] = [:]
        var billed: [Billed] = []
        var replays = 0
        var devices: Set<String> = []
        var presence = 0
        var fullSyncs = 0
        var incrementalSyncs = 0
        var lookups = 0
    }

    private let state: Locked<State>
    private let now: @Sendable () -> Date

    /// Records per chunk of a streamed sync body.
    static let chunkRecords = 2_048

    /// A backend with `settings`, reading the time from `now`.
    public init(settings: Settings = Settings(), now: @escaping @Sendable () -> Date = Date.init) {
        let start = now()
        let dataset = BrandingDataset(size: settings.datasetSize, seed: settings.seed, createdAt: start.addingTimeInterval(-86_400))
        state = Locked(State(settings: settings, dataset: dataset, start: start, lastTime: start))
        self.now = now
    }

    /// Billing requests applied, in arrival order (each key once).
    public var billed: [Billed] { state.withLock { $0.billed } }
    /// Billing requests answered from a key seen before (not billed again).
    public var replays: Int { state.withLock { $0.replays } }
    /// Devices registered.
    public var devices: Set<String> { state.withLock { $0.devices } }
    /// Presence heartbeats received.
    public var presenceCount: Int { state.withLock { $0.presence } }

    /// Adds or changes a record now (`active: false` makes the next
    /// incremental sync tell devices to purge it).
    public func setRecord(_ e164: String, name: String, active: Bool = true, logoURL: String? = nil, callReason: String? = nil) {
        let time = now()
        state.withLock { state in
            let at = Self.tick(&state, time)
            state.dataset.set(.init(
                e164: e164, brandName: name, brandID: "brand_\(name.count)", logoURL: logoURL, callReason: callReason, updatedAt: at, isActive: active))
        }
    }

    /// Makes `count` changes now, as a batch arriving would.
    public func generateChanges(_ count: Int) {
        let time = now()
        state.withLock { state in
            let at = Self.tick(&state, time)
            var random = SplitMix64(seed: state.settings.seed ^ UInt64(at.timeIntervalSince1970 * 1000))
            state.dataset.generateChanges(count, at: at, random: &random)
        }
    }

    public func summary() -> [String: Any] {
        state.withLock { state in
            [
                "datasetSize": state.dataset.count, "changedRecords": state.dataset.changed.count, "fullSyncs": state.fullSyncs,
                "incrementalSyncs": state.incrementalSyncs, "lookups": state.lookups, "devices": state.devices.count, "presence": state.presence,
                "eventsBilled": state.billed.filter { $0.kind == "event" }.count, "imprintsBilled": state.billed.filter { $0.kind == "imprint" }.count,
                "billingReplays": state.replays,
                // What the billed events said, `outcome/surface/meta.call_outcome` (as the README's body has them).
                "eventShapes": Self.shapes(of: state.billed.filter { $0.kind == "event" }),
            ]
        }
    }

    /// A key other than the one set: 401 `unauthorized`.
    public func refuseCredential(of request: ContractRequest) -> SandboxReply? {
        guard let key = state.withLock({ $0.settings.apiKey }), request.header("X-API-Key") != key else { return nil }
        return SandboxJSON.reply(401, ["error": "unauthorized", "message": "Invalid API key"])
    }

    /// The `{"error": code, "message": ...}` body the SDK reads, with each
    /// broken rule under `violations` (the spec's error body allows extra
    /// members).
    public func errorReply(status: Int, message: String, violations: [ContractViolation]) -> SandboxReply? {
        let code = switch status {
        case 401, 403: "unauthorized"
        case 404: "not_found"
        case 405: "method_not_allowed"
        default: "invalid_request"
        }
        return SandboxJSON.reply(status, ["error": code, "message": message, "violations": ContractRefusal.entries(violations)])
    }

    /// The root mount's answer, when one is set: requests for `/mobile/...`.
    public func respondOutsideSpec(to request: ContractRequest) -> SandboxReply? {
        guard request.path.hasPrefix("/mobile/"), let answer = state.withLock({ $0.settings.rootAnswer }) else { return nil }
        return answer.reply
    }

    /// How many billed events had each `outcome/surface/call_outcome`.
    private static func shapes(of events: [Billed]) -> [String: Int] {
        var counts: [String: Int] = [:]
        for event in events {
            let body = SandboxJSON.object(event.bytes)
            let callOutcome = (body["meta"] as? [String: Any])?["call_outcome"] as? String ?? "-"
            counts["\(body["outcome"] as? String ?? "-")/\(body["surface"] as? String ?? "-")/\(callOutcome)", default: 0] += 1
        }
        return counts
    }

    public func respond(to request: ContractRequest) -> SandboxReply? {
        if let refusal = refuseCredential(of: request) { return refusal }
        let time = now()
        return state.withLock { Self.handle(request, at: time, state: &$0) }
    }

    /// The server's clock: never earlier than, nor equal to, the last time
    /// it gave, so two changes and a sync in one millisecond still order.
    private static func tick(_ state: inout State, _ time: Date) -> Date {
        let next = max(time, state.lastTime.addingTimeInterval(0.001))
        state.lastTime = next
        return next
    }

    /// Applies the batches of changes due by `time`, each at its own time.
    private static func advance(_ state: inout State, to time: Date) {
        guard let interval = state.settings.changeInterval?.seconds, interval > 0 else { return }
        let due = Int(time.timeIntervalSince(state.start) / interval)
        while state.ticksApplied < due {
            state.ticksApplied += 1
            let at = state.start.addingTimeInterval(Double(state.ticksApplied) * interval)
            var random = SplitMix64(seed: state.settings.seed &+ UInt64(state.ticksApplied) &* 0x9E37_79B9)
            state.dataset.generateChanges(state.settings.changesPerInterval, at: at, random: &random)
            state.lastTime = max(state.lastTime, at)
        }
    }

    private static func handle(_ request: ContractRequest, at time: Date, state: inout State) -> SandboxReply? {
        func error(_ status: Int, _ code: String, _ message: String) -> SandboxReply {
            SandboxJSON.reply(status, ["error": code, "message": message])
        }
        let body = SandboxJSON.object(request.body)
        switch (request.method, request.path) {
        case ("POST", "/api/mobile/device/register"), ("POST", "/api/mobile/device/update"):
            guard let device = body["device_id"] as? String else { return error(400, "invalid_request", "device_id is required") }
            state.devices.insert(device)
            return SandboxJSON.reply(200, ["success": true, "device_id": device])
        case ("POST", "/api/mobile/device/presence"):
            state.presence += 1
            return SandboxJSON.reply(200, ["success": true])
        case ("GET", "/api/mobile/branding/sync"):
            advance(&state, to: time)
            let syncedAt = tick(&state, time)
            let since = SandboxJSON.query(request.query, "since")
            if let since, SandboxJSON.date(since) == nil { return error(400, "invalid_request", "since must be an ISO 8601 date-time") }
            return sync(since: since.flatMap(SandboxJSON.date), syncedAt: syncedAt, state: &state)
        case ("GET", "/api/mobile/branding/lookup"):
            advance(&state, to: time)
            state.lookups += 1
            guard let number = SandboxJSON.query(request.query, "e164"), let record = state.dataset.record(for: number), record.isActive else {
                return error(404, "not_found", "No branding for this number")
            }
            return SandboxJSON.reply(200, [
                "e164": record.e164, "brand_name": record.brandName, "logo_url": record.logoURL as Any? ?? NSNull(),
                "call_reason": record.callReason as Any? ?? NSNull(),
                "updated_at": SandboxJSON.timestamp(record.updatedAt, fractional: true),
            ])
        case ("POST", "/api/mobile/branding/event"), ("POST", "/api/mobile/branding/imprint"):
            let kind = request.path.hasSuffix("event") ? "event" : "imprint"
            guard body["phone_number_e164"] is String else {
                return error(400, "invalid_request", "phone_number_e164 is required")
            }
            // `event_key` is optional (the contract lists it so); without
            // one every delivery is billed, as the backend cannot tell a
            // repeat.
            let key = body["event_key"] as? String
            var answer: [String: Any] = ["success": true]
            if let displayedAt = body["displayed_at"] as? String { answer["displayed_at"] = displayedAt }
            if let key, let id = state.eventIDs[key] {
                state.replays += 1
                answer["event_id"] = id
                return SandboxJSON.reply(200, answer)
            }
            let id = "evt_\(state.billed.count + 1)"
            if let key { state.eventIDs[key] = id }
            state.billed.append(Billed(kind: kind, bytes: request.body ?? []))
            answer["event_id"] = id
            return SandboxJSON.reply(200, answer)
        default:
            return nil
        }
    }

    /// A record as a damaged server sends it (``Settings/damagedRecords``).
    private static func damagedJSON(_ record: BrandingDataset.Record, index: Int, dataset: BrandingDataset) -> String {
        guard record.isActive else { return #"{"phone_number_e164":"\#(record.e164)","is_active":false}"# }
        guard index % 3 == 0 else { return dataset.json(record) }
        var blankLogo = record
        blankLogo.logoURL = ""
        return dataset.json(blankLogo)
    }

    /// A full sync (active records) or an incremental one (every record
    /// changed after `since`, inactive ones included so devices purge
    /// them); a cursor older than the dataset gets every record. Large
    /// answers are streamed a chunk of records at a time.
    private static func sync(since: Date?, syncedAt: Date, state: inout State) -> SandboxReply {
        let dataset = state.dataset
        let trailer = #"],"synced_at":"\#(SandboxJSON.timestamp(syncedAt, fractional: true))","config":{"branding_enabled":true,"voip_dialer_enabled":false}}"#
        if let since, since >= dataset.createdAt {
            state.incrementalSyncs += 1
            let records = dataset.changed.values.filter { $0.updatedAt > since }.sorted { ($0.updatedAt, $0.e164) < ($1.updatedAt, $1.e164) }
            let damaged = state.settings.damagedRecords
            let texts = records.enumerated().map { index, record in damaged ? Self.damagedJSON(record, index: index, dataset: dataset) : dataset.json(record) }
            return .json(200, #"{"branding":["# + texts.joined(separator: ",") + trailer)
        }
        let includesInactive = since != nil
        if includesInactive { state.incrementalSyncs += 1 } else { state.fullSyncs += 1 }
        let included: @Sendable (BrandingDataset.Record) -> Bool = { record in includesInactive || record.isActive }
        let total = dataset.count
        let first = (0..<total).first { included(dataset.record(at: $0)) }
        let chunks = max(1, (total + chunkRecords - 1) / chunkRecords)
        let stream = SandboxBodyStream { chunk in
            guard chunk < chunks else { return nil }
            var text = chunk == 0 ? #"{"branding":["# : ""
            text.reserveCapacity(chunkRecords * 240)
            for index in (chunk * chunkRecords)..<min(total, (chunk + 1) * chunkRecords) {
                let record = dataset.record(at: index)
                guard included(record) else { continue }
                if index != first { text += "," }
                text += dataset.json(record)
            }
            if chunk == chunks - 1 { text += trailer }
            return Array(text.utf8)
        }
        return SandboxReply(status: 200, headers: [("Content-Type", "application/json")], stream: stream)
    }
}

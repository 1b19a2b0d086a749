import Foundation
import LoopbackHTTPServer
import ProcessTestSupport

/// A SecureNode backend that behaves as the contract and the iOS README say,
/// on a loopback socket, mounted under `/api` (the root answers 404, so
/// clients find the mount): device registration and presence, full and
/// incremental syncs from a dataset tests edit (`since` returns what changed
/// after it), call events and imprints deduplicated by `event_key`, every
/// request checked for the API key. Tests inject faults with ``fault``.
package final class SecureNodeBackend: Sendable {
    /// A billing request the backend applied (first delivery of its key).
    package struct Billed: Sendable {
        /// `event` or `imprint`.
        package let kind: String
        /// The body as sent.
        package let bytes: [UInt8]

        /// The body as a JSON object.
        package var json: [String: Any] { JSONText.object(bytes) ?? [:] }
    }

    private struct Record {
        var json: String
        var changedAt: Int
    }

    private struct State {
        /// Server time in seconds since 2025-01-01, one tick per change or sync.
        var clock = 0
        var records: [String: Record] = [:]
        var billed: [Billed] = []
        var keys: [String: String] = [:]
        var devices: Set<String> = []
    }

    /// The server.
    package let server: LoopbackHTTPServer
    /// A fault to answer instead of the real behaviour (nil: behave).
    package let fault = Mutex<(@Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply?)?>(nil)
    private let state = Mutex(State())
    /// The key every request must carry.
    package let apiKey: String

    /// Starts the backend on a free loopback port.
    package init(apiKey: String = "sk_test_key") throws {
        self.apiKey = apiKey
        let state = self.state
        let fault = self.fault
        server = try LoopbackHTTPServer(keepAlive: false) { request in
            if let reply = fault.withLock({ $0 })?(request) { return reply }
            guard request.path.hasPrefix("/api/") else { return .json(404, #"{"error":"not_found"}"#) }
            guard request.header("X-API-Key") == apiKey else { return .json(401, #"{"error":"unauthorized","message":"Invalid API key"}"#) }
            return state.withLock { Self.handle(request, state: &$0) }
        }
    }

    /// `http://127.0.0.1:PORT` (without `/api`: clients find it).
    package var baseURL: URL { server.baseURL }

    /// Adds or changes a record (`active: false` makes the next incremental sync purge it).
    package func setRecord(_ e164: String, name: String, active: Bool = true, logoURL: String? = nil, callReason: String? = nil) {
        state.withLock { state in
            state.clock += 1
            let logo = logoURL.map { #""\#($0)""# } ?? "null"
            let reason = callReason.map { #""\#($0)""# } ?? "null"
            let json = #"{"phone_number_e164":"\#(e164)","brand_name":"\#(name)","brand_id":"brand_\#(name.count)","logo_url":\#(logo),"call_reason":\#(reason),"updated_at":"\#(Self.time(state.clock))","is_active":\#(active)}"#
            state.records[e164] = Record(json: json, changedAt: state.clock)
        }
    }

    /// Billing requests applied, in arrival order (each key once).
    package var billed: [Billed] { state.withLock { $0.billed } }

    /// Devices registered.
    package var devices: Set<String> { state.withLock { $0.devices } }

    private static func handle(_ request: LoopbackHTTPServer.Request, state: inout State) -> LoopbackHTTPServer.Reply {
        let body = JSONText.object(request.body) ?? [:]
        switch (request.method, request.path) {
        case ("POST", "/api/mobile/device/register"), ("POST", "/api/mobile/device/update"):
            guard let device = body["device_id"] as? String else { return .json(400, #"{"error":"invalid_request","message":"device_id is required"}"#) }
            state.devices.insert(device)
            return .json(200, #"{"success":true,"device_id":"\#(device)"}"#)
        case ("POST", "/api/mobile/device/presence"):
            return .json(200, #"{"success":true}"#)
        case ("GET", "/api/mobile/branding/sync"):
            let since = Self.query(request.query, "since").flatMap(Self.parse)
            state.clock += 1
            let records = state.records.values
                .filter { since == nil ? $0.json.hasSuffix(#""is_active":true}"#) : $0.changedAt > since! }
                .sorted { $0.changedAt < $1.changedAt }
                .map(\.json)
            return .json(200, #"{"branding":[\#(records.joined(separator: ","))],"synced_at":"\#(Self.time(state.clock))","config":{"branding_enabled":true}}"#)
        case ("GET", "/api/mobile/branding/lookup"):
            return .json(404, #"{"error":"not_found"}"#)
        case ("POST", "/api/mobile/branding/event"), ("POST", "/api/mobile/branding/imprint"):
            let kind = request.path.hasSuffix("event") ? "event" : "imprint"
            guard let key = body["event_key"] as? String, body["phone_number_e164"] is String else {
                return .json(400, #"{"error":"invalid_request","message":"event_key and phone_number_e164 are required"}"#)
            }
            if state.keys[key] == nil {
                state.keys[key] = "evt_\(state.keys.count + 1)"
                state.billed.append(Billed(kind: kind, bytes: request.body))
            }
            return .json(200, #"{"success":true,"event_id":"\#(state.keys[key]!)"}"#)
        default:
            return .json(404, #"{"error":"not_found"}"#)
        }
    }

    private static func query(_ query: String?, _ name: String) -> String? {
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2, parts[0] == name { return parts[1].removingPercentEncoding ?? parts[1] }
        }
        return nil
    }

    private static let epoch = Date(timeIntervalSince1970: 1_735_689_600)

    private static func time(_ tick: Int) -> String {
        ISO8601DateFormatter().string(from: epoch.addingTimeInterval(Double(tick)))
    }

    private static func parse(_ text: String) -> Int? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let date = formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
        return date.map { Int(($0.timeIntervalSince(epoch)).rounded()) }
    }
}

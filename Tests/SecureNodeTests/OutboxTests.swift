import ClientRuntime
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTPTypes
import LoopbackHTTPServer
import OpenAPIURLSession
import ProcessTestSupport
import Resilience
import SecureNodeEngine
import SecureNodeAPI
import Testing
import Waiting

/// The billing outbox: events recorded with a fixed key, delivered over
/// real HTTP, retried with the same key, dropped and counted when refused,
/// and never lost or applied twice when the delivering process is killed.
@Suite struct OutboxTests {
    static func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func event(_ index: Int, key: String? = nil) -> UsageEventRequest {
        UsageEventRequest(
            phoneNumberE164: "+1555\(1_000_000 + index)", outcome: "displayed", surface: "incoming_call",
            displayedAt: Date(timeIntervalSince1970: 1_704_067_200), deviceID: "device-1", eventKey: key,
            meta: EventMeta(callEventID: "call-\(index)", brandingApplied: true))
    }

    static func transport() -> URLSessionTransport {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        return URLSessionTransport(configuration: .init(session: URLSession(configuration: configuration)))
    }

    /// The JSON fields the fake server reads from an event body.
    static func keyAndCall(_ request: LoopbackHTTPServer.Request) -> (key: String, call: String)? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
            let key = object["event_key"] as? String, let meta = object["meta"] as? [String: Any], let call = meta["call_event_id"] as? String
        else { return nil }
        return (key, call)
    }

    @Test func keysAreFixedAtRecordingAndSurviveReopening() throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("outbox.sqlite").path
        let outbox = try BillingOutbox(path: path)
        let generated = try outbox.record(Self.event(1))
        #expect(generated.count == 36 && generated == generated.lowercased(), "a lowercase UUID")
        let given = try outbox.record(Self.event(2, key: "key-2"))
        #expect(given == "key-2")
        try outbox.record(Self.event(2, key: "key-2"))  // the same event again
        try outbox.record(ImprintRequest(phoneNumberE164: "+15551000003", eventKey: "imprint-3", brandID: "brand_1"))
        let reopened = try BillingOutbox(path: path)
        let due = try reopened.due(at: Date())
        #expect(due.map(\.eventKey) == [generated, "key-2", "imprint-3"])
        #expect(due.map(\.kind) == [.callEvent, .callEvent, .imprint])
        #expect(try reopened.counts() == BillingOutbox.Counts(pending: 3, delivered: 0, dropped: 0))
        let body = try JSONSerialization.jsonObject(with: due[0].payload) as? [String: Any]
        #expect(body?["event_key"] as? String == generated, "the key is in the stored body, so every attempt sends it")
    }

    @Test func failuresAreClassified() {
        func apiError(_ status: Int, _ headers: HTTPFields = [:]) -> APIError<ErrorResponse> {
            APIError(operationID: "recordBrandingEvent", status: status, headerFields: headers,
                body: try! JSONCoding.makeDecoder().decode(ErrorResponse.self, from: Data("{}".utf8)), rawBody: Data())
        }
        #expect(OutboxDelivery.disposition(for: apiError(400)) == .drop(status: 400, reason: "error body"))
        #expect(OutboxDelivery.disposition(for: apiError(401)) == .pause(status: 401))
        #expect(OutboxDelivery.disposition(for: ResponseDecodingError(operationID: "x", status: 403, field: "", reason: "not JSON"))
            == .pause(status: 403))
        #expect(OutboxDelivery.disposition(for: ResponseDecodingError(operationID: "x", status: 400, field: "", reason: "not JSON"))
            == .retry(notBefore: nil), "a 400 without the server's error body is not a statement about the event")
        #expect(OutboxDelivery.disposition(for: UndocumentedResponseError(operationID: "x", response: HTTPResponse(status: 422), body: Array(#"{"error":"bad_meta"}"#.utf8)))
            == .drop(status: 422, reason: "bad_meta"))
        #expect(OutboxDelivery.disposition(for: apiError(408)) == .retry(notBefore: nil))
        #expect(OutboxDelivery.disposition(for: apiError(429, [.retryAfter: "7"])) == .retry(notBefore: .seconds(7)))
        #expect(OutboxDelivery.disposition(for: apiError(503, [.retryAfter: "99999999999"])) == .retry(notBefore: .seconds(3600)), "capped at an hour, as every durable queue")
        #expect(OutboxDelivery.disposition(for: UndocumentedResponseError(operationID: "x", response: HTTPResponse(status: 503), body: []))
            == .retry(notBefore: nil))
        #expect(OutboxDelivery.disposition(for: UndocumentedResponseError(operationID: "x", response: HTTPResponse(status: 404), body: []))
            == .retry(notBefore: nil), "a 404 says the route is missing (a wrong mount), not that the event is bad")
        #expect(OutboxDelivery.disposition(for: URLError(.timedOut)) == .retry(notBefore: nil))
        #expect(OutboxDelivery.disposition(for: ResponseDecodingError(operationID: "x", status: 200, field: "success", reason: "missing"))
            == .delivered(eventID: nil))
    }

    @Test func deliveryRetriesWithTheSameKeyAndDropsRefusals() async throws {
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outbox = try BillingOutbox(path: folder.appendingPathComponent("outbox.sqlite").path)
        for index in 0..<3 { try outbox.record(Self.event(index, key: "key-\(index)")) }
        // key-0: accepted; key-1: refused (400); key-2: 503 twice, then accepted.
        let server = try LoopbackHTTPServer { request in
            guard request.method == "POST", request.path == "/api/mobile/branding/event", let (key, _) = Self.keyAndCall(request) else {
                return .json(404, "{}")
            }
            switch key {
            case "key-1": return .json(400, #"{"error":"invalid_request","message":"bad outcome"}"#)
            case "key-2" where request.sequenceNumber < 5: return .json(503, "{}")
            default: return .json(200, #"{"success":true,"event_id":"evt_1"}"#)
            }
        }
        defer { server.shutdown() }
        let client = SecureNodeAPI.Client(serverURL: server.baseURL, transport: Self.transport())
        let delivery = OutboxDelivery(outbox: outbox, client: client, backoff: BackoffPolicy(baseDelay: .milliseconds(10), maximumDelay: .milliseconds(20)), concurrency: 1)
        try await delivery.deliverUntilEmpty()
        #expect(try outbox.counts() == BillingOutbox.Counts(pending: 0, delivered: 2, dropped: 1))
        let keys = server.requests.compactMap { Self.keyAndCall($0)?.key }
        #expect(keys.filter { $0 == "key-2" }.count >= 2, "key-2 was retried with its key")
        #expect(Set(keys) == ["key-0", "key-1", "key-2"], "no attempt invented a key")
        #expect(keys.filter { $0 == "key-1" }.count == 1, "a refusal is not retried")
    }

    /// The delivering process's executable, beside the test bundle.
    static let child = ChildProcess.executable(named: "outbox-delivery-child")

    /// The fake server's books: what it applied, by key and by call.
    final class Ledger: @unchecked Sendable {
        // `@unchecked Sendable` is safe: every property is read and written
        // only while `lock` is held.
        let lock = NSLock()
        var keysByCall: [String: Set<String>] = [:]
        var appliedKeys = Set<String>()
        var requests = 0
        var dropped = 0
        var generator = SystemRandomNumberGenerator()
    }

    /// 10,000 events and 100 kills in `make test-heavy` and CI; 600 and 12 in `make test`.
    static let (eventCount, launches) = ExperimentScale.pick(full: (10_000, 100), sample: (600, 12))

    @Test(.timeLimit(.minutes(10))) func eventsSurviveKillsAndDroppedResponses() async throws {
        let executable = try #require(Self.child, "outbox-delivery-child must be built beside the test bundle")
        let folder = try Self.makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("outbox.sqlite").path
        let eventCount = Self.eventCount
        let outbox = try BillingOutbox(path: path)
        for index in 0..<eventCount { try outbox.record(Self.event(index)) }

        let ledger = Ledger()
        // `Connection: close` on every response: URLSession on Linux spins and
        // stalls when a kept-alive connection is closed without an answer.
        let server = try LoopbackHTTPServer(keepAlive: false) { request in
            guard let (key, call) = Self.keyAndCall(request) else { return .json(400, #"{"error":"invalid_request"}"#) }
            ledger.lock.lock()
            defer { ledger.lock.unlock() }
            ledger.requests += 1
            // Dedupe by event_key: a key seen before is acknowledged, not applied again.
            if ledger.appliedKeys.insert(key).inserted { ledger.keysByCall[call, default: []].insert(key) }
            // 30% of responses are lost after the event was applied.
            if Int.random(in: 0..<100, using: &ledger.generator) < 30 {
                ledger.dropped += 1
                return .dropConnection
            }
            return .json(200, #"{"success":true,"event_id":"evt"}"#)
        }
        defer { server.shutdown() }

        /// One launch of the delivering process; killed once it has delivered
        /// `killAfter` more events (a point of its progress, not a time), or let finish.
        @Sendable func launch(killAfter: Int?) throws -> (killed: Bool, status: Int32?) {
            let log = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-child-\(UUID().uuidString).out")
            defer { try? FileManager.default.removeItem(at: log) }
            let child = try SpawnedProcess(executable, arguments: [path, server.baseURL.absoluteString], output: log)
            guard let killAfter else { return (false, child.wait()) }
            let reached = ChildOutput(file: log).waitForLines { lines in
                let counts = lines.compactMap { $0.hasPrefix("delivered ") ? Int($0.dropFirst(10)) : nil }
                return lines.contains("empty") || (counts.last ?? 0) - (counts.first ?? 0) >= killAfter
            }
            let killed = reached != nil && child.kill()
            child.wait()
            return (killed, nil)
        }
        // The launches wait on a thread of their own, off the test pool.
        let (kills, lastStatus) = try await onOwnThread { () throws -> (Int, Int32?) in
            var kills = 0
            for _ in 0..<Self.launches {
                if try launch(killAfter: Int.random(in: 1...50)).killed { kills += 1 }
            }
            return (kills, try launch(killAfter: nil).status)
        }
        #expect(lastStatus == 0)

        let counts = try BillingOutbox(path: path).counts()
        let (applied, doubleApplied, requests, dropped) = ledger.lock.withLock {
            (ledger.keysByCall.count, ledger.keysByCall.values.filter { $0.count > 1 }.count, ledger.requests, ledger.dropped)
        }
        let lost = eventCount - applied
        print("outbox: \(eventCount) events, \(kills) kills, \(dropped) responses dropped, applied \(applied), lost \(lost), "
            + "double-applied \(doubleApplied), deliveries per event \(String(format: "%.2f", Double(requests) / Double(eventCount)))")
        #expect(kills >= Self.launches * 9 / 10, "the process must be killed mid-delivery, not after it finished")
        #expect(counts.pending == 0)
        #expect(applied == eventCount)
        #expect(lost == 0)
        #expect(doubleApplied == 0)
    }
}

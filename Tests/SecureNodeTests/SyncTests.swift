import BrandingStore
import ClientRuntime
import Foundation
import LoopbackHTTPServer
import OpenAPIURLSession
import Resilience
import SecureNodeEngine
import SecureNodeAPI
import Testing
import Waiting

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A scripted SecureNode server on a loopback socket: tests set what the
/// next responses are and read what was asked.
final class FakeSecureNode: @unchecked Sendable {
    // `@unchecked Sendable` is safe: `routes` is read and written only while
    // `lock` is held; `server` is immutable after `init`.
    private let lock = NSLock()
    private var routes: [String: LoopbackHTTPServer.Reply] = [:]
    private(set) var server: LoopbackHTTPServer!

    init() throws {
        // `weak`: a request an SDK's background work sends after its test
        // has ended (and this fake is gone) gets a 503 rather than a read of
        // freed memory (an `unowned` capture trapped here, once in a few runs).
        server = try LoopbackHTTPServer(keepAlive: false) { [weak self] request in
            guard let self else { return .json(503, #"{"error":"gone"}"#) }
            return self.lock.withLock { self.routes["\(request.method) \(request.path)"] } ?? .json(404, #"{"error":"not_found"}"#)
        }
    }

    /// Answers `METHOD /path` with `reply` from now on.
    func route(_ route: String, _ reply: LoopbackHTTPServer.Reply) {
        lock.withLock { routes[route] = reply }
    }

    /// Registers the device and takes its heartbeats, as the server does.
    func acceptDevice() {
        route("POST /api/mobile/device/register", .json(200, #"{"success":true,"device_id":"device-1"}"#))
        route("POST /api/mobile/device/presence", .json(200, #"{"success":true}"#))
    }

    /// The requests to `path` so far.
    func requests(_ path: String) -> [LoopbackHTTPServer.Request] { server.requests.filter { $0.path == path } }

    static func record(_ e164: String, _ name: String, active: Bool = true, extra: String = "") -> String {
        #"{"phone_number_e164":"\#(e164)","brand_name":"\#(name)","brand_id":"brand_1","logo_url":null,"call_reason":"Appointment","updated_at":"2024-01-01T00:00:00Z","is_active":\#(active)\#(extra)}"#
    }

    static func sync(_ records: [String], syncedAt: String, config: String = #"{"branding_enabled":true}"#) -> String {
        #"{"branding":[\#(records.joined(separator: ","))],"synced_at":"\#(syncedAt)","config":\#(config)}"#
    }

    static func transport() -> URLSessionTransport {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        return URLSessionTransport(configuration: .init(session: URLSession(configuration: configuration)))
    }

    func client() -> SecureNodeAPI.Client {
        SecureNodeAPI.Client(serverURL: server.baseURL, transport: Self.transport())
    }
}

func makeFolder(_ name: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

/// The sync engine against a loopback server: full then incremental with
/// the cursor, malformed responses, network and auth failures, calls.
@Suite struct SyncTests {
    let fake: FakeSecureNode
    let folder: URL
    let store: BrandingStore
    let calls = CallActivity()
    let engine: BrandingSync

    init() throws {
        fake = try FakeSecureNode()
        folder = try makeFolder("sync")
        store = try BrandingStore(path: folder.appendingPathComponent("branding.sqlite").path)
        engine = BrandingSync(store: store, client: fake.client(), deviceID: "device-1", calls: calls)
    }

    func goodFullSync() async throws {
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([
            FakeSecureNode.record("+61412345678", "Acme Bank"), FakeSecureNode.record("+1234567890", "Contoso Health"),
        ], syncedAt: "2024-01-02T08:15:00Z")))
        let status = await engine.sync()
        guard case .upToDate(_, .full, let outcome) = status, outcome.stored == 2 else {
            Issue.record("full sync: \(status)")
            return
        }
    }

    @Test func fullThenIncrementalWithTheCursor() async throws {
        #expect(await engine.status == .neverSynced)
        try await goodFullSync()
        let full = try #require(fake.requests("/api/mobile/branding/sync").last)
        #expect(full.target == "/api/mobile/branding/sync?device_id=device-1", "a first sync sends no since")
        #expect(store.lookup(e164: "+61412345678")?.brandName == "Acme Bank")
        #expect(try store.cursor() == "2024-01-02T08:15:00Z")
        #expect(try store.config()?.contains(#""branding_enabled":true"#) == true)

        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([
            FakeSecureNode.record("+61412345678", "Acme Bank v2"), FakeSecureNode.record("+1234567890", "Contoso Health", active: false),
        ], syncedAt: "2024-01-03T12:00:00Z")))
        let status = await engine.sync()
        guard case .upToDate(_, .incremental, let outcome) = status else {
            Issue.record("incremental sync: \(status)")
            return
        }
        #expect(outcome.stored == 1 && outcome.deleted == 1)
        let incremental = try #require(fake.requests("/api/mobile/branding/sync").last)
        #expect(incremental.query?.contains("since=2024-01-02T08%3A15%3A00Z") == true || incremental.query?.contains("since=2024-01-02T08:15:00Z") == true,
            "the stored cursor is sent as since: \(incremental.target)")
        #expect(store.lookup(e164: "+61412345678")?.brandName == "Acme Bank v2")
        #expect(store.lookup(e164: "+1234567890") == nil)
        #expect(try store.cursor() == "2024-01-03T12:00:00Z")
    }

    @Test func aDamagedRecordCostsOnlyWhatCannotBeReadAndIsFetchedAgain() async throws {
        try await goodFullSync()
        let good = FakeSecureNode.record("+61412345678", "Changed")
        // The README's shape: no brand_id, no is_active.
        let readmeShape = #"{"phone_number_e164":"+447700900123","brand_name":"Readme Shape","updated_at":"2024-01-05T00:00:00Z"}"#
        let wrongType = FakeSecureNode.record("+61400000001", "Wrong").replacingOccurrences(of: #""is_active":true"#, with: #""is_active":"yes""#)
        let missingName = FakeSecureNode.record("+61400000002", "Gone").replacingOccurrences(of: #""brand_name":"Gone","#, with: "")
        let badDate = FakeSecureNode.record("+61400000003", "Date").replacingOccurrences(of: "2024-01-01T00:00:00Z", with: "yesterday")
        let badNumber = FakeSecureNode.record("+0400", "Number")
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync(
            [wrongType, good, missingName, readmeShape, badDate, badNumber], syncedAt: "2024-02-01T00:00:00Z")))
        let status = await engine.sync()
        guard case .upToDate(_, .incremental, let outcome) = status else {
            Issue.record("a batch with bad records: \(status)")
            return
        }
        #expect(outcome.stored == 3, "the good one, the README's shape, and the one whose updated_at was dropped")
        #expect(outcome.droppedFields == 1)
        #expect(outcome.skipped == 3)
        #expect(outcome.skippedRecords.map(\.index) == [0, 2, 5])
        #expect(outcome.skippedRecords[0].reason.hasPrefix("is_active: "))
        #expect(outcome.skippedRecords[1].reason.hasPrefix("brand_name: "))
        #expect(outcome.skippedRecords[2].reason.hasPrefix("phone_number_e164: "))
        #expect(outcome.skippedRecords.allSatisfy { !$0.reason.contains("6140000") }, "no number in a reason")
        #expect(outcome.retryPending)
        #expect(store.lookup(e164: "+61412345678")?.brandName == "Changed")
        #expect(store.lookup(e164: "+447700900123")?.brandID == "")
        #expect(store.lookup(e164: "+61400000003")?.brandName == "Date")
        #expect(store.lookup(e164: "+61400000001") == nil)
        #expect(try store.cursor() == "2024-02-01T00:00:00Z")
        #expect(try store.nextSyncCursor() == "2024-01-02T08:15:00Z", "the cursor does not pass the records that were not applied")

        // The next sync asks for the same range again; once every record applies, the cursor moves on.
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync(
            [FakeSecureNode.record("+61400000002", "Back")], syncedAt: "2024-02-02T00:00:00Z")))
        guard case .upToDate(_, .incremental, let retried) = await engine.sync() else {
            Issue.record("the retry: \(await engine.status)")
            return
        }
        let retry = try #require(fake.requests("/api/mobile/branding/sync").last)
        #expect(retry.target.contains("2024-01-02T08"), "fetched from the earlier cursor: \(retry.target)")
        #expect(!retried.retryPending && retried.stored == 1)
        #expect(store.lookup(e164: "+61400000002")?.brandName == "Back")
        #expect(try store.nextSyncCursor() == "2024-02-02T00:00:00Z")
    }

    @Test func aDeactivatedNumberNeverShowsItsOldBrandWhateverTheTombstoneLacks() async throws {
        try await goodFullSync()
        #expect(store.lookup(e164: "+61412345678")?.brandName == "Acme Bank")
        // The number was given to someone else: the server sends the bare minimum.
        let bareTombstone = #"{"phone_number_e164":"+61412345678","is_active":false}"#
        let nullNameTombstone = #"{"phone_number_e164":"+1234567890","brand_name":null,"logo_url":"","updated_at":"soon","is_active":false}"#
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([bareTombstone, nullNameTombstone], syncedAt: "2024-02-01T00:00:00Z")))
        guard case .upToDate(_, .incremental, let outcome) = await engine.sync() else {
            Issue.record("tombstones: \(await engine.status)")
            return
        }
        #expect(outcome.deleted == 2 && outcome.skipped == 0 && !outcome.retryPending)
        #expect(store.lookup(e164: "+61412345678") == nil, "the old brand is gone after the sync that deactivated it")
        #expect(store.lookup(e164: "+1234567890") == nil)
        #expect(try store.nextSyncCursor() == "2024-02-01T00:00:00Z")
    }

    @Test func anUnreadableUpdateUnbrandsItsNumberRatherThanLeaveTheOldBrand() async throws {
        try await goodFullSync()
        let blankName = FakeSecureNode.record("+61412345678", "   ")
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([blankName], syncedAt: "2024-02-01T00:00:00Z")))
        guard case .upToDate(_, .incremental, let outcome) = await engine.sync() else {
            Issue.record("an unusable update: \(await engine.status)")
            return
        }
        #expect(outcome.unbranded == 1 && outcome.skipped == 1 && outcome.deleted == 0 && outcome.retryPending)
        #expect(store.lookup(e164: "+61412345678") == nil, "no brand rather than one the server says changed")
        #expect(store.lookup(e164: "+1234567890")?.brandName == "Contoso Health", "the other numbers keep theirs")
    }

    @Test func anInvalidOptionalFieldIsDroppedAndCountedNotTheRecord() async throws {
        try await goodFullSync()
        let emptyLogo = FakeSecureNode.record("+61412345678", "Acme Bank").replacingOccurrences(of: #""logo_url":null"#, with: #""logo_url":"""#)
        let badLogo = FakeSecureNode.record("+1234567890", "Contoso Health").replacingOccurrences(of: #""logo_url":null"#, with: #""logo_url":"not a url""#)
        let emptyReason = FakeSecureNode.record("+447700900123", "Reasonless").replacingOccurrences(of: #""call_reason":"Appointment""#, with: #""call_reason":"""#)
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([emptyLogo, badLogo, emptyReason], syncedAt: "2024-02-01T00:00:00Z")))
        guard case .upToDate(_, .incremental, let outcome) = await engine.sync() else {
            Issue.record("invalid optional fields: \(await engine.status)")
            return
        }
        #expect(outcome.stored == 3 && outcome.droppedFields == 3 && outcome.skipped == 0 && !outcome.retryPending)
        #expect(store.lookup(e164: "+61412345678")?.brandName == "Acme Bank")
        #expect(store.lookup(e164: "+61412345678")?.logoURL == nil)
        #expect(store.lookup(e164: "+1234567890")?.logoURL == nil)
        #expect(store.lookup(e164: "+447700900123")?.brandName == "Reasonless")
        #expect(store.lookup(e164: "+447700900123")?.callReason == nil)
    }

    @Test func aFullSyncWithAnUnreadableRecordIsFullAgainNextTime() async throws {
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync(
            [FakeSecureNode.record("+61412345678", "Acme Bank"), "null"], syncedAt: "2024-01-02T08:15:00Z")))
        guard case .upToDate(_, .full, let outcome) = await engine.sync() else {
            Issue.record("a full sync with an unreadable record: \(await engine.status)")
            return
        }
        #expect(outcome.stored == 1 && outcome.skipped == 1 && outcome.retryPending)
        #expect(try store.nextSyncCursor() == nil)
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync(
            [FakeSecureNode.record("+61412345678", "Acme Bank")], syncedAt: "2024-01-03T00:00:00Z")))
        guard case .upToDate(_, .full, let again) = await engine.sync() else {
            Issue.record("the retry is full: \(await engine.status)")
            return
        }
        #expect(!again.retryPending)
        #expect(fake.requests("/api/mobile/branding/sync").last?.query?.contains("since") != true)
        #expect(try store.nextSyncCursor() == "2024-01-03T00:00:00Z")
    }

    @Test func malformedResponsesChangeNothing() async throws {
        try await goodFullSync()
        let before = try store.allRecords()
        let record = FakeSecureNode.record("+61412345678", "Changed")
        let malformed: [(String, String)] = [
            ("truncated JSON", String(FakeSecureNode.sync([record], syncedAt: "2024-02-01T00:00:00Z").dropLast(12))),
            ("missing synced_at", #"{"branding":[\#(record)]}"#),
            ("bad date", FakeSecureNode.sync([record], syncedAt: "yesterday")),
            ("duplicate numbers", FakeSecureNode.sync([record, FakeSecureNode.record("+61412345678", "Other")], syncedAt: "2024-02-01T00:00:00Z")),
            ("not JSON", "<html>502 Bad Gateway</html>"),
            ("array instead of object", "[]"),
        ]
        for (name, body) in malformed {
            fake.route("GET /api/mobile/branding/sync", .json(200, body))
            let status = await engine.sync()
            guard case .rejected(let reason) = status else {
                Issue.record("\(name): \(status)")
                continue
            }
            #expect(!reason.contains("61412345678"), "\(name): no full number in \(reason)")
            #expect(try store.allRecords() == before, "\(name): the store changed")
            #expect(try store.cursor() == "2024-01-02T08:15:00Z", "\(name): the cursor changed")
        }
        // Over-long values are clamped, not refused: the record is stored shortened.
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([
            FakeSecureNode.record("+61412345678", String(repeating: "N", count: 300)),
            FakeSecureNode.record("+123456789012345678901", "Too long a number"),
        ], syncedAt: "2024-02-01T00:00:00Z")))
        let status = await engine.sync()
        guard case .upToDate(_, _, let outcome) = status else {
            Issue.record("over-long values: \(status)")
            return
        }
        #expect(outcome.clamped == 1 && outcome.skipped == 1)
        #expect(store.lookup(e164: "+61412345678")?.brandName.count == 100)
    }

    @Test func networkFailuresAreSilentAndNamedForWhatHappened() async throws {
        try await goodFullSync()
        fake.route("GET /api/mobile/branding/sync", .dropConnection)
        guard case .connectionLost(let lastSuccess) = await engine.sync(), lastSuccess != nil else {
            Issue.record("a connection cut without an answer is a lost connection: \(await engine.status)")
            return
        }
        fake.route("GET /api/mobile/branding/sync", .json(503, #"{"error":"unavailable"}"#))
        let status = await engine.sync()
        guard case .serverError(503, let lastSuccess) = status, lastSuccess != nil else {
            Issue.record("a 503 is a server error after a success: \(status)")
            return
        }
        // Nobody listening: refused, so unreachable.
        let closed = try ClosedPort()
        let unreachable = BrandingSync(store: store, client: SecureNodeAPI.Client(serverURL: closed.baseURL, transport: FakeSecureNode.transport()))
        let refused = await unreachable.sync()
        withExtendedLifetime(closed) {}
        guard case .offline = refused else {
            Issue.record("a refused connection is offline: \(refused)")
            return
        }
        #expect(store.lookup(e164: "+61412345678")?.brandName == "Acme Bank", "the dataset stays readable")
    }

    /// A sync answer that sends its headers and half its body, then nothing
    /// until the test opens `gate`, the connection left open: a sync that
    /// returns while the gate is closed was ended by the client, not the server.
    static func stalledAnswer(until gate: ReplyGate) -> LoopbackHTTPServer.Reply {
        let body = Array(FakeSecureNode.sync([FakeSecureNode.record("+61412345678", "Changed")], syncedAt: "2024-02-01T00:00:00Z").utf8)
        return .streamed(status: 200, headers: [("Content-Type", "application/json")], length: body.count) { write in
            _ = write(Array(body.prefix(body.count / 2)))
            gate.hold()
        }
    }

    @Test func aStalledAnswerEndsAsATimeoutAtTheSyncsBoundWithNothingApplied() async throws {
        try await goodFullSync()
        let bounded = BrandingSync(store: store, client: fake.client(), deadline: .milliseconds(800))
        let stall = ReplyGate()
        defer { stall.open() }
        fake.route("GET /api/mobile/branding/sync", Self.stalledAnswer(until: stall))
        // The server holds its answer until the end of the test: the sync ends at its own bound.
        guard case .timedOut(let lastSuccess) = await bounded.sync() else {
            Issue.record("a stalled answer is a timeout: \(await bounded.status)")
            return
        }
        #expect(lastSuccess == nil, "this engine never synced")
        #expect(store.lookup(e164: "+61412345678")?.brandName == "Acme Bank", "nothing of the half answer applied")
        #expect(try store.cursor() == "2024-01-02T08:15:00Z")
    }

    @Test func theDefaultTransportEndsAStalledAnswerAtItsStallBound() async throws {
        try await goodFullSync()
        let transport = SecureNodeEngine.urlSessionTransport(timeouts: TransportTimeouts(connect: .seconds(5), read: .seconds(1), transfer: .seconds(24)))
        let viaDefault = BrandingSync(store: store, client: SecureNodeAPI.Client(serverURL: fake.server.baseURL, transport: transport))
        let stall = ReplyGate()
        defer { stall.open() }
        fake.route("GET /api/mobile/branding/sync", Self.stalledAnswer(until: stall))
        // The server never ends its answer before the sync returns: the stall bound (1 s) ends it, not the sync's 30 s.
        guard case .timedOut = await viaDefault.sync() else {
            Issue.record("a stall under the default transport is a timeout: \(await viaDefault.status)")
            return
        }
        #expect(store.lookup(e164: "+61412345678")?.brandName == "Acme Bank")
    }

    @Test func authFailureDisablesUntilReenabled() async throws {
        try await goodFullSync()
        fake.route("GET /api/mobile/branding/sync", .json(401, #"{"error":"unauthorized","message":"invalid API key"}"#))
        #expect(await engine.sync() == .disabled(status: 401))
        let asked = fake.requests("/api/mobile/branding/sync").count
        #expect(await engine.sync() == .disabled(status: 401))
        #expect(fake.requests("/api/mobile/branding/sync").count == asked, "no request while disabled")
        await engine.reenable()
        #expect(await engine.status == .idle)
        fake.route("GET /api/mobile/branding/sync", .json(200, FakeSecureNode.sync([], syncedAt: "2024-01-04T00:00:00Z")))
        guard case .upToDate(_, .incremental, _) = await engine.sync() else {
            Issue.record("after reenable: \(await engine.status)")
            return
        }
    }

    @Test func a401ToReplacedCredentialsDoesNotDisableTheNewOnes() async throws {
        try await goodFullSync()
        let refusal = ReplyGate()
        fake.route("GET /api/mobile/branding/sync", .gated(refusal, .json(401, #"{"error":"unauthorized"}"#)))
        let sync = Task { await engine.sync() }
        try await refusal.waitForArrivals(1)
        await engine.reenable()  // new credentials configured while the old ones were being refused
        refusal.open()
        #expect(await sync.value.isDisabled == false)
        fake.route("GET /api/mobile/branding/sync", .json(401, #"{"error":"unauthorized"}"#))
        #expect(await engine.sync() == .disabled(status: 401), "a 401 to the current credentials disables")
    }

    @Test func noSyncWhileACallIsHandled() async throws {
        calls.callStarted()
        #expect(await engine.sync() == .deferredForCall)
        #expect(fake.requests("/api/mobile/branding/sync").isEmpty, "nothing was asked during the call")
        calls.callEnded()
        try await goodFullSync()

        // A call that starts while the response is on its way: not applied.
        let answer = ReplyGate()
        fake.route("GET /api/mobile/branding/sync", .gated(answer, .json(200, FakeSecureNode.sync([
            FakeSecureNode.record("+61412345678", "During the call"),
        ], syncedAt: "2024-03-01T00:00:00Z"))))
        let sync = Task { await engine.sync() }
        try await answer.waitForArrivals(1)
        calls.callStarted()
        answer.open()
        #expect(await sync.value == .deferredForCall)
        calls.callEnded()
        #expect(store.lookup(e164: "+61412345678")?.brandName == "Acme Bank")
        #expect(try store.cursor() == "2024-01-02T08:15:00Z")
    }

    @Test func statusChangesAreObservable() async throws {
        let updates = await engine.statusUpdates()
        try await goodFullSync()
        var seen: [BrandingSyncStatus] = []
        for await status in updates {
            seen.append(status)
            if case .upToDate = status { break }
        }
        #expect(seen.first == .neverSynced)
        #expect(seen.contains(.syncing))
    }

    @Test func aMissAsksTheServerInTheBackground() async throws {
        try await goodFullSync()
        fake.route("GET /api/mobile/branding/lookup", .json(200,
            #"{"e164":"+447700900123","brand_name":"Northwind","logo_url":null,"call_reason":"Delivery","updated_at":"2024-01-05T00:00:00Z"}"#))
        let fallback = LookupFallback(store: store, client: fake.client())
        #expect(store.lookup(e164: "+447700900123") == nil)
        let found = await fallback.resolve(e164: "+447700900123")
        #expect(found?.brandName == "Northwind")
        #expect(store.lookup(e164: "+447700900123")?.callReason == "Delivery", "the answer is stored for the next call")
        #expect(try store.cursor() == "2024-01-02T08:15:00Z", "the cursor is not moved by a lookup")
        #expect(fake.requests("/api/mobile/branding/lookup").first?.query == "e164=%2B447700900123")
        // Not asked again within the quiet period.
        #expect(await fallback.resolve(e164: "+447700900123") == nil)
        #expect(fake.requests("/api/mobile/branding/lookup").count == 1)
    }
}

import ClientRuntime
import ClientRuntimeTesting
import Foundation
import HTTPTypes
import LoopbackHTTPServer
import OpenAPIRuntime
import Resilience
import RuntimeSupport
import Testing
import Waiting

/// The response cache over loopback: what is stored, what is served, when,
/// and to whom.
@Suite struct ResponseCacheTests {
    static let listNotes = OperationDescriptor(id: "listNotes", method: .get, pathTemplate: "/notes", security: [])
    static let privateNotes = OperationDescriptor(
        id: "privateNotes", method: .get, pathTemplate: "/me/notes", security: [[SecuritySchemeDescriptor(name: "bearer", kind: .http(scheme: "bearer"))]])

    /// A cache in a fresh folder, a server answering with `reply`, and a
    /// client whose stack is the cache middleware.
    struct Fixture {
        let folder: URL
        let cache: ResponseCache
        let server: LoopbackHTTPServer
        let client: TestClient
        let connectivity = Connectivity(isOnline: true)
        let clock = ManualClock()

        /// `folder`: another fixture's, for a relaunch over its files.
        init(
            folder: URL = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)"), maximumBytes: Int = 1 << 20,
            reply: @escaping @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply
        ) throws {
            self.folder = folder
            let clock = clock
            cache = ResponseCache(folder: folder, maximumBytes: maximumBytes, now: { clock.now })
            server = try LoopbackHTTPServer(handler: reply)
            client = TestClient(server: server, middlewares: [ResponseCacheMiddleware(cache: cache, connectivity: connectivity)], timeout: 30)
        }

        /// Sends `GET path` as `operation`; the body and where it came from.
        func get(_ path: String = "/notes", as operation: OperationDescriptor = listNotes) async throws -> (body: String, source: ResponseSource) {
            let ((_, body), source) = try await ResponseSourceRecording.record {
                try await OperationDescriptor.$current.withValue(operation) { try await client.send(.get, path, operationID: operation.id) }
            }
            return (body, source)
        }

        func advance(seconds: TimeInterval) { clock.advance(by: seconds) }

        var storedFiles: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".response") } }

        func cleanUp() {
            server.shutdown()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    @Test func aFreshResponseIsServedWithoutARequestAndThenRevalidatedWithItsValidator() async throws {
        let fixture = try Fixture { request in
            if request.header("If-None-Match") == "\"v1\"" { return .respond(status: 304, headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=60")]) }
            return .json(200, #"["a"]"#, headers: [("ETag", "\"v1\""), ("Cache-Control", "max-age=60")])
        }
        defer { fixture.cleanUp() }
        #expect(try await fixture.get().source == .network)
        fixture.advance(seconds: 30)
        let fresh = try await fixture.get()
        #expect(fresh.body == #"["a"]"# && fresh.source == .cache(age: .seconds(30)))
        #expect(fixture.server.requests.count == 1, "a fresh response needs no request")
        fixture.advance(seconds: 31)
        let revalidated = try await fixture.get()
        #expect(revalidated.body == #"["a"]"# && revalidated.source == .revalidated)
        #expect(fixture.server.requests.count == 2)
        #expect(fixture.server.requests.last?.header("If-None-Match") == "\"v1\"")
        #expect(try await fixture.get().source == .cache(age: .zero), "the 304 made it fresh again")
    }

    @Test func aFolderThatCannotBeProtectedKeepsNothing() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cache-\(UUID().uuidString)")
        DataAtRest.refuse(under: folder)
        defer { DataAtRest.stopRefusing(under: folder) }
        let fixture = try Fixture(folder: folder) { _ in .json(200, #"["a"]"#, headers: [("Cache-Control", "max-age=60")]) }
        defer { fixture.cleanUp() }
        fixture.cache.signIn(subject: "alice")
        #expect(try await fixture.get().source == .network)
        #expect(try await fixture.get().source == .network, "nothing was kept to answer from")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).isEmpty, "no answer and no subject on disk")
    }

    @Test func lastModifiedIsSentBackAndAResponseWithoutFreshnessIsRevalidatedEachTime() async throws {
        let fixture = try Fixture { request in
            request.header("If-Modified-Since") == "Tue, 24 Nov 2026 10:00:00 GMT"
                ? .respond(status: 304) : .json(200, "[1]", headers: [("Last-Modified", "Tue, 24 Nov 2026 10:00:00 GMT")])
        }
        defer { fixture.cleanUp() }
        _ = try await fixture.get()
        #expect(try await fixture.get().source == .revalidated)
        #expect(try await fixture.get().source == .revalidated)
        #expect(fixture.server.requests.count == 3, "no freshness stated, no heuristic: every use asks the server")
    }

    @Test func noStoreIsNeverWrittenAndRemovesWhatWasStored() async throws {
        let noStore = Locked(false)
        let fixture = try Fixture { _ in
            .json(200, "[2]", headers: noStore.withLock { $0 } ? [("Cache-Control", "private, no-store")] : [("ETag", "\"x\"")])
        }
        defer { fixture.cleanUp() }
        _ = try await fixture.get()
        #expect(fixture.storedFiles.count == 1)
        noStore.withLock { $0 = true }
        #expect(try await fixture.get().source == .network)
        #expect(fixture.storedFiles.isEmpty, "no-store: the response is not written, and the older one is gone")
        fixture.server.shutdown()
        await #expect(throws: (any Error).self) { try await fixture.get() }
    }

    @Test func aRequestSayingNoStoreBypassesTheCache() async throws {
        let fixture = try Fixture { _ in .json(200, "[3]", headers: [("Cache-Control", "max-age=600")]) }
        defer { fixture.cleanUp() }
        let ((_, _), source) = try await ResponseSourceRecording.record {
            try await OperationDescriptor.$current.withValue(Self.listNotes) {
                try await fixture.client.send(.get, "/notes", operationID: "listNotes", headers: [.cacheControl: "no-store"])
            }
        }
        #expect(source == .network)
        #expect(fixture.storedFiles.isEmpty)
    }

    @Test func staleAnswersWhenTheServerCannotBeReachedOrTheDeviceIsOffline() async throws {
        let fixture = try Fixture { _ in .json(200, #"["kept"]"#, headers: [("ETag", "\"1\"")]) }
        defer { fixture.cleanUp() }
        _ = try await fixture.get()
        fixture.advance(seconds: 90)
        await fixture.connectivity.update(isOnline: false)
        let offline = try await fixture.get()
        #expect(offline.body == #"["kept"]"# && offline.source == .cache(age: .seconds(90)))
        #expect(fixture.server.requests.count == 1, "nothing is sent while the device is reported offline")
        await #expect(throws: DeviceOfflineError(operationID: "listNotes")) { try await fixture.get("/notes?page=2") }
        await fixture.connectivity.update(isOnline: true)
        fixture.server.shutdown()
        let unreachable = try await fixture.get()
        #expect(unreachable.body == #"["kept"]"# && unreachable.source == .cache(age: .seconds(90)), "connection refused: the stale copy")
    }

    @Test func aReadTheCacheCannotAnswerFailsAtOnceWhileKnownOffline() async throws {
        let never = OperationDescriptor(id: "balance", method: .get, pathTemplate: "/balance", security: [], cache: .never)
        let fixture = try Fixture { _ in .json(200, "5") }
        defer { fixture.cleanUp() }
        await fixture.connectivity.update(isOnline: false)
        // Not cacheable, and protected with nobody signed in: neither waits for the network.
        await #expect(throws: DeviceOfflineError(operationID: "balance")) { try await fixture.get("/balance", as: never) }
        await #expect(throws: DeviceOfflineError(operationID: "privateNotes")) { try await fixture.get("/me/notes", as: Self.privateNotes) }
        #expect(fixture.server.requests.isEmpty, "nothing is sent while the device is reported offline")
    }

    @Test func aResponseArrivingAfterSignOutIsNotKept() async throws {
        let answer = ReplyGate()
        let fixture = try Fixture { _ in .gated(answer, .json(200, "[1]", headers: [("Cache-Control", "max-age=600")])) }
        defer { fixture.cleanUp() }
        fixture.cache.signIn(subject: "user:1")
        async let late = fixture.get("/me/notes", as: Self.privateNotes)
        try await answer.waitForArrivals(1)
        fixture.cache.signOut()
        answer.open()
        #expect(try await late.source == .network)
        #expect(fixture.storedFiles.isEmpty, "the signed-out user's response is not written back")
    }

    @Test func mustRevalidateIsNeverServedStale() async throws {
        let fixture = try Fixture { _ in .json(200, "[4]", headers: [("Cache-Control", "max-age=10, must-revalidate")]) }
        defer { fixture.cleanUp() }
        _ = try await fixture.get()
        fixture.advance(seconds: 11)
        await fixture.connectivity.update(isOnline: false)
        await #expect(throws: DeviceOfflineError.self) { try await fixture.get() }
    }

    @Test func theSpecsMaxAgeAppliesWhenTheServerStatesNoFreshness() async throws {
        let latest = OperationDescriptor(id: "latest", method: .get, pathTemplate: "/latest", security: [], cache: .maxAge(seconds: 60))
        let never = OperationDescriptor(id: "balance", method: .get, pathTemplate: "/balance", security: [], cache: .never)
        let fixture = try Fixture { _ in .json(200, "5") }
        defer { fixture.cleanUp() }
        _ = try await fixture.get("/latest", as: latest)
        #expect(try await fixture.get("/latest", as: latest).source == .cache(age: .zero))
        _ = try await fixture.get("/balance", as: never)
        #expect(try await fixture.get("/balance", as: never).source == .network, "x-cache: false")
        #expect(fixture.storedFiles.count == 1)
    }

    @Test func oneSubjectNeverReadsAnothersResponses() async throws {
        let fixture = try Fixture { request in .json(200, #"["of \#(request.header("X-User") ?? "?")"]"#, headers: [("Cache-Control", "private, max-age=600")]) }
        defer { fixture.cleanUp() }
        func get(as user: String) async throws -> (body: String, source: ResponseSource) {
            let ((_, body), source) = try await ResponseSourceRecording.record {
                try await OperationDescriptor.$current.withValue(Self.privateNotes) {
                    try await fixture.client.send(.get, "/me/notes", operationID: "privateNotes", headers: [HTTPField.Name("X-User")!: user])
                }
            }
            return (body, source)
        }
        _ = try await get(as: "nobody")
        #expect(fixture.storedFiles.isEmpty, "a protected response with nobody signed in is not kept")
        fixture.cache.signIn(subject: "alice")
        _ = try await get(as: "alice")
        #expect(fixture.storedFiles.count == 1)
        fixture.cache.signIn(subject: "bob")
        #expect(fixture.storedFiles.isEmpty, "bob's sign-in deletes alice's entries: nothing of one user is left to the next")
        await fixture.connectivity.update(isOnline: false)
        await #expect(throws: DeviceOfflineError.self, "bob offline gets nothing of alice's") { try await get(as: "bob") }
        await fixture.connectivity.update(isOnline: true)
        #expect(try await get(as: "bob").body == #"["of bob"]"#)
        // Signing in again as the same user keeps that user's entries.
        fixture.cache.signIn(subject: "bob")
        #expect(fixture.storedFiles.count == 1)
        fixture.cache.signIn(subject: "alice")
        #expect(try await get(as: "alice").body == #"["of alice"]"#)
        #expect(fixture.storedFiles.count == 1, "bob's entry went with alice's sign-in")
        // A relaunch keeps the signed-in subject; signing out deletes every user's entries.
        let relaunched = ResponseCache(folder: fixture.folder)
        #expect(relaunched.subject == "alice")
        relaunched.signOut()
        #expect(relaunched.subject == nil)
        #expect(fixture.storedFiles.isEmpty)
    }

    @Test func theCacheIsBoundedAndEvictsTheOldestFirst() async throws {
        let body = String(repeating: "x", count: 3000)
        let fixture = try Fixture(maximumBytes: 9_000) { _ in .json(200, #""\#(body)""#, headers: [("Cache-Control", "max-age=600")]) }
        defer { fixture.cleanUp() }
        for page in 1...4 {
            _ = try await fixture.get("/notes?page=\(page)")
            fixture.advance(seconds: 1)
        }
        #expect(fixture.cache.totalBytes <= 9_000)
        #expect(fixture.storedFiles.count == 2, "4 entries of about 3.3 kB in 9 kB: the 2 oldest were evicted")
        #expect(try await fixture.get("/notes?page=4").source != .network)
        #expect(try await fixture.get("/notes?page=1").source == .network)
    }

    @Test func aTornEntryIsAMissNotACrash() async throws {
        let reply: @Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply = { _ in .json(200, "[6]", headers: [("Cache-Control", "max-age=600")]) }
        let fixture = try Fixture(reply: reply)
        defer { fixture.cleanUp() }
        _ = try await fixture.get()
        let file = fixture.folder.appendingPathComponent(try #require(fixture.storedFiles.first))
        let bytes = try Data(contentsOf: file)
        try bytes.prefix(bytes.count / 2).write(to: file)
        #expect(try await fixture.get().source == .cache(age: .zero), "this process holds what it wrote")
        // The next launch finds the torn file (a power cut during the write).
        let relaunched = try Fixture(folder: fixture.folder, reply: reply)
        defer { relaunched.server.shutdown() }
        #expect(try await relaunched.get().source == .network, "half an entry is no entry")
        #expect(try await relaunched.get().source == .cache(age: .zero), "and it was replaced")
    }

    @Test func theNewestEntriesAreHeldOnceTheOldestFillTheMemory() async throws {
        let body = String(repeating: "x", count: 30_000)
        let fixture = try Fixture(maximumBytes: 8 << 20) { _ in .json(200, #""\#(body)""#, headers: [("Cache-Control", "max-age=600")]) }
        defer { fixture.cleanUp() }
        // 40 answers of 30 kB: more than the 1 MiB held in memory.
        for page in 1...40 { _ = try await fixture.get("/notes?page=\(page)") }
        // Every file goes behind the cache's back: only what is held still answers.
        for file in fixture.storedFiles { try FileManager.default.removeItem(at: fixture.folder.appendingPathComponent(file)) }
        #expect(try await fixture.get("/notes?page=40").source == .cache(age: .zero), "the newest is held")
        #expect(try await fixture.get("/notes?page=1").source == .network, "the oldest made room")
    }

    @Test func heldEntriesGoWithTheirFiles() async throws {
        let fixture = try Fixture { _ in .json(200, "[7]", headers: [("Cache-Control", "max-age=600")]) }
        defer { fixture.cleanUp() }
        fixture.cache.signIn(subject: "alice")
        _ = try await fixture.get()
        #expect(try await fixture.get().source == .cache(age: .zero))
        fixture.cache.signOut()
        fixture.cache.signIn(subject: "alice")
        #expect(try await fixture.get().source == .network, "signed out and in again: nothing of before, in memory or on disk")
        #expect(try await fixture.get().source == .cache(age: .zero))
        fixture.cache.removeAll()
        #expect(try await fixture.get().source == .network, "removed: nothing held")
        // The file goes behind the cache's back (another instance over the folder): sign-out still forgets it.
        for file in fixture.storedFiles { try FileManager.default.removeItem(at: fixture.folder.appendingPathComponent(file)) }
        fixture.cache.signOut()
        fixture.cache.signIn(subject: "alice")
        #expect(try await fixture.get().source == .network, "nothing held of a file gone before the sign-out")
    }

    @Test func cacheControlIsReadAsRFC9111Says() {
        let control = CacheControl(["Private, MAX-AGE=\"30\"", "must-revalidate"])
        #expect(control.isPrivate && control.maxAge == 30 && control.mustRevalidate && !control.noStore)
        #expect(CacheControl(["max-age=soon"]).maxAge == 0, "a malformed max-age is stale at once")
        #expect(CacheControl(["no-cache, no-store"]).noStore)
    }
}

import ClientRuntimeTesting
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Resilience
import RuntimeSupport
import SDKCore
import Testing
import Waiting

/// What the Apple adapters are reached through, tested where the tests run:
/// a signal fed by a platform callback (how `NWPathMonitor` feeds
/// `Connectivity.systemPath()`), stores over a platform secret item (how
/// the Keychain stores work), and which platforms dial before sending.
@Suite struct PlatformSeamTests {
    /// A secret item in memory, by service and account, as the Keychain keeps them.
    struct MemoryItem: SecretItem {
        static let items = Locked<[String: Data]>([:])
        let service: String
        let account: String
        init(service: String, account: String) {
            self.service = service
            self.account = account
        }
        var key: String { service + "/" + account }
        func read() throws -> Data? { Self.items.withLock { $0[key] } }
        func write(_ data: Data) throws { Self.items.withLock { $0[key] = data } }
        func delete() throws { Self.items.withLock { $0[key] = nil } }
    }

    @Test func aReportedSignalAppliesTheCallbacksChangesInTheOrderReported() async throws {
        let report = Locked<(@Sendable (Bool) -> Void)?>(nil)
        let connectivity = Connectivity.reported { callback in report.withLock { $0 = callback } }
        #expect(connectivity.source == .reported)
        #expect(await connectivity.isOnline, "online until the first report")
        let send = try #require(report.read())
        // A burst from the platform's queue: the last word wins.
        for online in [false, true, false, true, false] { send(online) }
        #expect(try await eventually { await connectivity.isKnownOffline })
        let reconnected = Locked(0)
        let owner = Locked(0)
        await connectivity.whenOnline(while: owner) { reconnected.withLock { $0 += 1 } }
        send(true)
        #expect(try await eventually { await connectivity.isOnline })
        #expect(try await eventually { reconnected.read() == 1 }, "going online runs the reconnect actions once")
    }

    @Test func aReportedSignalWaitsForTheNetworkUntilTheCallbackSaysOnline() async throws {
        let report = Locked<(@Sendable (Bool) -> Void)?>(nil)
        let connectivity = Connectivity.reported { callback in report.withLock { $0 = callback } }
        let send = try #require(report.read())
        send(false)
        #expect(try await eventually { await connectivity.isKnownOffline })
        let waiter = Task { try await connectivity.waitUntilOnline() }
        try await Task.sleep(for: .milliseconds(50))
        send(true)
        try await waiter.value
        #expect(await connectivity.isOnline)
    }

    @Test func tokenAndKeyStoresKeepTheirSecretInTheItemTheyName() throws {
        let tokens = SecretItemTokenStore<MemoryItem>(service: "com.example.app")
        #expect(tokens.service == "com.example.app" && tokens.account == "refresh-token")
        #expect(try tokens.loadRefreshToken() == nil)
        try tokens.save(refreshToken: "rt-1")
        try tokens.save(refreshToken: "rt-2")
        #expect(try tokens.loadRefreshToken() == "rt-2", "a save replaces the token")
        let keyItem = MemoryItem(service: "com.example.app", account: "api-key")
        let keys = SecretKeyStore(.item(keyItem))
        try keys.saveKey("sk_live_1")
        #expect(try keys.loadKey() == "sk_live_1")
        #expect(try keyItem.read() == Data("sk_live_1".utf8), "kept in the item it names")
        #expect(try tokens.loadRefreshToken() == "rt-2", "the key is an item of its own")
        try tokens.clear()
        try tokens.clear()
        #expect(try tokens.loadRefreshToken() == nil, "clearing twice is fine")
        try keys.deleteKey()
        #expect(try keys.loadKey() == nil)
    }

    @Test func onlyTheTransportWithoutAConnectTimeoutDialsFirst() {
        #if canImport(FoundationNetworking)
        #expect(ConnectTimeoutMiddleware.dialsBeforeSending, "swift-corelibs URLSession has no connect timeout")
        #else
        #expect(!ConnectTimeoutMiddleware.dialsBeforeSending, "Apple's URLSession bounds the connection itself")
        #endif
        let session = TokenSession(store: InMemoryTokenStore(), refresher: ClosureTokenRefresher { _ in throw CancellationError() })
        var connection = ConnectionConfiguration(
            baseURL: URL(string: "https://api.example.com")!, timeouts: TransportTimeouts(connect: .seconds(5), read: .seconds(10)),
            logger: .init(label: "test"), connectivity: nil)
        var stack = SDKMiddlewareStack(connection: connection)
        stack.session = session
        #expect(stack.middlewares().contains { $0 is ConnectTimeoutMiddleware } == ConnectTimeoutMiddleware.dialsBeforeSending, "the SDK's own transport")
        connection.transport = CountingTransport(ScriptedTransport(replies: []))
        #expect(!SDKMiddlewareStack(connection: connection).middlewares().contains { $0 is ConnectTimeoutMiddleware },
            "a transport of the app's own bounds its own connections, and may send elsewhere")
        connection.dialsBeforeSending = true
        #expect(SDKMiddlewareStack(connection: connection).middlewares().contains { $0 is ConnectTimeoutMiddleware }, "unless the app asks")
    }

}

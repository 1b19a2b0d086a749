import BackendDoubles
import ClientRuntimeTesting
import Foundation
import LoopbackHTTPServer
import OpenAPIRuntime
import Resilience
import RuntimeSupport
import SDKCore
import Soul
import Testing

/// A SOUL SDK over a ``SoulBackend`` with a token file in a fresh folder and
/// every log line captured.
struct SoulHarness {
    let backend: SoulBackend
    let folder: URL
    let log = LogCapture()
    let clock = ManualClock()
    var tokenFile: URL { folder.appendingPathComponent("refresh-token.json") }

    init(settings: SoulBackend.Settings = SoulBackend.Settings(), keepAlive: Bool = true) throws {
        backend = try SoulBackend(settings: settings, keepAlive: keepAlive)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("soul-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// A new SDK instance (a new app launch) over the same backend and token file.
    func makeSoul(
        isStaging: Bool = true, timeouts: TransportTimeouts = TransportTimeouts(connect: .seconds(30), read: .seconds(30)),
        connectivity: Connectivity? = nil, retryPolicy: RetryPolicy = RetryPolicy(backoff: BackoffPolicy(baseDelay: .milliseconds(10))),
        baseURL: URL? = nil, transport: (any ClientTransport)? = nil, keepsQueuedWritesAfterSignOut: Bool = false
    ) throws -> Soul {
        let clock = self.clock
        var configuration = Soul.Configuration(
            environment: .init(baseURL: baseURL ?? backend.baseURL, isStaging: isStaging), tokenStore: FileTokenStore(url: tokenFile),
            timeouts: timeouts, transport: transport, retryPolicy: retryPolicy, logger: log.logger(label: "soul"), connectivity: connectivity,
            storageFolder: folder, keepsQueuedWritesAfterSignOut: keepsQueuedWritesAfterSignOut)
        configuration.connection.clock.now = { clock.now }
        return try Soul(configuration)
    }

    /// Signs `soul` in with the staging preview code for `phone`.
    func signIn(_ soul: Soul, phone: String = "+14155550123") async throws {
        let request = try await soul.signIn.requestCode(phone: phone)
        try await soul.signIn.verify(code: request.previewCode ?? "")
    }

    /// Signs in with the staging preview code.
    func signedIn(phone: String = "+14155550123", connectivity: Connectivity? = nil) async throws -> Soul {
        let soul = try makeSoul(connectivity: connectivity)
        try await signIn(soul, phone: phone)
        return soul
    }

    /// Checks that no secret that crossed the wire (token, code, full phone
    /// number) reached a log line, then removes the folder. Every test ends
    /// here, so the whole suite's logs are checked.
    func cleanUp(sourceLocation: SourceLocation = #_sourceLocation) {
        for leak in log.leaks(of: backend.secrets) { Issue.record("secret in a log line: \(leak)", sourceLocation: sourceLocation) }
        try? FileManager.default.removeItem(at: folder)
    }
}

extension Submission {
    /// The server's answer, when the write was sent (nil when it was queued).
    var sent: Value? {
        if case .sent(let value) = self { return value }
        return nil
    }

    /// The queued write, when it was queued.
    var queued: QueuedWrite? {
        if case .queued(let write) = self { return write }
        return nil
    }
}

/// A loopback URL nothing listens on: connections are refused.
func unreachableURL() throws -> URL {
    let port = try ClosedPort()
    unreachablePorts.withLock { $0.append(port) }
    return port.baseURL
}

/// The ports ``unreachableURL()`` handed out, held for the rest of the run
/// so that no server started by another test can take one.
let unreachablePorts = Locked<[ClosedPort]>([])

/// The error a call threw, as a ``SoulError`` (nil when it succeeded; a
/// marker `unexpectedResponse` when something else was thrown).
func soulError<T>(_ call: () async throws -> T) async -> SoulError? {
    do {
        _ = try await call()
        return nil
    } catch let error as SoulError {
        return error
    } catch {
        return .unexpectedResponse(status: -1, reason: "not a SoulError: \(error)")
    }
}

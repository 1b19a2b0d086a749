import BackendDoubles
import ClientRuntimeTesting
import Foundation
import OpenAPIRuntime
import Resilience
import Safepocket
import Testing

/// A Safepocket SDK over a ``SafepocketBackend`` with its files in a fresh
/// folder and every log line captured.
struct SafepocketHarness {
    let backend: SafepocketBackend
    let folder: URL
    let log = LogCapture()
    /// The clock of the backend and of every SDK made here.
    let clock: ManualClock?
    var tokenFile: URL { folder.appendingPathComponent("refresh-token.json") }
    var pendingFile: URL { folder.appendingPathComponent("pending-sign-in.json") }
    static let authorization = AuthorizationConfiguration(
        authorizeEndpoint: URL(string: "https://auth.safepocket.example/oauth2/authorize")!, clientID: "ios-client")

    /// A backend and SDKs on the system clock, or on a `ManualClock` the
    /// test moves (`manualClock`).
    init(keepAlive: Bool = true, manualClock: Bool = false) throws {
        let clock = manualClock ? ManualClock() : nil
        self.clock = clock
        backend = try SafepocketBackend(keepAlive: keepAlive, now: { clock?.now ?? Date() })
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("safepocket-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// A new SDK instance (a new launch) over the same backend and files.
    /// `baseURL` and `transport` replace the backend's URL and the SDK's
    /// URLSession (a transport that reaches the backend another way).
    func makeSafepocket(
        timeouts: TransportTimeouts = TransportTimeouts(connect: .seconds(30), read: .seconds(30)), connectivity: Connectivity? = nil, signInLifetime: Duration = .seconds(600),
        baseURL: URL? = nil, transport: (any ClientTransport)? = nil, pinning: CertificatePinning = .none, isDevelopment: Bool? = nil
    ) throws -> Safepocket {
        let clock = self.clock
        var configuration = Safepocket.Configuration(
            baseURL: baseURL ?? backend.baseURL, authorization: Self.authorization, tokenStore: FileTokenStore(url: tokenFile),
            pendingSignInFile: pendingFile, timeouts: timeouts, transport: transport,
            retryPolicy: RetryPolicy(backoff: BackoffPolicy(baseDelay: .milliseconds(10))), logger: log.logger(label: "safepocket"),
            connectivity: connectivity, storageFolder: folder, signInLifetime: signInLifetime, pinning: pinning, isDevelopment: isDevelopment)
        if let clock { configuration.connection.clock.now = { clock.now } }
        return try Safepocket(configuration)
    }

    /// Signs in through the PKCE flow, the backend playing the hosted UI.
    func signedIn(connectivity: Connectivity? = nil) async throws -> Safepocket {
        let safepocket = try makeSafepocket(connectivity: connectivity)
        let url = try await safepocket.startSignIn()
        guard let redirect = backend.authorize(url) else { throw HarnessError.badAuthorizationURL(url) }
        try await safepocket.completeSignIn(redirect: redirect)
        return safepocket
    }

    /// Checks that no secret that crossed the wire (token, authorization
    /// code, verifier) reached a log line, then removes the folder. Every
    /// test ends here, so the whole suite's logs are checked.
    func cleanUp(sourceLocation: SourceLocation = #_sourceLocation) {
        for leak in log.leaks(of: backend.secrets) { Issue.record("secret in a log line: \(leak)", sourceLocation: sourceLocation) }
        try? FileManager.default.removeItem(at: folder)
    }

    enum HarnessError: Error {
        case badAuthorizationURL(URL)
    }
}

/// The error a call threw, as a ``SafepocketError``.
func safepocketError<T>(_ call: () async throws -> T) async -> SafepocketError? {
    do {
        _ = try await call()
        return nil
    } catch let error as SafepocketError {
        return error
    } catch {
        return .unexpectedResponse(status: -1, reason: "not a SafepocketError: \(error)")
    }
}

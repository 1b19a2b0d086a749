import ClientRuntime
import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
import OpenAPIURLSession
import Resilience
import RuntimeSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How long SecureNode's requests may wait: every wait has a bound, and
/// the ones a background refresh meets fit in the time iOS grants it.
extension SecureNodeEngine {
    /// The bounds of SecureNode's requests.
    ///
    /// | wait | bound | what ends it |
    /// | --- | --- | --- |
    /// | connecting | ``connect`` (5 s) on Linux; the stall bound on Apple platforms | `offline` |
    /// | no byte of an answer | ``stall`` (10 s), the default transport's idle timeout | `timedOut` |
    /// | one attempt of any request but the sync, until its answer starts | ``attempt`` (20 s) | `timedOut` |
    /// | a whole sync, its body included | ``sync`` (120 s) | `timedOut`, nothing applied |
    /// | a background refresh, everything in it | `performBackgroundRefresh(budget:)` (25 s) | `ranOutOfTime` |
    public struct Timeouts: Sendable, Hashable {
        /// The longest wait for a connection (Linux, where the transport
        /// has no connect timeout: `ConnectTimeoutMiddleware`). On Apple
        /// platforms URLSession's idle timeout (``stall``) bounds connecting.
        public var connect: Duration
        /// The longest wait for the next bytes of an answer: the idle
        /// timeout of ``SecureNodeEngine/urlSessionTransport(timeouts:pinning:logger:)``. An
        /// answer that stops arriving ends as a timeout after it.
        public var stall: Duration
        /// The longest one attempt of a request other than the sync may take
        /// until its answer starts (`TimeoutMiddleware`).
        public var attempt: Duration
        /// The longest a sync may take, request and body together; a
        /// dataset that needs longer on a slow network needs a larger bound.
        public var sync: Duration

        /// Bounds; the defaults fit a background refresh.
        public init(connect: Duration = .seconds(5), stall: Duration = .seconds(10), attempt: Duration = .seconds(20), sync: Duration = .seconds(120)) {
            self.connect = connect
            self.stall = stall
            self.attempt = attempt
            self.sync = sync
        }
    }

    /// The URLSession configuration of the SDK's own transport: ephemeral
    /// (no shared cookies or cache), its request timeout the stall bound (an
    /// idle timeout: connecting and each wait for bytes), its resource
    /// timeout the sync's bound.
    public static func urlSessionConfiguration(timeouts: Timeouts = Timeouts()) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeouts.stall.totalSeconds
        configuration.timeoutIntervalForResource = timeouts.sync.totalSeconds
        return configuration
    }

    /// The transport the SDK builds when ``Configuration/transport`` is nil:
    /// URLSession with ``urlSessionConfiguration(timeouts:)`` whose delegate
    /// checks `pinning` and follows no redirect to another host, behind
    /// `CertificatePinningTransport` (a refused connection, a TLS failure or
    /// a redirect elsewhere is a `CertificatePinningError`, with nothing sent).
    public static func urlSessionTransport(
        timeouts: Timeouts = Timeouts(), pinning: CertificatePinning = .none, logger: Logger = Logger(label: "securenode")
    ) -> CertificatePinningTransport {
        SDKTransport.overURLSession(
            pinning: pinning, logger: logger, sessionConfiguration: urlSessionConfiguration(timeouts: timeouts),
            overSession: { URLSessionTransport(configuration: .init(session: $0)) })
    }
}

/// `TimeoutMiddleware` for every operation but the `exempt` ones.
struct AttemptDeadline: ClientMiddleware {
    let deadline: TimeoutMiddleware<ContinuousClock>
    let exempt: Set<String>

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if exempt.contains(operationID) { return try await next(request, body, baseURL) }
        return try await deadline.intercept(request, body: body, baseURL: baseURL, operationID: operationID, next: next)
    }
}

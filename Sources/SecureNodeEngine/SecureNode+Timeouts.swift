import Foundation
import Logging
import OpenAPIRuntime
import OpenAPIURLSession
import Resilience

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How long SecureNode's requests may wait: every wait has a bound, and
/// the ones a background refresh meets fit in the time iOS grants it.
extension SecureNodeEngine {
    /// SecureNode's bounds, in the family's one timeouts type:
    ///
    /// | wait | bound | what ends it |
    /// | --- | --- | --- |
    /// | connecting | `connect` (5 s) on Linux; `read` on Apple platforms | `offline` |
    /// | no byte of an answer | `read` (10 s), the default transport's idle timeout | `timedOut` |
    /// | one attempt of any request but the sync, until its answer starts | `attemptDeadline` (20 s) | `timedOut` |
    /// | a whole sync, its body included | `whole` (5 + 10 + 105: 120 s) | `timedOut`, nothing applied |
    /// | a background refresh, everything in it | `performBackgroundRefresh(budget:)` (25 s) | `ranOutOfTime` |
    ///
    /// A dataset that needs longer than `whole` on a slow network needs a
    /// larger `transfer`.
    public static var defaultTimeouts: TransportTimeouts {
        TransportTimeouts(connect: .seconds(5), read: .seconds(10), transfer: .seconds(105), attemptDeadline: .seconds(20))
    }

    /// The URLSession configuration of the SDK's own transport: ephemeral
    /// (no shared cookies or cache), its request timeout the `read` bound
    /// (an idle timeout: connecting and each wait for bytes), its resource
    /// timeout the sync's bound (`whole`).
    package static func urlSessionConfiguration(timeouts: TransportTimeouts = defaultTimeouts) -> URLSessionConfiguration {
        timeouts.urlSessionConfiguration()
    }

    /// The transport the SDK builds when `Configuration.connection.transport` is nil:
    /// URLSession with ``urlSessionConfiguration(timeouts:)`` whose delegate
    /// checks `pinning` and follows no redirect to another host, behind
    /// `CertificatePinningTransport` (a refused connection, a TLS failure or
    /// a redirect elsewhere is a `CertificatePinningError`, with nothing sent).
    package static func urlSessionTransport(
        timeouts: TransportTimeouts = defaultTimeouts, pinning: CertificatePinning = .none, logger: Logger = .sdkDefault(subsystem: "OpenAPIMobileClients.SecureNode")
    ) -> CertificatePinningTransport {
        SDKTransport.overURLSession(
            pinning: pinning, logger: logger, sessionConfiguration: urlSessionConfiguration(timeouts: timeouts),
            overSession: { URLSessionTransport(configuration: .init(session: $0)) })
    }
}

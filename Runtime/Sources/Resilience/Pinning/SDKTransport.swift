import Foundation
import Logging
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one way the SDKs make the transport every request of theirs goes
/// through (sign-in and token refresh included), so each SDK's connections
/// are verified the same way: a ``CertificatePinningTransport`` over either
/// the app's own transport or a URLSession whose delegate answers the
/// server-trust challenges with the configuration's ``CertificatePinning``
/// and follows redirects only within the origin.
///
/// ```swift
/// let transport = try SDKTransport.make(
///     configured: configuration.transport, pinning: configuration.pinning, logger: logger,
///     sessionConfiguration: configuration.timeouts.urlSessionConfiguration(),
///     overSession: { URLSessionTransport(configuration: .init(session: $0)) })
/// ```
public enum SDKTransport {
    /// The SDK's transport. `configured` (the app's own, nil for the SDK's
    /// URLSession) must enforce `pinning` when anything is pinned: a
    /// ``PinEnforcingTransport`` that says so; otherwise the configuration
    /// is refused with ``PinningConfigurationError/transportDoesNotEnforcePins(transport:)``,
    /// so pins never go silently unchecked. `sessionConfiguration` is the
    /// URLSession's (timeouts; ephemeral; ``sessionConfiguration(_:)`` takes
    /// its cache and cookies away), and
    /// `overSession` makes the transport that sends through it
    /// (swift-openapi-urlsession's, which this module does not link).
    public static func make(
        configured: (any ClientTransport)?, pinning: CertificatePinning, environment: PinningEnvironment = .production, logger: Logger,
        sessionConfiguration: @autoclosure () -> URLSessionConfiguration, overSession: (URLSession) -> any ClientTransport
    ) throws(PinningConfigurationError) -> CertificatePinningTransport {
        if let configured {
            // Already the SDKs' own (SecureNode's `urlSessionTransport`, say): not wrapped twice.
            if let verified = configured as? CertificatePinningTransport, verified.enforces(pinning), verified.evaluator.environment == environment {
                return verified
            }
            let evaluator = ServerTrustEvaluator(pinning: pinning, environment: environment, logger: logger)
            if let enforcing = configured as? any PinEnforcingTransport, enforcing.enforces(pinning) {
                return CertificatePinningTransport(wrapping: configured, evaluator: evaluator, checksConnections: true)
            }
            guard environment == .development || pinning.hosts.isEmpty else {
                throw .transportDoesNotEnforcePins(transport: String(describing: type(of: configured)))
            }
            return CertificatePinningTransport(wrapping: configured, evaluator: evaluator, checksConnections: true)
        }
        return overURLSession(
            pinning: pinning, environment: environment, logger: logger, sessionConfiguration: sessionConfiguration(), overSession: overSession)
    }

    /// `base` as every SDK session has it: a copy that keeps nothing of one
    /// request for the next. No URL cache of Foundation's: the SDK's own
    /// ``ResponseCache`` decides what is served again, per user, purged at
    /// sign-out and protected at rest, where Foundation's, keyed by the URL
    /// alone, would answer the next user with the last one's response (and
    /// on Linux looks every request up on disk). No cookies, stored or
    /// sent: a cookie one user's answer set would go with the next user's
    /// requests (the SDKs authenticate with headers).
    public static func sessionConfiguration(_ base: URLSessionConfiguration) -> URLSessionConfiguration {
        // `URLSessionConfiguration` is a class: change a copy, not the caller's.
        let configuration = base.copy() as! URLSessionConfiguration
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        return configuration
    }

    /// The SDK's own transport: a URLSession with `sessionConfiguration`
    /// whose delegate answers its server-trust challenges with `pinning` and
    /// its redirects with ``RedirectPolicy/sameOrigin``, sent through by the
    /// transport `overSession` makes, behind ``CertificatePinningTransport``.
    /// The session is the transport's: invalidated when the last copy of
    /// the transport `overSession` made goes (with the SDK object that held
    /// it), so an app that makes SDK objects again leaves no session behind.
    public static func overURLSession(
        pinning: CertificatePinning, environment: PinningEnvironment = .production, logger: Logger,
        sessionConfiguration: URLSessionConfiguration, overSession: (URLSession) -> any ClientTransport
    ) -> CertificatePinningTransport {
        let evaluator = ServerTrustEvaluator(pinning: pinning, environment: environment, logger: logger)
        let session = OwnedURLSession(evaluator.urlSession(configuration: Self.sessionConfiguration(sessionConfiguration)))
        return CertificatePinningTransport(wrapping: SessionOwningTransport(wrapped: overSession(session.session), session: session), evaluator: evaluator)
    }
}

import Foundation
import Logging
import RuntimeSupport

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Answers the platform's questions about one SDK's connections: each
/// server-trust challenge with a ``CertificatePinning`` decision in one
/// ``PinningEnvironment``, and each redirect with its ``RedirectPolicy``.
/// It logs and records every refusal, and hands each one to the
/// ``CertificatePinningTransport`` whose request it ended.
///
/// ```swift
/// let evaluator = ServerTrustEvaluator(pinning: pinning, environment: .production, logger: logger)
/// let session = evaluator.urlSession(configuration: .ephemeral)   // its delegate answers the challenges and redirects
/// let transport = CertificatePinningTransport(
///     wrapping: URLSessionTransport(configuration: .init(session: session)), evaluator: evaluator)
/// ```
///
/// On Apple platforms the session's delegate evaluates the chain with
/// `SecTrustEvaluateWithError` first (an Apple adapter) and passes the
/// verdict and the chain's DER here; a refused connection is cancelled
/// before any request byte is sent. swift-corelibs URLSession (Linux) has
/// no server-trust challenge (`NSURLAuthenticationMethodServerTrust` is
/// unavailable there), so ``checksConnections`` is false and a
/// ``CertificatePinningTransport`` refuses pinned hosts in production
/// before sending (fail closed). Redirects are asked about on both.
public final class ServerTrustEvaluator: ServerTrustEvaluating {
    /// The pins.
    public let pinning: CertificatePinning
    /// Production (pins checked) or development (pins off).
    public let environment: PinningEnvironment
    /// Which redirects are followed.
    public let redirects: RedirectPolicy
    /// Where refusals are logged (at `.error`, with the host and the pins
    /// presented and expected: public values, never a secret), and each
    /// development acceptance (at `.warning`).
    public let logger: Logger
    /// The refusals not yet claimed, by host, each with its sequence number.
    private let refusals = Locked(Refusals())
    /// Sessions made by ``urlSession(configuration:)`` not invalidated yet.
    private let sessionsOpen = Locked(0)

    private struct Refusals {
        var sequence: UInt64 = 0
        var latest: [String: (sequence: UInt64, error: CertificatePinningError)] = [:]
    }

    /// An evaluator of `pinning` in `environment`, following redirects by `redirects`.
    public init(
        pinning: CertificatePinning, environment: PinningEnvironment, redirects: RedirectPolicy = .sameOrigin,
        logger: Logger = .sdkDefault(subsystem: "OpenAPIMobileClients.Resilience")
    ) {
        self.pinning = pinning
        self.environment = environment
        self.redirects = redirects
        self.logger = logger
    }

    /// Whether this platform's URLSession lets the app check the server's
    /// certificates (Apple platforms: yes; swift-corelibs URLSession: no).
    public static var checksConnections: Bool {
        #if canImport(Security)
        return true
        #else
        return false
        #endif
    }

    /// A delegate for a URLSession that answers its server-trust challenges
    /// (on Apple platforms) and its redirects here.
    public var urlSessionDelegate: any URLSessionDelegate {
        VerifyingSessionDelegate(evaluator: self)
    }

    /// A URLSession with `configuration` whose server-trust challenges (on
    /// Apple platforms; see ``checksConnections``) and redirects are
    /// answered here.
    ///
    /// The session keeps its delegate, and so this evaluator, until it is
    /// invalidated (on iOS the session itself lives until then, whoever
    /// still holds it): whoever makes one invalidates it when done
    /// (``SDKTransport/overURLSession(pinning:environment:logger:sessionConfiguration:overSession:)``'s
    /// transport does when its last copy goes). ``openSessions`` counts those not invalidated yet.
    public func urlSession(configuration: URLSessionConfiguration) -> URLSession {
        sessionsOpen.withLock { $0 += 1 }
        return URLSession(configuration: configuration, delegate: VerifyingSessionDelegate(evaluator: self, countsSession: true), delegateQueue: nil)
    }

    /// The sessions made by ``urlSession(configuration:)`` that have not
    /// become invalid yet.
    public var openSessions: Int { sessionsOpen.read() }

    /// One of this evaluator's sessions became invalid (its delegate's last message).
    func sessionBecameInvalid() {
        let open = sessionsOpen.withLock { open -> Int in
            open -= 1
            return open
        }
        logger.debug("an SDK URLSession was invalidated", metadata: ["open-sessions": .stringConvertible(open)])
    }

    // MARK: The adapter's questions

    /// Whether a connection to `host` needs a decision here.
    public func handles(host: String) -> Bool {
        pinning.evaluates(host: host, in: environment)
    }

    /// The decision for one connection; a refusal is logged and recorded
    /// for the transport (``refusal(for:since:)``), a development
    /// acceptance logged.
    public func decide(_ trust: PresentedServerTrust) -> ServerTrustDecision {
        switch pinning.evaluate(trust, in: environment) {
        case .notPinned: return .performDefaultHandling
        case .matched: return .useServerTrust
        case .acceptedForDevelopment(let pin):
            logger.warning(
                "accepted a certificate the system refuses from \(trust.host): it has the development key \(pin) (DEBUG build only)",
                metadata: ["host": .string(trust.host), "pin": .string(pin.description)])
            return .useServerTrust
        case .rejected(let error):
            record(error)
            return .cancel
        }
    }

    /// Whether a request to `from` may follow the server's redirect to `to`:
    /// the ``redirects`` policy, then the new URL's pins as before any
    /// request (``refusalBeforeSending(to:transportChecksConnections:)``).
    /// A refusal is logged and recorded for the transport, which then
    /// throws it instead of handing the redirect's answer to the app.
    public func allowsRedirect(from: URL, to: URL) -> Bool {
        let host = from.host ?? ""
        guard redirects.allows(from: from, to: to) else {
            record(CertificatePinningError(
                host: host, reason: .redirectRefused, expected: pinning.pinnedHost(for: host)?.pins ?? [], redirectTarget: RedirectPolicy.describe(to)))
            return false
        }
        if let refusal = refusalBeforeSending(to: to, transportChecksConnections: Self.checksConnections) {
            record(refusal)
            return false
        }
        return true
    }

    // MARK: The transport's questions

    /// Where the refusals stand now: pass it to ``refusal(for:since:)``
    /// after the request failed.
    public func mark() -> UInt64 {
        refusals.withLock { $0.sequence }
    }

    /// The refusal of a connection to `host` recorded after `mark`, if any:
    /// the reason a request to it failed.
    public func refusal(for host: String, since mark: UInt64) -> CertificatePinningError? {
        guard let name = PinnedHost.normalised(host) else { return nil }
        return refusals.withLock { state in
            guard let entry = state.latest[name], entry.sequence > mark else { return nil }
            return entry.error
        }
    }

    /// The refusal of a request to `url` before anything is sent, in
    /// production, for a pinned host: over plain http (no certificate to
    /// check), or through a transport that cannot show certificates
    /// (`transportChecksConnections` false). Nil when it may be sent.
    public func refusalBeforeSending(to url: URL, transportChecksConnections: Bool) -> CertificatePinningError? {
        guard environment == .production, let host = url.host, let pinned = pinning.pinnedHost(for: host) else { return nil }
        if url.scheme?.lowercased() != "https" { return CertificatePinningError(host: host, reason: .notEncrypted, expected: pinned.pins) }
        if !transportChecksConnections { return CertificatePinningError(host: host, reason: .cannotCheck, expected: pinned.pins) }
        return nil
    }

    /// The refusal for a TLS failure a request to `host` met (`TLSFailure`):
    /// the system refused the certificate, or the handshake failed.
    public func tlsRefusal(host: String) -> CertificatePinningError {
        CertificatePinningError(host: host, reason: .systemRefused, expected: pinning.pinnedHost(for: host)?.pins ?? [])
    }

    /// Logs a refusal: the host, why, the pins presented and expected, the
    /// redirect's target.
    public func log(_ error: CertificatePinningError) {
        var metadata: Logger.Metadata = [
            "host": .string(error.host), "reason": .string(error.reason.rawValue),
            "presented": .array(error.presented.map { .string($0.description) }),
            "expected": .array(error.expected.map { .string($0.description) }),
        ]
        if let target = error.redirectTarget { metadata["redirect"] = .string(target) }
        logger.error("secure connection refused \(error.host): \(error.summary)", metadata: metadata)
    }

    private func record(_ error: CertificatePinningError) {
        log(error)
        guard let name = PinnedHost.normalised(error.host) else { return }
        refusals.withLock { state in
            state.sequence += 1
            state.latest[name] = (state.sequence, error)
        }
    }
}

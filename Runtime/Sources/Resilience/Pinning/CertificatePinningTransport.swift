import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The transport under every SDK's middleware stack: it fails closed, with
/// one typed error, ``CertificatePinningError``, for every connection that
/// could not be verified:
///
/// - a pinned host in production that cannot be checked is refused before
///   anything is sent: over plain http, or through a transport whose
///   connections the evaluator never sees;
/// - a connection the evaluator refused (no pinned key, an untrusted chain)
///   fails with that refusal, not the platform's "cancelled";
/// - a TLS failure on any host, pinned or not (`TLSFailure`: the system
///   refused the certificate, or the handshake failed), fails with
///   ``CertificatePinningError/Reason/systemRefused``, not "offline";
/// - a redirect to another origin (which the SDK's session does not
///   follow, ``RedirectPolicy``) fails with
///   ``CertificatePinningError/Reason/redirectRefused``, naming the target,
///   whether the session refused it or the wrapped transport handed the 3xx
///   back: nothing was sent there.
///
/// ```swift
/// let evaluator = ServerTrustEvaluator(pinning: pinning, environment: .production, logger: logger)
/// let transport = CertificatePinningTransport(
///     wrapping: URLSessionTransport(configuration: .init(session: evaluator.urlSession(configuration: .ephemeral))),
///     evaluator: evaluator)
/// let client = Client(serverURL: url, transport: transport, middlewares: [...])
/// ```
///
/// The error is never retried (``RetryMiddleware``), never counts as
/// offline (``NetworkFailure``), never queues a write or serves a cached
/// answer, and reaches the app as `CallFailure/connectionNotVerified(_:)`
/// (each SDK's `connectionNotVerified`). ``SDKTransport`` builds it for the SDKs.
public struct CertificatePinningTransport: PinEnforcingTransport {
    /// The transport that makes the connections.
    public let transport: any ClientTransport
    /// The pins and the record of refused connections.
    public let evaluator: ServerTrustEvaluator
    /// Whether `transport`'s connections are answered by `evaluator` (a
    /// URLSession from ``ServerTrustEvaluator/urlSession(configuration:)``
    /// on a platform where ``ServerTrustEvaluator/checksConnections``, or an
    /// app's transport that checks the pins itself).
    public let checksConnections: Bool

    /// Wraps `transport`, whose server-trust challenges `evaluator`
    /// answers. `checksConnections` defaults to whether this platform's
    /// URLSession can ask it (false on Linux, where pinned hosts are then
    /// refused in production).
    public init(
        wrapping transport: any ClientTransport, evaluator: ServerTrustEvaluator, checksConnections: Bool = ServerTrustEvaluator.checksConnections
    ) {
        self.transport = transport
        self.evaluator = evaluator
        self.checksConnections = checksConnections
    }

    /// Whether this transport enforces `pinning`: the evaluator's, on
    /// connections it can check (or no pinned host at all).
    public func enforces(_ pinning: CertificatePinning) -> Bool {
        pinning.hosts.isEmpty || (evaluator.pinning.hosts == pinning.hosts && checksConnections)
    }

    /// Sends the request through the wrapped transport, unless it must be
    /// refused; a failure or a redirect that the rules above refuse is thrown
    /// as ``CertificatePinningError`` (and logged).
    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        if let refusal = evaluator.refusalBeforeSending(to: baseURL, transportChecksConnections: checksConnections) {
            evaluator.log(refusal)
            throw refusal
        }
        let mark = evaluator.mark()
        let host = baseURL.host ?? ""
        let response: HTTPResponse
        let responseBody: HTTPBody?
        do {
            (response, responseBody) = try await transport.send(request, body: body, baseURL: baseURL, operationID: operationID)
        } catch let error as CertificatePinningError {
            // A transport that checks pins itself: logged here, as the evaluator's are.
            evaluator.log(error)
            throw error
        } catch {
            // The platform reports a refused connection as cancelled (or a TLS failure).
            if !Task.isCancelled, let refusal = evaluator.refusal(for: host, since: mark) { throw refusal }
            if TLSFailure.matches(error) {
                let refusal = evaluator.tlsRefusal(host: host)
                evaluator.log(refusal)
                throw refusal
            }
            throw error
        }
        if (300..<400).contains(response.status.code), let refusal = redirectRefusal(response, request: request, baseURL: baseURL, since: mark) {
            throw refusal
        }
        return (response, responseBody)
    }

    /// The refusal of a redirect answer: the one the session's delegate
    /// recorded, or one to another origin that the wrapped transport handed
    /// back unfollowed. Nil for a 3xx that is not a redirect elsewhere (304,
    /// or a redirect within the origin that a transport left to the app).
    private func redirectRefusal(_ response: HTTPResponse, request: HTTPRequest, baseURL: URL, since mark: UInt64) -> CertificatePinningError? {
        let host = baseURL.host ?? ""
        if let recorded = evaluator.refusal(for: host, since: mark) { return recorded }
        guard let location = response.headerFields[.location], let requestURL = URL(string: (request.path ?? ""), relativeTo: baseURL)?.absoluteURL,
            let target = URL(string: location, relativeTo: requestURL)?.absoluteURL, !RedirectPolicy.sameOrigin.allows(from: requestURL, to: target)
        else { return nil }
        let refusal = CertificatePinningError(
            host: host, reason: .redirectRefused, expected: evaluator.pinning.pinnedHost(for: host)?.pins ?? [],
            redirectTarget: RedirectPolicy.describe(target))
        evaluator.log(refusal)
        return refusal
    }
}

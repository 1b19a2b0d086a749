import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A transport that fails closed for pinned hosts: a request whose
/// connection was refused by its ``ServerTrustEvaluator`` fails with that
/// ``CertificatePinningError`` (not the platform's "cancelled"), and in
/// production a request to a pinned host that cannot be checked is refused
/// before anything is sent: over plain http, or through a transport whose
/// connections the evaluator never sees.
///
/// ```swift
/// let evaluator = ServerTrustEvaluator(pinning: pinning, environment: .production, logger: logger)
/// let transport = CertificatePinningTransport(
///     wrapping: URLSessionTransport(configuration: .init(session: evaluator.urlSession(configuration: .default))),
///     evaluator: evaluator)
/// let client = Client(serverURL: url, transport: transport, middlewares: [...])
/// ```
///
/// The error is never retried (``RetryMiddleware``), never counts as
/// offline (``NetworkFailure``), never queues a write or serves a cached
/// answer, and reaches the app as ``CallFailure/connectionNotVerified(_:)``.
public struct CertificatePinningTransport: ClientTransport {
    /// The transport that makes the connections.
    public let transport: any ClientTransport
    /// The pins and the record of refused connections.
    public let evaluator: ServerTrustEvaluator
    /// Whether `transport`'s connections are answered by `evaluator` (a
    /// URLSession from ``ServerTrustEvaluator/urlSession(configuration:)``
    /// on a platform where ``ServerTrustEvaluator/checksConnections``).
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

    /// Sends the request through the wrapped transport, unless it must be
    /// refused; a failure after the evaluator refused the connection is that refusal.
    public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
        if let refusal = evaluator.refusalBeforeSending(to: baseURL, transportChecksConnections: checksConnections) {
            evaluator.log(refusal)
            throw refusal
        }
        let mark = evaluator.mark()
        do {
            return try await transport.send(request, body: body, baseURL: baseURL, operationID: operationID)
        } catch let error as CertificatePinningError {
            // A transport that checks pins itself: logged here, as the evaluator's are.
            evaluator.log(error)
            throw error
        } catch {
            // The platform reports a refused connection as cancelled (or a TLS failure).
            if !Task.isCancelled, let host = baseURL.host, let refusal = evaluator.refusal(for: host, since: mark) { throw refusal }
            throw error
        }
    }
}

import Logging
import OpenAPIRuntime

/// The middleware stack of an SDK whose users sign in (SOUL, Safepocket),
/// outermost first:
///
/// 1. https only (``SecureTransportMiddleware``);
/// 2. one `Idempotency-Key` per logical write, the same on every attempt,
///    for the operations whose spec declares the header (none by default);
/// 3. the response cache, when one is given (``ResponseCacheMiddleware``):
///    cacheable GETs answered from it while offline or on a network failure;
/// 4. token refresh for protected operations: a 401 refreshes once and
///    retries once, a second 401 ends the session;
/// 5. retries, only for operations the spec marks repeatable, honouring
///    `Retry-After` and waiting for connectivity;
/// 6. each attempt's outcome fed to the connectivity, when it is observed
///    from requests (``ConnectivityObservingMiddleware``);
/// 7. with `timeouts`, each attempt, connection included, bounded by
///    `timeouts.read` (``TimeoutMiddleware``);
/// 8. the bearer token where the operation requires `bearerScheme`;
/// 9. redacted logs of each attempt, the session's own tokens masked;
/// 10. with `timeouts`, where the transport has no connect timeout of its
///     own (Linux: ``ConnectTimeoutMiddleware/dialsBeforeSending``), the
///     connection bounded by `timeouts.connect`
///     (``ConnectTimeoutMiddleware``), innermost so the log shows the
///     attempt that could not connect. On Apple platforms URLSession's
///     request timeout bounds the connection instead
///     (``TransportTimeouts/urlSessionConfiguration(_:)``).
package enum SessionMiddlewareStack {
    /// The stack for `session`; see the type's documentation for the order.
    package static func middlewares(
        session: TokenSession, idempotencyKeyOperations: Set<String> = [], bearerScheme: String = "bearerAuth",
        retryPolicy: RetryPolicy = RetryPolicy(), logger: Logger, connectivity: Connectivity? = nil, cache: ResponseCache? = nil,
        timeouts: TransportTimeouts? = nil
    ) -> [any ClientMiddleware] {
        let idempotency: [any ClientMiddleware] = idempotencyKeyOperations.isEmpty ? [] : [IdempotencyKeyMiddleware(operations: idempotencyKeyOperations)]
        let caching: [any ClientMiddleware] = cache.map { [ResponseCacheMiddleware(cache: $0, connectivity: connectivity)] } ?? []
        let observing: [any ClientMiddleware] = connectivity.map { [ConnectivityObservingMiddleware(connectivity: $0)] } ?? []
        let attemptDeadline: [any ClientMiddleware] = timeouts.map { [TimeoutMiddleware(timeout: $0.read)] } ?? []
        let connectDeadline: [any ClientMiddleware] =
            ConnectTimeoutMiddleware.dialsBeforeSending ? timeouts.map { [ConnectTimeoutMiddleware(timeout: $0.connect)] } ?? [] : []
        return [SecureTransportMiddleware()] + idempotency + caching + [
            TokenRefreshMiddleware(session: session),
            RetryMiddleware(policy: retryPolicy, connectivity: connectivity),
        ] + observing + attemptDeadline + [
            BearerTokenMiddleware(session: session, operations: .requiringScheme(bearerScheme)),
            RedactingLogMiddleware(logger: logger, redactor: Redactor(knownSecrets: { session.recentTokens })),
        ] + connectDeadline
    }
}

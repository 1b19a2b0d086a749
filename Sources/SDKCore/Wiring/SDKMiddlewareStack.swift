import Foundation
import Logging
import OpenAPIRuntime
import Resilience

/// The one middleware stack of the four SDKs, outermost first. Each SDK
/// says which layers it has; their order is this one's, whatever the SDK:
///
/// 1. https only (``SecureTransportMiddleware``), and each request an
///    interval named with its operation's id, for Instruments
///    (``SignpostMiddleware``, where there is a signposter);
/// 2. the SDK's routing (SecureNode's mount discovery and default headers);
/// 3. one `Idempotency-Key` per logical write, the same on every attempt,
///    for the operations whose spec declares the header;
/// 4. the response cache, when there is one (``ResponseCacheMiddleware``):
///    cacheable GETs answered from it while offline or on a network failure;
/// 5. token refresh for protected operations, when users sign in: a 401
///    refreshes once and retries once, a second 401 ends the session;
/// 6. retries, when the SDK retries, only for operations the spec marks
///    repeatable, honouring `Retry-After` and waiting for connectivity;
/// 7. each attempt's outcome fed to the connectivity
///    (``ConnectivityObservingMiddleware``);
/// 8. the credentials and gates of each attempt: the bearer token where the
///    operation requires `bearerScheme`, an API key, SecureNode's
///    call-quiet gate (an attempt is bounded once it may go);
/// 9. redacted logs of each attempt, the credentials masked;
/// 10. each attempt, connection included, bounded by
///     ``TransportTimeouts/attemptDeadline`` (``TimeoutMiddleware``; an
///     operation with a bound of its own exempt), below the log so its
///     line names the bound that ended an attempt;
/// 11. where ``ConnectionConfiguration/dialsFirst`` (the SDK's own
///     transport on Linux), the connection bounded by
///     ``TransportTimeouts/connect`` (``ConnectTimeoutMiddleware``). On
///     Apple platforms URLSession's request timeout bounds the connection
///     instead (``TransportTimeouts/urlSessionConfiguration(_:)``).
package struct SDKMiddlewareStack: Sendable {
    /// Where the logs go.
    package var logger: Logger
    /// The device's connectivity (retries wait for it; attempts feed it).
    package var connectivity: Connectivity?
    /// The bounds of each attempt; nil: none (an app's own stack).
    package var timeouts: TransportTimeouts?
    /// Whether the connection is dialled first within `timeouts.connect`.
    package var dialsFirst: Bool
    /// Layers that decide where a request goes (layer 2).
    package var routing: [any ClientMiddleware] = []
    /// The operations that carry an `Idempotency-Key` (layer 3).
    package var idempotencyKeyOperations: Set<String> = []
    /// The response cache (layer 4).
    package var cache: ResponseCache?
    /// The signed-in user's session: token refresh (5) and the bearer token (8).
    package var session: TokenSession?
    /// The security scheme whose operations get the bearer token.
    package var bearerScheme = "bearerAuth"
    /// How operations are retried (layer 6); nil: no retries.
    package var retryPolicy: RetryPolicy?
    /// Each attempt's credentials and gates besides the bearer token (layer 8).
    package var credentials: [any ClientMiddleware] = []
    /// Secrets the logs mask wherever they appear (the session's tokens are added).
    package var knownSecrets: @Sendable () -> [String] = { [] }
    /// Operations with a bound of their own, left out of the attempt deadline.
    package var attemptDeadlineExemptions: Set<String> = []
    /// The wall clock a `Retry-After` date is read against (the
    /// connection's clock's, for a stack made for a connection).
    package var now: @Sendable () -> Date = { Date() }
    /// Where each request's interval goes (layer 1).
    package var signposts: Signposts = .none

    /// A stack for `connection`: https, logs and its bounds; the SDK adds
    /// its layers.
    package init(connection: ConnectionConfiguration) {
        self.init(logger: connection.logger, connectivity: connection.connectivity, timeouts: connection.timeouts, dialsFirst: connection.dialsFirst)
        signposts = connection.intervals
        now = connection.clock.now
    }

    /// A stack from its parts (the SDKs' public `middlewares(...)` functions).
    package init(logger: Logger, connectivity: Connectivity?, timeouts: TransportTimeouts?, dialsFirst: Bool = ConnectTimeoutMiddleware.dialsBeforeSending) {
        self.logger = logger
        self.connectivity = connectivity
        self.timeouts = timeouts
        self.dialsFirst = dialsFirst
    }

    /// The middlewares, outermost first; see the type's documentation.
    package func middlewares() -> [any ClientMiddleware] {
        var stack: [any ClientMiddleware] = [SecureTransportMiddleware()]
        if signposts.sink != nil { stack.append(SignpostMiddleware(signposts: signposts)) }
        stack += routing
        if !idempotencyKeyOperations.isEmpty { stack.append(IdempotencyKeyMiddleware(operations: idempotencyKeyOperations)) }
        if let cache { stack.append(ResponseCacheMiddleware(cache: cache, connectivity: connectivity)) }
        if let session { stack.append(TokenRefreshMiddleware(session: session)) }
        if let retryPolicy { stack.append(RetryMiddleware(policy: retryPolicy, connectivity: connectivity, now: now)) }
        if let connectivity { stack.append(ConnectivityObservingMiddleware(connectivity: connectivity)) }
        if let session { stack.append(BearerTokenMiddleware(session: session, operations: .requiringScheme(bearerScheme))) }
        stack += credentials
        stack.append(RedactingLogMiddleware(logger: logger, redactor: Redactor(knownSecrets: secrets)))
        if let timeouts {
            stack.append(TimeoutMiddleware(timeout: timeouts.attemptDeadline, exemptOperations: attemptDeadlineExemptions))
            if dialsFirst { stack.append(ConnectTimeoutMiddleware(timeout: timeouts.connect)) }
        }
        return stack
    }

    /// The stack of sign-in and token refresh: https, logs and the bounds
    /// only (nothing that waits on the session, no retries, no cache).
    package func unauthenticated() -> [any ClientMiddleware] {
        var plain = SDKMiddlewareStack(logger: logger, connectivity: nil, timeouts: timeouts, dialsFirst: dialsFirst)
        plain.knownSecrets = knownSecrets
        plain.attemptDeadlineExemptions = attemptDeadlineExemptions
        plain.signposts = signposts
        return plain.middlewares()
    }

    /// What the logs mask: the given secrets and the session's tokens.
    private var secrets: @Sendable () -> [String] {
        let given = knownSecrets
        guard let session else { return given }
        return { given() + session.recentTokens }
    }
}

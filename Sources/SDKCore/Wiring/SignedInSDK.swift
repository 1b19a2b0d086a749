import Foundation
import Logging
import OpenAPIRuntime
import Resilience

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What an SDK whose users sign in (SOUL, Safepocket) opens and wires when
/// it starts, written once for both, in this order:
///
/// 1. the base URL checked (https, or http to a loopback host) before any
///    file is touched;
/// 2. the storage folder made, unreadable while the device is locked and
///    left out of backups (nothing in it is needed by background work);
/// 3. the token store wrapped so that the first launch after an install
///    deletes what an earlier install left in the Keychain
///    (`FreshInstallTokenStore`);
/// 4. the response cache and the queue of writes made offline
///    (`OfflineStorage`), partitioned by the signed-in user;
/// 5. the transport, with the connection's pins (`invalidPinning` when a
///    transport of the app's own cannot enforce them), and the family's
///    warning when production pins nothing for the API host;
/// 6. the clients and the session (``SessionClients``), whose end deletes
///    the user's cache, tokens and (unless kept) queued writes, then runs
///    the SDK's own `onSessionEnd`;
/// 7. the offline writes, sent when the server can be reached.
///
/// Each SDK keeps its sign-in flow and its error type; what it reads from
/// here is ``cache``, ``storage`` (to change user before a sign-in's tokens
/// are stored), ``wired`` and ``writes``.
package struct SignedInSDK<Client: Sendable>: Sendable {
    /// Why the SDK could not start; each SDK's error has a case for each.
    package enum StartFailure: Error, Sendable {
        /// The base URL is http to a host that is not loopback.
        case insecureBaseURL
        /// The storage folder or its files could not be used.
        case storageFailed
        /// A transport of the app's own cannot enforce the configured pins.
        case invalidPinning(PinningConfigurationError)
    }

    /// The SDK's files: the response cache and the queue of writes made offline.
    package let storage: OfflineStorage
    /// The clients, the session, the redactor and the call path.
    package let wired: SessionClients<Client>
    /// Writes made offline, sent when the server can be reached.
    package let writes: OfflineWrites<Client>
    /// The response cache, partitioned by the signed-in user.
    package var cache: ResponseCache { storage.cache }

    /// Opens and wires the SDK for `connection` (see the type's steps).
    /// `sdk` and `unpinnedAdvice` word the warning about missing pins,
    /// logged only when `warnsUnpinned`; `urlSessionTransport` is the
    /// transport over a URLSession the connection configured;
    /// `onSessionEnd` runs after the session's end deleted the user's data,
    /// with the moment it ended.
    package init(
        connection: ConnectionConfiguration, pinningEnvironment: PinningEnvironment = .production, sdk: String, warnsUnpinned: Bool = true,
        unpinnedAdvice: String, storageFolder: URL, tokenStore: any TokenStore, cacheMaximumBytes: Int, keepsQueuedWritesAfterSignOut: Bool,
        retryPolicy: RetryPolicy, idempotencyKeyOperations: Set<String> = [], queuedWriteSenders: QueuedWriteSenders<Client>,
        urlSessionTransport: (URLSession) -> any ClientTransport,
        onSessionEnd: @escaping @Sendable (Date) async -> Void,
        makeClient: (URL, any ClientTransport, [any ClientMiddleware]) -> Client, makeRefresher: (Client) -> any TokenRefresher
    ) throws(StartFailure) {
        guard (try? connection.validatedBaseURL()) != nil else { throw .insecureBaseURL }
        let tokens: any TokenStore
        do {
            try PrivateFile.makeFolder(storageFolder, protection: .foregroundOnly)
            tokens = FreshInstallTokenStore.wrapping(
                tokenStore, marker: InstallationMarker(folder: storageFolder), earlierFiles: [storageFolder.appendingPathComponent("cache")])
            storage = try OfflineStorage(folder: storageFolder, cacheMaximumBytes: cacheMaximumBytes, now: connection.clock.now, dataAtRest: .foregroundOnly)
        } catch {
            throw .storageFailed
        }
        let transport: any ClientTransport
        do {
            transport = try connection.makeTransport(environment: pinningEnvironment, overSession: urlSessionTransport)
        } catch {
            throw .invalidPinning(error)
        }
        if warnsUnpinned { connection.warnIfUnpinned(sdk: sdk, advice: unpinnedAdvice) }
        let cache = storage.cache
        do {
            wired = try SessionClients(
                connection: connection, transport: transport, tokenStore: tokens, servesFromCache: true,
                onSessionEnd: storage.sessionEndHandler(keepingWrites: keepsQueuedWritesAfterSignOut) { _, endedAt in await onSessionEnd(endedAt) },
                stack: {
                    Self.stack(
                        session: $0, retryPolicy: retryPolicy, cache: cache, idempotencyKeyOperations: idempotencyKeyOperations, connection: connection)
                },
                makeClient: makeClient, makeRefresher: makeRefresher)
        } catch {
            throw .insecureBaseURL
        }
        writes = OfflineWrites(
            queue: storage.queue, senders: queuedWriteSenders, client: wired.client, connectivity: connection.connectivity, session: wired.session,
            subject: { cache.subject })
    }

    /// The documented stack of a signed-in SDK for the configured
    /// connection (its own transport on Linux dials first): https, an
    /// `Idempotency-Key` on `idempotencyKeyOperations`, the cache, token
    /// refresh, retries, the bearer token, redacted logs, the bounds.
    package static func stack(
        session: TokenSession, retryPolicy: RetryPolicy, cache: ResponseCache, idempotencyKeyOperations: Set<String> = [],
        connection: ConnectionConfiguration
    ) -> [any ClientMiddleware] {
        signedIn(SDKMiddlewareStack(connection: connection), session: session, retryPolicy: retryPolicy, cache: cache, idempotencyKeyOperations: idempotencyKeyOperations)
    }

    /// The same stack from its parts (the SDKs' public `middlewares(...)`).
    package static func middlewares(
        session: TokenSession, retryPolicy: RetryPolicy, logger: Logger, connectivity: Connectivity?, cache: ResponseCache?,
        timeouts: TransportTimeouts?, idempotencyKeyOperations: Set<String> = []
    ) -> [any ClientMiddleware] {
        signedIn(
            SDKMiddlewareStack(logger: logger, connectivity: connectivity, timeouts: timeouts), session: session, retryPolicy: retryPolicy, cache: cache,
            idempotencyKeyOperations: idempotencyKeyOperations)
    }

    private static func signedIn(
        _ base: SDKMiddlewareStack, session: TokenSession, retryPolicy: RetryPolicy, cache: ResponseCache?, idempotencyKeyOperations: Set<String>
    ) -> [any ClientMiddleware] {
        var stack = base
        stack.session = session
        stack.idempotencyKeyOperations = idempotencyKeyOperations
        stack.retryPolicy = retryPolicy
        stack.cache = cache
        return stack.middlewares()
    }
}

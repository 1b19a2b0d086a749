import ClientRuntime
import Foundation
import Logging
import OpenAPIRuntime
import Resilience

/// How an SDK whose users sign in is wired, the same for every such SDK:
///
/// - an unauthenticated client for sign-in and token refresh (https only,
///   redacted logs, the connection's bounds; nothing that waits on the
///   session: ``SDKMiddlewareStack/unauthenticated()``),
/// - the session, refreshing through that client,
/// - the authenticated client with the SDK's middleware stack,
/// - a redactor that knows the session's tokens, for error texts,
/// - the ``ClientCaller`` the facade's calls go through,
/// - a warning in the logs, once per field, when an answer differs from
///   what the spec assumed (`AssumedFieldLogging`).
package struct SessionClients<Client: Sendable>: Sendable {
    /// The authenticated client: every operation, with the whole stack.
    package let client: Client
    /// The client sign-in and refresh use: https and logs only.
    package let authClient: Client
    /// The token lifecycle.
    package let session: TokenSession
    /// Masks secrets in logs and error texts, the session's tokens included.
    package let redactor: Redactor
    /// The facade's call path (connectivity check, failure mapping).
    package let caller: ClientCaller<Client>
    /// Logs the answers that differ from the spec's guesses, while the SDK lives.
    package let assumedFields: AssumedFieldObservation

    /// Wires the clients for `connection`. `transport` is built only once
    /// the URL is accepted; `stack` is the SDK's documented middleware stack
    /// for a session (``SDKMiddlewareStack`` with the session); `makeClient` is the generated client's
    /// initializer; `makeRefresher` builds the backend's refresh call on the
    /// unauthenticated client; `servesFromCache` says the stack has a
    /// ``ResponseCacheMiddleware``; `onSessionEnd` is what the session's end
    /// deletes (`OfflineStorage/sessionEndHandler(keepingWrites:also:)`).
    /// Throws ``InsecureBaseURLError`` for an http URL to a host that is not
    /// loopback.
    package init(
        connection: ConnectionConfiguration, transport makeTransport: @autoclosure () -> any ClientTransport, tokenStore: any TokenStore,
        servesFromCache: Bool = false, onSessionEnd: SessionEndHandler? = nil,
        stack: (TokenSession) -> [any ClientMiddleware], makeClient: (URL, any ClientTransport, [any ClientMiddleware]) -> Client,
        makeRefresher: (Client) -> any TokenRefresher
    ) throws(InsecureBaseURLError) {
        let baseURL = try connection.validatedBaseURL()
        let logger = connection.logger
        let transport = makeTransport()
        authClient = makeClient(baseURL, transport, SDKMiddlewareStack(connection: connection).unauthenticated())
        let session = TokenSession(store: tokenStore, refresher: makeRefresher(authClient), onEnd: onSessionEnd)
        self.session = session
        redactor = Redactor(knownSecrets: { session.recentTokens })
        client = makeClient(baseURL, transport, stack(session))
        caller = ClientCaller(client: client, connectivity: connection.connectivity, servesFromCache: servesFromCache)
        // The generated client's module (`SoulAPI.Client` -> `SoulAPI`) names the types it reports.
        assumedFields = AssumedFieldLogging.observe(module: String(String(reflecting: Client.self).prefix { $0 != "." }), logger: logger)
    }
}

import Resilience
/// The one call path of the SDK facades: an operation of the generated
/// client, refused at once while the device is known to be offline (nothing
/// is sent), and any failure mapped to the SDK's own error type.
///
/// ```swift
/// let caller = ClientCaller(client: client, connectivity: connectivity)
/// let moods = try await caller.perform(offline: SoulError.offline, failure: { SoulError($0, ...) }) { try await $0.listMoods() }
/// ```
package struct ClientCaller<Client: Sendable>: Sendable {
    /// The generated client with the SDK's middleware stack.
    package let client: Client
    /// The device's connectivity as the app reports it (nil: always try).
    package let connectivity: Connectivity?

    /// Whether the client's stack has a ``ResponseCacheMiddleware``: then
    /// reads are not refused while offline (the cache answers them, or
    /// throws ``DeviceOfflineError`` without sending).
    package let servesFromCache: Bool

    /// A caller of `client`, checking `connectivity` first when there is one.
    package init(client: Client, connectivity: Connectivity?, servesFromCache: Bool = false) {
        self.client = client
        self.connectivity = connectivity
        self.servesFromCache = servesFromCache
    }

    /// Runs `call` on the client. Throws `offline` without sending anything
    /// while connectivity says offline; maps anything `call` throws with `failure`.
    package func perform<Result: Sendable, Failure: Error>(
        offline: @autoclosure () -> Failure, failure: (any Error) -> Failure, _ call: (Client) async throws -> Result
    ) async throws(Failure) -> Result {
        if let connectivity, await connectivity.isKnownOffline { throw offline() }
        do {
            return try await call(client)
        } catch {
            throw failure(error)
        }
    }

    /// Runs a read on the client and tells where its response came from:
    /// the server, or the response cache (with its age) while offline or
    /// when the server cannot be reached. Without a cache in the stack it is
    /// ``perform(offline:failure:_:)`` with ``ResponseSource/network``.
    package func performRead<Result: Sendable, Failure: Error>(
        offline: @autoclosure () -> Failure, failure: (any Error) -> Failure, _ call: (Client) async throws -> Result
    ) async throws(Failure) -> CachedResponse<Result> {
        if !servesFromCache, let connectivity, await connectivity.isKnownOffline { throw offline() }
        do {
            let (value, source) = try await ResponseSourceRecording.record { try await call(client) }
            return CachedResponse(value: value, source: source)
        } catch {
            throw failure(error)
        }
    }
}

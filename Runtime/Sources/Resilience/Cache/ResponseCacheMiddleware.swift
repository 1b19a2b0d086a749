import ClientRuntime
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// The device is known to be offline and nothing usable was cached: the
/// request was not sent.
public struct DeviceOfflineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The operation that was not sent.
    public let operationID: String

    /// Creates the error.
    public init(operationID: String) {
        self.operationID = operationID
    }

    /// A readable summary.
    public var description: String { "\(operationID) was not sent: the device is offline and no cached response exists" }
}

/// Serves cacheable operations from a ``ResponseCache`` when the server
/// cannot give a better answer, and keeps what the server sends.
///
/// For a GET the generated client marks cacheable (`OperationDescriptor.cache`):
///
/// 1. a stored response still fresh is returned without a request;
/// 2. while ``Connectivity`` reports offline, the stored response is
///    returned whatever its age (unless it said `must-revalidate`); with
///    nothing stored, ``DeviceOfflineError`` is thrown and nothing is sent;
/// 3. otherwise the request goes out, conditional (`If-None-Match`,
///    `If-Modified-Since`) when a stored response has a validator; a `304`
///    refreshes the stored response and returns it;
/// 4. a `200`, `203` or `204` with a known length is stored unless the
///    request or the response says `no-store`, the response says
///    `Vary: *`, or it is `private` and nobody is signed in;
/// 5. when the request fails on the network (unreachable, timed out), the
///    stored response is returned stale.
///
/// Freshness: the response's `max-age` (`no-cache` is 0), else `Expires`
/// minus `Date`, else the spec's `x-cache: {max-age: N}`, else 0 (no
/// heuristic freshness: a response is then revalidated on every online use).
/// The caller learns where each response came from through
/// ``ResponseSourceRecording``.
///
/// Place it below the https check and above token refresh and retries: a
/// 401 is refreshed inside it, and a stale answer is given only once the
/// retries are spent.
public struct ResponseCacheMiddleware: ClientMiddleware {
    /// The cache.
    public let cache: ResponseCache
    /// The device's connectivity as the app reports it.
    public let connectivity: Connectivity?

    /// Creates the middleware.
    public init(cache: ResponseCache, connectivity: Connectivity? = nil) {
        self.cache = cache
        self.connectivity = connectivity
    }

    /// Applies the rules of the type's documentation.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard request.method == .get else { return try await next(request, body, baseURL) }
        // Read once: the partition cannot change halfway through the call.
        let subject = cache.subject
        // A read the cache cannot answer (not cacheable, or protected with
        // nobody signed in) is still a read: known offline, it fails at once
        // rather than waiting in the retry layer for the network.
        guard let operation = OperationDescriptor.current, operation.isCacheable, subject != nil || operation.isPublic else {
            if let connectivity, await connectivity.isKnownOffline { throw DeviceOfflineError(operationID: operationID) }
            return try await next(request, body, baseURL)
        }
        let requestControl = CacheControl(request.headerFields[values: .cacheControl])
        let key = "GET " + baseURL.absoluteString + (request.path ?? "") + " " + (request.headerFields[.accept] ?? "")
        let stored = requestControl.noStore ? nil : cache.entry(for: key, subject: subject)
        let now = cache.now()

        if let stored, stored.isFresh(at: now), !requestControl.noCache {
            return served(stored, as: .cache(age: stored.age(at: now)))
        }
        if let connectivity, await connectivity.isKnownOffline {
            guard let stored, stored.mayServeStale else { throw DeviceOfflineError(operationID: operationID) }
            return served(stored, as: .cache(age: stored.age(at: now)))
        }

        var conditional = request
        if let stored {
            let fields = stored.headerFields
            if let etag = fields[.eTag] { conditional.headerFields[.ifNoneMatch] = etag }
            if let lastModified = fields[.lastModified] { conditional.headerFields[.ifModifiedSince] = lastModified }
        }
        let response: HTTPResponse
        let responseBody: HTTPBody?
        do {
            (response, responseBody) = try await next(conditional, body, baseURL)
        } catch where Self.isUnreachable(error) {
            guard let stored, stored.mayServeStale else { throw error }
            return served(stored, as: .cache(age: stored.age(at: cache.now())))
        }

        if response.status.code == 304, var stored {
            stored.headers = Self.merge(stored.headers, with: response.headerFields)
            stored.storedAt = cache.now()
            stored.initialAge = Int(response.headerFields[.age] ?? "") ?? 0
            (stored.freshFor, stored.mayServeStale) = Self.freshness(stored.headerFields, operation: operation, now: cache.now())
            cache.store(stored)
            return served(stored, as: .revalidated)
        }
        ResponseSourceRecording.report(.network)
        let control = CacheControl(response.headerFields[values: .cacheControl])
        let varies = response.headerFields[values: .vary].contains { $0.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == "*" } }
        guard [200, 203, 204].contains(response.status.code), !requestControl.noStore, !control.noStore, !varies,
              !(control.isPrivate && subject == nil), case .known(let length) = responseBody?.length ?? .known(0),
              length <= cache.maximumEntryBytes
        else {
            if control.noStore, stored != nil { cache.remove(key: key, subject: subject) }
            return (response, responseBody)
        }
        var bytes = Data()
        if let responseBody { bytes = try await Data(collecting: responseBody, upTo: Int(length)) }
        let (freshFor, mayServeStale) = Self.freshness(response.headerFields, operation: operation, now: cache.now())
        cache.store(
            CacheEntry(
                key: key, subject: subject, status: response.status.code,
                headers: response.headerFields.filter { $0.name != .setCookie }.map { [$0.name.rawName, $0.value] }, storedAt: cache.now(),
                initialAge: Int(response.headerFields[.age] ?? "") ?? 0, freshFor: freshFor, mayServeStale: mayServeStale, body: bytes))
        return (response, HTTPBody(bytes))
    }

    /// The stored response as the client reads it, reported as `source`.
    private func served(_ entry: CacheEntry, as source: ResponseSource) -> (HTTPResponse, HTTPBody?) {
        ResponseSourceRecording.report(source)
        return (HTTPResponse(status: .init(code: entry.status), headerFields: entry.headerFields), HTTPBody(entry.body))
    }

    /// Seconds fresh and whether it may be served stale, from the headers
    /// (see the type's documentation) and the operation's `x-cache`; `now`
    /// stands in for a missing `Date` header.
    static func freshness(_ fields: HTTPFields, operation: OperationDescriptor, now: Date) -> (Int, Bool) {
        let control = CacheControl(fields[values: .cacheControl])
        let mayServeStale = !control.mustRevalidate
        if control.noCache { return (0, mayServeStale) }
        if let maxAge = control.maxAge { return (maxAge, mayServeStale) }
        if let expires = fields[.expires].flatMap(RetryAfter.httpDate) {
            let date = fields[.date].flatMap(RetryAfter.httpDate) ?? now
            return (max(0, Int(expires.timeIntervalSince(date))), mayServeStale)
        }
        if case .maxAge(let seconds) = operation.cache { return (seconds, mayServeStale) }
        return (0, mayServeStale)
    }

    /// The stored headers updated by a `304`'s (RFC 9111 section 4.3.4).
    static func merge(_ stored: [[String]], with update: HTTPFields) -> [[String]] {
        let replaced = Set(update.map { $0.name.canonicalName })
        let kept = stored.filter { pair in pair.count == 2 && !(HTTPField.Name(pair[0]).map { replaced.contains($0.canonicalName) } ?? false) }
        return kept + update.filter { $0.name != .setCookie && $0.name != .contentLength }.map { [$0.name.rawName, $0.value] }
    }

    /// Whether `error` means the server could not be reached or did not
    /// answer in time (so a stale answer is better than none).
    static func isUnreachable(_ error: any Error) -> Bool {
        NetworkFailure.requestNeverLeft(error) || NetworkFailure.outcomeUnknown(error)
    }
}

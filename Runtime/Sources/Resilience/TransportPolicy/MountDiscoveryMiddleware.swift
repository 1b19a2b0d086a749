import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Finds where an API is mounted on a server that may serve it under more
/// than one path prefix, and remembers it.
///
/// SecureNode's SDK README: the SDK calls `{base}/mobile/...` and falls
/// back to `{base}/api/mobile/...` when the API is mounted under `/api`.
/// The spec's paths carry the prefix (`/api/mobile/...`); this middleware
/// swaps it for each candidate mount in turn until one answers with
/// something other than 404, remembers that mount (and reports it, so an
/// app can keep it across launches), and sends later requests there. A 404
/// from the remembered mount makes it look again, once per request; for
/// operations whose 404 is an answer (SecureNode's lookup: "no match"), a
/// 404 from the remembered mount is returned as it is.
///
/// Requests are repeated only after a 404, which means the route does not
/// exist at that mount, so nothing was applied there.
public struct MountDiscoveryMiddleware: ClientMiddleware {
    /// The prefix the spec's paths carry (`/api`).
    public var specPrefix: String
    /// The prefixes to try, in order (`["", "/api"]`: the root first).
    public var mounts: [String]
    /// Operations for which a 404 is a documented answer.
    public var operationsAnswering404: Set<String>
    private let remembered: Remembered

    /// Discovery over `mounts`; `known` is a mount found earlier (a launch
    /// before), `onDiscover` is told each newly found one.
    public init(
        specPrefix: String, mounts: [String], operationsAnswering404: Set<String> = [], known: String? = nil,
        onDiscover: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.specPrefix = specPrefix
        self.mounts = mounts
        self.operationsAnswering404 = operationsAnswering404
        remembered = Remembered(mount: known.flatMap { mounts.contains($0) ? $0 : nil }, onDiscover: onDiscover)
    }

    /// The mount requests go to now; nil until one answered.
    public var currentMount: String? { remembered.mount }

    /// Sends the request to the remembered mount, or discovers one.
    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let path = request.path, path.hasPrefix(specPrefix), mounts.count > 1 else {
            return try await next(request, body, baseURL)
        }
        let rest = String(path.dropFirst(specPrefix.count))
        let known = remembered.mount
        let order = known.map { mount in [mount] + mounts.filter { $0 != mount } } ?? mounts
        // A body is sent again only after a 404; make it replayable first.
        guard let replayable = try await ReplayableBody.prepare(body, upTo: 8 << 20) else {
            var single = request
            single.path = (known ?? mounts[0]) + rest
            return try await next(single, body, baseURL)
        }
        var first: (HTTPResponse, HTTPBody?)?
        for (index, mount) in order.enumerated() {
            var attempt = request
            attempt.path = mount + rest
            let response = try await next(attempt, replayable.copy(), baseURL)
            if response.0.status.code != 404 {
                if mount != known { remembered.discovered(mount) }
                return response
            }
            if first == nil { first = response }
            // The remembered mount's 404 is an answer for these operations.
            if index == 0, known != nil, operationsAnswering404.contains(operationID) { return response }
        }
        // 404 everywhere: the first answer stands, and nothing is learnt.
        return first!
    }

    /// The mount found so far, shared by copies of the middleware.
    private final class Remembered: @unchecked Sendable {
        // `@unchecked Sendable` is safe: `value` is read and written only
        // while `lock` is held; `onDiscover` is a `@Sendable` closure.
        private let lock = NSLock()
        private var value: String?
        private let onDiscover: @Sendable (String) -> Void

        init(mount: String?, onDiscover: @escaping @Sendable (String) -> Void) {
            value = mount
            self.onDiscover = onDiscover
        }

        var mount: String? { lock.withLock { value } }

        func discovered(_ mount: String) {
            let changed = lock.withLock { () -> Bool in
                defer { value = mount }
                return value != mount
            }
            if changed { onDiscover(mount) }
        }
    }
}

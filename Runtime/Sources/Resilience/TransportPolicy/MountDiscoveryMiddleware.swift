import ClientRuntime
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Finds where an API is mounted on a server that may serve it under more
/// than one path prefix, and remembers it.
///
/// SecureNode's spec: the SDK calls `{base}/api/mobile/...` and also tries
/// `{base}/mobile/...` for deployments where the API is not mounted under
/// `/api`. The spec's paths carry the prefix (`/api/mobile/...`); this
/// middleware swaps it for each candidate mount in turn, in the order
/// given, until one answers as the API does (``confirmsMount(_:)``: JSON,
/// and not a 404, a 403 or a 5xx), remembers that mount (and reports it,
/// so an app can keep it across launches), and sends later requests there.
///
/// What does not confirm a mount, and moves on to the next one:
/// - a 404: the route does not exist there, so nothing was applied;
/// - a 403, a 5xx or a body that is not JSON (a gateway's or a captive
///   portal's page, a web server's index page): something other than the
///   API answered. Only for an operation that may be sent twice (a GET, or
///   one the spec marks idempotent), since the answer may have come after
///   the request was applied.
///
/// When no mount confirms, nothing is learnt and the most telling answer
/// is returned: a JSON one before any other, else the first that is not a
/// 404. For operations whose 404 is an answer (SecureNode's lookup: "no
/// match"), a JSON 404 from the remembered mount is returned as it is.
public struct MountDiscoveryMiddleware: ClientMiddleware {
    /// The prefix the spec's paths carry (`/api`).
    public var specPrefix: String
    /// The prefixes to try, in order (`["/api", ""]`: the spec's mount first).
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

    /// Whether `response` shows the API itself answered: a JSON body
    /// (`application/json` or `+json`), and a status that is none of 404
    /// (no such route), 403 (a gateway's refusal) and 5xx (a proxy's or a
    /// dead upstream's).
    public static func confirmsMount(_ response: HTTPResponse) -> Bool {
        let status = response.status.code
        guard status != 404, status != 403, !(500...599).contains(status) else { return false }
        return isJSON(response)
    }

    static func isJSON(_ response: HTTPResponse) -> Bool {
        response.headerFields[.contentType]?.isJSONMediaType ?? false
    }

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
        // A body is sent again only after a 404 (or to an operation that may be repeated); make it replayable first.
        guard let replayable = try await ReplayableBody.prepare(body, upTo: 8 << 20) else {
            var single = request
            single.path = (known ?? mounts[0]) + rest
            return try await next(single, body, baseURL)
        }
        let repeatable = OperationDescriptor.current.map { $0.isIdempotent || $0.method == .get || $0.method == .head }
            ?? (request.method == .get || request.method == .head)
        var answers: [(HTTPResponse, HTTPBody?)] = []
        for (index, mount) in order.enumerated() {
            var attempt = request
            attempt.path = mount + rest
            let response = try await next(attempt, replayable.copy(), baseURL)
            let status = response.0.status.code
            if Self.confirmsMount(response.0) {
                if mount != known { remembered.discovered(mount) }
                return response
            }
            // The remembered mount's 404 is an answer for these operations.
            if index == 0, known != nil, status == 404, Self.isJSON(response.0), operationsAnswering404.contains(operationID) { return response }
            answers.append(response)
            // Anything but a 404 may have been applied: try elsewhere only what may be sent twice.
            if status != 404, !repeatable { break }
        }
        return answers.first { $0.0.status.code != 404 && Self.isJSON($0.0) }
            ?? answers.first { $0.0.status.code != 404 }
            ?? answers[0]
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

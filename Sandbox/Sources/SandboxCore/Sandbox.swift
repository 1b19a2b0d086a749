import ContractCheck
import Foundation

/// The sandbox: several backends under one server, each under its own path
/// prefix, every request checked against its backend's spec before it is
/// answered, and a record of what each backend received.
///
/// A request that breaks its spec is refused as the backend's spec
/// documents it (401 without a credential the operation accepts, 400 for
/// another broken rule, 404 and 405 with `Allow`), in the backend's own
/// error body, each rule with the field and the spec's file:line:column in
/// the `Sandbox-Violations` header, and one log line; a credential of the
/// right shape that the backend does not accept gets its 401; a valid one
/// gets the success response its spec documents (status and
/// example body), or a fault the ``FaultPlan`` draws for it. `GET
/// /_sandbox/requests` lists what each backend received; `/_sandbox/faults`
/// reads and replaces the plan. A backend with a ``SandboxBehaviour``
/// answers from its state (sign-ins, tokens, datasets), and the faults that
/// need state (a response dropped after the request was applied, an access
/// token expired) act on it. Transport-neutral: a server (the `sandbox` executable, a test)
/// hands it requests.
public final class Sandbox: Sendable {
    /// The backends, by name (the path prefix).
    public let backends: [String: SandboxBackend]
    /// Where a log line goes (a rejected request, with its violations).
    private let log: @Sendable (String) -> Void
    private let received = ReceivedLog()
    private let draws: FaultDraws
    /// Whether answers are checked against the spec too.
    public let isStrict: Bool

    /// The path of the admin endpoint listing what each backend received.
    public static let requestsPath = "/_sandbox/requests"
    /// The path of the admin endpoint that reads (`GET`) and replaces
    /// (`PUT`, a ``FaultPlan`` as JSON) the injected faults.
    public static let faultsPath = "/_sandbox/faults"

    /// A sandbox of `backends` injecting `faults`; `log` receives one line
    /// per rejected request. `strict` also checks every answer that is not
    /// an injected fault against the spec (status, required headers, content
    /// type, body schema; a streamed body's status and headers only), and
    /// turns one that breaks it into a 500 naming each violation.
    public init(backends: [SandboxBackend], faults: FaultPlan = .none, strict: Bool = false, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.backends = Dictionary(backends.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.log = log
        isStrict = strict
        draws = FaultDraws(faults)
    }

    /// The faults being injected.
    public var faults: FaultPlan { draws.current }

    /// Answers one request; `path` is the whole request path (`/soul/api/moods`).
    public func handle(_ request: ContractRequest) -> SandboxReply {
        if request.path == Self.requestsPath {
            guard request.method == "GET" else { return .json(405, #"{"error": "method", "message": "GET only"}"#) }
            return .json(200, received.json(states: backends.compactMapValues { $0.behaviour?.summary() }))
        }
        if request.path == Self.faultsPath {
            return handleFaults(request)
        }
        let segments = request.path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let name = segments.count > 1 ? String(segments[1].prefix { $0 != "/" }) : ""
        guard let backend = backends[name] else {
            let known = backends.keys.sorted().map { "/\($0)" }.joined(separator: ", ")
            return .json(404, #"{"error": "backend", "message": "no backend at this path; the sandbox serves \#(known)"}"#)
        }
        var inner = request
        inner.path = String(request.path.dropFirst(name.count + 1))
        if inner.path.isEmpty { inner.path = "/" }
        if let reply = backend.behaviour?.respondOutsideSpec(to: inner) {
            received.record(backend: name, operation: "\(inner.method) \(inner.path)", status: reply.status, violations: 0)
            return reply
        }
        let result = backend.contract.check(inner)
        guard result.isValid else {
            let reply = refusal(of: result, by: backend)
            let summary = ContractRefusal.reported(result.violations, status: reply.status).map(\.description).joined(separator: "; ")
            log("sandbox: \(name) \(request.method) \(inner.path) rejected (\(result.operation ?? "no operation")): \(summary) [\(reply.status)]")
            received.record(backend: name, operation: result.operation, status: reply.status, violations: result.violations.count)
            return reply
        }
        if let refusal = backend.behaviour?.refuseCredential(of: inner) {
            log("sandbox: \(name) \(request.method) \(inner.path) refused \(refusal.status) (\(result.operation ?? "no operation")): the credential is not one this backend accepts")
            received.record(backend: name, operation: result.operation, status: refusal.status, violations: 0, refused: true)
            return refusal
        }
        let (plan, fault) = draws.next()
        var injected = fault != .none
        var reply: SandboxReply
        switch fault {
        case .serverError:
            reply = .json(503, #"{"error": "injected", "message": "a 503 the sandbox injected (serverErrorShare)"}"#)
        case .rateLimited:
            reply = .json(429, #"{"error": "injected", "message": "a 429 the sandbox injected (rateLimitShare)"}"#)
            reply.headers.append(("Retry-After", String(plan.rateLimitRetryAfter)))
        case .none, .malformedBody, .droppedResponse, .expiredToken:
            if fault == .expiredToken { injected = backend.behaviour?.expireToken(of: inner) ?? false }
            reply = backend.behaviour?.respond(to: inner) ?? backend.documentedSuccess(for: result.operation)
            if fault == .malformedBody {
                let start = reply.stream?.chunk(0) ?? reply.body
                reply.stream = nil
                reply.body = Array(start.prefix(start.count / 2))
            }
            reply.dropsConnection = fault == .droppedResponse
            if isStrict, fault != .malformedBody, let operation = result.operation {
                let violations = backend.contract.checkResponse(
                    operation: operation, status: reply.status, headers: reply.headers, body: reply.stream == nil ? reply.body : [])
                    .filter { reply.stream == nil || $0.field != "response.body" }
                if !violations.isEmpty {
                    let summary = violations.map(\.description).joined(separator: "; ")
                    log("sandbox: strict: \(name) \(request.method) \(inner.path) answered \(reply.status), which breaks the spec (\(operation)): \(summary)")
                    reply = Self.strictFailure(operation: operation, status: reply.status, violations: violations)
                }
            }
        }
        reply.delay = .milliseconds(plan.latencyMilliseconds)
        received.record(backend: name, operation: result.operation, status: reply.status, violations: 0, injected: injected)
        return reply
    }

    private func handleFaults(_ request: ContractRequest) -> SandboxReply {
        switch request.method {
        case "GET":
            break
        case "PUT":
            guard let plan = try? JSONDecoder().decode(FaultPlan.self, from: Data(request.body ?? [])) else {
                return .json(400, #"{"error": "faults", "message": "the body must be a fault plan: an object with any of latencyMilliseconds, serverErrorShare, rateLimitShare, rateLimitRetryAfter, rateLimitBurst, malformedBodyShare, droppedResponseShare, expiredTokenShare and seed (a member left out injects nothing)"}"#)
            }
            if let problem = plan.problem {
                return .json(400, #"{"error": "faults", "message": "\#(problem)"}"#)
            }
            draws.replace(with: plan)
        default:
            return .json(405, #"{"error": "method", "message": "GET or PUT"}"#)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return .json(200, String(decoding: (try? encoder.encode(draws.current)) ?? Data(), as: UTF8.self))
    }

    /// What each backend received so far.
    public func receivedCounts() -> [String: ReceivedLog.Counts] { received.snapshot() }

    /// The 500 strict mode answers instead of a reply that breaks the spec.
    static func strictFailure(operation: String, status: Int, violations: [ContractViolation]) -> SandboxReply {
        SandboxJSON.reply(500, ["error": "contract-response", "operation": operation, "status": status, "violations": ContractRefusal.entries(violations)])
    }

    /// The answer to a request its spec does not allow: a status the
    /// operation documents (``ContractRefusal/status(of:documented:)``),
    /// the backend's own error body (its behaviour's, else the spec's
    /// example for that status, else the sandbox's `{"error": "contract"}`),
    /// the violations in the `Sandbox-Violations` header, and for a 405
    /// the `Allow` header RFC 9110 requires.
    func refusal(of result: RequestContract.Result, by backend: SandboxBackend) -> SandboxReply {
        let documented = backend.documentedStatuses([400, 401, 403, 422], of: result.operation)
        let status = ContractRefusal.status(of: result, documented: documented)
        let violations = ContractRefusal.reported(result.violations, status: status)
        let message = ContractRefusal.message(status: status, violations: violations)
        var reply = backend.behaviour?.errorReply(status: status, message: message, violations: violations)
            ?? backend.documentedError(status: status, of: result.operation)
            ?? ContractRefusal.ownBody(status: status, operation: result.operation, violations: violations)
        reply.status = status
        reply.headers.append((ContractRefusal.violationsHeader, ContractRefusal.headerValue(violations)))
        if status == 405 { reply.headers.append(("Allow", result.allowedMethods.joined(separator: ", "))) }
        return reply
    }
}

/// What each backend received: requests per operation, and how many were
/// rejected by the contract check.
public final class ReceivedLog: @unchecked Sendable {
    // Safe: `counts` is only read and written while holding `lock`.
    private let lock = NSLock()
    private var counts: [String: Counts] = [:]

    /// One backend's figures.
    public struct Counts: Sendable, Equatable {
        /// Requests answered, rejected ones included.
        public var requests = 0
        /// Requests for an operation of the spec that broke its rules (400),
        /// or with a method the path does not have (405).
        public var rejected = 0
        /// Requests for a path the spec does not have (404): a client
        /// probing where the API is mounted, or a typo.
        public var notFound = 0
        /// Requests per operation id (valid and rejected alike).
        public var byOperation: [String: Int] = [:]
        /// Requests answered with an injected fault.
        public var injected = 0
        /// Requests whose credential had the right shape but was refused
        /// (a key the backend was not given, a token it did not issue).
        public var refusedCredentials = 0
    }

    func record(backend: String, operation: String?, status: Int, violations: Int, injected: Bool = false, refused: Bool = false) {
        lock.withLock {
            var entry = counts[backend] ?? Counts()
            entry.requests += 1
            if violations > 0 {
                if status == 404 { entry.notFound += 1 } else { entry.rejected += 1 }
            }
            if injected { entry.injected += 1 }
            if refused { entry.refusedCredentials += 1 }
            if let operation { entry.byOperation[operation, default: 0] += 1 }
            counts[backend] = entry
        }
    }

    func snapshot() -> [String: Counts] { lock.withLock { counts } }

    /// The counts as JSON, with each backend's `state` (what its behaviour
    /// holds and has applied) when it has one.
    func json(states: [String: [String: Any]] = [:]) -> String {
        let counts = snapshot()
        var object: [String: Any] = [:]
        for name in Set(counts.keys).union(states.keys) {
            let entry = counts[name] ?? Counts()
            var backend: [String: Any] = ["requests": entry.requests, "rejected": entry.rejected, "notFound": entry.notFound, "injected": entry.injected, "refusedCredentials": entry.refusedCredentials, "operations": entry.byOperation]
            if let state = states[name] { backend["state"] = state }
            object[name] = backend
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

import ContractCheck
import Foundation

/// The sandbox: several backends under one server, each under its own path
/// prefix, every request checked against its backend's spec before it is
/// answered, and a record of what each backend received.
///
/// A request that breaks its spec gets a 400 whose JSON body names each
/// rule, the field and the spec's file:line:column, and one log line; a
/// valid one gets the success response its spec documents (status and
/// example body), or a fault the ``FaultPlan`` draws for it. `GET
/// /_sandbox/requests` lists what each backend received; `/_sandbox/faults`
/// reads and replaces the plan. Transport-neutral: a server (the `sandbox` executable, a test)
/// hands it requests.
public final class Sandbox: Sendable {
    /// The backends, by name (the path prefix).
    public let backends: [String: SandboxBackend]
    /// Where a log line goes (a rejected request, with its violations).
    private let log: @Sendable (String) -> Void
    private let received = ReceivedLog()
    private let draws: FaultDraws

    /// The path of the admin endpoint listing what each backend received.
    public static let requestsPath = "/_sandbox/requests"
    /// The path of the admin endpoint that reads (`GET`) and replaces
    /// (`PUT`, a ``FaultPlan`` as JSON) the injected faults.
    public static let faultsPath = "/_sandbox/faults"

    /// A sandbox of `backends` injecting `faults`; `log` receives one line
    /// per rejected request.
    public init(backends: [SandboxBackend], faults: FaultPlan = .none, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.backends = Dictionary(backends.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.log = log
        draws = FaultDraws(faults)
    }

    /// The faults being injected.
    public var faults: FaultPlan { draws.current }

    /// Answers one request; `path` is the whole request path (`/soul/api/moods`).
    public func handle(_ request: ContractRequest) -> SandboxReply {
        if request.path == Self.requestsPath {
            return request.method == "GET" ? .json(200, received.json()) : .json(405, #"{"error": "method", "message": "GET only"}"#)
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
        let result = backend.contract.check(inner)
        guard result.isValid else {
            let summary = result.violations.map(\.description).joined(separator: "; ")
            log("sandbox: \(name) \(request.method) \(inner.path) rejected (\(result.operation ?? "no operation")): \(summary)")
            received.record(backend: name, operation: result.operation, status: 400, violations: result.violations.count)
            return Self.rejection(result)
        }
        let (plan, draw) = draws.next()
        var reply: SandboxReply
        switch plan.fault(for: draw) {
        case .serverError:
            reply = .json(503, #"{"error": "injected", "message": "a 503 the sandbox injected (serverErrorShare)"}"#)
        case .rateLimited:
            reply = .json(429, #"{"error": "injected", "message": "a 429 the sandbox injected (rateLimitShare)"}"#)
            reply.headers.append(("Retry-After", String(plan.rateLimitRetryAfter)))
        case .malformedBody:
            reply = backend.documentedSuccess(for: result.operation)
            reply.body = Array(reply.body.prefix(reply.body.count / 2))
        case .none:
            reply = backend.documentedSuccess(for: result.operation)
        }
        reply.delay = .milliseconds(plan.latencyMilliseconds)
        received.record(backend: name, operation: result.operation, status: reply.status, violations: 0, injected: plan.fault(for: draw) != .none)
        return reply
    }

    private func handleFaults(_ request: ContractRequest) -> SandboxReply {
        switch request.method {
        case "GET":
            break
        case "PUT":
            guard let plan = try? JSONDecoder().decode(FaultPlan.self, from: Data(request.body ?? [])) else {
                return .json(400, #"{"error": "faults", "message": "the body must be a fault plan: {\"latencyMilliseconds\", \"serverErrorShare\", \"rateLimitShare\", \"rateLimitRetryAfter\", \"malformedBodyShare\", \"seed\"}, every member required"}"#)
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

    static func rejection(_ result: RequestContract.Result) -> SandboxReply {
        let violations: [[String: String]] = result.violations.map { violation in
            var entry = ["rule": violation.rule, "field": violation.field, "message": violation.message]
            if let position = violation.specPosition { entry["spec"] = position }
            return entry
        }
        var object: [String: Any] = ["error": "contract", "violations": violations]
        if let operation = result.operation { object["operation"] = operation }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return SandboxReply(status: 400, headers: [("Content-Type", "application/json")], body: Array(data))
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
        /// Requests the contract check rejected.
        public var rejected = 0
        /// Requests per operation id (valid and rejected alike).
        public var byOperation: [String: Int] = [:]
        /// Requests answered with an injected fault.
        public var injected = 0
    }

    func record(backend: String, operation: String?, status: Int, violations: Int, injected: Bool = false) {
        lock.withLock {
            var entry = counts[backend] ?? Counts()
            entry.requests += 1
            if violations > 0 { entry.rejected += 1 }
            if injected { entry.injected += 1 }
            if let operation { entry.byOperation[operation, default: 0] += 1 }
            counts[backend] = entry
        }
    }

    func snapshot() -> [String: Counts] { lock.withLock { counts } }

    func json() -> String {
        let object = snapshot().mapValues { ["requests": $0.requests, "rejected": $0.rejected, "injected": $0.injected, "operations": $0.byOperation] as [String: Any] }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

import ContractCheck
import Foundation
import SandboxCore
import Testing

/// The sandbox's core: the four backends under their prefixes, requests
/// checked against their specs, rejections that name the rule and the
/// spec's file:line, documented answers, and the admin record.
@Suite struct SandboxTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func sandbox(faults: FaultPlan = .none, log: @escaping @Sendable (String) -> Void = { _ in }) throws -> Sandbox {
        let backends = try ["soul", "safepocket", "securenode", "mobiletracker"].map { name in
            try SandboxBackend(name: name, specPath: root.appendingPathComponent("specs/\(name).yaml").path)
        }
        return Sandbox(backends: backends, faults: faults, log: log)
    }

    static let json = [(name: "Content-Type", value: "application/json")]

    static func object(_ reply: SandboxReply) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any])
    }

    /// A backend called `name` over the spec `yaml`, written to
    /// `NAME.yaml` in a folder of its own that is removed once it is read.
    static func backend(_ name: String, spec yaml: String) throws -> SandboxBackend {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sandbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let spec = folder.appendingPathComponent("\(name).yaml")
        try yaml.write(to: spec, atomically: true, encoding: .utf8)
        return try SandboxBackend(name: name, specPath: spec.path)
    }

    /// The broken rules a refusal lists in its `Sandbox-Violations` header.
    static func violations(_ reply: SandboxReply) throws -> [[String: String]] {
        let header = try #require(reply.header("Sandbox-Violations"))
        return try #require(try JSONSerialization.jsonObject(with: Data(header.utf8)) as? [[String: String]])
    }

    @Test func aValidRequestGetsTheDocumentedAnswer() throws {
        let sandbox = try Self.sandbox()
        let reply = sandbox.handle(ContractRequest(
            method: "POST", path: "/soul/api/auth/verify-otp", headers: Self.json, body: Array(#"{"phone": "+15555550123", "otp": "123456"}"#.utf8)))
        #expect(reply.status == 200 && reply.header("Content-Type") == "application/json")
        let body = try Self.object(reply)
        #expect(body["access_token"] is String && body["refresh_token"] is String, "the spec's example: \(body)")
    }

    @Test func aRequestTheSpecForbidsIsRejectedWithTheRuleAndItsPlaceInTheSpec() throws {
        let lines = LogLines()
        let sandbox = try Self.sandbox(log: lines.append)
        let reply = sandbox.handle(ContractRequest(
            method: "POST", path: "/soul/api/auth/verify-otp", headers: Self.json, body: Array(#"{"phone": "5555550123", "otp": "999999"}"#.utf8)))
        #expect(reply.status == 400)
        // A backend without a behaviour answers with its spec's documented 400 body.
        let body = try Self.object(reply)
        #expect(body["detail"] is String, "SOUL's documented error body: \(body)")
        let violations = try Self.violations(reply)
        #expect(violations.count == 1)
        #expect(violations[0]["rule"] == "pattern" && violations[0]["field"] == "body.phone")
        #expect(violations[0]["spec"]?.hasPrefix(Self.root.appendingPathComponent("specs/soul.yaml").path + ":") == true)
        #expect(lines.all.count == 1 && lines.all[0].contains("soul POST /api/auth/verify-otp rejected (verifyOTP)"))
        #expect(!lines.all[0].contains("5555550123") && !String(decoding: reply.body, as: UTF8.self).contains("5555550123"), "no phone number echoed")
        #expect(!(reply.header("Sandbox-Violations") ?? "").contains("5555550123"), "nor in the header")
    }

    @Test func unknownBackendsPathsAndMethods() throws {
        let sandbox = try Self.sandbox()
        let unknown = sandbox.handle(ContractRequest(method: "GET", path: "/billing/api/x"))
        #expect(unknown.status == 404 && String(decoding: unknown.body, as: UTF8.self).contains("/mobiletracker, /safepocket, /securenode, /soul"))
        let path = sandbox.handle(ContractRequest(method: "GET", path: "/soul/api/nothing"))
        let pathRules = try Self.violations(path)
        #expect(path.status == 404 && pathRules.first?["rule"] == "path")
        let method = sandbox.handle(ContractRequest(method: "PUT", path: "/soul/healthz"))
        let methodRules = try Self.violations(method)
        #expect(method.status == 405 && methodRules.first?["rule"] == "method")
        #expect(method.header("Allow") == "GET", "RFC 9110: a 405 lists the methods the resource has")
        let counts = sandbox.receivedCounts()["soul"]
        #expect(counts?.notFound == 1 && counts?.rejected == 1, "a missing path is told apart from a broken rule")
    }

    @Test func theAdminEndpointCountsWhatEachBackendReceived() throws {
        let sandbox = try Self.sandbox()
        _ = sandbox.handle(ContractRequest(method: "GET", path: "/soul/healthz"))
        _ = sandbox.handle(ContractRequest(method: "GET", path: "/soul/healthz"))
        _ = sandbox.handle(ContractRequest(method: "POST", path: "/soul/api/moods", headers: Self.json, body: Array(#"{"score": 0}"#.utf8)))
        #expect(sandbox.receivedCounts()["soul"]?.requests == 3 && sandbox.receivedCounts()["soul"]?.rejected == 1)
        #expect(sandbox.receivedCounts()["soul"]?.byOperation == ["checkHealth": 2, "createMood": 1])
        let admin = sandbox.handle(ContractRequest(method: "GET", path: Sandbox.requestsPath))
        let soul = try #require(try Self.object(admin)["soul"] as? [String: Any])
        #expect(soul["requests"] as? Int == 3 && soul["rejected"] as? Int == 1)
    }
}

/// Refusals as each backend's document gives them: the status its spec
/// documents and the backend's own error body, never a body of the
/// sandbox's own.
@Suite struct SandboxRefusalTests {
    static func standard(_ configure: (inout StandardBackends) -> Void = { _ in }) throws -> Sandbox {
        var standard = StandardBackends()
        configure(&standard)
        return Sandbox(backends: try standard.load(specsFolder: SandboxTests.root.appendingPathComponent("specs").path))
    }

    @Test func aMissingCredentialIsThe401TheSpecDocumentsInTheBackendsErrorBody() throws {
        let sandbox = try Self.standard()
        let safepocket = sandbox.handle(ContractRequest(method: "GET", path: "/safepocket/accounts"))
        #expect(safepocket.status == 401)
        let envelope = try SandboxTests.object(safepocket)
        #expect((envelope["error"] as? [String: Any])?["code"] as? String == "UNAUTHENTICATED" && envelope["traceId"] is String, "\(envelope)")
        let safepocketRules = try SandboxTests.violations(safepocket)
        #expect(safepocketRules.map { $0["rule"] } == ["security"])
        let soul = sandbox.handle(ContractRequest(method: "GET", path: "/soul/api/moods"))
        let soulBody = try SandboxTests.object(soul)
        #expect(soul.status == 401 && soulBody["detail"] is String)
        // A missing credential is refused before the body is judged, as a server authenticates first.
        let both = sandbox.handle(ContractRequest(method: "POST", path: "/soul/api/moods", headers: SandboxTests.json, body: Array(#"{"score": 0}"#.utf8)))
        let bothRules = try SandboxTests.violations(both)
        #expect(both.status == 401 && bothRules.map { $0["rule"] } == ["security"])
    }

    @Test func aBrokenRuleIs400InTheBackendsErrorBody() throws {
        let sandbox = try Self.standard()
        let tracker = sandbox.handle(ContractRequest(
            method: "POST", path: "/mobiletracker/v2/tracking-session", headers: SandboxTests.json + [("X-API-Key", "k")], body: Array(#"{"device_id": 7}"#.utf8)))
        #expect(tracker.status == 400)
        let body = try SandboxTests.object(tracker)
        #expect(body["success"] as? Bool == false && body["message"] is String && body["violations"] is [[String: String]], "\(body)")
    }

    @Test func aKeyOtherThanTheOneTheBackendWasGivenIsRefused() throws {
        let sandbox = try Self.standard { $0.secureNode.apiKey = "sk_right"; $0.trackerAPIKey = "tk_right" }
        let wrong = sandbox.handle(ContractRequest(method: "GET", path: "/securenode/api/mobile/branding/sync", headers: [("X-API-Key", "sk_wrong")]))
        let wrongBody = try SandboxTests.object(wrong)
        #expect(wrong.status == 401 && wrongBody["error"] as? String == "unauthorized")
        let right = sandbox.handle(ContractRequest(method: "GET", path: "/securenode/api/mobile/branding/sync", headers: [("X-API-Key", "sk_right")]))
        #expect(right.status == 200)
        let tracker = sandbox.handle(ContractRequest(
            method: "POST", path: "/mobiletracker/v2/tracking-session", headers: SandboxTests.json + [("X-API-Key", "tk_wrong")],
            body: Array(#"{"device_id": "6f1c2a9e-3b4d-4e5f-8a7b-9c0d1e2f3a4b", "os_name": "iOS", "device_type": "Mobile", "brand_id": 925}"#.utf8)))
        #expect(tracker.status == 401)
        #expect(sandbox.receivedCounts()["securenode"]?.refusedCredentials == 1 && sandbox.receivedCounts()["mobiletracker"]?.refusedCredentials == 1)
    }

    @Test func theViolationsHeaderStaysShortAndASCII() throws {
        let closed = try SandboxTests.backend("closed", spec: """
            openapi: 3.0.3
            info: {title: Closed, version: '1'}
            paths:
              /items:
                post:
                  requestBody:
                    required: true
                    content:
                      application/json:
                        schema: {type: object, additionalProperties: false, properties: {a: {type: integer}}}
                  responses:
                    '204': {description: Taken.}
            """)
        let sandbox = Sandbox(backends: [closed])
        // Thirty members the schema does not allow, named outside ASCII.
        let members = (0..<30).map { "\"\u{E9}t\u{E9}\($0)\": 1" }.joined(separator: ", ")
        let reply = sandbox.handle(ContractRequest(method: "POST", path: "/closed/items", headers: SandboxTests.json, body: Array("{\(members)}".utf8)))
        #expect(reply.status == 400)
        let header = try #require(reply.header("Sandbox-Violations"))
        #expect(header.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 }, "written in ASCII: \(header.prefix(200))")
        let rules = try SandboxTests.violations(reply)
        #expect(rules.count == 21 && rules.last?["rule"] == "more" && rules.last?["message"] == "10 more, in the body", "\(rules.count) entries")
        #expect(rules.first?["field"]?.contains("\u{E9}t\u{E9}") == true || rules.first?["message"]?.contains("\u{E9}t\u{E9}") == true, "the escapes read back as the name")
    }

    @Test func aConcretePathIsMatchedBeforeATemplatedOne() throws {
        let sandbox = try Self.standard()
        // `/transactions/sync` has POST only; PATCH is not an update of the transaction "sync".
        let reply = sandbox.handle(ContractRequest(method: "PATCH", path: "/safepocket/transactions/sync", headers: [("Authorization", "Bearer x")]))
        #expect(reply.status == 405 && reply.header("Allow") == "POST")
        let body = try SandboxTests.object(reply)
        #expect((body["error"] as? [String: Any])?["code"] as? String == "NOT_FOUND")
    }
}

/// Faults injected into answers to valid requests: shares drawn from a
/// seeded stream (one seed, one sequence), latency, a 429 with
/// `Retry-After`, a cut body, and a plan replaced through the admin endpoint.
@Suite struct FaultInjectionTests {
    static let health = ContractRequest(method: "GET", path: "/soul/healthz")

    static func statuses(_ sandbox: Sandbox, _ count: Int) -> [Int] {
        (0..<count).map { _ in sandbox.handle(health).status }
    }

    @Test func oneSeedGivesOneSequenceAndTheSharesHold() throws {
        let plan = FaultPlan(serverErrorShare: 0.3, rateLimitShare: 0.2, seed: 42)
        let first = Self.statuses(try SandboxTests.sandbox(faults: plan), 1000)
        let second = Self.statuses(try SandboxTests.sandbox(faults: plan), 1000)
        #expect(first == second)
        let other = Self.statuses(try SandboxTests.sandbox(faults: FaultPlan(serverErrorShare: 0.3, rateLimitShare: 0.2, seed: 43)), 1000)
        #expect(first != other)
        let errors = first.filter { $0 == 503 }.count, limited = first.filter { $0 == 429 }.count
        #expect((240...360).contains(errors) && (140...260).contains(limited), "503: \(errors), 429: \(limited) of 1000")
        #expect(Set(first) == [200, 429, 503])
    }

    @Test func aDrawn429StartsABurstOfThemOnTheRequestsRightAfter() throws {
        let sandbox = try SandboxTests.sandbox(faults: FaultPlan(rateLimitShare: 0.1, rateLimitBurst: 4, seed: 3))
        let statuses = (0..<300).map { _ in sandbox.handle(Self.health).status }
        let runs = statuses.split(separator: 200).map(\.count)
        #expect(!runs.isEmpty && runs.allSatisfy { $0 >= 4 }, "every run of 429s is a whole burst (or bursts back to back): \(runs)")
    }

    @Test func eachKindOfFault() throws {
        let limited = try SandboxTests.sandbox(faults: FaultPlan(latencyMilliseconds: 250, rateLimitShare: 1, rateLimitRetryAfter: 7))
        let reply = limited.handle(Self.health)
        #expect(reply.status == 429 && reply.header("Retry-After") == "7" && reply.delay == .milliseconds(250))
        #expect(limited.receivedCounts()["soul"]?.injected == 1)
        let cut = try SandboxTests.sandbox(faults: FaultPlan(malformedBodyShare: 1)).handle(Self.health)
        #expect(cut.status == 200 && (try? JSONSerialization.jsonObject(with: Data(cut.body))) == nil && !cut.body.isEmpty)
        // A request the spec forbids is still rejected, not given a fault.
        let broken = try SandboxTests.sandbox(faults: FaultPlan(serverErrorShare: 1)).handle(ContractRequest(method: "PUT", path: "/soul/healthz"))
        #expect(broken.status == 405)
    }

    @Test func thePlanIsReadAndReplacedThroughTheAdminEndpoint() throws {
        let sandbox = try SandboxTests.sandbox()
        #expect(Self.statuses(sandbox, 3) == [200, 200, 200])
        let put = sandbox.handle(ContractRequest(method: "PUT", path: Sandbox.faultsPath, body: Array(
            #"{"latencyMilliseconds": 0, "serverErrorShare": 1, "rateLimitShare": 0, "rateLimitRetryAfter": 1, "malformedBodyShare": 0, "seed": 9}"#.utf8)))
        #expect(put.status == 200 && sandbox.faults.serverErrorShare == 1)
        #expect(Self.statuses(sandbox, 2) == [503, 503])
        let bad = sandbox.handle(ContractRequest(method: "PUT", path: Sandbox.faultsPath, body: Array(
            #"{"latencyMilliseconds": 0, "serverErrorShare": 0.8, "rateLimitShare": 0.5, "rateLimitRetryAfter": 1, "malformedBodyShare": 0, "seed": 9}"#.utf8)))
        #expect(bad.status == 400 && String(decoding: bad.body, as: UTF8.self).contains("more than 1"))
        #expect(sandbox.faults.serverErrorShare == 1, "a refused plan changes nothing")
        let read = sandbox.handle(ContractRequest(method: "GET", path: Sandbox.faultsPath))
        #expect(read.status == 200 && String(decoding: read.body, as: UTF8.self).contains(#""seed":9"#))
    }
}

/// Log lines a test reads back.
final class LogLines: @unchecked Sendable {
    // Safe: `lines` is only touched while holding `lock`.
    private let lock = NSLock()
    private var lines: [String] = []

    var append: @Sendable (String) -> Void { { [self] line in lock.withLock { lines.append(line) } } }
    var all: [String] { lock.withLock { lines } }
}

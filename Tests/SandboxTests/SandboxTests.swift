import ContractCheck
import Foundation
import SandboxCore
import Testing

/// The sandbox's core: the four backends under their prefixes, requests
/// checked against their specs, rejections that name the rule and the
/// spec's file:line, documented answers, and the admin record.
@Suite struct SandboxTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func sandbox(log: @escaping @Sendable (String) -> Void = { _ in }) throws -> Sandbox {
        let backends = try ["soul", "safepocket", "securenode", "mobiletracker"].map { name in
            try SandboxBackend(name: name, specPath: root.appendingPathComponent("specs/\(name).yaml").path)
        }
        return Sandbox(backends: backends, log: log)
    }

    static let json = [(name: "Content-Type", value: "application/json")]

    static func object(_ reply: SandboxReply) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(reply.body)) as? [String: Any])
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
        let body = try Self.object(reply)
        #expect(body["error"] as? String == "contract" && body["operation"] as? String == "verifyOTP")
        let violations = try #require(body["violations"] as? [[String: String]])
        #expect(violations.count == 1)
        #expect(violations[0]["rule"] == "pattern" && violations[0]["field"] == "body.phone")
        #expect(violations[0]["spec"]?.hasPrefix(Self.root.appendingPathComponent("specs/soul.yaml").path + ":") == true)
        #expect(lines.all.count == 1 && lines.all[0].contains("soul POST /api/auth/verify-otp rejected (verifyOTP)"))
        #expect(!lines.all[0].contains("5555550123") && !String(decoding: reply.body, as: UTF8.self).contains("5555550123"), "no phone number echoed")
    }

    @Test func unknownBackendsPathsAndMethods() throws {
        let sandbox = try Self.sandbox()
        let unknown = sandbox.handle(ContractRequest(method: "GET", path: "/billing/api/x"))
        #expect(unknown.status == 404 && String(decoding: unknown.body, as: UTF8.self).contains("/mobiletracker, /safepocket, /securenode, /soul"))
        let path = sandbox.handle(ContractRequest(method: "GET", path: "/soul/api/nothing"))
        let pathRules = try Self.object(path)["violations"] as? [[String: String]]
        #expect(path.status == 400 && pathRules?.first?["rule"] == "path")
        let method = sandbox.handle(ContractRequest(method: "PUT", path: "/soul/healthz"))
        let methodRules = try Self.object(method)["violations"] as? [[String: String]]
        #expect(methodRules?.first?["rule"] == "method")
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

/// Log lines a test reads back.
final class LogLines: @unchecked Sendable {
    // Safe: `lines` is only touched while holding `lock`.
    private let lock = NSLock()
    private var lines: [String] = []

    var append: @Sendable (String) -> Void { { [self] line in lock.withLock { lines.append(line) } } }
    var all: [String] { lock.withLock { lines } }
}

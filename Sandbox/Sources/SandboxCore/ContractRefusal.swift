import ContractCheck
import Foundation
import OpenAPIModel

/// How the sandbox refuses a request its spec does not allow: with a status
/// the spec documents for the operation and the backend's own error body,
/// as the real backend would, so a generated client reads the refusal as
/// its typed error. The broken rules ride along in the
/// ``violationsHeader`` header (and, where the backend's error body has a
/// field for them, in that field), never instead of the documented body.
enum ContractRefusal {
    /// The header listing each broken rule as a JSON array of objects with
    /// `rule`, `field`, `message` and `spec` (the rule's file:line:column),
    /// written in ASCII.
    static let violationsHeader = "Sandbox-Violations"

    /// The status of a refusal: 404 when no path matches, 405 when the path
    /// has no such method, 401 (or the operation's documented 403 when it
    /// documents no 401) when the request carries no credential the
    /// operation accepts, and otherwise the first of 400 and 422 the
    /// operation documents (400 when it documents neither).
    static func status(of result: RequestContract.Result, documented: Set<Int>) -> Int {
        let rules = Set(result.violations.map(\.rule))
        if rules.contains("path") { return 404 }
        if rules.contains("method") { return 405 }
        if rules.contains("security") { return documented.contains(401) || !documented.contains(403) ? 401 : 403 }
        return documented.contains(400) || !documented.contains(422) ? 400 : 422
    }

    /// The violations a refusal of `status` reports: for a missing
    /// credential only that one (a server stops at authentication).
    static func reported(_ violations: [ContractViolation], status: Int) -> [ContractViolation] {
        guard status == 401 || status == 403 else { return violations }
        return violations.filter { $0.rule == "security" }
    }

    /// What a refusal says in words: each violation, the rule's place in
    /// the spec included (never the value sent).
    static func message(status: Int, violations: [ContractViolation]) -> String {
        let summary = violations.map(\.description).joined(separator: "; ")
        switch status {
        case 401, 403: return "Not authenticated: " + summary
        case 404: return "Not Found: " + summary
        case 405: return "Method Not Allowed: " + summary
        default: return summary
        }
    }

    /// Each violation as a JSON object: `rule`, `field`, `message` and
    /// `spec` (its file:line:column, when it has one).
    static func entries(_ violations: [ContractViolation]) -> [[String: String]] {
        violations.map { violation in
            var entry = ["rule": violation.rule, "field": violation.field, "message": violation.message]
            if let position = violation.specPosition { entry["spec"] = position }
            return entry
        }
    }

    /// How many violations the header lists at most: a header field past a
    /// few kilobytes is cut or refused by proxies (the body's message has
    /// every one).
    static let headerLimit = 20

    /// The violations as the ``violationsHeader`` value: the first
    /// ``headerLimit``, and an entry of rule `more` counting the rest.
    static func headerValue(_ violations: [ContractViolation]) -> String {
        var listed = entries(Array(violations.prefix(headerLimit)))
        if violations.count > headerLimit {
            listed.append(["rule": "more", "field": "", "message": "\(violations.count - headerLimit) more, in the body"])
        }
        let data = (try? JSONSerialization.data(withJSONObject: listed, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("[]".utf8)
        var ascii = ""
        for scalar in String(decoding: data, as: UTF8.self).unicodeScalars {
            if scalar.isASCII, scalar.value >= 0x20, scalar.value != 0x7F {
                ascii.unicodeScalars.append(scalar)
            } else {
                for unit in String(scalar).utf16 { ascii += String(format: "\\u%04x", unit) }
            }
        }
        return ascii
    }

    /// The sandbox's own body, for a backend whose behaviour and spec give
    /// no error body for `status`.
    static func ownBody(status: Int, operation: String?, violations: [ContractViolation]) -> SandboxReply {
        var object: [String: Any] = ["error": "contract", "violations": entries(violations)]
        if let operation { object["operation"] = operation }
        return SandboxJSON.reply(status, object)
    }
}

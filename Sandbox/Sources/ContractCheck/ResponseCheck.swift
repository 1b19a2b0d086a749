import Foundation
import OpenAPIModel

extension RequestContract {
    /// Every way a response breaks the spec for `operation` (the `operationId`,
    /// or `METHOD /path`, as ``Result/operation`` names it): a status the
    /// operation does not document (no exact code, range or `default`), a
    /// required response header missing, a content type the response does
    /// not list, a missing body, or a JSON body not matching its schema
    /// (`writeOnly` members included). What a sandbox's strict mode and a
    /// server's tests check their own answers with.
    public func checkResponse(operation: String, status: Int, headers: [(name: String, value: String)], body: [UInt8]) -> [ContractViolation] {
        guard let entry = document.operations.first(where: { ($0.operation.operationId ?? "\($0.method.wireName) \($0.path)") == operation }) else {
            return [ContractViolation(rule: "operation", field: "", message: "the spec has no operation \(operation)", location: nil)]
        }
        let responses = entry.operation.responses
        guard let reference = responses[String(status)] ?? responses["\(status / 100)XX"] ?? responses["\(status / 100)xx"] ?? responses["default"],
            let response = document.resolve(reference)
        else {
            let documented = responses.keys.joined(separator: ", ")
            return [ContractViolation(
                rule: "status", field: "response.status", message: "\(status) is not an answer \(operation) documents; it has \(documented)",
                location: entry.operation.location)]
        }
        func header(_ name: String) -> String? { headers.first { $0.name.caseInsensitiveEquals(name) }?.value }
        var violations: [ContractViolation] = []
        for (name, headerReference) in response.headers where !name.caseInsensitiveEquals("Content-Type") {
            if let declared = document.resolve(headerReference), declared.required, header(name) == nil {
                violations.append(ContractViolation(rule: "required", field: "response.header.\(name)", message: "is required", location: declared.location))
            }
        }
        guard !response.content.isEmpty else { return violations }
        guard !body.isEmpty else {
            if status == 204 || status == 304 { return violations }
            return violations + [ContractViolation(
                rule: "body", field: "response.body", message: "is empty; the spec documents " + response.content.keys.joined(separator: ", "),
                location: response.location)]
        }
        let contentType = (header("Content-Type") ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard let (_, media) = Self.media(for: contentType, in: response.content) else {
            return violations + [ContractViolation(
                rule: "content-type", field: "response.header.Content-Type",
                message: (contentType.isEmpty ? "is missing" : "\(contentType) is not") + "; the spec documents " + response.content.keys.joined(separator: ", "),
                location: response.location)]
        }
        guard let schema = media.schema, contentType == "application/json" || contentType.hasSuffix("+json") else { return violations }
        let value: JSONValue
        do {
            value = try JSONBodyParser.parse(body)
        } catch {
            return violations + [ContractViolation(rule: "json", field: "response.body", message: "is not JSON: \(error.reason) at byte \(error.offset)", location: media.location)]
        }
        let validator = SchemaValidator(document: document, patterns: patterns, direction: .response)
        return violations + validator.violations(value, schema, field: "response.body")
    }
}

import Foundation

/// `APIProtocol`, the protocol `Client` conforms to, and the shorthands of
/// operations with optional arguments.
extension ClientRenderer {
    /// `APIProtocol`: one requirement per operation, the signature of
    /// `Client`'s plain method without default arguments, so app code can be
    /// written against it and tested with a double; `Client` conforms.
    func renderProtocol(_ client: ClientRepresentation, into writer: inout SwiftWriter) {
        writer.line("")
        writer.documentation("""
            Every operation of the API, one requirement each (`Client`'s methods): write app code against
            `APIProtocol` and its tests can pass a double instead of `Client`. Arguments the spec makes
            optional are passed explicitly here; each operation is also available without them.
            """)
        writer.block("\(access) protocol APIProtocol: Sendable") { writer in
            for (index, operation) in client.operations.enumerated() {
                if index > 0 { writer.line("") }
                writer.line("/// " + SwiftComment.code("\(operation.method.wireName) \(operation.path)") + (Self.summary(operation).map { ": \($0)" } ?? ""))
                if operation.isDeprecated { writer.line("@available(*, deprecated)") }
                writer.line("func \(operation.methodName)(\(signature(operation, defaults: false).parameters)) async throws\(Self.returnClause(operation))")
            }
        }
        writer.line("")
        writer.line("extension Client: APIProtocol {}")
    }

    /// ` -> Body`, or nothing for an operation without a success body.
    static func returnClause(_ operation: OperationDeclaration) -> String {
        if case .empty = operation.success { return "" }
        return " -> \(operation.success.bodyType)"
    }

    /// The first line of the operation's documentation.
    static func summary(_ operation: OperationDeclaration) -> String? {
        guard let first = operation.documentation?.split(whereSeparator: \.isNewline).first else { return nil }
        let line = SwiftComment.text(first.trimmingCharacters(in: .whitespaces))
        return line.isEmpty ? nil : line
    }

    /// `APIProtocol`'s shorthand for an operation with optional arguments:
    /// the same call with them left out.
    func renderShorthand(_ operation: OperationDeclaration, into writer: inout SwiftWriter) {
        let required = operation.arguments.filter { argument in
            switch argument {
            case .parameter(let parameter): return !parameter.isOptional
            case .body(let body): return !body.isOptional
            }
        }
        guard required.count < operation.arguments.count else { return }
        var parameters: [String] = []
        var arguments: [String] = []
        for argument in operation.arguments {
            switch argument {
            case .parameter(let parameter):
                arguments.append("\(SwiftName.unescaped(parameter.label)): " + (parameter.isOptional ? "nil" : parameter.label))
                if !parameter.isOptional { parameters.append("\(parameter.label): \(parameter.type)") }
            case .body(let body):
                arguments.append("body: " + (body.isOptional ? "nil" : "body"))
                if !body.isOptional { parameters.append("body: \(body.type)") }
            }
        }
        writer.line("/// `\(SwiftName.unescaped(operation.methodName))` with its optional arguments left out.")
        if operation.isDeprecated { writer.line("@available(*, deprecated)") }
        writer.block("\(access) func \(operation.methodName)(\(parameters.joined(separator: ", "))) async throws\(Self.returnClause(operation))") { writer in
            writer.line("try await \(operation.methodName)(\(arguments.joined(separator: ", ")))")
        }
    }
}

import Foundation

/// Renders the conformance driver of a client: a `main.swift` that calls
/// any operation of the client with arguments read as JSON, and reports what
/// the client decoded (`clientgen conformance-driver`, `make conformance`).
/// The loop lives in `ClientRuntimeTesting.ConformanceDriver`; this file
/// holds what only the generator knows: the manifest of the operations,
/// and per operation the call with each argument decoded into its Swift
/// type and the decoded body encoded again.
struct ConformanceDriverRenderer {
    /// The generated client's module.
    let clientModule: String

    func render(_ client: ClientRepresentation, header: [String]) -> String {
        var writer = SwiftWriter()
        header.forEach { writer.line($0) }
        for module in ["ClientRuntime", "ClientRuntimeTesting", clientModule, "Foundation", "OpenAPIURLSession"] {
            writer.line("import \(module)")
        }
        writer.line("")
        writer.line("/// The operations of `\(clientModule)`, as the harness reads them.")
        writer.line("let manifest = \(SwiftLiteral.string(Self.manifest(client)))")
        writer.line("")
        writer.closure("await ConformanceDriver.main(manifest: manifest)", parameters: "key, serverURL, arguments") { writer in
            writer.line("let client = Client(serverURL: serverURL, transport: URLSessionTransport())")
            writer.line("switch key {")
            for operation in client.operations {
                writer.line("case \(SwiftLiteral.string(Self.key(operation))):")
                renderCall(operation, into: &writer)
            }
            writer.line("default: throw ConformanceArgumentError(message: \"no operation \\(key)\")")
            writer.line("}")
        }
        return writer.text
    }

    /// `GET /pets/{petId}`.
    static func key(_ operation: OperationDeclaration) -> String {
        operation.method.wireName.uppercased() + " " + operation.path
    }

    private func renderCall(_ operation: OperationDeclaration, into writer: inout SwiftWriter) {
        var arguments: [String] = []
        for argument in operation.arguments {
            switch argument {
            case .parameter(let parameter):
                let label = SwiftName.unescaped(parameter.label)
                arguments.append("\(label): arguments.value(\(SwiftLiteral.string(parameter.location.rawValue)), \(SwiftLiteral.string(parameter.wireName)))")
            case .body(let body):
                switch body.encoding {
                case .data: arguments.append("body: arguments.\(body.isOptional ? "bodyData" : "requiredBodyData")()")
                case .text: arguments.append("body: arguments.\(body.isOptional ? "bodyText" : "requiredBodyText")()")
                case .json, .form, .multipart: arguments.append("body: arguments.bodyValue()")
                }
            }
        }
        let call = "try await client.\(SwiftName.unescaped(operation.responseMethodName))(\(arguments.joined(separator: ", ")))"
        writer.line("    do {")
        writer.line("        let response = \(call)")
        writer.line("        return try ConformanceOutcome(status: response.status, body: \(bodyExpression(operation.success, value: "response.body", responses: operation.responses.filter(\.isSuccess))))")
        if let failure = operation.failure {
            writer.line("    } catch let error as APIError<\(failure.bodyType)> {")
            writer.line("        return try ConformanceOutcome(status: error.status, body: \(bodyExpression(failure, value: "error.body", responses: operation.responses.filter { !$0.isSuccess })))")
        }
        writer.line("    }")
    }

    /// The `ConformanceBody` of a decoded body: a per-status enum through a
    /// closure that switches over its cases.
    private func bodyExpression(_ result: ResultDeclaration, value: String, responses: [ResponseCase]) -> String {
        switch result {
        case .empty:
            return ".empty"
        case .single(let type):
            return Self.body(of: value, decoding: responses.first { $0.decoding != .none }?.decoding ?? .json(type))
        case .perStatus(let name, let cases):
            let arms = cases.map { item -> String in
                let caseName = SwiftName.unescaped(item.name)
                guard item.type != nil else { return "case .\(caseName): return .empty" }
                let decoding = responses.first { $0.caseName == item.name }?.decoding ?? .json(item.type!)
                return "case .\(caseName)(let value): return \(Self.body(of: "value", decoding: decoding))"
            }
            return "{ (body: \(name)) throws -> ConformanceBody in switch body { \(arms.joined(separator: "; ")) } }(\(value))"
        }
    }

    private static func body(of value: String, decoding: ResponseCase.Decoding) -> String {
        switch decoding {
        case .none: return ".empty"
        case .text: return ".text(\(value))"
        case .data: return ".data(\(value))"
        case .json: return "try .encoding(\(value))"
        }
    }

    // MARK: Manifest

    private struct Manifest: Encodable {
        var operations: [Entry]
    }

    private struct Entry: Encodable {
        var key: String
        var operationId: String?
        var requestBody: Body?
        var parameters: [Parameter]
        var responses: [Response]
        var streaming: Bool

        // `operationId` and `requestBody` are written even when null.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(key, forKey: .key)
            try container.encode(operationId, forKey: .operationId)
            try container.encode(requestBody, forKey: .requestBody)
            try container.encode(parameters, forKey: .parameters)
            try container.encode(responses, forKey: .responses)
            try container.encode(streaming, forKey: .streaming)
        }

        enum CodingKeys: String, CodingKey { case key, operationId, requestBody, parameters, responses, streaming }
    }

    private struct Body: Encodable {
        var contentType: String
        var encoding: String
        var required: Bool
    }

    private struct Parameter: Encodable {
        var name: String
        var `in`: String
        var required: Bool
    }

    private struct Response: Encodable {
        var status: String
        var decoding: String
    }

    /// The manifest JSON (sorted keys, so the file is the same on every run).
    static func manifest(_ client: ClientRepresentation) -> String {
        let entries = client.operations.map { operation in
            Entry(
                key: key(operation), operationId: operation.id,
                requestBody: operation.body.map { Body(contentType: $0.contentType, encoding: $0.encoding.rawValue, required: !$0.isOptional) },
                parameters: operation.parameters.map { Parameter(name: $0.wireName, in: $0.location.rawValue, required: !$0.isOptional) },
                responses: operation.responses.map { response in
                    let decoding: String
                    switch response.decoding {
                    case .none: decoding = "none"
                    case .json: decoding = "json"
                    case .text: decoding = "text"
                    case .data: decoding = "data"
                    }
                    return Response(status: response.status, decoding: decoding)
                },
                streaming: operation.streaming != nil)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(Manifest(operations: entries))) ?? Data("{\"operations\":[]}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

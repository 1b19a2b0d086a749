import Foundation

/// Renders the `Client` type: its initialisers, named servers, operation
/// descriptors, and one pair of methods per operation.
struct ClientRenderer {
    /// `public`, `package` or `internal`.
    let access: AccessLevel
    /// Renders constraint checks.
    let validation: ValidationRenderer
    /// Per-status enum name -> the enum with the same cases it is a
    /// typealias of (``SharedResultAnalysis``).
    let repeatedResults: [String: String]

    func renderClient(_ client: ClientRepresentation, into writer: inout SwiftWriter) {
        writer.documentation((client.documentation.map { $0 + "\n\n" } ?? "") + Self.errorsDocumentation)
        writer.block("\(access) struct Client: Sendable") { writer in
            writer.line("/// Sends the requests: server URL, transport and middlewares.")
            writer.line("\(access) let core: ClientCore")
            writer.line("")
            if !client.servers.isEmpty {
                writer.line("/// A client of one of the servers the spec names.")
                writer.block("\(access) init(server: Server, transport: any ClientTransport, middlewares: [any ClientMiddleware] = [], constraintChecks: ConstraintChecks = .requests)") { writer in
                    writer.line("self.init(serverURL: server.url, transport: transport, middlewares: middlewares, constraintChecks: constraintChecks)")
                }
                writer.line("")
            }
            writer.line("/// A client of the server at `serverURL`; middlewares run in order, the first outermost.")
            writer.line("/// `constraintChecks` says what is checked against the spec's constraints: requests, by default.")
            writer.block("\(access) init(serverURL: URL, transport: any ClientTransport, middlewares: [any ClientMiddleware] = [], constraintChecks: ConstraintChecks = .requests)") { writer in
                writer.line("self.core = ClientCore(serverURL: serverURL, transport: transport, middlewares: middlewares, constraintChecks: constraintChecks)")
            }
            writer.line("")
            writer.line("/// A client over a configured core.")
            writer.block("\(access) init(core: ClientCore)") { writer in
                writer.line("self.core = core")
            }
        }
        ValidationRenderer.renderPatterns(client.patterns, into: &writer)
        renderProtocol(client, into: &writer)
        if !client.servers.isEmpty {
            writer.line("")
            writer.block("extension Client") { writer in
                writer.line("/// The servers the spec names.")
                writer.block("\(access) enum Server: String, Sendable, CaseIterable") { writer in
                    for server in client.servers {
                        writer.documentation(server.documentation)
                        writer.line("case \(server.name) = \(SwiftLiteral.string(server.url))")
                    }
                    writer.line("")
                    writer.line("/// The base URL.")
                    writer.line("\(access) var url: URL { URL(string: rawValue)! }")
                }
            }
        }
        writer.line("")
        writer.block("extension Client") { writer in
            writer.line("/// Every operation with its method, path, security requirements and whether")
            writer.line("/// a retry may repeat it; ``OperationDescriptor/current`` holds the one being sent.")
            writer.block("\(access) enum Operations") { writer in
                for operation in client.operations {
                    writer.line("/// " + SwiftComment.code("\(operation.method.wireName) \(operation.path)"))
                    let security = operation.security.map { requirement in
                        "[" + requirement.map { use in
                            let scopes = use.scopes.isEmpty ? "" : ", scopes: [" + use.scopes.map(SwiftLiteral.string).joined(separator: ", ") + "]"
                            return "SecuritySchemeDescriptor(name: \(SwiftLiteral.string(use.name)), kind: \(Self.expression(use.kind))\(scopes))"
                        }.joined(separator: ", ") + "]"
                    }
                    // The runtime infers idempotency from the method; only an `x-idempotent` that differs is written.
                    let idempotent = operation.isIdempotent == operation.isIdempotentByMethod ? "" : ", isIdempotent: \(operation.isIdempotent)"
                    let deprecated = operation.isDeprecated ? ", isDeprecated: true" : ""
                    let offline = Self.offlineArguments(operation)
                    writer.line("\(access) static let \(operation.methodName) = OperationDescriptor(id: \(SwiftLiteral.string(operation.id)), method: .\(operation.method.rawValue), pathTemplate: \(SwiftLiteral.string(operation.path)), security: [\(security.joined(separator: ", "))]\(idempotent)\(deprecated)\(offline))")
                }
                writer.line("")
                writer.line("/// Every operation, by `operationId`.")
                // Built from an array: a dictionary literal of hundreds of
                // entries takes the type checker seconds.
                writer.line("\(access) static let byID: [String: OperationDescriptor] = Dictionary(all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })")
                writer.line("")
                writer.line("/// Every operation, in the spec's order.")
                writer.line("\(access) static let all: [OperationDescriptor] = [\(client.operations.map(\.methodName).joined(separator: ", "))]")
            }
            renderSecuritySchemes(client, into: &writer)
        }
    }

    /// What every operation method throws, said once on `Client` rather
    /// than on each of its methods.
    static let errorsDocumentation = """
        Every method throws `UndocumentedResponseError` for a status its operation does not document and
        `ResponseDecodingError` for a body that does not match the spec, besides what the transport and the
        middlewares throw; a method's `- Throws:` names the error bodies its operation documents.
        """

    /// The descriptor's `cache:`, `isOfflineQueueable:`, `secretFields:`
    /// and `secretPathParameters:` arguments, written only when the spec's
    /// `x-cache`, `x-offline-queue` or secret marks depart from the default
    /// (so specs without them generate what they always did).
    private static func offlineArguments(_ operation: OperationDeclaration) -> String {
        var arguments = ""
        switch operation.cache {
        case .byHeaders: break
        case .never: arguments += ", cache: .never"
        case .maxAge(let seconds): arguments += ", cache: .maxAge(seconds: \(seconds))"
        }
        if operation.isOfflineQueueable { arguments += ", isOfflineQueueable: true" }
        if !operation.secretFields.isEmpty {
            arguments += ", secretFields: [" + operation.secretFields.map(SwiftLiteral.string).joined(separator: ", ") + "]"
        }
        if !operation.secretPathParameters.isEmpty {
            arguments += ", secretPathParameters: [" + operation.secretPathParameters.map(SwiftLiteral.string).joined(separator: ", ") + "]"
        }
        return arguments
    }

    /// `Client.SecuritySchemes`: one constant per scheme the operations use,
    /// named as in `components/securitySchemes`, so the keys an app gives
    /// `SecurityMiddleware` are checked by the compiler (a misspelt name would
    /// otherwise surface as `missingCredential` at call time).
    private func renderSecuritySchemes(_ client: ClientRepresentation, into writer: inout SwiftWriter) {
        guard !client.securitySchemes.isEmpty else { return }
        let uses = client.securitySchemes.map(\.use)
        let names = client.securitySchemes.map(\.member)
        writer.line("")
        writer.line("/// The spec's security schemes, by the names `components/securitySchemes`")
        writer.line("/// gives them: the keys of `SecurityMiddleware`'s credentials.")
        writer.block("\(access) enum SecuritySchemes") { writer in
            for (use, name) in zip(uses, names) {
                writer.line("/// \(SwiftComment.code(use.name)): \(Self.summary(use.kind)).")
                writer.line("\(access) static let \(name) = \(SwiftLiteral.string(use.name))")
            }
            writer.line("")
            writer.line("/// Every scheme name.")
            writer.line("\(access) static let all: [String] = [\(names.map(SwiftName.unescaped).joined(separator: ", "))]")
        }
    }

    /// Where a scheme's credential goes, in words.
    private static func summary(_ kind: SecurityKind) -> String {
        switch kind {
        case .apiKeyHeader(let name): return "an API key in the \(SwiftComment.code(name)) header"
        case .apiKeyQuery(let name): return "an API key in the \(SwiftComment.code(name)) query parameter"
        case .apiKeyCookie(let name): return "an API key in the \(SwiftComment.code(name)) cookie"
        case .http(let scheme): return "HTTP \(SwiftComment.code(scheme)) authentication"
        case .oauth2: return "OAuth 2 (a bearer token)"
        case .openIDConnect: return "OpenID Connect (a bearer token)"
        case .mutualTLS: return "mutual TLS (a client certificate)"
        }
    }

    /// `APIProtocol`: one requirement per operation, the signature of
    /// `Client`'s plain method without default arguments, so app code can be
    /// written against it and tested with a double; `Client` conforms.
    private func renderProtocol(_ client: ClientRepresentation, into writer: inout SwiftWriter) {
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
    private static func returnClause(_ operation: OperationDeclaration) -> String {
        if case .empty = operation.success { return "" }
        return " -> \(operation.success.bodyType)"
    }

    /// The first line of the operation's documentation.
    private static func summary(_ operation: OperationDeclaration) -> String? {
        guard let first = operation.documentation?.split(whereSeparator: \.isNewline).first else { return nil }
        let line = SwiftComment.text(first.trimmingCharacters(in: .whitespaces))
        return line.isEmpty ? nil : line
    }

    /// `APIProtocol`'s shorthand for an operation with optional arguments:
    /// the same call with them left out.
    private func renderShorthand(_ operation: OperationDeclaration, into writer: inout SwiftWriter) {
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

    // MARK: Operations

    /// Renders a chunk of operations: one `extension Client` with their
    /// methods, one `extension APIProtocol` with the shorthands of those that
    /// have optional arguments, then their per-status result enums.
    func renderOperations(_ operations: [RenderedOperation], into writer: inout SwiftWriter) {
        writer.block("extension Client") { writer in
            for (index, operation) in operations.enumerated() {
                if index > 0 { writer.line("") }
                writer.append(rendered: operation.methods)
            }
        }
        let shorthands = operations.filter { !$0.shorthand.isEmpty }
        if !shorthands.isEmpty {
            writer.line("")
            writer.block("extension APIProtocol") { writer in
                for (index, operation) in shorthands.enumerated() {
                    if index > 0 { writer.line("") }
                    writer.append(rendered: operation.shorthand)
                }
            }
        }
        for operation in operations { writer.append(rendered: operation.results) }
    }

    /// Renders one operation's parts, each once: the file chunking counts
    /// their lines and the chunk's text joins them.
    func render(_ operation: OperationDeclaration) -> RenderedOperation {
        var methods = SwiftWriter(depth: 1)
        renderMethods(operation, into: &methods)
        var shorthand = SwiftWriter(depth: 1)
        let hasOptionalArgument = operation.arguments.contains { argument in
            switch argument {
            case .parameter(let parameter): return parameter.isOptional
            case .body(let body): return body.isOptional
            }
        }
        if hasOptionalArgument { renderShorthand(operation, into: &shorthand) }
        var results = SwiftWriter()
        for result in [operation.success, operation.failure].compactMap({ $0 }) {
            guard case .perStatus(let name, let cases) = result else { continue }
            results.line("")
            if let kept = repeatedResults[name] {
                results.line("/// The bodies \(SwiftComment.code(operation.id)) documents, by status: the same cases as `\(kept)`.")
                results.line("\(access) typealias \(name) = \(kept)")
                continue
            }
            results.line("/// The bodies \(SwiftComment.code(operation.id)) documents, by status.")
            results.block("\(access) enum \(name): Hashable, Sendable") { writer in
                for item in cases {
                    writer.documentation(item.documentation)
                    writer.line(item.type.map { "case \(item.name)(\($0))" } ?? "case \(item.name)")
                }
            }
        }
        return RenderedOperation(methods: methods.lines, shorthand: shorthand.lines, results: results.lines)
    }

    private func signature(_ operation: OperationDeclaration, defaults: Bool = true) -> (parameters: String, arguments: String) {
        var parameters: [String] = []
        var arguments: [String] = []
        for argument in operation.arguments {
            switch argument {
            case .parameter(let parameter):
                parameters.append("\(parameter.label): \(parameter.type)" + (parameter.isOptional && defaults ? " = nil" : ""))
                arguments.append("\(SwiftName.unescaped(parameter.label)): \(parameter.label)")
            case .body(let body):
                parameters.append("body: \(body.type)" + (body.isOptional && defaults ? " = nil" : ""))
                arguments.append("body: body")
            }
        }
        return (parameters.joined(separator: ", "), arguments.joined(separator: ", "))
    }

    private func renderMethods(_ operation: OperationDeclaration, into writer: inout SwiftWriter) {
        let (parameters, arguments) = signature(operation)
        var documentation = operation.documentation ?? "`\(operation.method.wireName) \(operation.path)`"
        let documented = operation.parameters.filter { $0.documentation != nil }
        if !documented.isEmpty || operation.body?.documentation != nil {
            documentation += "\n\n- Parameters:"
            for parameter in documented {
                documentation += "\n  - \(SwiftName.unescaped(parameter.label)): " + (parameter.documentation ?? "").replacingNewlines()
            }
            if let text = operation.body?.documentation { documentation += "\n  - body: " + text.replacingNewlines() }
        }
        // What every method throws is said once, on `Client`; a method names
        // only the error bodies its own operation documents.
        if let failure = operation.failure {
            let statuses = operation.responses.filter { !$0.isSuccess }.map(\.status).joined(separator: ", ")
            documentation += "\n\n- Throws: `APIError<\(failure.bodyType)>` for a documented error status (\(statuses))."
        }
        writer.documentation(documentation)
        if operation.isDeprecated { writer.line("@available(*, deprecated)") }
        if case .empty = operation.success {
            writer.block("\(access) func \(operation.methodName)(\(parameters)) async throws") { writer in
                writer.line("_ = try await \(SwiftName.unescaped(operation.responseMethodName))(\(arguments))")
            }
        } else {
            writer.block("\(access) func \(operation.methodName)(\(parameters)) async throws -> \(operation.success.bodyType)") { writer in
                writer.line("try await \(SwiftName.unescaped(operation.responseMethodName))(\(arguments)).body")
            }
        }
        writer.line("")
        writer.line("/// `\(SwiftName.unescaped(operation.methodName))`, returning the status and headers too.")
        if operation.isDeprecated { writer.line("@available(*, deprecated)") }
        writer.block("\(access) func \(operation.responseMethodName)(\(parameters)) async throws -> Response<\(operation.success.bodyType)>") { writer in
            renderRequest(operation, into: &writer)
            writer.line("let response = try await core.send(request)")
            renderResponseSwitch(operation, into: &writer)
        }
        if let streaming = operation.streaming { renderStreamedMethod(operation, streaming, parameters: parameters, into: &writer) }
    }

    /// The method that decodes the response's array while the body arrives.
    private func renderStreamedMethod(_ operation: OperationDeclaration, _ streaming: StreamingDeclaration, parameters: String, into writer: inout SwiftWriter) {
        let what = streaming.member.map { "its `\($0)` array" } ?? "its array body"
        writer.line("")
        writer.documentation("""
            `\(SwiftName.unescaped(operation.methodName))`, \(what) decoded element by element while the body
            arrives (`x-stream-array`): memory holds a batch of elements, not the whole response. An element
            that does not decode is delivered as a failure and the others go on; once iteration has ended,
            `envelope` holds the rest of the body.

            - Throws: what `\(SwiftName.unescaped(operation.responseMethodName))` throws for a status other than \(streaming.status).
            """)
        if operation.isDeprecated { writer.line("@available(*, deprecated)") }
        let resultType = "StreamedJSONArray<\(streaming.elementType), \(streaming.envelopeType)>"
        writer.block("\(access) func \(streaming.methodName)(\(parameters)) async throws -> \(resultType)") { writer in
            renderRequest(operation, into: &writer)
            writer.line("let opened = try await core.open(request)")
            let member = streaming.member.map(SwiftLiteral.string) ?? "nil"
            writer.block("if \(Self.statusCondition(streaming.status, "opened.status"))") { writer in
                writer.line("return opened.streamJSONArray(of: \(streaming.elementType).self, member: \(member), envelope: \(streaming.envelopeType).self)")
            }
            writer.line("let response = try await opened.collect()")
            renderResponseSwitch(operation, includingSuccess: false, into: &writer)
        }
    }

    /// `status == 200`, or `(200...299).contains(status)` for `2XX`.
    private static func statusCondition(_ status: String, _ value: String) -> String {
        if let code = Int(status) { return "\(value) == \(code)" }
        let digit = status.first?.wholeNumberValue ?? 2
        return "(\(digit * 100)...\(digit * 100 + 99)).contains(\(value))"
    }

    /// Declares `request` with the operation's parameters, body and `Accept`.
    private func renderRequest(_ operation: OperationDeclaration, into writer: inout SwiftWriter) {
        var checks: [String] = []
        for parameter in operation.parameters {
            checks += validation.checks(
                of: parameter.label, at: parameter.validationKey, type: parameter.type,
                constraints: parameter.constraints, elements: parameter.elementConstraints)
        }
        if let body = operation.body, body.encoding == .json || body.encoding == .form || body.encoding == .multipart {
            checks += validation.checks(of: "body", at: "body", type: body.type, constraints: body.constraints, elements: body.elementConstraints)
        }
        if !checks.isEmpty {
            writer.closure("try core.validateRequest(Operations.\(SwiftName.unescaped(operation.methodName)))", parameters: "validator") { writer in
                checks.forEach { writer.line($0) }
            }
        }
        let mutates = !operation.parameters.isEmpty || operation.body != nil || operation.accept != nil
        writer.line("\(mutates ? "var" : "let") request = RequestBuilder(Operations.\(SwiftName.unescaped(operation.methodName)))")
        for parameter in operation.parameters {
            let name = SwiftLiteral.string(parameter.wireName)
            // `content: application/json` parameters go as their JSON text.
            let value = !parameter.isJSONContent ? parameter.label
                : parameter.isOptional ? "\(parameter.label).map(JSONParameter.init)" : "JSONParameter(\(parameter.label))"
            // Arguments equal to the runtime's defaults are left out.
            switch parameter.location {
            case .path:
                let style = parameter.style == .simple ? "" : ", style: \(SwiftLiteral.string(parameter.style.rawValue))"
                writer.line("try request.setPath(\(name), \(value)\(style)\(parameter.explode ? ", explode: true" : ""))")
            case .query:
                let style = parameter.style == .form ? "" : ", style: .\(parameter.style.rawValue)"
                let reserved = parameter.allowReserved ? ", allowReserved: true" : ""
                writer.line("try request.addQuery(\(name), \(value)\(style)\(parameter.explode ? "" : ", explode: false")\(reserved))")
            case .header: writer.line("try request.setHeader(\(name), \(value)\(parameter.explode ? ", explode: true" : ""))")
            case .cookie: writer.line("try request.addCookie(\(name), \(value))")
            }
        }
        if let body = operation.body { renderBody(body, into: &writer) }
        if let accept = operation.accept { writer.line("request.accept(\(SwiftLiteral.string(accept)))") }
    }

    /// The `SecuritySchemeDescriptor.Kind` expression.
    private static func expression(_ kind: SecurityKind) -> String {
        switch kind {
        case .apiKeyHeader(let name): return ".apiKeyHeader(name: \(SwiftLiteral.string(name)))"
        case .apiKeyQuery(let name): return ".apiKeyQuery(name: \(SwiftLiteral.string(name)))"
        case .apiKeyCookie(let name): return ".apiKeyCookie(name: \(SwiftLiteral.string(name)))"
        case .http(let scheme): return ".http(scheme: \(SwiftLiteral.string(scheme)))"
        case .oauth2: return ".oauth2"
        case .openIDConnect: return ".openIDConnect"
        case .mutualTLS: return ".mutualTLS"
        }
    }

    private func renderBody(_ body: BodyDeclaration, into writer: inout SwiftWriter) {
        let value = "body"
        let content = SwiftLiteral.string(body.contentType)
        var lines: [String] = []
        switch body.encoding {
        case .json:
            let contentType = body.contentType == "application/json" ? "" : ", contentType: \(content)"
            lines = ["try request.setJSONBody(\(value)\(contentType))"]
        case .form:
            let encodings = body.fieldEncodings.map { field -> String in
                var arguments: [String] = []
                if let style = field.style, ["form", "spaceDelimited", "pipeDelimited", "deepObject"].contains(style) { arguments.append("style: .\(style)") }
                if let explode = field.explode { arguments.append("explode: \(explode)") }
                if field.allowReserved { arguments.append("allowReserved: true") }
                if let contentType = field.contentType { arguments.append("contentType: \(SwiftLiteral.string(contentType))") }
                return "\(SwiftLiteral.string(field.name)): FormFieldEncoding(\(arguments.joined(separator: ", ")))"
            }
            lines = [encodings.isEmpty ? "try request.setFormBody(\(value))" : "try request.setFormBody(\(value), encodings: [\(encodings.joined(separator: ", "))])"]
        case .text: lines = ["request.setTextBody(\(value), contentType: \(content))"]
        case .data: lines = ["request.setDataBody(\(value), contentType: \(content))"]
        case .multipart:
            lines = ["var form = MultipartForm()"]
            if let parts = body.multipartParts {
                for part in parts {
                    let name = SwiftLiteral.string(part.name)
                    let member = "\(value).\(SwiftName.unescaped(part.member))"
                    // The spec's `encoding` names the part's media type.
                    let type = part.contentType.map { ", contentType: \(SwiftLiteral.string($0))" } ?? ""
                    switch part.kind {
                    case .file: lines.append("form.append(\(name), \(member)\(type))")
                    case .nullableFile: lines.append("if case .value(let part)? = \(member) { form.append(\(name), part\(type)) }")
                    case .files: lines.append("for part in \(member) { form.append(\(name), part\(type)) }")
                    case .optionalFiles: lines.append("for part in \(member) ?? [] { form.append(\(name), part\(type)) }")
                    case .value: lines.append("try form.append(\(name), \(member)\(type))")
                    }
                }
            } else {
                // Not an object the generator declared: each member of its JSON is a part.
                lines.append("try form.appendFields(of: \(value))")
            }
            lines.append("request.setMultipartBody(form)")
        }
        if body.isOptional {
            writer.block("if let body") { writer in
                for line in lines { writer.line(line) }
            }
        } else {
            for line in lines { writer.line(line) }
        }
    }

    /// The `switch` over `response.status`; without `includingSuccess`, the
    /// success statuses are left out (the caller has handled them).
    private func renderResponseSwitch(_ operation: OperationDeclaration, includingSuccess: Bool = true, into writer: inout SwiftWriter) {
        let responses = includingSuccess ? operation.responses : operation.responses.filter { !$0.isSuccess }
        // Exact codes first, then ranges, then `default`.
        let ordered = responses.filter { Int($0.status) != nil }
            + responses.filter { Int($0.status) == nil && $0.status != "default" }
            + responses.filter { $0.status == "default" }
        // Statuses read the same way share one case: `case 400, 429:`.
        var arms: [(patterns: [String], statement: String)] = []
        for response in ordered {
            let pattern: String
            if let code = Int(response.status) {
                pattern = String(code)
            } else if response.status == "default" {
                pattern = "default"
            } else if let digit = response.status.first?.wholeNumberValue {
                pattern = "\(digit * 100)...\(digit * 100 + 99)"
            } else {
                continue
            }
            let decoded: String?
            switch response.decoding {
            case .none: decoded = nil
            case .json(let type): decoded = "try response.decodeJSON(\(type).self)"
            case .text: decoded = "response.decodeText()"
            case .data: decoded = "response.body"
            }
            let value: String
            if let caseName = response.caseName, case .perStatus(let enumName, _)? = response.isSuccess ? operation.success : operation.failure {
                let member = "\(enumName).\(SwiftName.unescaped(caseName))"
                value = decoded.map { "\(member)(\($0))" } ?? member
            } else {
                value = decoded ?? "EmptyBody()"
            }
            let statement = response.isSuccess ? "return response.success(\(value))" : "throw response.failure(\(value))"
            if pattern != "default", let last = arms.last, last.statement == statement, last.patterns != ["default"] {
                arms[arms.count - 1].patterns.append(pattern)
            } else {
                arms.append(([pattern], statement))
            }
        }
        writer.line("switch response.status {")
        for arm in arms {
            let label = arm.patterns == ["default"] ? "default" : "case " + arm.patterns.joined(separator: ", ")
            writer.line("\(label): \(arm.statement)")
        }
        if !responses.contains(where: { $0.status == "default" }) {
            writer.line("default: throw response.undocumented()")
        }
        writer.line("}")
    }
}

extension String {
    /// The text on one line, for a `- Parameters:` entry.
    func replacingNewlines() -> String {
        split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
    }
}

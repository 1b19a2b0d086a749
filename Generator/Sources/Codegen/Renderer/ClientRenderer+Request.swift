import Foundation

/// The request an operation method builds: parameters, body, `Accept`, and
/// the security descriptors' kinds.
extension ClientRenderer {
    /// Declares `request` with the operation's parameters, body and `Accept`
    /// (`accept` in place of the operation's, for a method that reads one
    /// media type of it). With `streamedBody`, the body is written from the
    /// argument `events` while it is sent.
    func renderRequest(
        _ operation: OperationDeclaration, accept: String? = nil, streamedBody: RequestEventStreamDeclaration? = nil, into writer: inout SwiftWriter
    ) {
        let accept = accept ?? operation.accept
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
        let mutates = !operation.parameters.isEmpty || operation.body != nil || accept != nil
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
            case .cookie:
                let escaping = parameter.style == .cookie ? ", percentEncoding: false" : ""
                writer.line("try request.addCookie(\(name), \(value)\(parameter.explode && !parameter.isJSONContent ? ", explode: true" : "")\(escaping))")
            case .querystring:
                writer.line("try request.setQueryString(\(parameter.label), contentType: \(SwiftLiteral.string(parameter.contentType ?? "application/x-www-form-urlencoded")))")
            }
        }
        if let streamedBody {
            let setter = streamedBody.elementType == nil ? "setEventTextStreamBody" : "setEventStreamBody"
            writer.line("request.\(setter)(events, format: .\(streamedBody.format), contentType: \(SwiftLiteral.string(streamedBody.contentType)))")
        } else if let body = operation.body {
            renderBody(body, into: &writer)
        }
        if let accept { writer.line("request.accept(\(SwiftLiteral.string(accept)))") }
    }

    /// The `SecuritySchemeDescriptor.Kind` expression.
    static func expression(_ kind: SecurityKind) -> String {
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

    func renderBody(_ body: BodyDeclaration, into writer: inout SwiftWriter) {
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
            if let positional = body.positionalParts {
                // Parts by position (`multipart/mixed`), as prefixEncoding and itemEncoding say.
                let mediaType = body.contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? body.contentType
                lines = ["var form = MultipartForm(mediaType: \(SwiftLiteral.string(mediaType)))"]
                var arguments: [String] = []
                if !positional.prefixContentTypes.isEmpty {
                    arguments.append("prefixContentTypes: [" + positional.prefixContentTypes.map { $0.map(SwiftLiteral.string) ?? "nil" }.joined(separator: ", ") + "]")
                }
                if let item = positional.itemContentType { arguments.append("itemContentType: \(SwiftLiteral.string(item))") }
                lines.append("try form.appendItems(\(value)\(arguments.isEmpty ? "" : ", " + arguments.joined(separator: ", ")))")
            } else if let parts = body.multipartParts {
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
}

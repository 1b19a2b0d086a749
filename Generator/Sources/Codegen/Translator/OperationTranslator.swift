import Foundation
import OpenAPIModel

/// Translates operations into ``OperationDeclaration``s: a method name from
/// the `operationId`, arguments from parameters and the request body, and
/// the types that successes return and error statuses throw.
struct OperationTranslator {
    let document: OpenAPIDocument
    let models: ModelTranslator
    /// What the spec says of each operation's values in a log, its named
    /// schemas walked once for all operations.
    let logMarks: LogMarkAnalysis

    /// `operationId` -> the method name a team chose (``NameOverrides``).
    private let methodNameOverrides: [String: String]

    init(document: OpenAPIDocument, models: ModelTranslator, methodNames: [String: String] = [:]) {
        self.document = document
        self.models = models
        self.methodNameOverrides = methodNames
        logMarks = LogMarkAnalysis(document: document)
    }

    /// Header parameters that OpenAPI says are ignored (the transport and
    /// middlewares own them).
    private static let ignoredHeaders: Set<String> = ["accept", "content-type", "authorization"]

    /// Every operation of the document, in order.
    func translateAll() -> [OperationDeclaration] {
        var methodNames = NameScope(reserved: ["core", "init", "server", "serverURL", "transport", "middlewares", "all", "byID", "memberNames"])
        var result: [OperationDeclaration] = []
        // The team's names first: a derived name that meets one takes the suffix.
        var chosen: [String: String] = [:]
        for (path, method, operation, _) in document.operations {
            let id = operation.operationId ?? Self.derivedID(method: method, path: path)
            if let name = methodNameOverrides[id], chosen[id] == nil {
                chosen[id] = methodNames.claim(SwiftName.memberName(name, fallback: method.rawValue))
            }
        }
        for (path, method, operation, pathItem) in document.operations {
            let id = operation.operationId ?? Self.derivedID(method: method, path: path)
            let methodName = chosen.removeValue(forKey: id)
                ?? methodNames.claim(SwiftName.memberName(id, fallback: SwiftName.memberName(Self.derivedID(method: method, path: path), fallback: method.rawValue)))
            let responseMethodName = methodNames.claim(SwiftName.unescaped(methodName) + "WithResponse")
            var declaration = translate(operation, id: id, methodName: methodName, responseMethodName: responseMethodName, method: method, path: path, pathItem: pathItem)
            if declaration.streaming != nil {
                declaration.streaming?.methodName = methodNames.claim(SwiftName.unescaped(methodName) + "Streamed")
            }
            result.append(declaration)
        }
        // Named once every operation has its names: an events method never
        // takes the name of a later operation's method.
        for index in result.indices where result[index].events != nil || result[index].requestEvents != nil {
            let name = methodNames.claim(SwiftName.unescaped(result[index].methodName) + "Events")
            result[index].events?.methodName = name
            result[index].requestEvents?.methodName = name
        }
        return result
    }

    /// `get /pets/{petId}` -> `getPetsPetId`.
    static func derivedID(method: HTTPMethod, path: String) -> String {
        method.rawValue + "_" + path.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: "")
    }

    private func translate(_ operation: OpenAPIModel.Operation, id: String, methodName: String, responseMethodName: String, method: HTTPMethod, path: String, pathItem: PathItem) -> OperationDeclaration {
        let typePrefix = SwiftName.typeName(id)
        // The generated method's own locals and arguments.
        // The events method's argument `events` and locals `opened` and `sent`,
        // where the operation has one.
        // (Types are translated in the order the output has always had, so
        // only whether there are streams is asked here.)
        var reserved: Set<String> = ["body", "request", "response", "form", "part", "core"]
        if sequentialRequestType(operation) != nil { reserved.insert("events") }
        if method != .head, sequentialSuccess(operation) != nil { reserved.formUnion(["opened", "sent"]) }
        var labels = NameScope(reserved: reserved)

        var parameters = document.parameters(of: operation, in: pathItem)
        parameters.removeAll { $0.location == .header && Self.ignoredHeaders.contains($0.name.lowercased()) }
        let pathOrder = templateVariables(in: path)
        parameters.sort { lhs, rhs in
            func rank(_ parameter: Parameter) -> Int {
                if parameter.location == .path { return pathOrder.firstIndex(of: parameter.name) ?? 0 }
                return parameter.required ? 1000 : 2000
            }
            return rank(lhs) < rank(rhs)
        }
        let declaredParameters = parameters.map { parameter -> ParameterDeclaration in
            let schema = parameter.schema ?? parameter.content.values.first?.schema
            let base = schema.map { models.topLevelType(for: $0, suggestedName: typePrefix + SwiftName.typeName(parameter.name)) } ?? .named("String")
            let required = parameter.required || parameter.location == .path
            // `X-Request-ID` reads as `requestID`.
            let bareName = parameter.location == .header && parameter.name.lowercased().hasPrefix("x-") && parameter.name.count > 2
                ? String(parameter.name.dropFirst(2)) : parameter.name
            var label = SwiftName.memberName(bareName, fallback: "parameter")
            if labels.contains(label) { label = SwiftName.memberName(parameter.name + "_" + parameter.location.rawValue) }
            let isJSONContent = parameter.schema == nil && parameter.content.keys.first.map(Self.isJSON) == true
            let checks = schema.map {
                models.constraints.constraints(of: $0, type: base, wireName: parameter.name, assumed: AssumedExtension.isMarked(parameter.extensions))
            }
            let style = ParameterStyle(parameter.style, location: parameter.location)
            return ParameterDeclaration(
                label: labels.claim(label), wireName: parameter.name, location: parameter.location,
                type: required ? base : .optional(base), isOptional: !required, style: style,
                explode: parameter.explode ?? (style == .form), isJSONContent: isJSONContent, documentation: Documentation.text(parameter.description),
                constraints: checks?.value, elementConstraints: checks?.elements, allowReserved: parameter.allowReserved,
                contentType: parameter.content.keys.first)
        }

        let body = operation.requestBody.flatMap { document.resolve($0) }.flatMap { requestBody in
            bodyDeclaration(requestBody, typeName: typePrefix + "Request")
        }

        let (responses, success, failure) = responseCases(operation, typePrefix: typePrefix, isHead: method == .head)
        let accept = Self.acceptHeader(operation, document: document)
        let marks = logMarks.marks(of: operation, parameters: parameters)
        var declaration = OperationDeclaration(
            id: id, methodName: methodName, responseMethodName: responseMethodName, method: method, path: path,
            documentation: Documentation.text(operation.summary, operation.description), isDeprecated: operation.deprecated,
            parameters: declaredParameters, body: body, success: success, failure: failure, responses: responses,
            security: security(operation), accept: accept, isIdempotent: Self.isIdempotent(operation, method: method),
            streaming: streaming(operation, success: success), cache: CacheExtension.read(operation, method: method),
            isOfflineQueueable: OfflineQueueExtension.read(operation, method: method))
        if method != .head { declaration.events = eventStream(operation, typePrefix: typePrefix) }
        declaration.requestEvents = requestEventStream(operation, typePrefix: typePrefix)
        declaration.secretFields = marks.secretFields
        declaration.secretPathParameters = marks.secretPathParameters
        declaration.loggablePaths = marks.loggablePaths
        return declaration
    }

    /// The streamed variant `x-stream-array` asks for, when it can be made:
    /// one success status, whose JSON body is the array or an object
    /// holding it (anything else is reported by the loader's checks).
    private func streaming(_ operation: OpenAPIModel.Operation, success: ResultDeclaration) -> StreamingDeclaration? {
        guard case .single(let successType) = success else { return nil }
        let successes = operation.responses.filter { $0.key.hasPrefix("2") }
        guard successes.count == 1, let (status, reference) = successes.first, let response = document.resolve(reference),
              case let (_, media, .json)? = Self.preferredContent(response.content),
              case .success(let hint)? = StreamedArray.read(media, in: document)
        else { return nil }
        switch hint {
        case .body:
            guard case .array(let element) = successType else { return nil }
            return StreamingDeclaration(methodName: "", status: status, member: nil, elementType: element, envelopeType: .named("EmptyBody"))
        case .property(let name):
            guard case .named(let typeName) = successType,
                  let declaration = models.declarations.first(where: { $0.name == typeName }),
                  case .structure(let shape) = declaration.kind,
                  let property = shape.properties.first(where: { $0.wireName == name })
            else { return nil }
            var type = property.type
            while true {
                switch type {
                case .optional(let wrapped), .nullable(let wrapped): type = wrapped
                case .array(let element):
                    return StreamingDeclaration(methodName: "", status: status, member: name, elementType: element, envelopeType: successType)
                default: return nil
                }
            }
        }
    }

    /// The method reading a sequential media type one element at a time,
    /// when the operation's one success status offers one: its elements'
    /// schema is OpenAPI 3.2's `itemSchema` (or `x-item-schema`; for
    /// server-sent events, the `contentSchema` of the item's `data`, or its
    /// text), else the media type's `schema` when it describes one element
    /// (not the stream as a string); with neither, each element is its text.
    private func eventStream(_ operation: OpenAPIModel.Operation, typePrefix: String) -> EventStreamDeclaration? {
        guard let (status, sequential) = sequentialSuccess(operation),
              let first = sequential.first, let expected = SequentialMediaType.formatCase(of: first.key)
        else { return nil }
        let payload = elementType(of: sequential.map { ($0.key, $0.value) }, suggestedName: typePrefix + "Event")
        return EventStreamDeclaration(methodName: "", status: status, mediaTypes: sequential.map(\.key), expectedFormat: expected, payloadType: payload)
    }

    /// The request body the events method takes as a sequence of elements:
    /// a body whose preferred media type (JSON, a form or multipart come
    /// first) is sequential. Its elements' type is read as a response
    /// stream's is.
    private func requestEventStream(_ operation: OpenAPIModel.Operation, typePrefix: String) -> RequestEventStreamDeclaration? {
        guard let (contentType, media, format) = sequentialRequestType(operation) else { return nil }
        let element = elementType(of: [(contentType, media)], suggestedName: typePrefix + "RequestEvent")
        return RequestEventStreamDeclaration(methodName: "", contentType: contentType, format: format, elementType: element)
    }

    /// The one success status and its sequential media types, when the
    /// operation's one success status offers any.
    private func sequentialSuccess(_ operation: OpenAPIModel.Operation) -> (status: String, content: [OrderedMap<MediaType>.Element])? {
        let successes = operation.responses.filter { $0.key.hasPrefix("2") }
        guard successes.count == 1, let (status, reference) = successes.first, let response = document.resolve(reference) else { return nil }
        let sequential = response.content.filter { SequentialMediaType.formatCase(of: $0.key) != nil }
        return sequential.isEmpty ? nil : (status, sequential)
    }

    /// The request body's preferred media type and its format, when that
    /// media type is sequential.
    private func sequentialRequestType(_ operation: OpenAPIModel.Operation) -> (String, MediaType, String)? {
        guard let requestBody = operation.requestBody.flatMap({ document.resolve($0) }),
              let (contentType, media, _) = Self.preferredContent(requestBody.content),
              let format = SequentialMediaType.formatCase(of: contentType)
        else { return nil }
        return (contentType, media, format)
    }

    /// The type of each element of a sequential body: OpenAPI 3.2's
    /// `itemSchema` (or `x-item-schema`; for server-sent events, the
    /// `contentSchema` of the item's `data`, or its text), else the media
    /// type's `schema` when it describes one element (not the stream as a
    /// string); nil when neither says, so each element is its text.
    private func elementType(of sequential: [(String, MediaType)], suggestedName: String) -> SwiftType? {
        if let entry = sequential.first(where: { $0.1.itemSchema != nil }), let item = entry.1.itemSchema {
            if SequentialMediaType.formatCase(of: entry.0) == "serverSentEvents" {
                return serverSentEventPayload(item, suggestedName: suggestedName)
            }
            return models.topLevelType(for: item, suggestedName: suggestedName)
        }
        if let schema = sequential.lazy.compactMap(\.1.schema).first, !describesText(schema) {
            return models.topLevelType(for: schema, suggestedName: suggestedName)
        }
        return nil
    }

    /// What a server-sent event's `data` decodes into under a 3.2 item
    /// schema: the `contentSchema` of its `data` property, nil (text) when
    /// `data` is a plain string, the item schema itself when it describes
    /// no event (no `data` property).
    private func serverSentEventPayload(_ item: RefOr<Schema>, suggestedName: String) -> SwiftType? {
        guard let schema = document.resolve(item), let data = schema.properties["data"] else {
            return models.topLevelType(for: item, suggestedName: suggestedName)
        }
        if let content = document.resolve(data)?.contentSchema { return models.topLevelType(for: content, suggestedName: suggestedName) }
        return nil
    }

    /// Whether a schema describes text rather than one JSON element: a
    /// string (the whole stream as text, or binary).
    private func describesText(_ reference: RefOr<Schema>) -> Bool {
        guard let schema = document.resolve(reference) else { return false }
        return schema.types == [.string]
    }

    /// Whether the operation may be sent more than once with the effect of
    /// sending it once, so that a retry layer may repeat it: the method's
    /// semantics (RFC 9110 section 9.2.2: GET, HEAD, OPTIONS, TRACE, PUT and
    /// DELETE), unless the spec's `x-idempotent: true|false` says otherwise (a
    /// write the server deduplicates, such as one keyed by an event key, or
    /// a read with side effects). An `Idempotency-Key` parameter alone does
    /// not make a write repeatable: only the server's promise does.
    static func isIdempotent(_ operation: OpenAPIModel.Operation, method: HTTPMethod) -> Bool {
        if case .bool(let declared)? = operation.extensions["x-idempotent"] { return declared }
        return [.get, .head, .options, .trace, .put, .delete, .query].contains(method)
    }

    // MARK: Bodies

    /// Which media type a body is sent or read as, by preference.
    static func preferredContent(_ content: OrderedMap<MediaType>) -> (String, MediaType, BodyDeclaration.Encoding)? {
        let entries = Array(content)
        func find(_ predicate: (String) -> Bool) -> (String, MediaType)? {
            entries.first { predicate($0.key.lowercased()) }.map { ($0.key, $0.value) }
        }
        if let json = find({ isJSON($0) }) { return (json.0, json.1, .json) }
        if let form = find({ $0.hasPrefix("application/x-www-form-urlencoded") }) { return (form.0, form.1, .form) }
        if let multipart = find({ $0.hasPrefix("multipart/") }) { return (multipart.0, multipart.1, .multipart) }
        if let text = find({ $0.hasPrefix("text/") }) { return (text.0, text.1, .text) }
        if let other = entries.first { return (other.key, other.value, .data) }
        return nil
    }

    static func isJSON(_ mediaType: String) -> Bool {
        let base = mediaType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return base == "application/json" || base.hasSuffix("+json") || base == "text/json"
    }

    private func bodyDeclaration(_ requestBody: RequestBody, typeName: String) -> BodyDeclaration? {
        guard let (contentType, media, encoding) = Self.preferredContent(requestBody.content) else { return nil }
        let type: SwiftType
        switch encoding {
        case .json, .form, .multipart:
            type = media.schema.map { models.topLevelType(for: $0, suggestedName: typeName) } ?? (encoding == .multipart ? .named("Data") : .json)
        case .text:
            type = .named("String")
        case .data:
            type = .named("Data")
        }
        // A multipart body without a schema is sent as the caller's bytes.
        let effective: BodyDeclaration.Encoding = encoding == .multipart && type == .named("Data") ? .data : encoding
        let checks = [.json, .form].contains(effective) ? media.schema.map { models.constraints.constraints(of: $0, type: type, wireName: "body") } : nil
        // How each field of a form or part of a multipart body is written (`encoding`), sorted by name.
        let fieldEncodings = [.form, .multipart].contains(effective)
            ? media.encoding.keys.sorted().compactMap { name in
                media.encoding[name].map { encoding in
                    FieldEncodingDeclaration(
                        name: name, style: encoding.style, explode: encoding.explode, allowReserved: encoding.allowReserved,
                        contentType: encoding.contentType?.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) })
                }
            }
            : []
        var declaration = BodyDeclaration(
            type: requestBody.required ? type : .optional(type), isOptional: !requestBody.required, encoding: effective,
            contentType: contentType, documentation: Documentation.text(requestBody.description),
            constraints: checks?.value, elementConstraints: checks?.elements, fieldEncodings: fieldEncodings)
        // A multipart body of an array: its items are parts by position.
        if effective == .multipart, case .array = type {
            func first(_ encoding: Encoding?) -> String? {
                encoding?.contentType?.split(separator: ",").first.map { $0.trimmingCharacters(in: .whitespaces) }
            }
            declaration.positionalParts = PositionalPartsDeclaration(
                prefixContentTypes: media.prefixEncoding.map(first), itemContentType: first(media.itemEncoding))
        }
        return declaration
    }

    // MARK: Responses

    private func responseCases(_ operation: OpenAPIModel.Operation, typePrefix: String, isHead: Bool = false) -> ([ResponseCase], ResultDeclaration, ResultDeclaration?) {
        // OpenAPI 3.1 lets an operation document no response: any success is
        // read as one without a body, rather than every status as undocumented.
        if operation.responses.isEmpty {
            return ([ResponseCase(status: "2XX", isSuccess: true, decoding: .none, caseName: nil)], .empty, nil)
        }
        let hasSuccess = operation.responses.keys.contains { $0.hasPrefix("2") }
        var cases: [ResponseCase] = []
        var successCases: [(status: String, type: SwiftType?, documentation: String?)] = []
        var failureCases: [(status: String, type: SwiftType?, documentation: String?)] = []
        let multipleSuccess = operation.responses.keys.filter { $0.hasPrefix("2") || (!hasSuccess && $0 == "default") }.count > 1
        for (status, response) in operation.responses {
            guard let resolved = document.resolve(response) else { continue }
            let isSuccess = status.hasPrefix("2") || (!hasSuccess && status == "default")
            let suffix = isSuccess ? (multipleSuccess ? "Response" + Self.statusTypeSuffix(status) : "Response") : "Error" + Self.statusTypeSuffix(status)
            let decoding: ResponseCase.Decoding
            let type: SwiftType?
            // A response to HEAD has no body, whatever the spec describes
            // (RFC 9110, 9.3.2): nothing is read of one.
            switch isHead ? nil : Self.preferredContent(resolved.content) {
            case let (_, media, .json)?:
                let swiftType = media.schema.map { models.topLevelType(for: $0, suggestedName: typePrefix + suffix) } ?? .json
                decoding = .json(swiftType)
                type = swiftType
            case (_, _, .text)?:
                decoding = .text
                type = .named("String")
            case (_, _, _)?:
                decoding = .data
                type = .named("Data")
            case nil:
                decoding = .none
                type = nil
            }
            cases.append(ResponseCase(status: status, isSuccess: isSuccess, decoding: decoding, caseName: nil))
            if isSuccess {
                successCases.append((status, type, Documentation.text(resolved.description)))
            } else {
                failureCases.append((status, type, Documentation.text(resolved.description)))
            }
        }
        let success = result(successCases, enumName: typePrefix + "Result")
        let failure = failureCases.isEmpty ? nil : result(failureCases, enumName: typePrefix + "ErrorBody")
        for index in cases.indices {
            let chosen = cases[index].isSuccess ? success : failure
            if case .perStatus(_, let statusCases)? = chosen {
                let position = (cases[index].isSuccess ? successCases.map(\.status) : failureCases.map(\.status)).firstIndex(of: cases[index].status)
                cases[index].caseName = position.map { statusCases[$0].name }
            }
        }
        return (cases, success ?? .empty, failure)
    }

    /// One type when every status has the same body (or none has a body),
    /// else an enum with a case per status.
    private func result(_ entries: [(status: String, type: SwiftType?, documentation: String?)], enumName: String) -> ResultDeclaration? {
        guard !entries.isEmpty else { return nil }
        let types = Set(entries.map(\.type))
        if types.count == 1 {
            return entries[0].type.map { .single($0) } ?? .empty
        }
        var names = NameScope(reserved: ["init"])
        let cases = entries.map { entry in
            StatusCase(name: names.claim(Self.statusCaseName(entry.status)), type: entry.type, documentation: entry.documentation)
        }
        return .perStatus(name: models.claimTopLevelName(enumName), cases: cases)
    }

    static func statusCaseName(_ status: String) -> String {
        let names: [String: String] = [
            "200": "ok", "201": "created", "202": "accepted", "203": "nonAuthoritativeInformation", "204": "noContent",
            "205": "resetContent", "206": "partialContent", "301": "movedPermanently", "302": "found", "303": "seeOther",
            "304": "notModified", "307": "temporaryRedirect", "308": "permanentRedirect", "400": "badRequest",
            "401": "unauthorized", "402": "paymentRequired", "403": "forbidden", "404": "notFound",
            "405": "methodNotAllowed", "406": "notAcceptable", "408": "requestTimeout", "409": "conflict", "410": "gone",
            "411": "lengthRequired", "412": "preconditionFailed", "413": "contentTooLarge", "415": "unsupportedMediaType",
            "416": "rangeNotSatisfiable", "422": "unprocessableContent", "423": "locked", "428": "preconditionRequired",
            "429": "tooManyRequests", "451": "unavailableForLegalReasons", "500": "internalServerError",
            "501": "notImplemented", "502": "badGateway", "503": "serviceUnavailable", "504": "gatewayTimeout",
            "1XX": "informational", "2XX": "success", "3XX": "redirection", "4XX": "clientError", "5XX": "serverError",
            "default": "other",
        ]
        return names[status.uppercased()] ?? names[status] ?? "status" + status
    }

    private static func statusTypeSuffix(_ status: String) -> String {
        status == "default" ? "Default" : status.uppercased()
    }

    private static func acceptHeader(_ operation: OpenAPIModel.Operation, document: OpenAPIDocument) -> String? {
        // Only the media type the client reads of each response: one it lists
        // but reads another way (GitHub's `application/vnd.github.v3.object`
        // next to `application/json`) invites a body it cannot decode.
        var types: [String] = []
        for (_, response) in operation.responses {
            guard let resolved = document.resolve(response), let (key, _, _) = preferredContent(resolved.content) else { continue }
            if !types.contains(key) { types.append(key) }
        }
        return types.isEmpty ? nil : types.joined(separator: ", ")
    }

    // MARK: Security

    private func security(_ operation: OpenAPIModel.Operation) -> [[SecurityUse]] {
        let requirements = operation.security ?? document.security ?? []
        return requirements.map { requirement in
            requirement.schemes.compactMap { name, scopes -> SecurityUse? in
                guard let reference = document.components.securitySchemes[name], let scheme = document.resolve(reference) else { return nil }
                return SecurityUse(name: name, kind: Self.kind(of: scheme), scopes: scopes)
            }
        }
    }

    private static func kind(of scheme: SecurityScheme) -> SecurityKind {
        switch scheme.kind {
        case .apiKey:
            let name = scheme.name ?? ""
            switch scheme.keyLocation {
            case "query": return .apiKeyQuery(name: name)
            case "cookie": return .apiKeyCookie(name: name)
            default: return .apiKeyHeader(name: name)
            }
        case .http: return .http(scheme: scheme.scheme ?? "bearer")
        case .oauth2: return .oauth2
        case .openIdConnect: return .openIDConnect
        case .mutualTLS: return .mutualTLS
        }
    }
}

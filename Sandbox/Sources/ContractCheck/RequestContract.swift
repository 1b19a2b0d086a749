import Foundation
import OpenAPIModel

/// A spec's rules for requests: finds the operation a request is for and
/// lists every way the request breaks the spec (unknown path or method,
/// missing or malformed parameters, a body of the wrong content type or
/// not matching its schema, a broken constraint), each with the spec's
/// file:line:column. What a sandbox or a test server answers 400 with.
///
/// ```swift
/// let contract = try RequestContract(specPath: "specs/soul.yaml")
/// let result = contract.check(ContractRequest(method: "POST", path: "/api/auth/otp/verify", headers: headers, body: body))
/// for violation in result.violations { print(violation) }
/// ```
public struct RequestContract: Sendable {
    /// The spec, loaded.
    public let document: OpenAPIDocument
    private let routes: [Route]
    let patterns = PatternCache()

    /// A spec that could not be loaded, with the loader's errors.
    public struct LoadError: Error, CustomStringConvertible {
        /// The errors, `file:line:column: error: ...` each.
        public let diagnostics: [String]
        /// The errors, one a line.
        public var description: String { diagnostics.joined(separator: "\n") }
    }

    /// The contract of the spec at `specPath`; a spec with errors throws
    /// ``LoadError`` naming them.
    public init(specPath: String) throws {
        let result = OpenAPILoader.load(path: specPath)
        guard let document = result.document, !result.hasErrors else {
            throw LoadError(diagnostics: result.diagnostics.filter { $0.severity == .error }.map(\.description))
        }
        self.init(document: document)
    }

    /// The contract of a loaded document.
    public init(document: OpenAPIDocument) {
        self.document = document
        routes = document.operations.map { Route(path: $0.path, method: $0.method, operation: $0.operation, pathItem: $0.pathItem) }
            .sorted { $0.literalLength > $1.literalLength }
    }

    /// What a check found.
    public struct Result: Sendable {
        /// The operation matched (its `operationId`, or `METHOD /path`), nil when none did.
        public let operation: String?
        /// The spec's path template that matched (`/api/moods/{id}`).
        public let pathTemplate: String?
        /// Every violation; empty when the request is what the spec allows.
        public let violations: [ContractViolation]
        /// The methods the spec has for the matched path (upper case, in
        /// the spec's order): what a 405's `Allow` header lists.
        public var allowedMethods: [String] = []

        /// Whether the request is what the spec allows.
        public var isValid: Bool { violations.isEmpty }
    }

    /// Checks one request.
    public func check(_ request: ContractRequest) -> Result {
        let candidates = routes.compactMap { route in route.match(request.path).map { (route, $0) } }
        guard !candidates.isEmpty else {
            return Result(operation: nil, pathTemplate: nil, violations: [
                ContractViolation(rule: "path", field: "path", message: "no path in the spec matches \(request.path)", location: nil)
            ])
        }
        // The path the request names is the most literal template that
        // matches (OpenAPI: concrete paths match before templated ones), so
        // `PATCH /transactions/sync` is a method `/transactions/sync` lacks,
        // not an update of the transaction "sync".
        let named = candidates.filter { $0.0.path == candidates[0].0.path }
        let allowed = Self.methods(of: named.map(\.0))
        guard let (route, pathValues) = named.first(where: { $0.0.method.wireName == request.method }) else {
            let template = candidates[0].0.path
            return Result(operation: nil, pathTemplate: template, violations: [
                ContractViolation(rule: "method", field: "", message: "\(request.method) is not an operation of \(template); the spec has \(allowed.joined(separator: ", "))",
                                  location: candidates[0].0.pathItem.location)
            ], allowedMethods: allowed)
        }
        let validator = SchemaValidator(document: document, patterns: patterns, direction: .request)
        var violations = securityViolations(route, request)
        violations += parameterViolations(route, request, pathValues: pathValues, validator: validator)
        violations += bodyViolations(route, request, validator: validator)
        let name = route.operation.operationId ?? "\(route.method.wireName) \(route.path)"
        return Result(operation: name, pathTemplate: route.path, violations: violations, allowedMethods: allowed)
    }

    /// The methods of `routes`, each once, in order.
    private static func methods(of routes: [Route]) -> [String] {
        var seen: Set<String> = []
        return routes.map(\.method.wireName).filter { seen.insert($0).inserted }
    }

    // MARK: Security

    /// A violation when no security requirement of the operation is met by
    /// what the request carries (the credential's presence and shape, not
    /// its value: a sandbox does not know the real keys).
    private func securityViolations(_ route: Route, _ request: ContractRequest) -> [ContractViolation] {
        let requirements = route.operation.security ?? document.security ?? []
        guard !requirements.isEmpty, !requirements.contains(where: { $0.schemes.isEmpty }) else { return [] }
        let query = Self.queryItems(request.query)
        let cookies = Self.cookies(request.header("Cookie"))
        var wanted: [String] = []
        for requirement in requirements {
            var met = true
            var names: [String] = []
            for (name, _) in requirement.schemes {
                guard let scheme = document.components.securitySchemes[name].flatMap({ document.resolve($0) }) else { continue }
                let (present, place) = Self.carries(request, scheme, query: query, cookies: cookies)
                names.append(place)
                met = met && present
            }
            if met { return [] }
            wanted.append(names.joined(separator: " and "))
        }
        let location = route.operation.security?.first?.location ?? document.security?.first?.location
        return [ContractViolation(rule: "security", field: "", message: "carries no credential the operation accepts; it needs " + wanted.joined(separator: ", or "), location: location)]
    }

    /// Whether `request` carries a credential of `scheme`'s shape, and where it goes.
    static func carries(_ request: ContractRequest, _ scheme: SecurityScheme, query: [(name: String, value: String)], cookies: [(name: String, value: String)]) -> (Bool, String) {
        let authorization = request.header("Authorization") ?? ""
        func hasScheme(_ prefix: String) -> Bool { authorization.lowercased().hasPrefix(prefix.lowercased() + " ") && authorization.count > prefix.count + 1 }
        switch scheme.kind {
        case .apiKey:
            let name = scheme.name ?? ""
            switch scheme.keyLocation {
            case "query": return (query.contains { $0.name == name && !$0.value.isEmpty }, "query.\(name)")
            case "cookie": return (cookies.contains { $0.name == name && !$0.value.isEmpty }, "cookie.\(name)")
            default: return (!(request.header(name) ?? "").isEmpty, "header.\(name)")
            }
        case .http:
            let name = scheme.scheme ?? "bearer"
            return (hasScheme(name), "Authorization: \(name.lowercased() == "bearer" ? "Bearer" : name.lowercased() == "basic" ? "Basic" : name) ...")
        case .oauth2, .openIdConnect:
            return (hasScheme("Bearer"), "Authorization: Bearer ...")
        case .mutualTLS:
            return (true, "a client certificate")
        }
    }

    // MARK: Parameters

    private func parameterViolations(_ route: Route, _ request: ContractRequest, pathValues: [String: String], validator: SchemaValidator) -> [ContractViolation] {
        var byKey: [String: Parameter] = [:]
        var order: [String] = []
        for reference in route.pathItem.parameters + route.operation.parameters {
            guard let parameter = document.resolve(reference) else { continue }
            let key = parameter.location.rawValue + ":" + (parameter.location == .header ? parameter.name.lowercased() : parameter.name)
            if byKey[key] == nil { order.append(key) }
            byKey[key] = parameter
        }
        let query = Self.queryItems(request.query)
        let cookies = Self.cookies(request.header("Cookie"))
        var found: [ContractViolation] = []
        for key in order {
            guard let parameter = byKey[key] else { continue }
            let field = "\(parameter.location.rawValue).\(parameter.name)"
            let raw: [String]
            switch parameter.location {
            case .path: raw = pathValues[parameter.name].map { [$0] } ?? []
            case .query:
                raw = parameter.effectiveStyle == "deepObject"
                    ? query.filter { $0.name.hasPrefix(parameter.name + "[") }.map(\.value)
                    : query.filter { $0.name == parameter.name }.map(\.value)
            case .header: raw = request.headers.filter { $0.name.caseInsensitiveEquals(parameter.name) }.map(\.value)
            case .cookie: raw = cookies.filter { $0.name == parameter.name }.map(\.value)
            // The whole query string as one value (OpenAPI 3.2): not checked here yet.
            case .querystring: continue
            }
            if raw.isEmpty {
                if parameter.required || parameter.location == .path {
                    found.append(ContractViolation(rule: "required", field: field, message: "is required", location: parameter.sourceLocation))
                }
                continue
            }
            guard let schema = parameter.schema ?? parameter.content.values.first?.schema, parameter.effectiveStyle != "deepObject" else { continue }
            let value = Self.parameterValue(raw, parameter: parameter, schema: document.resolve(schema), in: document)
            found += validator.violations(value, schema, field: field, assumed: AssumedExtension.isMarked(parameter.extensions))
        }
        return found
    }

    /// A parameter's text as the JSON value its schema describes: `7` an
    /// integer when the schema says integer, `a,b` or repeated items an array.
    static func parameterValue(_ raw: [String], parameter: Parameter, schema: Schema?, in document: OpenAPIDocument) -> JSONValue {
        let types = schema?.types ?? []
        if types.contains(.array) {
            let explode = parameter.effectiveExplode
            let separator: Character = parameter.effectiveStyle == "pipeDelimited" ? "|" : parameter.effectiveStyle == "spaceDelimited" ? " " : ","
            let texts = explode && parameter.location == .query ? raw : raw.flatMap { $0.split(separator: separator, omittingEmptySubsequences: false).map(String.init) }
            let itemTypes = schema?.items.flatMap { document.resolve($0)?.types } ?? []
            return .array(texts.map { scalar($0, types: itemTypes) })
        }
        return scalar(raw[0], types: types)
    }

    static func scalar(_ text: String, types: [JSONType]) -> JSONValue {
        if types.contains(.integer), let integer = Int(text) { return .int(integer) }
        if types.contains(.number), let number = Double(text), number.isFinite { return .double(number) }
        if types.contains(.boolean), text == "true" || text == "false" { return .bool(text == "true") }
        if types.contains(.null), text.isEmpty || text == "null" { return .null }
        if types.isEmpty || types.contains(.string) { return .string(text) }
        // The text is not of the declared type: give the checker a string so it says so.
        return .string(text)
    }

    static func queryItems(_ query: String?) -> [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decode(_ text: Substring) -> String { String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text) }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
    }

    static func cookies(_ header: String?) -> [(name: String, value: String)] {
        guard let header else { return [] }
        return header.split(separator: ";").compactMap { pair in
            let parts = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            return (String(parts[0]), String(parts[1]).removingPercentEncoding ?? String(parts[1]))
        }
    }

    // MARK: Body

    private func bodyViolations(_ route: Route, _ request: ContractRequest, validator: SchemaValidator) -> [ContractViolation] {
        let body = request.body ?? []
        guard let reference = route.operation.requestBody, let requestBody = document.resolve(reference) else {
            return []
        }
        if body.isEmpty {
            return requestBody.required ? [ContractViolation(rule: "required", field: "body", message: "a request body is required", location: requestBody.location)] : []
        }
        let contentType = (request.header("Content-Type") ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard let (_, media) = Self.media(for: contentType, in: requestBody.content) else {
            return [ContractViolation(
                rule: "content-type", field: "header.Content-Type",
                message: (contentType.isEmpty ? "is missing" : "\(contentType) is not") + "; the spec takes " + requestBody.content.keys.joined(separator: ", "),
                location: requestBody.location)]
        }
        guard let schema = media.schema else { return [] }
        let value: JSONValue
        if contentType == "application/json" || contentType.hasSuffix("+json") {
            do {
                value = try JSONBodyParser.parse(body)
            } catch {
                return [ContractViolation(rule: "json", field: "body", message: "is not JSON: \(error.reason) at byte \(error.offset)", location: media.location)]
            }
        } else if contentType == "application/x-www-form-urlencoded" {
            var members = OrderedMap<JSONValue>()
            let resolved = document.resolve(schema)
            for (name, text) in Self.queryItems(String(decoding: body, as: UTF8.self)) {
                let types = resolved?.properties[name].flatMap { document.resolve($0) }?.types ?? []
                if case .array(let items)? = members[name] {
                    members[name] = .array(items + [Self.scalar(text, types: [])])
                } else if types.contains(.array) {
                    members[name] = .array([Self.scalar(text, types: [])])
                } else {
                    members[name] = Self.scalar(text, types: types)
                }
            }
            value = .object(members)
        } else {
            return []
        }
        return validator.violations(value, schema, field: "body")
    }

    /// The documented media type for `contentType`: exact, then `type/*`, then `*/*`.
    static func media(for contentType: String, in content: OrderedMap<MediaType>) -> (String, MediaType)? {
        let keys = content.keys.map { ($0, $0.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? "") }
        if let exact = keys.first(where: { $0.1 == contentType }) { return (exact.0, content[exact.0]!) }
        let family = contentType.split(separator: "/").first.map(String.init) ?? ""
        if let range = keys.first(where: { $0.1 == family + "/*" }) { return (range.0, content[range.0]!) }
        if let any = keys.first(where: { $0.1 == "*/*" }) { return (any.0, content[any.0]!) }
        return nil
    }
}

/// One operation with its path template compiled for matching.
private struct Route: Sendable {
    let path: String
    let method: HTTPMethod
    let operation: OpenAPIModel.Operation
    let pathItem: PathItem
    /// The template's segments: literal text and `{name}` parts.
    let segments: [[Piece]]
    /// Characters outside `{...}`: more literal text wins (`/moods/today` over `/moods/{id}`).
    let literalLength: Int

    enum Piece: Sendable {
        case literal(String)
        case variable(String)
    }

    init(path: String, method: HTTPMethod, operation: OpenAPIModel.Operation, pathItem: PathItem) {
        self.path = path
        self.method = method
        self.operation = operation
        self.pathItem = pathItem
        var length = 0
        segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { segment in
            var pieces: [Piece] = []
            var rest = Substring(segment)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                if open > rest.startIndex { pieces.append(.literal(String(rest[..<open]))); length += rest.distance(from: rest.startIndex, to: open) }
                pieces.append(.variable(String(rest[rest.index(after: open)..<close])))
                rest = rest[rest.index(after: close)...]
            }
            if !rest.isEmpty { pieces.append(.literal(String(rest))); length += rest.count }
            return pieces
        }
        literalLength = length
    }

    /// The path variables' values (percent-decoded) when `requestPath` matches.
    func match(_ requestPath: String) -> [String: String]? {
        let parts = requestPath.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard parts.count == segments.count else { return nil }
        var values: [String: String] = [:]
        for (part, pieces) in zip(parts, segments) {
            guard Self.match(Substring(part), pieces[...], into: &values) else { return nil }
        }
        return values
    }

    private static func match(_ text: Substring, _ pieces: ArraySlice<Piece>, into values: inout [String: String]) -> Bool {
        guard let first = pieces.first else { return text.isEmpty }
        switch first {
        case .literal(let literal):
            guard text.hasPrefix(literal) else { return false }
            return match(text.dropFirst(literal.count), pieces.dropFirst(), into: &values)
        case .variable(let name):
            // A variable takes one or more characters, as few as let the rest match.
            var end = text.startIndex
            while end < text.endIndex {
                end = text.index(after: end)
                var attempt = values
                if match(text[end...], pieces.dropFirst(), into: &attempt) {
                    attempt[name] = String(text[..<end]).removingPercentEncoding ?? String(text[..<end])
                    values = attempt
                    return true
                }
            }
            return false
        }
    }
}

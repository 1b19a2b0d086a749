import YAMLReader

/// Path items, operations, parameters, request bodies, responses, headers,
/// media types, examples, links and callbacks.
extension LoadSession {
    func pathItemOrRef(_ node: Node) -> RefOr<PathItem>? {
        guard expectObject(node, "a Path Item") else { return nil }
        // A path item's `$ref` may have siblings that add to it; the model keeps the reference.
        if let refNode = node.child("$ref") {
            guard let reference = reference(refNode, of: node, expecting: PathItem.self, parse: { [unowned self] in self.pathItem($0) }) else {
                return nil
            }
            return .reference(reference)
        }
        return .value(pathItem(node))
    }

    func pathItem(_ node: Node) -> PathItem {
        var item = PathItem(location: node.location)
        // `query` and `additionalOperations` are OpenAPI 3.2's; earlier, unknown fields.
        let fixed = HTTPMethod.allCases.filter { $0 != .query || version.minor >= 2 }
        let methods = fixed.map(\.rawValue)
        var operations: [HTTPMethod: Operation] = [:]
        var additional: [(HTTPMethod, Operation)] = []
        let known = methods + ["summary", "description", "servers", "parameters", "$ref"] + (version.minor >= 2 ? ["additionalOperations"] : [])
        fields(of: node, "a Path Item", known: known, extensions: &item.extensions) { key, value in
            if let method = HTTPMethod(rawValue: key), fixed.contains(method) {
                if let operation = operation(value) { operations[method] = operation }
                if method == .get || method == .head, let body = value.child("requestBody") {
                    report(
                        .bodyOnGet, "a \(key.uppercased()) request with a body: URLSession refuses to send it, so this call fails on every platform",
                        at: value.keyNode("requestBody") ?? body,
                        hint: "send its members as query parameters, or make the operation a POST")
                }
                return true
            }
            switch key {
            case "$ref": break
            case "summary": item.summary = string(value)
            case "description": item.description = string(value)
            case "servers": item.servers = list(value, "servers") { server($0) }
            case "parameters": item.parameters = list(value, "parameters") { parameterOrRef($0) }
            case "additionalOperations" where version.minor >= 2:
                let entries = self.map(value, "additionalOperations") { name, operationNode -> Operation? in
                    guard self.checkAdditionalMethod(name, at: value.keyNode(name) ?? operationNode) else { return nil }
                    return self.operation(operationNode)
                }
                additional = entries.map { (HTTPMethod(additional: $0.key), $0.value) }
            default:
                if let method = HTTPMethod(rawValue: key.lowercased()), fixed.contains(method) {
                    report(.methodCase, "'\(key)' is not an operation: methods are lower case", at: node.keyNode(key) ?? value, hint: "write '\(key.lowercased()):'")
                    return true
                }
                return false
            }
            return true
        }
        item.operations = fixed.compactMap { method in operations[method].map { (method, $0) } } + additional
        return item
    }

    /// Whether `name` may key `additionalOperations`: an HTTP method token
    /// (RFC 9110, 5.6.2) that no fixed field of the Path Item already names.
    private func checkAdditionalMethod(_ name: String, at node: Node) -> Bool {
        let tokenCharacters = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        if name.isEmpty || !name.allSatisfy({ tokenCharacters.contains($0) }) {
            report(
                .invalidAdditionalMethod, "'\(name)' in additionalOperations is not an HTTP method name", at: node,
                hint: "write the method as it is sent, letters and digits only (such as 'PURGE' or 'LINK')")
            return false
        }
        if let fixed = HTTPMethod(rawValue: name.lowercased()) {
            report(
                .invalidAdditionalMethod, "'\(name)' in additionalOperations is the Path Item's own '\(fixed.rawValue)' field", at: node,
                hint: "move the operation to '\(fixed.rawValue):'")
            return false
        }
        return true
    }

    func operation(_ node: Node) -> Operation? {
        guard expectObject(node, "an Operation") else { return nil }
        var operation = Operation(location: node.location)
        let known = [
            "tags", "summary", "description", "externalDocs", "operationId", "parameters", "requestBody", "responses",
            "callbacks", "deprecated", "security", "servers",
        ]
        fields(of: node, "an Operation", known: known, extensions: &operation.extensions) { key, value in
            switch key {
            case "tags": operation.tags = stringList(value)
            case "summary": operation.summary = string(value)
            case "description": operation.description = string(value)
            case "externalDocs": operation.externalDocs = externalDocs(value)
            case "operationId":
                operation.operationId = string(value)
                if let id = operation.operationId { checkPathOrOperationID(id, "operationId", at: value) }
            case "parameters": operation.parameters = list(value, "parameters") { parameterOrRef($0) }
            case "requestBody": operation.requestBody = refOr(value, "a Request Body") { [unowned self] in self.requestBody($0) }
            case "responses":
                operation.responses = map(value, "a Responses object") { code, response in
                    checkStatusCode(code, at: value.keyNode(code) ?? response)
                    return refOr(response, "a Response") { [unowned self] in self.response($0) }
                }
            case "callbacks":
                operation.callbacks = map(value, "a map of callbacks") { _, callback in
                    refOr(callback, "a Callback") { [unowned self] in self.callback($0) }
                }
            case "deprecated": operation.deprecated = bool(value) ?? false
            case "security": operation.security = securityRequirements(value)
            case "servers": operation.servers = list(value, "servers") { server($0) }
            default: return false
            }
            return true
        }
        if operation.responses.isEmpty {
            report(
                .noResponses, "operation has no responses; a client cannot know what it returns", at: node,
                hint: "add a 'responses:' map with at least a '200' (or 'default') response")
        }
        return operation
    }

    private func checkStatusCode(_ code: String, at node: Node) {
        if code == "default" { return }
        let bytes = Array(code.utf8)
        let isRange = bytes.count == 3 && (UInt8(ascii: "1")...UInt8(ascii: "5")).contains(bytes[0])
            && (bytes[1] == UInt8(ascii: "X") || bytes[1] == UInt8(ascii: "x")) && (bytes[2] == UInt8(ascii: "X") || bytes[2] == UInt8(ascii: "x"))
        if isRange { return }
        if let status = Int(code), (100...599).contains(status), bytes.count == 3 { return }
        report(
            .invalidStatusCode, "'\(code)' is not an HTTP status code", at: node,
            hint: "use a three-digit status such as 200, a range such as 4XX, or 'default'")
    }

    func parameterOrRef(_ node: Node) -> RefOr<Parameter>? {
        refOr(node, "a Parameter") { [unowned self] in self.parameter($0) }
    }

    func parameter(_ node: Node) -> Parameter {
        var parameter = Parameter(sourceLocation: node.location)
        var hasLocation = false
        var styleNode: Node?
        var nameNode: Node?
        let known = [
            "name", "in", "description", "required", "deprecated", "allowEmptyValue", "style", "explode", "allowReserved",
            "schema", "content", "example", "examples",
        ]
        fields(of: node, "a Parameter", known: known, extensions: &parameter.extensions) { key, value in
            switch key {
            case "name":
                parameter.name = string(value) ?? ""
                nameNode = value
            case "in":
                guard let text = string(value) else { return true }
                if let location = ParameterLocation(rawValue: text), location != .querystring || version.minor >= 2 {
                    parameter.location = location
                    hasLocation = true
                } else {
                    report(
                        .invalidParameterLocation, "'in: \(text)' is not a parameter location", at: value,
                        hint: text == "body" || text == "formData"
                            ? "OpenAPI 3 puts bodies and form fields in the operation's 'requestBody'"
                            : "use one of: path, query, header, cookie" + (self.version.minor >= 2 ? ", querystring" : ""))
                }
            case "description": parameter.description = string(value)
            case "required": parameter.required = bool(value) ?? false
            case "deprecated": parameter.deprecated = bool(value) ?? false
            case "allowEmptyValue": parameter.allowEmptyValue = bool(value) ?? false
            case "style":
                parameter.style = string(value)
                styleNode = value
            case "explode": parameter.explode = bool(value)
            case "allowReserved": parameter.allowReserved = bool(value) ?? false
            case "schema": parameter.schema = schemaOrRef(value)
            case "content": parameter.content = mediaTypes(value)
            case "example": parameter.example = json(value)
            case "examples": parameter.examples = examples(value)
            default: return false
            }
            return true
        }
        guard node.isMapping else { return parameter }
        if let nameNode {
            if parameter.location == .header {
                checkHeaderName(parameter.name, "header parameter name", at: nameNode)
            } else {
                checkVisible(parameter.name, "parameter name", at: nameNode)
            }
        }
        if parameter.name.isEmpty {
            missing("name", in: node, "a Parameter", isEssential: true)
        }
        if !hasLocation, !node.has("in") {
            missing("in", in: node, "a Parameter", isEssential: true, hint: "add 'in:' with one of path, query, header, cookie")
        }
        if let style = parameter.style {
            let allowed: [String] = switch parameter.location {
            case .path: ["simple", "label", "matrix"]
            case .query: ["form", "spaceDelimited", "pipeDelimited", "deepObject"]
            case .header: ["simple"]
            case .cookie: version.minor >= 2 ? ["form", "cookie"] : ["form"]
            case .querystring: []
            }
            if !allowed.contains(style) {
                let fallback = parameter.location == .query || parameter.location == .cookie ? "form" : "simple"
                report(
                    .invalidParameterStyle,
                    "'style: \(style)' is not a style of a \(parameter.location.rawValue) parameter; '\(parameter.name)' is written as '\(fallback)'",
                    at: styleNode ?? node, hint: "use one of: \(allowed.joined(separator: ", "))")
            }
        }
        if parameter.location == .path, !parameter.required {
            report(
                .pathParameterOptional, "path parameter '\(parameter.name)' must be required; it is read as required",
                at: node.keyNode("required") ?? node, hint: "write 'required: true'")
            parameter.required = true
        }
        if parameter.schema == nil, parameter.content.isEmpty {
            report(
                .parameterWithoutSchema, "parameter '\(parameter.name)' has neither 'schema' nor 'content'; it is read as a string",
                at: node, hint: "add 'schema: {type: string}' or the right type")
        }
        return parameter
    }

    func requestBody(_ node: Node) -> RequestBody {
        var body = RequestBody(location: node.location)
        fields(of: node, "a Request Body", known: ["description", "content", "required"], extensions: &body.extensions) { key, value in
            switch key {
            case "description": body.description = string(value)
            case "content": body.content = mediaTypes(value)
            case "required": body.required = bool(value) ?? false
            default: return false
            }
            return true
        }
        if node.isMapping, !node.has("content") { missing("content", in: node, "a Request Body") }
        return body
    }

    func response(_ node: Node) -> Response {
        var response = Response(location: node.location)
        var hasDescription = false
        fields(of: node, "a Response", known: ["description", "headers", "content", "links"], extensions: &response.extensions) { key, value in
            switch key {
            case "description":
                hasDescription = true
                response.description = string(value) ?? ""
            case "headers":
                response.headers = map(value, "a map of headers") { name, header in
                    checkHeaderName(name, "header name", at: value.keyNode(name) ?? header)
                    return refOr(header, "a Header") { [unowned self] in self.header($0) }
                }
            case "content": response.content = mediaTypes(value)
            case "links":
                response.links = map(value, "a map of links") { _, link in refOr(link, "a Link") { [unowned self] in self.link($0) } }
            default: return false
            }
            return true
        }
        if node.isMapping, !hasDescription {
            missing("description", in: node, "a Response", hint: "add 'description:' saying what the response means")
        }
        return response
    }

    func header(_ node: Node) -> Header {
        var header = Header(location: node.location)
        let known = ["description", "required", "deprecated", "style", "explode", "schema", "content", "example", "examples"]
        fields(of: node, "a Header", known: known, extensions: &header.extensions) { key, value in
            switch key {
            case "description": header.description = string(value)
            case "required": header.required = bool(value) ?? false
            case "deprecated": header.deprecated = bool(value) ?? false
            case "style": header.style = string(value)
            case "explode": header.explode = bool(value)
            case "schema": header.schema = schemaOrRef(value)
            case "content": header.content = mediaTypes(value)
            case "example": header.example = json(value)
            case "examples": header.examples = examples(value)
            case "name", "in":
                report(.headerName, "a Header object takes its name from its key; '\(key)' is ignored", at: node.keyNode(key) ?? value, hint: "remove '\(key):'")
            default: return false
            }
            return true
        }
        return header
    }

    func mediaTypes(_ node: Node) -> OrderedMap<MediaType> {
        map(node, "a map of media types") { name, value in
            checkVisible(name, "media type", at: node.keyNode(name) ?? value)
            return mediaType(value)
        }
    }

    private func mediaType(_ node: Node) -> MediaType? {
        guard expectObject(node, "a Media Type object") else { return nil }
        var media = MediaType(location: node.location)
        let known = ["schema", "example", "examples", "encoding"] + (version.minor >= 2 ? ["itemSchema", "itemEncoding", "prefixEncoding"] : [])
        fields(of: node, "a Media Type object", known: known, extensions: &media.extensions) { key, value in
            switch key {
            case "schema": media.schema = schemaOrRef(value)
            case "itemSchema" where version.minor >= 2: media.itemSchema = schemaOrRef(value)
            case "itemEncoding" where version.minor >= 2: media.itemEncoding = encoding(value)
            case "prefixEncoding" where version.minor >= 2: media.prefixEncoding = list(value, "prefixEncoding") { encoding($0) }
            case "example": media.example = json(value)
            case "examples": media.examples = examples(value)
            case "encoding":
                media.encoding = map(value, "a map of encodings") { name, encoding in
                    checkVisible(name, "property name", at: value.keyNode(name) ?? encoding)
                    return self.encoding(encoding)
                }
            default: return false
            }
            return true
        }
        if media.itemSchema == nil, let extended = node.child("x-item-schema") {
            media.itemSchema = schemaOrRef(extended)
            media.extensions["x-item-schema"] = nil
        }
        return media
    }

    private func encoding(_ node: Node) -> Encoding? {
        guard expectObject(node, "an Encoding object") else { return nil }
        var encoding = Encoding(location: node.location)
        var extensions = OrderedMap<JSONValue>()
        let known = ["contentType", "headers", "style", "explode", "allowReserved"]
        fields(of: node, "an Encoding object", known: known, extensions: &extensions) { key, value in
            switch key {
            case "contentType": encoding.contentType = string(value)
            case "headers":
                encoding.headers = map(value, "a map of headers") { name, header in
                    checkHeaderName(name, "header name", at: value.keyNode(name) ?? header)
                    return refOr(header, "a Header") { [unowned self] in self.header($0) }
                }
            case "style": encoding.style = string(value)
            case "explode": encoding.explode = bool(value)
            case "allowReserved": encoding.allowReserved = bool(value) ?? false
            default: return false
            }
            return true
        }
        return encoding
    }

    func examples(_ node: Node) -> OrderedMap<RefOr<Example>> {
        map(node, "a map of examples") { _, value in refOr(value, "an Example") { [unowned self] in self.example($0) } }
    }

    func example(_ node: Node) -> Example {
        var example = Example(location: node.location)
        var extensions = OrderedMap<JSONValue>()
        let known = ["summary", "description", "value", "externalValue"] + (version.minor >= 2 ? ["dataValue", "serializedValue"] : [])
        fields(of: node, "an Example", known: known, extensions: &extensions) { key, value in
            switch key {
            case "dataValue" where version.minor >= 2: example.dataValue = json(value)
            case "serializedValue" where version.minor >= 2: example.serializedValue = string(value)
            case "summary": example.summary = string(value)
            case "description": example.description = string(value)
            case "value": example.value = json(value)
            case "externalValue": example.externalValue = string(value)
            default: return false
            }
            return true
        }
        // 3.2: `value` is the older spelling of `dataValue`; `serializedValue` and `externalValue` both name the wire form.
        if node.has("value"), node.has("dataValue") || node.has("serializedValue") {
            report(
                .conflictingExampleValues, "an Example with 'value' and '\(node.has("dataValue") ? "dataValue" : "serializedValue")': 'value' is ignored",
                at: node.keyNode("value") ?? node, hint: "keep 'dataValue' (the data) and 'serializedValue' (its wire form); drop 'value'")
        } else if node.has("serializedValue"), node.has("externalValue") {
            report(
                .conflictingExampleValues, "an Example with 'serializedValue' and 'externalValue': 'externalValue' is ignored",
                at: node.keyNode("externalValue") ?? node, hint: "give the wire form once")
        }
        return example
    }

    func link(_ node: Node) -> Link {
        var link = Link(location: node.location)
        var extensions = OrderedMap<JSONValue>()
        let known = ["operationRef", "operationId", "parameters", "requestBody", "description", "server"]
        fields(of: node, "a Link", known: known, extensions: &extensions) { key, value in
            switch key {
            case "operationRef": link.operationRef = string(value)
            case "operationId": link.operationId = string(value)
            case "parameters": link.parameters = map(value, "a map of link parameters") { _, parameter in json(parameter) }
            case "requestBody": link.requestBody = json(value)
            case "description": link.description = string(value)
            case "server": link.server = server(value)
            default: return false
            }
            return true
        }
        return link
    }

    func callback(_ node: Node) -> Callback {
        var callback = Callback(location: node.location)
        guard expectObject(node, "a Callback") else { return callback }
        node.forEachPair { expression, value in
            if expression.hasPrefix("x-") { return }
            if let item = pathItemOrRef(value) { callback.expressions[expression] = item }
        }
        return callback
    }
}

import Foundation
import YAMLReader

/// The document root: version, info, servers, tags, security, components, paths, webhooks.
extension LoadSession {
    static let rootFields = [
        "openapi", "info", "jsonSchemaDialect", "servers", "paths", "webhooks", "components", "security", "tags",
        "externalDocs",
    ]

    func document(_ root: Node) -> OpenAPIDocument? {
        guard root.isMapping else {
            report(
                .notAnOpenapiDocument, "the document is \(describe(root)), not an OpenAPI object", at: root,
                hint: "an OpenAPI document is a mapping that starts with 'openapi: 3.1.0' (or 3.0.x)")
            return nil
        }
        guard let versionNode = root.child("openapi") else {
            if let swagger = root.child("swagger") {
                report(
                    .unsupportedVersion, "this is a Swagger \(swagger.text ?? "2.0") document; only OpenAPI 3.0, 3.1 and 3.2 are supported",
                    at: root.keyNode("swagger") ?? swagger, hint: "convert it to OpenAPI 3 (for example with swagger2openapi) first")
            } else {
                report(
                    .missingOpenapiVersion, "the document has no 'openapi' field, so its OpenAPI version is unknown", at: root,
                    hint: "add 'openapi: 3.1.0' (or the 3.0.x version it follows) as the first line")
            }
            return nil
        }
        guard let versionText = versionNode.text, let version = OpenAPIVersion(versionText), version.major == 3 else {
            report(
                .unsupportedVersion, "'openapi: \(versionNode.text ?? describe(versionNode))' is not a supported OpenAPI version",
                at: versionNode, hint: "use 3.0.x or 3.1.x, written as a string such as '3.1.0'")
            return nil
        }
        if version.minor > 2 {
            report(.newerVersion, "OpenAPI \(versionText) is newer than 3.2; it is read with 3.2 rules", at: versionNode)
        }
        self.version = version
        if versionNode.tree.style(versionNode.id) == .plain, case .double? = versionNode.tree.scalar(versionNode.id) {
            report(.unquotedVersion, "the version \(versionText) is written as a number", at: versionNode, hint: "quote it: '\(versionText)'")
        }

        var document = OpenAPIDocument(version: version, info: Info(location: root.location), file: root.file.name)
        // `$self` before anything that holds a reference: a reference to the
        // document by its own URI resolves in it.
        if version.minor >= 2, let selfNode = root.child("$self") {
            document.selfURI = selfURI(selfNode)
            rootFile = root.file
            selfReference = document.selfURI
        }
        // Components first: references from paths then find their targets already parsed.
        if let components = root.child("components") {
            document.components = self.components(components)
        }
        var sawInfo = false
        let known = Self.rootFields + (version.minor >= 2 ? ["$self"] : [])
        fields(of: root, "an OpenAPI document", known: known, extensions: &document.extensions) { key, value in
            switch key {
            case "openapi", "components": break
            case "$self" where version.minor >= 2: break
            case "info":
                sawInfo = true
                if let info = info(value) { document.info = info }
            case "jsonSchemaDialect": document.jsonSchemaDialect = string(value)
            case "servers":
                document.servers = list(value, "servers") { server($0) }
                if value.kind == .sequence { checkDuplicateServers(document.servers, in: value) }
            case "paths":
                document.paths = map(value, "a Paths object") { path, item in
                    if path.hasPrefix("x-") { return nil }
                    checkPathOrOperationID(path, "path", at: value.keyNode(path) ?? item)
                    if !path.hasPrefix("/") {
                        report(.pathWithoutSlash, "path '\(path)' does not start with '/'", at: value.keyNode(path) ?? item, hint: "write '/\(path)'")
                    }
                    return pathItemOrRef(item)
                }
            case "webhooks": document.webhooks = map(value, "a map of webhooks") { _, item in pathItemOrRef(item) }
            case "security": document.security = securityRequirements(value)
            case "tags": document.tags = list(value, "tags") { tag($0) }
            case "externalDocs": document.externalDocs = externalDocs(value)
            default: return false
            }
            return true
        }
        if !sawInfo {
            missing("info", in: root, "the OpenAPI document", hint: "add 'info:' with 'title:' and 'version:'")
        }
        if !root.has("paths"), !version.usesJSONSchema2020 {
            missing("paths", in: root, "an OpenAPI 3.0 document", hint: "add 'paths: {}' if the API has no operations")
        }
        if document.servers.isEmpty {
            var server = Server(location: root.location)
            server.url = "/"
            document.servers = [server]
        }
        return document
    }

    private func info(_ node: Node) -> Info? {
        guard expectObject(node, "an Info object") else { return nil }
        var info = Info(location: node.location)
        let known = ["title", "summary", "description", "termsOfService", "contact", "license", "version"]
        fields(of: node, "an Info object", known: known, extensions: &info.extensions) { key, value in
            switch key {
            case "title": info.title = string(value) ?? ""
            case "summary": info.summary = string(value)
            case "description": info.description = string(value)
            case "termsOfService": info.termsOfService = string(value)
            case "contact":
                var contact = Contact(location: value.location)
                var extensions = OrderedMap<JSONValue>()
                fields(of: value, "a Contact object", known: ["name", "url", "email"], extensions: &extensions) { key, value in
                    switch key {
                    case "name": contact.name = string(value)
                    case "url": contact.url = string(value)
                    case "email": contact.email = string(value)
                    default: return false
                    }
                    return true
                }
                info.contact = contact
            case "license":
                var license = License(location: value.location)
                var extensions = OrderedMap<JSONValue>()
                fields(of: value, "a License object", known: ["name", "identifier", "url"], extensions: &extensions) { key, value in
                    switch key {
                    case "name": license.name = string(value) ?? ""
                    case "identifier": license.identifier = string(value)
                    case "url": license.url = string(value)
                    default: return false
                    }
                    return true
                }
                info.license = license
            case "version": info.version = string(value) ?? ""
            default: return false
            }
            return true
        }
        if !node.has("title") { missing("title", in: node, "the Info object") }
        if !node.has("version") { missing("version", in: node, "the Info object", hint: "add 'version:' with the API's own version, such as '1.0.0'") }
        return info
    }

    func server(_ node: Node) -> Server? {
        guard expectObject(node, "a Server object") else { return nil }
        var server = Server(location: node.location)
        fields(of: node, "a Server object", known: ["url", "description", "variables"], extensions: &server.extensions) { key, value in
            switch key {
            case "url": server.url = string(value) ?? ""
            case "description": server.description = string(value)
            case "variables": server.variables = map(value, "a map of server variables") { _, variable in serverVariable(variable) }
            default: return false
            }
            return true
        }
        if !node.has("url") { missing("url", in: node, "a Server object") }
        for name in templateVariables(in: server.url) where server.variables[name] == nil {
            report(
                .undefinedServerVariable, "server URL uses '{\(name)}' but defines no variable '\(name)'", at: node.child("url") ?? node,
                hint: "add 'variables: {\(name): {default: ...}}'")
        }
        checkServerURL(server, at: node)
        return server
    }

    private func serverVariable(_ node: Node) -> ServerVariable? {
        guard expectObject(node, "a Server Variable object") else { return nil }
        var variable = ServerVariable(location: node.location)
        var extensions = OrderedMap<JSONValue>()
        fields(of: node, "a Server Variable object", known: ["enum", "default", "description"], extensions: &extensions) { key, value in
            switch key {
            case "enum":
                guard value.kind == .sequence else {
                    report(.wrongValueKind, "'enum' must be a list of strings, found \(describe(value))", at: value)
                    return true
                }
                variable.enumValues = value.items.compactMap { item in
                    guard item.kind == .scalar, let text = item.text else {
                        report(.wrongValueKind, "server variable enum values must be strings, found \(describe(item))", at: item)
                        return nil
                    }
                    if item.tree.style(item.id) == .plain, let scalar = item.tree.scalar(item.id), scalar != .string(text) {
                        report(
                            .serverEnumNotString, "server variable enum value \(text) is \(describe(item)), but server variable values are strings; it is read as \"\(text)\"",
                            at: item, hint: "quote it: '\(text)'")
                    }
                    return text
                }
            case "default": variable.defaultValue = string(value) ?? ""
            case "description": variable.description = string(value)
            default: return false
            }
            return true
        }
        if !node.has("default") { missing("default", in: node, "a Server Variable object") }
        if let values = variable.enumValues, !values.isEmpty, node.has("default"), !values.contains(variable.defaultValue) {
            report(
                .serverDefaultNotInEnum, "default '\(variable.defaultValue)' is not one of the variable's enum values",
                at: node.child("default") ?? node, hint: "use one of: \(values.joined(separator: ", "))")
        }
        return variable
    }

    /// `$self`: a URI without a fragment (OpenAPI 3.2, 4.1.2).
    private func selfURI(_ node: Node) -> String? {
        guard let text = string(node) else { return nil }
        if text.contains("#") || URLComponents(string: text) == nil {
            report(
                .invalidSelf, "'$self: \(text)' is not a URI without a fragment; references are resolved from the file's own place", at: node,
                hint: "write the URI the document is published at, such as 'https://api.example.com/openapi.yaml'")
            return nil
        }
        return text
    }

    private func tag(_ node: Node) -> Tag? {
        guard expectObject(node, "a Tag object") else { return nil }
        var tag = Tag(location: node.location)
        let known = ["name", "description", "externalDocs"] + (version.minor >= 2 ? ["summary", "parent", "kind"] : [])
        fields(of: node, "a Tag object", known: known, extensions: &tag.extensions) { key, value in
            switch key {
            case "name": tag.name = string(value) ?? ""
            case "description": tag.description = string(value)
            case "externalDocs": tag.externalDocs = externalDocs(value)
            case "summary" where version.minor >= 2: tag.summary = string(value)
            case "parent" where version.minor >= 2: tag.parent = string(value)
            case "kind" where version.minor >= 2: tag.kind = string(value)
            default: return false
            }
            return true
        }
        if tag.name.isEmpty { missing("name", in: node, "a Tag object") }
        return tag
    }

    func securityRequirements(_ node: Node) -> [SecurityRequirement] {
        list(node, "security requirements") { item in
            guard expectObject(item, "a Security Requirement object") else { return nil }
            var requirement = SecurityRequirement(location: item.location)
            item.forEachPair { name, scopes in
                requirement.schemes[name] = scopes.kind == .sequence ? stringList(scopes) : {
                    report(.wrongValueKind, "the scopes of '\(name)' must be a list (use [] for none)", at: scopes, hint: "write '\(name): []'")
                    return []
                }()
            }
            return requirement
        }
    }

    private func components(_ node: Node) -> Components {
        var components = Components()
        let known = [
            "schemas", "responses", "parameters", "examples", "requestBodies", "headers", "securitySchemes", "links",
            "callbacks", "pathItems",
        ]
        fields(of: node, "a Components object", known: known, extensions: &components.extensions) { key, value in
            switch key {
            case "schemas": components.schemas = componentMap(value, schemaOrRef)
            case "responses": components.responses = componentMap(value) { refOr($0, "a Response") { [unowned self] in self.response($0) } }
            case "parameters": components.parameters = componentMap(value, parameterOrRef)
            case "examples": components.examples = componentMap(value) { refOr($0, "an Example") { [unowned self] in self.example($0) } }
            case "requestBodies":
                components.requestBodies = componentMap(value) { refOr($0, "a Request Body") { [unowned self] in self.requestBody($0) } }
            case "headers": components.headers = componentMap(value) { refOr($0, "a Header") { [unowned self] in self.header($0) } }
            case "securitySchemes":
                components.securitySchemes = componentMap(value) { refOr($0, "a Security Scheme") { [unowned self] in self.securityScheme($0) } }
            case "links": components.links = componentMap(value) { refOr($0, "a Link") { [unowned self] in self.link($0) } }
            case "callbacks": components.callbacks = componentMap(value) { refOr($0, "a Callback") { [unowned self] in self.callback($0) } }
            case "pathItems": components.pathItems = componentMap(value, pathItemOrRef)
            default: return false
            }
            return true
        }
        return components
    }

    /// A components map whose inline entries are also registered as `$ref` targets.
    private func componentMap<T: Referenceable>(_ node: Node, _ read: (Node) -> RefOr<T>?) -> OrderedMap<RefOr<T>> {
        map(node, "a map of \(T.componentsKey)") { name, value in
            if HiddenCharacters.contains(in: name) {
                checkVisible(name, "component name", at: node.keyNode(name) ?? value)  // an error, which says more than the warning below
            } else if !name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_" }) || !name.unicodeScalars.allSatisfy(\.isASCII) {
                report(
                    .componentName, "component name '\(name)' has characters outside A-Z a-z 0-9 . - _", at: node.keyNode(name) ?? value,
                    hint: "rename it; references to it must escape those characters")
            }
            let target = ReferenceTarget(file: value.file.name, pointer: value.pointer)
            markQueued(T.self, target)
            let entry = read(value)
            if case .value(let component)? = entry { store(component, at: target) }
            return entry
        }
    }

    func securityScheme(_ node: Node) -> SecurityScheme {
        var scheme = SecurityScheme(location: node.location)
        let known = ["type", "description", "name", "in", "scheme", "bearerFormat", "flows", "openIdConnectUrl"]
            + (version.minor >= 2 ? ["oauth2MetadataUrl", "deprecated"] : [])
        fields(of: node, "a Security Scheme", known: known, extensions: &scheme.extensions) { key, value in
            switch key {
            case "type":
                guard let text = string(value) else { return true }
                if let kind = SecurityScheme.Kind(rawValue: text) {
                    scheme.kind = kind
                } else {
                    report(
                        .unknownSecurityType, "unknown security scheme type '\(text)'", at: value,
                        hint: "use one of: apiKey, http, mutualTLS, oauth2, openIdConnect")
                }
            case "description": scheme.description = string(value)
            case "name": scheme.name = string(value)
            case "in": scheme.keyLocation = string(value)
            case "scheme": scheme.scheme = string(value)
            case "bearerFormat": scheme.bearerFormat = string(value)
            case "flows":
                scheme.flows = map(value, "an OAuth Flows object") { _, flow in oauthFlow(flow) }
            case "openIdConnectUrl":
                scheme.openIdConnectURL = string(value)
                checkAuthURL(scheme.openIdConnectURL, field: "openIdConnectUrl", at: value)
            case "oauth2MetadataUrl" where version.minor >= 2:
                scheme.oauth2MetadataURL = string(value)
                checkAuthURL(scheme.oauth2MetadataURL, field: "oauth2MetadataUrl", at: value)
            case "deprecated" where version.minor >= 2: scheme.deprecated = bool(value) ?? false
            default: return false
            }
            return true
        }
        guard node.isMapping else { return scheme }
        if !node.has("type") { missing("type", in: node, "a Security Scheme", isEssential: true) }
        if let name = scheme.name, let nameNode = node.child("name") {
            if scheme.keyLocation == "header" {
                checkHeaderName(name, "apiKey header name", at: nameNode)
            } else {
                checkVisible(name, "apiKey parameter name", at: nameNode)
            }
        }
        if scheme.kind == .apiKey {
            if scheme.name == nil { missing("name", in: node, "an apiKey Security Scheme", hint: "add 'name:' with the header, query or cookie name") }
            if scheme.keyLocation == nil { missing("in", in: node, "an apiKey Security Scheme", hint: "add 'in: header' (or query, cookie)") }
        }
        if scheme.kind == .http, scheme.scheme == nil { missing("scheme", in: node, "an http Security Scheme", hint: "add 'scheme: bearer' (or basic)") }
        return scheme
    }

    private func oauthFlow(_ node: Node) -> OAuthFlow? {
        guard expectObject(node, "an OAuth Flow object") else { return nil }
        var flow = OAuthFlow(location: node.location)
        var extensions = OrderedMap<JSONValue>()
        let known = ["authorizationUrl", "tokenUrl", "refreshUrl", "scopes"] + (version.minor >= 2 ? ["deviceAuthorizationUrl"] : [])
        fields(of: node, "an OAuth Flow object", known: known, extensions: &extensions) { key, value in
            switch key {
            case "deviceAuthorizationUrl" where version.minor >= 2: flow.deviceAuthorizationURL = string(value)
            case "authorizationUrl": flow.authorizationURL = string(value)
            case "tokenUrl": flow.tokenURL = string(value)
            case "refreshUrl": flow.refreshURL = string(value)
            case "scopes": flow.scopes = map(value, "a map of scopes") { _, description in string(description) ?? "" }
            default: return false
            }
            if ["deviceAuthorizationUrl", "authorizationUrl", "tokenUrl", "refreshUrl"].contains(key) { checkAuthURL(string(value), field: key, at: value) }
            return true
        }
        return flow
    }
}

/// The `{names}` in a URL or path template, in order.
public func templateVariables(in template: String) -> [String] {
    var names: [String] = []
    var rest = Substring(template)
    while let open = rest.firstIndex(of: "{") {
        let afterOpen = rest.index(after: open)
        guard let close = rest[afterOpen...].firstIndex(of: "}") else { break }
        names.append(String(rest[afterOpen..<close]))
        rest = rest[rest.index(after: close)...]
    }
    return names
}

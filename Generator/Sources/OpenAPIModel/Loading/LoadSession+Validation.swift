import YAMLReader

/// Checks across the whole document, once every reference is resolved.
extension LoadSession {
    func validate(_ document: OpenAPIDocument, root: Node) {
        checkPathParameters(document, root: root)
        checkOperationIds(document, root: root)
        checkSecurityNames(document)
        checkIdempotentExtensions(document)
        checkOfflineExtensions(document)
        checkBooleanMarks()
        checkStreamedArrays(document)
        checkRequestMediaTypes(document)
        checkParameterForms(document)
        checkParentTags(document)
        checkQuerystrings(document)
    }

    /// A tag's `parent` (3.2) names another tag, and following parents
    /// never comes back to the tag.
    private func checkParentTags(_ document: OpenAPIDocument) {
        let parents = Dictionary(document.tags.compactMap { tag in tag.parent.map { (tag.name, $0) } }, uniquingKeysWith: { first, _ in first })
        let names = Set(document.tags.map(\.name))
        // Each tag has one parent, so the tags form chains that may end in a
        // loop: one walk over all of them, each tag visited once, finds the
        // tags on a loop (a spec of many tags costs time in proportion).
        var onLoop: Set<String> = []
        var finished: Set<String> = []
        for tag in document.tags where !finished.contains(tag.name) {
            var path: [String] = []
            var position: [String: Int] = [:]
            var current: String? = tag.name
            while let name = current, !finished.contains(name) {
                if let start = position[name] {
                    onLoop.formUnion(path[start...])
                    break
                }
                position[name] = path.count
                path.append(name)
                current = parents[name]
            }
            finished.formUnion(path)
        }
        for tag in document.tags {
            guard let parent = tag.parent else { continue }
            if !names.contains(parent) {
                diagnostics.append(Diagnostic(
                    .unknownParentTag, "tag '\(tag.name)' names the parent '\(parent)', which is no tag of the document", at: tag.location,
                    // A suggestion compares the name with every tag: only for a short list, so many
                    // unknown parents among many tags stay linear.
                    hint: (names.count <= 200 ? closest(to: parent, in: Array(names)) : nil).map { "did you mean '\($0)'?" }
                        ?? "add a tag named '\(parent)' to 'tags'"))
            } else if onLoop.contains(tag.name) {
                diagnostics.append(Diagnostic(
                    .unknownParentTag, "tag '\(tag.name)' is its own ancestor: its parents lead back to it", at: tag.location,
                    hint: "give one of the tags on the way no 'parent'"))
            }
        }
    }

    /// An `in: querystring` parameter (3.2) is the whole query string: it
    /// takes `content` (how it is written), and an operation with one has no
    /// other query parameter.
    private func checkQuerystrings(_ document: OpenAPIDocument) {
        for (path, method, operation, item) in document.operations {
            let parameters = (item.parameters + operation.parameters).compactMap { document.resolve($0) }
            let querystrings = parameters.filter { $0.location == .querystring }
            guard let first = querystrings.first else { continue }
            let place = "\(method.wireName) \(path)"
            if querystrings.contains(where: { $0.content.isEmpty }) {
                diagnostics.append(Diagnostic(
                    .invalidQuerystring, "the querystring parameter '\(first.name)' of \(place) has no 'content'; it is written as a form",
                    at: first.sourceLocation, hint: "add 'content: {application/x-www-form-urlencoded: {schema: ...}}'"))
            }
            if querystrings.count > 1 {
                diagnostics.append(Diagnostic(
                    .invalidQuerystring, "\(place) has \(querystrings.count) querystring parameters; the query string is one",
                    at: querystrings[1].sourceLocation, hint: "keep one, with every member in its schema"))
            }
            if let query = parameters.first(where: { $0.location == .query }) {
                diagnostics.append(Diagnostic(
                    .invalidQuerystring, "\(place) has the querystring parameter '\(first.name)' and the query parameter '\(query.name)'; both are sent",
                    at: query.sourceLocation, hint: "move '\(query.name)' into the querystring parameter's schema"))
            }
        }
    }

    /// A path, header or cookie value is written in one level (`simple`:
    /// `3,4`, `role=admin,name=a`; a cookie's `form`): a schema whose values
    /// nest arrays or objects has no form there, and the client would throw
    /// when asked to send one. Said once per parameter, at its schema.
    private func checkParameterForms(_ document: OpenAPIDocument) {
        var seen: Set<String> = []
        for (path, method, operation, item) in document.operations {
            for reference in item.parameters + operation.parameters {
                guard let parameter = document.resolve(reference), [.path, .header, .cookie].contains(parameter.location),
                    let schemaReference = parameter.schema, let schema = document.resolve(schemaReference)
                else { continue }
                let location = schemaReference.reference?.location ?? schema.location
                guard nestsContainers(schema, in: document), seen.insert("\(location.file):\(location.line):\(location.column)").inserted else { continue }
                diagnostics.append(
                    Diagnostic(
                        .noParameterForm,
                        "\(parameter.location.rawValue) parameter '\(parameter.name)' of \(method.wireName) \(path) holds nested arrays or objects, which the \(parameter.location == .cookie ? "form" : "simple") style cannot write",
                        at: location, hint: "flatten its schema, or give it 'content: {application/json: {schema: ...}}' to send its JSON text"))
            }
        }
    }

    /// Whether values of the schema hold an array or object inside an array or object.
    private func nestsContainers(_ schema: Schema, in document: OpenAPIDocument) -> Bool {
        func isContainer(_ reference: RefOr<Schema>?) -> Bool {
            guard let reference, let resolved = document.resolve(reference) else { return false }
            return resolved.singleType == .array || resolved.singleType == .object || !resolved.properties.isEmpty || resolved.items != nil
        }
        if schema.singleType == .array || schema.items != nil { return isContainer(schema.items) }
        return schema.properties.values.contains { isContainer($0) }
    }

    /// Every `{name}` in a path template needs a path parameter, and every
    /// path parameter needs its `{name}`.
    private func checkPathParameters(_ document: OpenAPIDocument, root: Node) {
        for (path, itemOrRef) in document.paths {
            guard let item = document.resolve(itemOrRef) else { continue }
            let templateNames = templateVariables(in: path)
            for (method, operation) in item.operations {
                var declared: [String: SourceLocation] = [:]
                for parameter in item.parameters + operation.parameters {
                    guard let resolved = document.resolve(parameter), resolved.location == .path else { continue }
                    declared[resolved.name] = parameter.reference?.location ?? resolved.sourceLocation
                }
                for name in templateNames where declared[name] == nil {
                    diagnostics.append(
                        Diagnostic(
                            .missingPathParameter,
                            "\(method.wireName) \(path) has no path parameter '\(name)'; it is read as a required string",
                            at: operation.location, hint: "add '- {name: \(name), in: path, required: true, schema: {type: string}}' to its parameters"))
                }
                for (name, location) in declared.sorted(by: { $0.key < $1.key }) where !templateNames.contains(name) {
                    diagnostics.append(
                        Diagnostic(
                            .unusedPathParameter, "path parameter '\(name)' does not appear in the path '\(path)'",
                            at: location, hint: "add '{\(name)}' to the path, or change 'in:'"))
                }
            }
        }
    }

    private func checkOperationIds(_ document: OpenAPIDocument, root: Node) {
        var seen: [String: SourceLocation] = [:]
        for (_, _, operation, _) in document.operations {
            guard let id = operation.operationId else { continue }
            if let first = seen[id] {
                diagnostics.append(
                    Diagnostic(
                        .duplicateOperationId, "operationId '\(id)' is already used at line \(first.line); operationIds must be unique",
                        at: operation.location, hint: "rename one of them"))
            } else {
                seen[id] = operation.location
            }
        }
    }

    /// `x-idempotent` (read by code generation: may a retry layer repeat the
    /// operation?) must be a boolean; any other value is ignored.
    private func checkIdempotentExtensions(_ document: OpenAPIDocument) {
        for (path, method, operation, _) in document.operations {
            guard let value = operation.extensions["x-idempotent"] else { continue }
            if case .bool = value { continue }
            diagnostics.append(
                Diagnostic(
                    .invalidXIdempotent,
                    "x-idempotent of \(method.rawValue.uppercased()) \(path) is \(value.jsonTypeName), not a boolean; it is ignored and the method decides",
                    at: operation.location, hint: "write 'x-idempotent: true' when the server deduplicates repeats of this operation"))
        }
    }

    /// `x-cache` (`false`, `true` or `{max-age: seconds}`, on a GET) and
    /// `x-offline-queue` (a boolean, on a write) are read by code generation
    /// for the runtime's response cache and offline write queue; any other
    /// value, or either on the wrong kind of operation, is ignored.
    private func checkOfflineExtensions(_ document: OpenAPIDocument) {
        for (path, method, operation, _) in document.operations {
            func ignored(_ name: String, _ code: DiagnosticCode, because problem: String?, hint: String) {
                guard let problem else { return }
                diagnostics.append(
                    Diagnostic(code, "\(name) of \(method.rawValue.uppercased()) \(path) is ignored: \(problem)", at: operation.location, hint: hint))
            }
            if let value = operation.extensions[CacheExtension.extensionName] {
                var problem: String?
                if method != .get {
                    problem = "only GET responses are cached"
                } else if case .bool = value {
                } else if CacheExtension.maxAge(value) == nil {
                    problem = "it is \(value.jsonTypeName), not true, false or {max-age: seconds} with a whole number of seconds of 0 or more"
                }
                ignored(
                    CacheExtension.extensionName, .invalidXCache, because: problem,
                    hint: "write 'x-cache: false' to never cache the response, or 'x-cache: {max-age: 60}' to keep it fresh for 60 s when the server says nothing")
            }
            if let value = operation.extensions[OfflineQueueExtension.extensionName] {
                var problem: String?
                if case .bool(let queued) = value {
                    if queued, OfflineQueueExtension.readMethods.contains(method) { problem = "a \(method.rawValue.uppercased()) is a read; only writes are queued" }
                } else {
                    problem = "it is \(value.jsonTypeName), not a boolean"
                }
                ignored(
                    OfflineQueueExtension.extensionName, .invalidXOfflineQueue, because: problem,
                    hint: "write 'x-offline-queue: true' on a write the app may store while offline and send once when connectivity returns")
            }
        }
    }

    /// `x-stream-array` must name an array (``StreamedArray``) on the JSON
    /// content of an operation's only success status; elsewhere it is ignored.
    private func checkStreamedArrays(_ document: OpenAPIDocument) {
        for (path, method, operation, _) in document.operations {
            let successes = operation.responses.keys.filter { $0.hasPrefix("2") }
            for (status, reference) in operation.responses {
                guard let response = document.resolve(reference) else { continue }
                for (mediaType, media) in response.content {
                    checkItemSchema(media, mediaType: mediaType, place: "\(method.rawValue.uppercased()) \(path) (\(status), \(mediaType))")
                    checkPositionalEncoding(media, mediaType: mediaType, place: "\(method.rawValue.uppercased()) \(path) (\(status), \(mediaType))", in: document)
                    guard let hint = StreamedArray.read(media, in: document) else { continue }
                    let place = "x-stream-array of \(method.rawValue.uppercased()) \(path) (\(status), \(mediaType))"
                    var problem: String?
                    if case .failure(let failure) = hint { problem = failure.reason }
                    if !status.hasPrefix("2") { problem = "it is on a status that is not a success" }
                    if successes.count > 1 { problem = "the operation has more than one success status (\(successes.joined(separator: ", ")))" }
                    if !(mediaType.lowercased().contains("json")) { problem = "the media type is not JSON" }
                    guard let problem else { continue }
                    diagnostics.append(
                        Diagnostic(
                            .invalidXStreamArray, "\(place) is ignored: \(problem)",
                            at: media.location,
                            hint: "write 'x-stream-array: true' when the body is an array, or the name of the object's array property"))
                }
            }
        }
    }

    /// The request bodies' media types get the checks the responses' get
    /// (``checkItemSchema(_:mediaType:place:)``, ``checkPositionalEncoding(_:mediaType:place:in:)``).
    private func checkRequestMediaTypes(_ document: OpenAPIDocument) {
        for (path, method, operation, _) in document.operations {
            guard let body = operation.requestBody.flatMap({ document.resolve($0) }) else { continue }
            for (mediaType, media) in body.content {
                let place = "the request body of \(method.rawValue.uppercased()) \(path) (\(mediaType))"
                checkItemSchema(media, mediaType: mediaType, place: place)
                checkPositionalEncoding(media, mediaType: mediaType, place: place, in: document)
            }
        }
    }

    /// `prefixEncoding` and `itemEncoding` say how the parts of a multipart
    /// body stand by position: its schema an array (or its parts an
    /// `itemSchema`), and no `encoding` beside them (3.2 forbids both).
    private func checkPositionalEncoding(_ media: MediaType, mediaType: String, place: String, in document: OpenAPIDocument) {
        guard media.itemEncoding != nil || !media.prefixEncoding.isEmpty else { return }
        let problem: String
        if !mediaType.lowercased().hasPrefix("multipart/") {
            problem = "\(mediaType) has no parts"
        } else if !media.encoding.isEmpty {
            problem = "'encoding' is there too, which OpenAPI 3.2 does not allow beside them"
        } else if media.itemSchema == nil, let schema = media.schema.flatMap({ document.resolve($0) }), !schema.types.contains(.array) {
            problem = "the schema is not an array, so its parts are named fields ('encoding' describes those)"
        } else {
            return
        }
        diagnostics.append(
            Diagnostic(
                .misplacedPositionalEncoding, "prefixEncoding and itemEncoding of \(place) are ignored: \(problem)",
                at: media.location,
                hint: "use them on a multipart body whose schema is an array (each item a part, by position), or 'encoding' for named parts"))
    }

    /// An item schema describes one element of a sequential body (server-sent
    /// events, JSON Lines, JSON Sequences, or a multipart body's parts);
    /// elsewhere nothing reads it.
    private func checkItemSchema(_ media: MediaType, mediaType: String, place: String) {
        guard media.itemSchema != nil else { return }
        guard SequentialMediaType.formatCase(of: mediaType) == nil, !mediaType.lowercased().hasPrefix("multipart/") else { return }
        diagnostics.append(
            Diagnostic(
                .itemSchemaNotSequential, "the item schema of \(place) is ignored: \(mediaType) is not a sequence of elements",
                at: media.location,
                hint: "describe the whole body with 'schema' (an array's elements with 'items'), or use text/event-stream, application/jsonl or application/json-seq"))
    }

    private func checkSecurityNames(_ document: OpenAPIDocument) {
        let defined = Set(document.components.securitySchemes.keys)
        var requirements = document.security ?? []
        for (_, _, operation, _) in document.operations { requirements += operation.security ?? [] }
        for requirement in requirements {
            for name in requirement.schemes.keys where !defined.contains(name) {
                diagnostics.append(
                    Diagnostic(
                        .undefinedSecurityScheme, "security requirement names '\(name)', which is not in components/securitySchemes",
                        at: requirement.location,
                        hint: closest(to: name, in: Array(defined)).map { "did you mean '\($0)'?" } ?? "define it under components/securitySchemes"))
            }
        }
    }
}

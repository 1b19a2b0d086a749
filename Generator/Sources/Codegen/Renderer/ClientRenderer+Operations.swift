import Foundation

/// Each operation's methods on `Client`, in chunks: the plain method, the
/// one returning the whole `Response`, a streamed one where the spec streams.
extension ClientRenderer {
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

    /// The method's parameters and the arguments that pass them on; with
    /// `eventsBody`, the events method's: a sequential body taken as
    /// `events`, a sequence of elements.
    func signature(_ operation: OperationDeclaration, defaults: Bool = true, eventsBody: Bool = false) -> (parameters: String, arguments: String) {
        var parameters: [String] = []
        var arguments: [String] = []
        for argument in operation.arguments {
            switch argument {
            case .parameter(let parameter):
                parameters.append("\(parameter.label): \(parameter.type)" + (parameter.isOptional && defaults ? " = nil" : ""))
                arguments.append("\(SwiftName.unescaped(parameter.label)): \(parameter.label)")
            case .body where eventsBody && operation.requestEvents != nil:
                parameters.append("events: Events")
                arguments.append("events: events")
            case .body(let body):
                parameters.append("body: \(body.type)" + (body.isOptional && defaults ? " = nil" : ""))
                arguments.append("body: body")
            }
        }
        return (parameters.joined(separator: ", "), arguments.joined(separator: ", "))
    }

    func renderMethods(_ operation: OperationDeclaration, into writer: inout SwiftWriter) {
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
        if operation.eventsMethodName != nil { renderEventsMethod(operation, into: &writer) }
        if let pagination = operation.pagination { renderPagesMethod(operation, pagination, into: &writer) }
    }

    /// The method that follows a list operation's pages: a ``Pages``
    /// sequence whose every request is the operation's, with the cursor the
    /// previous page gave in place of the app's.
    func renderPagesMethod(_ operation: OperationDeclaration, _ pagination: PaginationDeclaration, into writer: inout SwiftWriter) {
        let (parameters, _) = signature(operation)
        // The closure's own names, none a parameter's label (a `page` or
        // `cursor` parameter is read inside it).
        var labels = Set(operation.parameters.map { SwiftName.unescaped($0.label) })
        func local(_ base: String) -> String {
            var name = base
            while labels.contains(name) { name = "_" + name }
            labels.insert(name)
            return name
        }
        let (cursorName, responseName, pageName, itemsName, nextName) = (local("cursor"), local("response"), local("page"), local("items"), local("next"))
        let largestName = local("largestPage")
        let resultName = local("result")
        let countsItems = pagination.style == .pageNumber && !pagination.totalCountsPages
        let linked = Dictionary(pagination.linkParameters.map { ($0.label, $0) }, uniquingKeysWith: { first, _ in first })
        var arguments: [String] = []
        for argument in operation.arguments {
            switch argument {
            case .parameter(let parameter) where parameter.location == .query && linked[parameter.label] != nil:
                // The next page's URL fills it, or leaves it out.
                let name = SwiftLiteral.string(parameter.wireName)
                let type = linked[parameter.label]?.type ?? .named("String")
                let value = type == .named("String") ? "PageLink.queryValue($0, name: \(name))" : "PageLink.queryValue($0, name: \(name)).flatMap { \(type)($0) }"
                arguments.append("\(SwiftName.unescaped(parameter.label)): \(cursorName).\(parameter.isOptional ? "map" : "flatMap") { \(value) } ?? \(parameter.label)")
            case .parameter(let parameter) where parameter.label == pagination.cursorLabel && parameter.location == .query && pagination.style != .link:
                arguments.append("\(SwiftName.unescaped(parameter.label)): " + (parameter.isOptional ? cursorName : "\(cursorName) ?? \(parameter.label)"))
            case .parameter(let parameter):
                arguments.append("\(SwiftName.unescaped(parameter.label)): \(parameter.label)")
            case .body:
                arguments.append("body: body")
            }
        }
        let page = operation.success.bodyType
        let cursor = pagination.cursorType.description
        let items = pagination.itemsProperty.map { "\(pageName).\($0)" + (pagination.itemsPropertyIsOptional ? " ?? []" : "") } ?? pageName
        let member = pagination.member?.expression(from: pageName) ?? pageName
        var lines: [String] = []
        let next: String
        switch pagination.style {
        case .cursor:
            lines.append("let \(nextName) = (\(member) as String?).flatMap { $0.isEmpty ? nil : $0 }")
            if let flag = pagination.flag?.expression(from: pageName) {
                next = pagination.flagEndsList ? "\(flag) == true ? nil : \(nextName)" : "\(flag) == true ? \(nextName) : nil"
            } else {
                next = nextName
            }
        case .lastItem:
            lines.append("let \(itemsName) = \(items)")
            let id = "\(itemsName).last?.\(pagination.itemIDProperty ?? "id")"
                + (pagination.itemIDIsText ? (pagination.itemIDIsOptional ? "?.description" : ".description") : "")
            next = "\(member) == true ? \(id) : nil"
        case .link:
            let source: String
            if pagination.member == nil {
                source = "PageLink.next(in: \(responseName).headerFields)"
            } else if let element = pagination.linkElement {
                // The first link whose relation is `next`.
                let links = pagination.member?.isOptional ?? false ? "(\(member) ?? [])" : member
                let target = "?.\(element.target)" + (pagination.linkMemberIsURL ? (element.targetIsOptional ? "?" : "") + ".absoluteString" : "")
                source = "\(links).first(where: { $0.\(element.relation) == \"next\" })\(target)"
            } else {
                source = pagination.linkMemberIsURL ? "(\(member) as URL?)?.absoluteString" : "\(member) as String?"
            }
            let names = pagination.linkParameters.map { SwiftLiteral.string($0.wireName) }.joined(separator: ", ")
            next = "try PageLink.followable(\(source), names: [\(names)], operationID: \(SwiftLiteral.string(operation.id)))"
        case .offset:
            // Without a total, the list ends at an empty page.
            lines.append("let \(itemsName) = \(items)")
            lines.append("let \(nextName) = (\(cursorName) ?? 0) + \(cursor)(\(itemsName).count)")
            let total = pagination.total?.expression(from: pageName) ?? pageName
            next = pagination.total?.isOptional ?? false ? "(\(total)).map { \(nextName) < $0 } ?? true ? \(nextName) : nil" : "\(nextName) < \(total) ? \(nextName) : nil"
        case .pageNumber:
            let total = pagination.total?.expression(from: pageName) ?? pageName
            // A page that leaves its number out is the one asked for (the
            // first when the app gave none).
            let number = pagination.member?.isOptional ?? false
                ? "\(member) ?? \(cursorName) ?? \(pagination.firstPageNumber)" : member
            if pagination.totalCountsPages {
                next = "PageNumbering.next(after: \(number), first: \(pagination.firstPageNumber), pagesTotal: \(total))"
            } else {
                lines.append("let \(itemsName) = \(items)")
                next = "PageNumbering.next(after: \(number), first: \(pagination.firstPageNumber), itemsTotal: \(total), itemsOnPage: \(itemsName).count, largestPage: \(largestName))"
            }
        }
        let carriedIn = pagination.style == .link
            ? "the next page's URL's query items in " + pagination.linkParameters.map { "`\(SwiftName.unescaped($0.label))`" }.joined(separator: ", ")
            : pagination.style == .pageNumber ? "the next page's number in `\(SwiftName.unescaped(pagination.cursorLabel))`"
            : "that cursor in `\(SwiftName.unescaped(pagination.cursorLabel))`"
        writer.line("")
        writer.documentation("""
            Every page of `\(SwiftName.unescaped(operation.methodName))`, each fetched when the app iterates to it, and \
            `.items`, its items one at a time. The spec pages by \(pagination.summary)\(pagination.isDeclared ? " (`x-pagination`)" : ""): \
            each next request is the same call with \(carriedIn); the sequence ends at a page without a next, or an empty page.
            """)
        if operation.isDeprecated { writer.line("@available(*, deprecated)") }
        let first = pagination.style == .link ? "nil" : pagination.cursorLabel
        writer.block("\(access) func \(pagination.methodName)(\(parameters)) -> Pages<\(page), \(pagination.itemType), \(cursor)>") { writer in
            // A per-status result: the page is in one case, and any other
            // success is an empty last page.
            let itemsOf = pagination.pageCase.map { "\(resultName) in if case .\($0)(let \(pageName)) = \(resultName) { \(items) } else { [] }" }
                ?? "\(pageName) in \(items)"
            writer.closure("Pages(operationID: \(SwiftLiteral.string(operation.id)), first: \(first), items: { \(itemsOf) }) { \(cursorName)" + (countsItems ? ", \(largestName)" : "") + " in") { writer in
                writer.line("let \(responseName) = try await \(SwiftName.unescaped(operation.responseMethodName))(\(arguments.joined(separator: ", ")))")
                if let pageCase = pagination.pageCase {
                    writer.line("guard case .\(pageCase)(let \(pageName)) = \(responseName).body else { return (\(responseName).body, nil) }")
                } else {
                    writer.line("let \(pageName) = \(responseName).body")
                }
                for line in lines { writer.line(line) }
                writer.line("return (\(pagination.pageCase == nil ? pageName : "\(responseName).body"), \(next))")
            }
        }
    }

    /// The method whose sequential bodies are sequences of typed elements:
    /// it reads the response one element at a time, or takes the request's
    /// elements as the app produces them, or both.
    func renderEventsMethod(_ operation: OperationDeclaration, into writer: inout SwiftWriter) {
        guard let methodName = operation.eventsMethodName else { return }
        let parameters = signature(operation, eventsBody: true).parameters
        var paragraphs: [String] = []
        var generics = ""
        var requirement = ""
        if let sent = operation.requestEvents {
            let element = sent.elementType?.description ?? "String"
            let what = sent.elementType.map { _ in "each element's JSON" } ?? "each element's text (the spec gives the elements no schema)"
            paragraphs.append("""
                `\(SwiftName.unescaped(operation.methodName))`, its \(SwiftComment.code(sent.contentType)) body written from `events` \
                while the app produces them, \(what) sent as it comes. The body can be sent once: the call is not repeated.
                """ + (operation.events == nil ? " Returns the status and headers too, as `\(SwiftName.unescaped(operation.responseMethodName))` does." : ""))
            generics = "<Events: AsyncSequence & Sendable>"
            requirement = " where Events.Element == \(element)"
        }
        if let events = operation.events {
            let types = events.mediaTypes.map { SwiftComment.code($0) }.joined(separator: ", ")
            let payload = events.payloadType.map { "`\($0)`" } ?? "its text (the spec gives the elements no schema)"
            let reconnects = operation.isIdempotent && operation.requestEvents == nil
                ? "A dropped server-sent-event connection connects again with `Last-Event-ID` (`core.eventStreamReconnection`)."
                : "The operation may not be repeated, so a dropped connection ends the stream with its error."
            let lead = operation.requestEvents == nil ? "`\(SwiftName.unescaped(operation.methodName))`, its \(types) body" : "Its \(types) response"
            paragraphs.append("""
                \(lead) read one element at a time while it arrives, \
                each element's data decoded as \(payload). Memory holds one piece of the body, however long the stream runs; \
                cancelling the task that iterates closes the connection. \(reconnects)
                """)
        }
        let status = operation.events?.status ?? "a success"
        paragraphs.append("- Throws: what `\(SwiftName.unescaped(operation.responseMethodName))` throws for a status other than \(status).")
        writer.line("")
        writer.documentation(paragraphs.joined(separator: "\n\n"))
        if operation.isDeprecated { writer.line("@available(*, deprecated)") }
        guard let events = operation.events else {
            // Only the request streams: the answer is read as `...WithResponse` reads it.
            writer.block("\(access) func \(methodName)\(generics)(\(parameters)) async throws -> Response<\(operation.success.bodyType)>\(requirement)") { writer in
                renderRequest(operation, streamedBody: operation.requestEvents, into: &writer)
                writer.line("let response = try await core.send(request)")
                renderResponseSwitch(operation, into: &writer)
            }
            return
        }
        let payloadType = events.payloadType?.description ?? "String"
        writer.block("\(access) func \(methodName)\(generics)(\(parameters)) async throws -> EventStream<\(payloadType)>\(requirement)") { writer in
            renderRequest(operation, accept: events.mediaTypes.joined(separator: ", "), streamedBody: operation.requestEvents, into: &writer)
            writer.line("let opened = try await core.open(request)")
            writer.block("if \(Self.statusCondition(events.status, "opened.status"))") { writer in
                let reopen: String
                // A streamed request body can be sent once: such a call is never opened again.
                if operation.isIdempotent && operation.requestEvents == nil {
                    writer.line("let core = core, sent = request")
                    reopen = "{ lastEventID in try await core.open(sent, lastEventID: lastEventID) }"
                } else {
                    reopen = "nil"
                }
                let start = events.payloadType.map { "opened.eventStream(of: \($0).self, " } ?? "opened.eventTextStream("
                writer.line("return \(start)expected: .\(events.expectedFormat), reopen: \(reopen), reconnection: core.eventStreamReconnection)")
            }
            writer.line("let response = try await opened.collect()")
            renderResponseSwitch(operation, includingSuccess: false, into: &writer)
        }
    }

    /// The method that decodes the response's array while the body arrives.
    func renderStreamedMethod(_ operation: OperationDeclaration, _ streaming: StreamingDeclaration, parameters: String, into writer: inout SwiftWriter) {
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
    static func statusCondition(_ status: String, _ value: String) -> String {
        if let code = Int(status) { return "\(value) == \(code)" }
        let digit = status.first?.wholeNumberValue ?? 2
        return "(\(digit * 100)...\(digit * 100 + 99)).contains(\(value))"
    }
}

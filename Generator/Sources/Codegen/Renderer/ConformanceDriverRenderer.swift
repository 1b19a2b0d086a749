import Foundation

/// Renders the conformance driver of a client: a `main.swift` that calls
/// any operation of the client with arguments read as JSON, and reports what
/// the client decoded (`clientgen conformance-driver`, `make conformance`).
/// The loop lives in `ClientConformance.ConformanceDriver`; this file
/// holds what only the generator knows: the manifest of the operations,
/// and per operation the call with each argument decoded into its Swift
/// type and the decoded body encoded again.
struct ConformanceDriverRenderer {
    /// The generated client's module.
    let clientModule: String

    func render(_ client: ClientRepresentation, header: [String]) -> String {
        var writer = SwiftWriter()
        header.forEach { writer.line($0) }
        for module in ["ClientRuntime", "ClientConformance", clientModule, "Foundation", "OpenAPIURLSession"] {
            writer.line("import \(module)")
        }
        writer.line("")
        writer.line("/// The operations of \(SwiftComment.code(clientModule)), as the harness reads them.")
        writer.line("let manifest = \(SwiftLiteral.string(Self.manifest(client)))")
        writer.line("")
        // One small function per operation, a synchronous switch that only
        // names them, and one await: a spec of a thousand operations
        // compiles in linear time. (One closure holding every call took the
        // compiler over 16 GB; an async switch awaiting each call grows as
        // the square of its cases: GitHub's 814 took 340 s and 200 took 15 s,
        // against 29 s and 6 s this way.)
        writer.line("/// The function that calls the operation `key` names.")
        writer.block(
            "func operation(_ key: String) -> ((Client, ConformanceArguments) async throws -> ConformanceOutcome)?"
        ) { writer in
            writer.line("switch key {")
            for (index, operation) in client.operations.enumerated() {
                writer.line("case \(SwiftLiteral.string(Self.key(operation))): return call\(index)")
            }
            writer.line("default: return nil")
            writer.line("}")
        }
        writer.line("")
        writer.line("/// Calls the operation `key` names.")
        writer.block("func call(_ key: String, _ client: Client, _ arguments: ConformanceArguments) async throws -> ConformanceOutcome") { writer in
            writer.line("guard let operation = operation(key) else { throw ConformanceArgumentError(message: \"no operation \\(key)\") }")
            writer.line("return try await operation(client, arguments)")
        }
        for (index, operation) in client.operations.enumerated() {
            writer.line("")
            writer.line("/// " + SwiftComment.code(Self.key(operation)))
            writer.block("func call\(index)(_ client: Client, _ arguments: ConformanceArguments) async throws -> ConformanceOutcome") { writer in
                renderCall(operation, into: &writer)
            }
        }
        writer.line("")
        // Every call goes through a transport that hands the client each
        // piece of a body as it arrives (URLSessionTransport collects it
        // whole where URLSession offers no byte stream, on Linux) and does not
        // follow redirects (a documented 3xx reaches the client, body and all).
        writer.closure("await ConformanceDriver.main(manifest: manifest)", parameters: "key, serverURL, arguments") { writer in
            writer.line("let transport = StreamingURLSessionTransport()")
            writer.line("return try await call(key, Client(serverURL: serverURL, transport: transport), arguments)")
        }
        return writer.text
    }

    /// `Pet.self`, `Optional<[String]>.self`.
    static func metatype(_ type: SwiftType) -> String {
        let text = type.description
        return text.hasSuffix("?") ? "Optional<\(text.dropLast())>.self" : "\(text).self"
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
                // Each type spelled out: inferring a generic argument per parameter of a
                // long call made the type checker take minutes and gigabytes on GitHub's spec.
                arguments.append("\(label): arguments.value(\(SwiftLiteral.string(parameter.location.rawValue)), \(SwiftLiteral.string(parameter.wireName)), as: \(Self.metatype(parameter.type)))")
            case .body(let body):
                switch body.encoding {
                case .data: arguments.append("body: arguments.\(body.isOptional ? "bodyData" : "requiredBodyData")()")
                case .text: arguments.append("body: arguments.\(body.isOptional ? "bodyText" : "requiredBodyText")()")
                case .json, .form, .multipart: arguments.append("body: arguments.bodyValue(as: \(Self.metatype(body.type)))")
                }
            }
        }
        let call = "try await client.\(SwiftName.unescaped(operation.responseMethodName))(\(arguments.joined(separator: ", ")))"
        let success = operation.responses.filter(\.isSuccess)
        // A call the harness asks to page (the request line's `pages`) goes
        // through the pages method: every page, or the first `stopAfter`.
        if let pagination = operation.pagination {
            writer.block("if let stopAfter = arguments.pagesStopAfter") { writer in
                writer.line("let cancels = arguments.pagesCancel")
                writer.line("let sequence = try client.\(SwiftName.unescaped(pagination.methodName))(\(arguments.joined(separator: ", ")))")
                // In a task of its own, which the driver may cancel.
                writer.closure("let reading = Task { () async throws -> ([JSONValue], Bool) in") { writer in
                    writer.line("var pages: [JSONValue] = []")
                    writer.block("do") { writer in
                        writer.block("for try await page in sequence") { writer in
                            if let pageCase = pagination.pageCase {
                                // A bodiless success (a 204) is a page without items.
                                writer.line("if case .\(pageCase)(let body) = page { pages.append(try JSONValue(encoding: body)) } else { pages.append(.null) }")
                            } else {
                                writer.line("pages.append(try JSONValue(encoding: page))")
                            }
                            writer.block("if pages.count == stopAfter") { writer in
                                writer.line("if cancels { withUnsafeCurrentTask { $0?.cancel() } } else { break }")
                            }
                        }
                    }
                    writer.line("catch is CancellationError { return (pages, true) }")
                    writer.line("return (pages, false)")
                }
                writer.line("let (pages, cancelled) = try await reading.value")
                writer.line("return ConformanceOutcome(status: 200, body: .json(.object([\"pages\": .array(pages), \"cancelled\": .bool(cancelled)])))")
            }
        }
        // A streamed operation is called through its streamed method: each
        // element as it arrives, the first one told to the harness at once.
        func renderSuccess(into writer: inout SwiftWriter) {
            // A call the harness answers with a sequential media type goes
            // through the events method, each element as it arrives.
            // A call that sends its elements (the request line's `bodyEvents`)
            // does too, its body the elements' sequence.
            if let methodName = operation.eventsMethodName {
                let condition = [operation.events != nil ? "arguments.eventStream != nil" : nil, operation.requestEvents != nil ? "arguments.sendsEvents" : nil]
                    .compactMap { $0 }.joined(separator: " || ")
                var eventsArguments = arguments
                if let sent = operation.requestEvents, let index = operation.arguments.firstIndex(where: { if case .body = $0 { return true } else { return false } }) {
                    eventsArguments[index] = "events: try arguments.bodyEvents(as: \(sent.elementType?.description ?? "String").self)"
                }
                let call = "try await client.\(SwiftName.unescaped(methodName))(\(eventsArguments.joined(separator: ", ")))"
                writer.block("if \(condition)") { writer in
                    if operation.events != nil {
                        writer.line("let stream = \(call)")
                        writer.line("return try await ConformanceOutcome(status: stream.status, headers: stream.response.headerFields, body: .events(stream))")
                    } else {
                        writer.line("let response = \(call)")
                        renderOutcome(operation.success, value: "response", responses: success, into: &writer)
                    }
                }
            }
            guard let streaming = operation.streaming else {
                writer.line("let response = \(call)")
                renderOutcome(operation.success, value: "response", responses: success, into: &writer)
                return
            }
            writer.line("let stream = try await client.\(SwiftName.unescaped(streaming.methodName))(\(arguments.joined(separator: ", ")))")
            writer.line("var elements: [JSONValue] = []")
            writer.block("for try await element in stream") { writer in
                writer.line("elements.append(try JSONValue(encoding: element.result.get()))")
                writer.line("if elements.count == 1 { ConformanceDriver.reportFirstElement() }")
            }
            let member = streaming.member.map(SwiftLiteral.string) ?? "nil"
            writer.line("return try ConformanceOutcome(status: stream.status, headers: stream.response.headerFields, body: .streamed(elements, member: \(member), envelope: stream.envelope))")
        }
        guard let failure = operation.failure else {
            renderSuccess(into: &writer)
            return
        }
        // The function's body is one level deep; the `do` and `catch` blocks two.
        var attempt = SwiftWriter(depth: 2)
        renderSuccess(into: &attempt)
        var caught = SwiftWriter(depth: 2)
        renderOutcome(failure, value: "error", responses: operation.responses.filter { !$0.isSuccess }, into: &caught)
        writer.line("do {")
        writer.append(rendered: attempt.lines)
        writer.line("} catch let error as APIError<\(failure.bodyType)> {")
        writer.append(rendered: caught.lines)
        writer.line("}")
    }

    /// `return ConformanceOutcome(...)` of `value` (a `Response` or an
    /// `APIError`): its status and its body encoded again; a per-status
    /// enum through a switch over its cases.
    private func renderOutcome(_ result: ResultDeclaration, value: String, responses: [ResponseCase], into writer: inout SwiftWriter) {
        let status = "\(value).status, headers: \(value).headerFields"
        switch result {
        case .empty:
            writer.line("return ConformanceOutcome(status: \(status), body: .empty)")
        case .single(let type):
            let decoding = responses.first { $0.decoding != .none }?.decoding ?? .json(type)
            let decodings = Set(responses.map(\.decoding))
            guard decodings.count > 1 else {
                writer.line("return \(Self.outcome(status: status, body: "\(value).body", decoding: decoding))")
                return
            }
            // Statuses of one body type read as different media types (a
            // string as JSON for one, as text for another): reported as each
            // was read.
            writer.line("switch \(value).status {")
            let explicit = responses.filter { Int($0.status) != nil }
            let ranges = responses.filter { $0.status.count == 3 && $0.status.uppercased().hasSuffix("XX") && Int($0.status.prefix(1)) != nil }
            for response in explicit {
                writer.line("case \(response.status): return \(Self.outcome(status: status, body: "\(value).body", decoding: response.decoding))")
            }
            for response in ranges {
                let first = Int(response.status.prefix(1))! * 100
                writer.line("case \(first)...\(first + 99): return \(Self.outcome(status: status, body: "\(value).body", decoding: response.decoding))")
            }
            let fallback = responses.first { $0.status == "default" }?.decoding ?? decoding
            writer.line("default: return \(Self.outcome(status: status, body: "\(value).body", decoding: fallback))")
            writer.line("}")
        case .perStatus(_, let cases):
            writer.line("switch \(value).body {")
            for item in cases {
                let caseName = SwiftName.unescaped(item.name)
                if let type = item.type {
                    let decoding = responses.first { $0.caseName == item.name }?.decoding ?? .json(type)
                    writer.line("case .\(caseName)(let body): return \(Self.outcome(status: status, body: "body", decoding: decoding))")
                } else {
                    writer.line("case .\(caseName): return ConformanceOutcome(status: \(status), body: .empty)")
                }
            }
            writer.line("}")
        }
    }

    private static func outcome(status: String, body: String, decoding: ResponseCase.Decoding) -> String {
        switch decoding {
        case .none: return "ConformanceOutcome(status: \(status), body: .empty)"
        case .text: return "ConformanceOutcome(status: \(status), body: .text(\(body)))"
        case .data: return "ConformanceOutcome(status: \(status), body: .data(\(body)))"
        case .json: return "try ConformanceOutcome(status: \(status), body: .encoding(\(body)))"
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
        var events: [String]
        var requestEvents: RequestEvents?
        var pagination: Pagination?

        // `operationId` and `requestBody` are written even when null.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(key, forKey: .key)
            try container.encode(operationId, forKey: .operationId)
            try container.encode(requestBody, forKey: .requestBody)
            try container.encode(parameters, forKey: .parameters)
            try container.encode(responses, forKey: .responses)
            try container.encode(streaming, forKey: .streaming)
            try container.encode(events, forKey: .events)
            try container.encodeIfPresent(requestEvents, forKey: .requestEvents)
            try container.encodeIfPresent(pagination, forKey: .pagination)
        }

        enum CodingKeys: String, CodingKey { case key, operationId, requestBody, parameters, responses, streaming, events, requestEvents, pagination }
    }

    /// How the operation's pages method follows its pages (wire names).
    private struct Pagination: Encodable {
        var style: String
        var parameter: String
        var items: String?
        /// Dotted wire paths: the cursor, `has_more`, the next URL, the
        /// page's number; the total; the flag beside a cursor.
        var member: String?
        var total: String?
        var flag: String?
        var flagEndsList: Bool?
        var totalCountsPages: Bool?
        var first: Int?
        /// `link`: the query items the next URL carries.
        var parameters: [LinkParameter]?
        /// `link`: an array of link objects' relation and target members.
        var linkRelation: String?
        var linkTarget: String?
        var itemId: String?
    }

    /// A query item of a `link` style's next URL, and whether it is an
    /// integer.
    private struct LinkParameter: Encodable {
        var name: String
        var integer: Bool
    }

    /// A request body the events method takes as a sequence of elements.
    private struct RequestEvents: Encodable {
        var contentType: String
        var format: String
        /// Whether the elements have a schema (false: each is its text).
        var typed: Bool
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
                streaming: operation.streaming != nil, events: operation.events?.mediaTypes ?? [],
                requestEvents: operation.requestEvents.map { RequestEvents(contentType: $0.contentType, format: $0.format, typed: $0.elementType != nil) },
                pagination: operation.pagination.map {
                    Pagination(
                        style: $0.style.rawValue, parameter: $0.cursorWireName, items: $0.itemsWireName, member: $0.member?.wirePath,
                        total: $0.total?.wirePath, flag: $0.flag?.wirePath, flagEndsList: $0.flag == nil ? nil : $0.flagEndsList,
                        totalCountsPages: $0.total == nil ? nil : $0.totalCountsPages, first: $0.style == .pageNumber ? $0.firstPageNumber : nil,
                        parameters: $0.style == .link ? $0.linkParameters.map { LinkParameter(name: $0.wireName, integer: $0.type != .named("String")) } : nil,
                        linkRelation: $0.linkElement?.relationWireName, linkTarget: $0.linkElement?.targetWireName, itemId: $0.itemIDWireName)
                })
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(Manifest(operations: entries))) ?? Data("{\"operations\":[]}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}

import Codegen
import Foundation
import OpenAPIModel

/// Compares two versions of a spec and lists what the change does to
/// clients generated from the first: operations, parameters, bodies,
/// responses, schemas and security, each finding with its rule id, level,
/// location and the Swift symbols it touches.
///
/// Both documents are loaded with `$ref`s resolved; schemas are compared
/// through references, and each pair of referenced schemas is compared once
/// per direction, so recursive schemas end.
public final class SpecComparator {
    let base: OpenAPIDocument
    let revision: OpenAPIDocument
    let baseSymbols: SwiftSymbols
    let revisionSymbols: SwiftSymbols
    /// Today's date (`YYYY-MM-DD`), for `x-sunset` dates.
    let today: String
    var findings: [Finding] = []
    /// Referenced schema pairs already compared, by direction and operation.
    var visited: Set<String> = []
    /// Referenced schema pairs (by direction and status) whose whole
    /// comparison found nothing: skipped for every later operation, which is
    /// what keeps a large spec fast (most components do not change).
    var unchangedPairs: Set<String> = []
    /// How often a comparison stopped at an already visited pair: a pair
    /// whose subtree stopped early is not known to be unchanged.
    var cutShort = 0

    /// Prepares a comparison; `moduleName` names the generated module in Swift symbols.
    public init(base: OpenAPIDocument, revision: OpenAPIDocument, moduleName: String, today: String) {
        self.base = base
        self.revision = revision
        let options = GeneratorOptions(moduleName: moduleName, specName: "")
        // Both translations at once: they share nothing, and a large spec's take a while.
        let clients = TranslatedPair()
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            clients.set(index, ClientGenerator.translate(index == 0 ? base : revision, options: options))
        }
        baseSymbols = SwiftSymbols(client: clients.get(0), module: moduleName)
        revisionSymbols = SwiftSymbols(client: clients.get(1), module: moduleName)
        self.today = today
    }

    /// The two translations, written from two threads.
    ///
    /// `@unchecked Sendable` is safe: `clients` is only touched while `lock` is held.
    private final class TranslatedPair: @unchecked Sendable {
        private let lock = NSLock()
        private var clients: [Int: ClientRepresentation] = [:]

        func set(_ index: Int, _ client: ClientRepresentation) { lock.withLock { clients[index] = client } }
        func get(_ index: Int) -> ClientRepresentation { lock.withLock { clients[index]! } }
    }

    /// Every finding, in document order of the revision (removals where the base had them).
    public func compare() -> [Finding] {
        findings = []
        visited = []
        unchangedPairs = []
        cutShort = 0
        let baseOperations = Self.operations(of: base)
        let revisionOperations = Self.operations(of: revision)
        let revisionPaths = Set(revisionOperations.map(\.normalizedPath))
        let revisionByKey = Dictionary(revisionOperations.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let baseKeys = Set(baseOperations.map(\.key))
        for old in baseOperations {
            guard let new = revisionByKey[old.key] else {
                operationRemoved(old, pathRemoved: !revisionPaths.contains(old.normalizedPath))
                continue
            }
            compareOperation(old, new)
        }
        for new in revisionOperations where !baseKeys.contains(new.key) {
            add(.endpointAdded, new.display, new.operation.location, "endpoint added",
                symbols: revisionSymbols.method(new.display).map { [$0] } ?? [])
        }
        return findings
    }

    // MARK: Operations

    /// One operation of a document, keyed by method and path with template
    /// names blanked (`/pets/{}`), so renaming a path parameter matches.
    struct OperationEntry {
        let method: HTTPMethod
        let path: String
        let operation: OpenAPIModel.Operation
        let pathItem: PathItem
        /// The path with template names blanked: `/pets/{}`.
        let normalizedPath: String

        init(method: HTTPMethod, path: String, operation: OpenAPIModel.Operation, pathItem: PathItem) {
            (self.method, self.path, self.operation, self.pathItem) = (method, path, operation, pathItem)
            var result = ""
            var inTemplate = false
            for character in path {
                if character == "{" {
                    inTemplate = true
                    result += "{}"
                } else if character == "}" {
                    inTemplate = false
                } else if !inTemplate {
                    result.append(character)
                }
            }
            normalizedPath = result
        }

        var key: String { method.wireName + " " + normalizedPath }
        var display: String { method.wireName + " " + path }
        /// The key `SwiftSymbols` uses: method and path as written.
    }

    static func operations(of document: OpenAPIDocument) -> [OperationEntry] {
        document.operations.map { OperationEntry(method: $0.method, path: $0.path, operation: $0.operation, pathItem: $0.pathItem) }
    }

    func add(_ rule: SpecDiffRule, _ operation: String?, _ location: SourceLocation?, _ message: String, symbols: [String] = [], pointer: String? = nil) {
        findings.append(Finding(
            rule: rule, operation: operation, pointer: pointer ?? location?.pointer.encoded ?? "",
            location: location, message: message, swiftSymbols: symbols))
    }

    private func operationRemoved(_ old: OperationEntry, pathRemoved: Bool) {
        let symbols = baseSymbols.method(old.display).map { [$0] } ?? []
        let what = pathRemoved ? "api path removed" : "api removed"
        if let sunset = old.operation.extensions["x-sunset"]?.stringValue, sunset > today {
            add(pathRemoved ? .apiPathRemovedBeforeSunset : .apiRemovedBeforeSunset, old.display, old.operation.location, "\(what) before the sunset date \(sunset)", symbols: symbols)
        } else if old.operation.deprecated {
            add(pathRemoved ? .apiPathRemovedWithDeprecation : .apiRemovedWithDeprecation, old.display, old.operation.location, "\(what) with deprecation", symbols: symbols)
        } else {
            add(pathRemoved ? .apiPathRemovedWithoutDeprecation : .apiRemovedWithoutDeprecation, old.display, old.operation.location, "\(what) without deprecation", symbols: symbols)
        }
    }

    private func compareOperation(_ old: OperationEntry, _ new: OperationEntry) {
        let name = new.display
        let method = baseSymbols.method(old.display).map { [$0] } ?? []
        if let oldID = old.operation.operationId, let newID = new.operation.operationId, oldID != newID {
            let renamed = revisionSymbols.method(new.display).map { " (now \($0))" } ?? ""
            add(.apiOperationIdRemoved, name, new.operation.location,
                "api operation id \(oldID) removed and replaced with \(newID): regenerating renames the method\(renamed)", symbols: method)
        }
        compareParameters(old, new)
        compareRequestBody(old, new)
        compareResponses(old, new)
        compareSecurity(old, new)
        compareSwiftResults(old, new)
    }

    /// A new status with another body changes what the generated method
    /// returns or throws: `catch let error as APIError<ErrorDetail>` still
    /// compiles but stops matching.
    private func compareSwiftResults(_ old: OperationEntry, _ new: OperationEntry) {
        guard let before = baseSymbols.resultTypes(old.display), let after = revisionSymbols.resultTypes(new.display) else { return }
        let method = baseSymbols.method(old.display).map { [$0] } ?? []
        if before.success != after.success {
            add(.swiftResultTypeChanged, new.display, new.operation.location,
                "the generated method now returns \(after.success) instead of \(before.success)", symbols: method)
        }
        if let was = before.failure, let now = after.failure, was != now {
            add(.swiftErrorTypeChanged, new.display, new.operation.location,
                "documented errors now throw APIError<\(now)> instead of APIError<\(was)>: existing catch clauses stop matching", symbols: method)
        }
    }

    // MARK: Parameters

    private func parameters(_ entry: OperationEntry, in document: OpenAPIDocument) -> [Parameter] {
        document.parameters(of: entry.operation, in: entry.pathItem)
    }

    private func compareParameters(_ old: OperationEntry, _ new: OperationEntry) {
        let name = new.display
        let oldParameters = parameters(old, in: base)
        let newParameters = parameters(new, in: revision)
        // Path parameters match by position (their names may change with the template).
        let oldTemplate = templateVariables(in: old.path)
        let newTemplate = templateVariables(in: new.path)
        func matches(_ a: Parameter, _ b: Parameter) -> Bool {
            guard a.location == b.location else { return false }
            switch a.location {
            case .path: return oldTemplate.firstIndex(of: a.name) == newTemplate.firstIndex(of: b.name)
            case .header: return a.name.lowercased() == b.name.lowercased()
            default: return a.name == b.name
            }
        }
        for parameter in newParameters where !oldParameters.contains(where: { matches($0, parameter) }) {
            let symbols = revisionSymbols.parameter(new.display, wireName: parameter.name, location: parameter.location).map { [$0] } ?? []
            if parameter.location == .path {
                add(.newRequestPathParameter, name, parameter.sourceLocation, "added the new path request parameter \(parameter.name)", symbols: symbols)
            } else if parameter.required {
                add(.newRequiredRequestParameter, name, parameter.sourceLocation,
                    "added the new required \(parameter.location.rawValue) request parameter \(parameter.name)", symbols: symbols)
            } else {
                add(.newOptionalRequestParameter, name, parameter.sourceLocation,
                    "added the new optional \(parameter.location.rawValue) request parameter \(parameter.name)", symbols: symbols)
            }
        }
        for parameter in oldParameters {
            let symbols = baseSymbols.parameter(old.display, wireName: parameter.name, location: parameter.location).map { [$0] } ?? []
            guard let counterpart = newParameters.first(where: { matches(parameter, $0) }) else {
                add(.requestParameterRemoved, name, parameter.sourceLocation,
                    "deleted the \(parameter.location.rawValue) request parameter \(parameter.name)", symbols: symbols)
                continue
            }
            let label = "\(parameter.location.rawValue) request parameter \(parameter.name)"
            if !parameter.required && counterpart.required {
                add(.requestParameterBecameRequired, name, counterpart.sourceLocation, "the \(label) became required", symbols: symbols)
            } else if parameter.required && !counterpart.required && parameter.location != .path {
                add(.requestParameterBecameOptional, name, counterpart.sourceLocation, "the \(label) became optional", symbols: symbols)
            }
            let oldSchema = parameter.schema ?? parameter.content.values.first?.schema
            let newSchema = counterpart.schema ?? counterpart.content.values.first?.schema
            if let oldSchema, let newSchema, let a = base.resolve(oldSchema), let b = revision.resolve(newSchema) {
                compareParameterSchema(a, b, label: label, operation: name, location: counterpart.sourceLocation, symbols: symbols)
                // An object parameter (a deepObject or exploded form query,
                // a 3.2 querystring): its members follow a request body's rules.
                if !a.properties.isEmpty || !b.properties.isEmpty, a.types == b.types {
                    var context = SchemaContext(operation: name, direction: .request, status: nil, path: [parameter.name], swiftType: nil, symbol: symbols.first)
                    context.fallbackLocation = counterpart.sourceLocation
                    compareSchema(oldSchema, newSchema, context)
                }
            }
        }
    }

    private func compareParameterSchema(_ a: Schema, _ b: Schema, label: String, operation: String, location: SourceLocation, symbols: [String], depth: Int = 0) {
        if compareTypes(a, b, .requestParameter, what: "the \(label)", detail: "", operation: operation, location: location, symbols: symbols) {
            return
        }
        compareEnums(a, b, .requestParameter, what: "the \(label)", operation: operation, location: location, symbols: symbols)
        compareConstraints(a, b, .requestParameter, subject: "for the \(label), the", operation: operation, location: location, symbols: symbols)
        // The elements of an array parameter follow the same rules.
        if depth < 4, let oldItems = a.items.flatMap({ base.resolve($0) }), let newItems = b.items.flatMap({ revision.resolve($0) }) {
            compareParameterSchema(oldItems, newItems, label: label + " items", operation: operation, location: location, symbols: symbols, depth: depth + 1)
        }
    }

    // MARK: Request bodies

    private func compareRequestBody(_ old: OperationEntry, _ new: OperationEntry) {
        let name = new.display
        let oldBody = old.operation.requestBody.flatMap { base.resolve($0) }
        let newBody = new.operation.requestBody.flatMap { revision.resolve($0) }
        let symbols = baseSymbols.method(old.display).map { [$0] } ?? []
        switch (oldBody, newBody) {
        case (nil, let body?):
            add(body.required ? .requestBodyAddedRequired : .requestBodyAddedOptional, name, body.location,
                body.required ? "added required request body" : "added optional request body", symbols: symbols)
        case (let oldBody?, let newBody?):
            if !oldBody.required && newBody.required {
                add(.requestBodyBecameRequired, name, newBody.location, "request body became required", symbols: symbols)
            } else if oldBody.required && !newBody.required {
                add(.requestBodyBecameOptional, name, newBody.location, "request body became optional", symbols: symbols)
            }
            for mediaType in oldBody.content.keys where newBody.content[mediaType] == nil {
                add(.requestBodyMediaTypeRemoved, name, newBody.location, "removed the media type \(mediaType) from the request body", symbols: symbols)
            }
            for mediaType in newBody.content.keys where oldBody.content[mediaType] == nil {
                add(.requestBodyMediaTypeAdded, name, newBody.location, "added the media type \(mediaType) to the request body", symbols: symbols)
            }
            for (mediaType, oldMedia) in oldBody.content {
                guard let newMedia = newBody.content[mediaType] else { continue }
                var context = SchemaContext(operation: name, direction: .request, status: nil, path: [], swiftType: baseSymbols.requestBodyType(old.display), symbol: symbols.first)
                context.fallbackLocation = newMedia.location
                if let oldSchema = oldMedia.schema, let newSchema = newMedia.schema { compareSchema(oldSchema, newSchema, context) }
                compareItemSchemas(oldMedia, newMedia, context)
            }
        case (_, nil):
            break
        }
    }

    // MARK: Responses

    private func compareResponses(_ old: OperationEntry, _ new: OperationEntry) {
        let name = new.display
        let symbols = baseSymbols.method(old.display).map { [$0] } ?? []
        for (status, oldReference) in old.operation.responses {
            guard let oldResponse = base.resolve(oldReference) else { continue }
            guard let newReference = new.operation.responses[status], let newResponse = revision.resolve(newReference) else {
                if status.hasPrefix("2") {
                    add(.responseSuccessStatusRemoved, name, oldResponse.location, "removed the success response with the status \(status)", symbols: symbols)
                } else {
                    add(.responseNonSuccessStatusRemoved, name, oldResponse.location, "removed the non-success response with the status \(status)", symbols: symbols)
                }
                continue
            }
            for mediaType in oldResponse.content.keys where newResponse.content[mediaType] == nil {
                add(.responseMediaTypeRemoved, name, newResponse.location,
                    "removed the media type \(mediaType) for the response with the status \(status)", symbols: symbols)
            }
            for (header, reference) in oldResponse.headers where newResponse.headers[header] == nil {
                let required = base.resolve(reference)?.required ?? false
                add(required ? .requiredResponseHeaderRemoved : .optionalResponseHeaderRemoved, name, newResponse.location,
                    "the \(required ? "mandatory" : "optional") response header \(header) removed for the status \(status)", symbols: symbols)
            }
            for (mediaType, oldMedia) in oldResponse.content {
                guard let newMedia = newResponse.content[mediaType] else { continue }
                var context = SchemaContext(operation: name, direction: .response, status: status, path: [],
                    swiftType: baseSymbols.responseBodyType(old.display, status: status), symbol: symbols.first)
                context.fallbackLocation = newMedia.location
                if let oldSchema = oldMedia.schema, let newSchema = newMedia.schema { compareSchema(oldSchema, newSchema, context) }
                compareItemSchemas(oldMedia, newMedia, context)
            }
        }
        for (status, reference) in new.operation.responses where old.operation.responses[status] == nil {
            let location = revision.resolve(reference)?.location
            if status.hasPrefix("2") {
                add(.responseSuccessStatusAdded, name, location, "added the success response with the status \(status)", symbols: symbols)
            } else {
                add(.responseNonSuccessStatusAdded, name, location, "added the non-success response with the status \(status)", symbols: symbols)
            }
        }
    }

    /// The schemas of one element of a sequential media type (3.2's
    /// `itemSchema`, `x-item-schema`), compared as a body's are: an events
    /// method's element type follows them. An item schema added where the
    /// element had none (or removed) is compared against the media type's
    /// `schema`, which described the element until then.
    private func compareItemSchemas(_ oldMedia: MediaType, _ newMedia: MediaType, _ context: SchemaContext) {
        var context = context
        context.path = ["[item]"]
        context.swiftType = nil
        switch (oldMedia.itemSchema, newMedia.itemSchema) {
        case (let oldItem?, let newItem?): compareSchema(oldItem, newItem, context)
        case (let oldItem?, nil): if let newSchema = newMedia.schema { compareSchema(oldItem, newSchema, context) }
        case (nil, let newItem?): if let oldSchema = oldMedia.schema { compareSchema(oldSchema, newItem, context) }
        case (nil, nil): break
        }
    }

    // MARK: Security

    private func compareSecurity(_ old: OperationEntry, _ new: OperationEntry) {
        let oldSchemes = Set((old.operation.security ?? base.security ?? []).map { $0.schemes.keys.sorted().joined(separator: " + ") })
        let newSchemes = Set((new.operation.security ?? revision.security ?? []).map { $0.schemes.keys.sorted().joined(separator: " + ") })
        let symbols = baseSymbols.method(old.display).map { [$0] } ?? []
        for scheme in newSchemes.subtracting(oldSchemes).sorted() {
            add(.apiSecurityAdded, new.display, new.operation.location,
                "the endpoint scheme security \(scheme.isEmpty ? "{} (none)" : scheme) was added to the API", symbols: symbols)
        }
        for scheme in oldSchemes.subtracting(newSchemes).sorted() {
            add(.apiSecurityRemoved, new.display, new.operation.location,
                "the endpoint scheme security \(scheme.isEmpty ? "{} (none)" : scheme) was removed from the API", symbols: symbols)
        }
    }
}

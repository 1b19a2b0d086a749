import OpenAPIModel

/// A file the generator writes.
public struct GeneratedFile: Sendable, Hashable {
    /// The file name (`Client.swift`, `Models01.swift`).
    public var name: String
    /// The contents.
    public var contents: String
}

/// Options of one generation run.
public struct GeneratorOptions: Sendable, Hashable {
    /// The Swift module the files belong to.
    public var moduleName: String
    /// The access level of the generated declarations.
    public var accessLevel: AccessLevel
    /// The spec's file name, named in each file's header.
    public var specName: String
    /// The command that regenerates the files, run in their folder
    /// (`clientgen generate ../../specs/museum.yaml --output . --module MuseumAPI`),
    /// named in each file's header; nil leaves it out.
    public var regenerateCommand: String?
    /// Roughly how many lines one file may hold before the next one starts,
    /// so that no file dominates compile time.
    public var linesPerFile: Int
    /// Always exactly `Client.swift`, `Models.swift` and `Operations.swift`,
    /// however large the spec (a file with nothing to hold has the header
    /// only): what a build plugin needs, since it names its outputs before
    /// the generator runs.
    public var fixedFileNames = false
    /// The most Swift the spec may make the generator write
    /// (``OutputLimit``); nil: no limit.
    public var outputLimit: OutputLimit?
    /// The operations to generate, and with them only the types they reach
    /// (``OperationFilter``); empty: all of them, and every component schema.
    public var filter = OperationFilter()
    /// The app's types in place of the spec's (``TypeOverrides``).
    public var typeOverrides = TypeOverrides()
    /// Swift names a team chose for schemas and operations (``NameOverrides``).
    public var nameOverrides = NameOverrides()

    /// Creates options.
    public init(
        moduleName: String, accessLevel: AccessLevel = .public, specName: String, regenerateCommand: String? = nil, linesPerFile: Int = 4000
    ) {
        self.moduleName = moduleName
        self.accessLevel = accessLevel
        self.specName = specName
        self.regenerateCommand = regenerateCommand
        self.linesPerFile = linesPerFile
    }

    /// The module name made from a spec title: `SOUL API` -> `SoulAPI`.
    public static func moduleName(fromTitle title: String) -> String {
        let name = SwiftName.unescaped(SwiftName.typeName(title))
        return name.first?.isLetter == true ? name : "API" + name.filter { $0 != "_" }
    }
}

/// The generator pipeline after loading: translate the document into a
/// ``ClientRepresentation``, then render it into files.
///
/// Output is a pure function of the document and options: names, order and
/// file boundaries follow document order only, so two runs give the same bytes.
public enum ClientGenerator {
    /// Translates a document.
    public static func translate(_ document: OpenAPIDocument, options: GeneratorOptions) -> ClientRepresentation {
        let document = options.filter.apply(to: document)
        let overrides = options.typeOverrides.valid
        let models = ModelTranslator(document: document, moduleName: options.moduleName, overrides: overrides, names: options.nameOverrides)
        if let limit = options.outputLimit { models.membersLeft = limit.members }
        models.translateComponents()
        let operationTranslator = OperationTranslator(document: document, models: models, methodNames: options.nameOverrides.operations)
        let operations = operationTranslator.translateAll()
        models.fillDiscriminatorDefaults()
        let info = document.info
        let heading = [info.title, info.version.isEmpty ? nil : "(\(info.version))"].compactMap { $0 }.joined(separator: " ")
        var client = ClientRepresentation(
            moduleName: options.moduleName, accessLevel: options.accessLevel,
            documentation: Documentation.text(heading.isEmpty ? nil : "A client of \(heading).", info.summary, info.description),
            servers: ServerTranslator.servers(of: document),
            operations: MultipartAnalysis.describeParts(operations, types: models.declarations),
            types: ValidationAnalysis.markValidatable(AssumptionAnalysis.markLenient(MutabilityAnalysis.markResponseOnly(
                RecursionAnalysis.markRecursive(UnionKeysAnalysis.fillKeys(models.declarations)),
                requestRoots: operations.flatMap { operation in operation.parameters.map(\.type) + (operation.body.map { [$0.type] } ?? []) },
                responseRoots: operations.flatMap(AssumptionAnalysis.responseTypes)))))
        client.componentTypeNames = models.componentTypeNames
        (client.operations, client.paginationFindings) = PaginationAnalysis.mark(client.operations, types: client.types, document: document)
        client.overrideTypeNames = overrides.typeNames
        if !options.filter.isEmpty {
            client.types = ReachabilityAnalysis.reachable(client.types, from: client.operations)
            let kept = Set(client.types.map(\.name))
            client.componentTypeNames = client.componentTypeNames.filter { kept.contains($0.value) }
        }
        client.patterns = models.constraints.patterns
        client.securitySchemes = SecuritySchemeNaming.names(of: client.operations, in: document)
        client.memberNames = operationTranslator.logMarks.memberNames.sorted()
        client.outputLimit = options.outputLimit
        if let limit = options.outputLimit, let passed = models.limitPassedAt {
            client.outputLimitExceeded = OutputLimitExceeded(limit: limit.members, written: nil, construct: passed.construct, location: passed.location)
        }
        for (component, typeName) in client.componentTypeNames {
            switch document.components.schemas[component] {
            case .value(let schema)?: client.typeLocations[typeName] = schema.location
            case .reference(let reference)?: client.typeLocations[typeName] = reference.location
            case nil: break
            }
        }
        for (_, _, operation, _) in document.operations {
            if let id = operation.operationId { client.operationLocations[id] = operation.location }
        }
        for (path, method, operation, _) in document.operations where operation.operationId == nil {
            client.operationLocations[OperationTranslator.derivedID(method: method, path: path)] = operation.location
        }
        return client
    }

    /// Renders a translated client into files.
    ///
    /// Every piece is rendered once, on every core: `Client.swift` first (the
    /// largest single piece), each operation, each top-level type; then the
    /// pieces are cut into files and each file is joined, again on every
    /// core. Results keep their order, so the output does not depend on the
    /// schedule.
    ///
    /// Throws ``OutputLimitExceeded`` when the client would hold more Swift
    /// than its ``ClientRepresentation/outputLimit``, naming the largest piece.
    public static func render(_ client: ClientRepresentation, options: GeneratorOptions) throws(OutputLimitExceeded) -> [GeneratedFile] {
        if let exceeded = client.outputLimitExceeded { throw exceeded }
        let access = options.accessLevel
        let header = GeneratedFileHeader.lines(specName: options.specName, regenerateCommand: options.regenerateCommand)
        let imports = ["import ClientRuntime", "import Foundation", "import HTTPTypes", "import OpenAPIRuntime", ""]
        // Validatable names are read before repeated shapes become aliases:
        // `A.Nested` of an alias `A` still names a validatable type.
        let validation = ValidationRenderer(validatable: ValidationAnalysis.validatableNames(client.types))
        let declarations = SharedShapeAnalysis.aliasingRepeatedShapes(client.types)
        let repeatedResults = SharedResultAnalysis.repeatedResults(
            client.operations, typeAliases: SharedResultAnalysis.typeAliases(in: declarations))
        let clientRenderer = ClientRenderer(access: access, validation: validation, repeatedResults: repeatedResults)
        let modelRenderer = ModelRenderer(access: access, validation: validation)

        let pieces = [Piece.client] + client.operations.map(Piece.operation) + declarations.map(Piece.type)
        let rendered = concurrentMap(pieces) { piece -> RenderedPiece in
            switch piece {
            case .client:
                var writer = SwiftWriter()
                (header + ["@_exported import ClientRuntime", "import Foundation", "import HTTPTypes", "@_exported import OpenAPIRuntime", ""]).forEach {
                    writer.line($0)
                }
                clientRenderer.renderClient(client, into: &writer)
                return .client(writer.text)
            case .operation(let operation):
                return .operation(clientRenderer.render(operation))
            case .type(let declaration):
                var writer = SwiftWriter()
                modelRenderer.render(declaration, into: &writer)
                return .type(writer.lines)
            }
        }
        var clientText = ""
        var operations: [RenderedOperation] = []
        var types: [[String]] = []
        for piece in rendered {
            switch piece {
            case .client(let text): clientText = text
            case .operation(let operation): operations.append(operation)
            case .type(let lines): types.append(lines)
            }
        }
        if let limit = client.outputLimit {
            try checkSize(client: client, pieces: zip(pieces, rendered).map { ($0, $1) }, limit: limit)
        }

        // Operations in chunks of whole operations (each chunk one `extension
        // Client` plus the result enums of its operations); models in chunks
        // of whole top-level types.
        let budget = options.fixedFileNames ? Int.max : options.linesPerFile
        let operationChunks = chunk(operations, budget: budget) { $0.lineCount }
        let modelChunks = chunk(types, budget: budget) { $0.count }
        let chunks = operationChunks.map(FileChunk.operations) + modelChunks.map(FileChunk.models)
        let texts = concurrentMap(chunks) { chunk -> String in
            switch chunk {
            case .operations(let operations):
                var writer = SwiftWriter()
                (header + imports).forEach { writer.line($0) }
                clientRenderer.renderOperations(operations, into: &writer)
                return writer.text
            case .models(let types):
                return (header + imports).joined(separator: "\n") + "\n" + types.map { $0.joined(separator: "\n") }.joined(separator: "\n\n") + "\n"
            }
        }
        let operationFiles = Array(texts.prefix(operationChunks.count))
        let modelFiles = Array(texts.dropFirst(operationChunks.count))
        let files = [GeneratedFile(name: "Client.swift", contents: clientText)]
        if options.fixedFileNames {
            let empty = (header + imports).joined(separator: "\n") + "\n"
            return files + [
                GeneratedFile(name: "Models.swift", contents: modelFiles.first ?? empty),
                GeneratedFile(name: "Operations.swift", contents: operationFiles.first ?? empty),
            ]
        }
        return files + arrange(models: modelFiles, operations: operationFiles)
    }

    /// Throws when the rendered pieces hold more than `limit`, naming the largest.
    private static func checkSize(client: ClientRepresentation, pieces: [(Piece, RenderedPiece)], limit: OutputLimit) throws(OutputLimitExceeded) {
        var total = 0
        var largest: (piece: Piece, bytes: Int)?
        for (piece, rendered) in pieces {
            let bytes: Int
            switch rendered {
            case .client(let text): bytes = text.utf8.count
            case .operation(let operation): bytes = operation.byteCount
            case .type(let lines): bytes = lines.reduce(0) { $0 + $1.utf8.count + 1 }
            }
            total += bytes
            if bytes > largest?.bytes ?? -1 { largest = (piece, bytes) }
        }
        guard total > limit.bytes, let largest else { return }
        let construct: String
        let location: SourceLocation?
        switch largest.piece {
        case .client:
            construct = "the client type (\(largest.bytes) bytes)"
            location = nil
        case .operation(let operation):
            construct = "the operation '\(operation.id)' (\(operation.method.rawValue.uppercased()) \(operation.path), \(largest.bytes) bytes)"
            location = client.operationLocations[operation.id]
        case .type(let declaration):
            construct = "the schema of '\(declaration.name)' (\(largest.bytes) bytes)"
            location = client.typeLocations[declaration.name]
        }
        throw OutputLimitExceeded(limit: limit.bytes, written: total, construct: construct, location: location)
    }

    /// A piece of the client that renders on its own.
    private enum Piece: Sendable {
        case client
        case operation(OperationDeclaration)
        case type(TypeDeclaration)
    }

    /// A piece, rendered.
    private enum RenderedPiece: Sendable {
        case client(String)
        case operation(RenderedOperation)
        case type([String])
    }

    /// The pieces of one file.
    private enum FileChunk: Sendable {
        case operations([RenderedOperation])
        case models([[String]])
    }

    /// Translates and renders.
    public static func generate(_ document: OpenAPIDocument, options: GeneratorOptions) throws(OutputLimitExceeded) -> [GeneratedFile] {
        try render(translate(document, options: options), options: options)
    }

    /// The conformance driver of a translated client: a `main.swift` for an
    /// executable that links the client's module (``ConformanceDriverRenderer``).
    package static func conformanceDriver(_ client: ClientRepresentation, options: GeneratorOptions) -> GeneratedFile {
        let header = GeneratedFileHeader.lines(specName: options.specName, regenerateCommand: options.regenerateCommand)
        return GeneratedFile(name: "main.swift", contents: ConformanceDriverRenderer(clientModule: options.moduleName).render(client, header: header))
    }

    /// Names the model and operation files. One of each: `Models.swift` and
    /// `Operations.swift`. More: `01-Models.swift`, `02-Operations.swift`,
    /// ... with the two kinds spread evenly through the name order. The Swift
    /// driver compiles a module's files in batches of consecutive names (one
    /// batch per core); models cost far more to compile than operations, so
    /// models-then-operations would leave one core with most of the work.
    private static func arrange(models: [String], operations: [String]) -> [GeneratedFile] {
        if models.count <= 1 && operations.count <= 1 {
            return models.map { GeneratedFile(name: "Models.swift", contents: $0) }
                + operations.map { GeneratedFile(name: "Operations.swift", contents: $0) }
        }
        // Each file sits at the middle of its share of the sequence: model i
        // of m at (2i + 1) / 2m, operation j of o at (2j + 1) / 2o.
        let keyed = models.enumerated().map { (index, contents) in (position: Double(2 * index + 1) / Double(2 * models.count), kind: "Models", contents: contents) }
            + operations.enumerated().map { (index, contents) in (position: Double(2 * index + 1) / Double(2 * operations.count), kind: "Operations", contents: contents) }
        let ordered = keyed.enumerated().sorted { lhs, rhs in
            (lhs.element.position, lhs.offset) < (rhs.element.position, rhs.offset)
        }.map(\.element)
        let digits = max(2, String(ordered.count).count)
        return ordered.enumerated().map { index, file in
            let number = String(index + 1)
            return GeneratedFile(name: String(repeating: "0", count: digits - number.count) + number + "-\(file.kind).swift", contents: file.contents)
        }
    }

    /// Splits items into groups whose rendered lines stay near `budget`.
    private static func chunk<Item>(_ items: [Item], budget: Int, lines: (Item) -> Int) -> [[Item]] {
        var chunks: [[Item]] = []
        var current: [Item] = []
        var count = 0
        for item in items {
            let size = lines(item)
            if !current.isEmpty, count + size > budget {
                chunks.append(current)
                current = []
                count = 0
            }
            current.append(item)
            count += size
        }
        if !current.isEmpty { chunks.append(current) }
        return chunks
    }
}

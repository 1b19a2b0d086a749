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
        let models = ModelTranslator(document: document, moduleName: options.moduleName)
        models.translateComponents()
        let operations = OperationTranslator(document: document, models: models).translateAll()
        models.fillDiscriminatorDefaults()
        let info = document.info
        let heading = [info.title, info.version.isEmpty ? nil : "(\(info.version))"].compactMap { $0 }.joined(separator: " ")
        var client = ClientRepresentation(
            moduleName: options.moduleName, accessLevel: options.accessLevel,
            documentation: Documentation.text(heading.isEmpty ? nil : "A client of \(heading).", info.summary, info.description),
            servers: ServerTranslator.servers(of: document),
            operations: MultipartAnalysis.describeParts(operations, types: models.declarations),
            types: ValidationAnalysis.markValidatable(MutabilityAnalysis.markResponseOnly(
                RecursionAnalysis.markRecursive(models.declarations),
                requestRoots: operations.flatMap { operation in operation.parameters.map(\.type) + (operation.body.map { [$0.type] } ?? []) })))
        client.componentTypeNames = models.componentTypeNames
        client.patterns = models.constraints.patterns
        return client
    }

    /// Renders a translated client into files.
    public static func render(_ client: ClientRepresentation, options: GeneratorOptions) -> [GeneratedFile] {
        let access = options.accessLevel
        let header = GeneratedFileHeader.lines(specName: options.specName, regenerateCommand: options.regenerateCommand)
        let imports = ["import ClientRuntime", "import Foundation", "import HTTPTypes", "import OpenAPIRuntime", ""]
        var files: [GeneratedFile] = []

        var clientWriter = SwiftWriter()
        (header + ["@_exported import ClientRuntime", "import Foundation", "import HTTPTypes", "@_exported import OpenAPIRuntime", ""]).forEach { clientWriter.line($0) }
        let validation = ValidationRenderer(validatable: ValidationAnalysis.validatableNames(client.types))
        let clientRenderer = ClientRenderer(access: access, validation: validation)
        clientRenderer.renderClient(client, into: &clientWriter)
        files.append(GeneratedFile(name: "Client.swift", contents: clientWriter.text))

        // Operations, in chunks of whole operations (each chunk one `extension
        // Client` plus the result enums of its operations).
        let budget = options.fixedFileNames ? Int.max : options.linesPerFile
        let operationChunks = chunk(concurrentMap(client.operations, clientRenderer.render), budget: budget) { $0.lineCount }
        var operationFiles: [String] = []
        for chunk in operationChunks {
            var writer = SwiftWriter()
            (header + imports).forEach { writer.line($0) }
            clientRenderer.renderOperations(chunk, into: &writer)
            operationFiles.append(writer.text)
        }

        // Models, each top-level type rendered once, then cut into files.
        let modelRenderer = ModelRenderer(access: access, validation: validation)
        let renderedTypes = concurrentMap(client.types) { declaration -> [String] in
            var writer = SwiftWriter()
            modelRenderer.render(declaration, into: &writer)
            return writer.lines
        }
        let modelFiles = chunk(renderedTypes, budget: budget) { $0.count }.map { chunk in
            (header + imports).joined(separator: "\n") + "\n" + chunk.map { $0.joined(separator: "\n") }.joined(separator: "\n\n") + "\n"
        }
        if options.fixedFileNames {
            let empty = (header + imports).joined(separator: "\n") + "\n"
            return files + [
                GeneratedFile(name: "Models.swift", contents: modelFiles.first ?? empty),
                GeneratedFile(name: "Operations.swift", contents: operationFiles.first ?? empty),
            ]
        }
        return files + arrange(models: modelFiles, operations: operationFiles)
    }

    /// Translates and renders.
    public static func generate(_ document: OpenAPIDocument, options: GeneratorOptions) -> [GeneratedFile] {
        render(translate(document, options: options), options: options)
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

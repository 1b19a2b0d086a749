import ArgumentParser
import Codegen

/// The options that shape one spec's client, shared by `generate` and
/// `conformance-driver` (whose program must see the same types): which
/// operations (``OperationFilter``) and which of the app's types stand for
/// the spec's (``TypeOverrides``).
struct ClientShapeOptions: ParsableArguments {
    @Option(name: .customLong("operation"), help: ArgumentHelp(
        "Generate only this operation (its operationId); repeatable. With --tag and --path, an operation any of them names is kept, with the types it reaches.",
        valueName: "id"))
    var operations: [String] = []

    @Option(name: .customLong("tag"), help: ArgumentHelp("Generate only the operations of this tag; repeatable.", valueName: "tag"))
    var tags: [String] = []

    @Option(name: .customLong("path"), help: ArgumentHelp("Generate only the operations of this path, as the spec spells it (/pets/{petId}); repeatable.", valueName: "path"))
    var paths: [String] = []

    @Option(name: .customLong("type-override"), help: ArgumentHelp(
        "Use an app's type for a component schema: SCHEMA=TYPE (Price=Decimal); repeatable. The type must be Codable, Hashable and Sendable.",
        valueName: "schema=type"))
    var schemaOverrides: [String] = []

    @Option(name: .customLong("format-override"), help: ArgumentHelp(
        "Use an app's type for every scalar of a format: FORMAT=TYPE (uuid=Foundation.UUID); repeatable.", valueName: "format=type"))
    var formatOverrides: [String] = []

    @Option(name: .customLong("schema-name"), help: ArgumentHelp(
        "Name a component schema's Swift type: SCHEMA=NAME (Error=ServerError); repeatable.", valueName: "schema=name"))
    var schemaNames: [String] = []

    @Option(name: .customLong("operation-name"), help: ArgumentHelp(
        "Name an operation's Swift method: ID=NAME (repos/list-for-user=userRepositories); repeatable.", valueName: "id=name"))
    var operationNames: [String] = []

    func validate() throws {
        for pair in schemaOverrides + formatOverrides + schemaNames + operationNames where Self.split(pair) == nil {
            throw ValidationError("'\(pair)' is not NAME=TYPE (Price=Decimal, uuid=Foundation.UUID)")
        }
    }

    /// Whether no option is given.
    var isEmpty: Bool { filter.isEmpty && typeOverrides.isEmpty && nameOverrides.isEmpty }

    /// The operations to keep.
    var filter: OperationFilter { OperationFilter(operations: operations, tags: tags, paths: paths) }

    /// The app's types.
    var typeOverrides: TypeOverrides {
        TypeOverrides(
            schemas: Dictionary(schemaOverrides.compactMap(Self.split), uniquingKeysWith: { $1 }),
            formats: Dictionary(formatOverrides.compactMap(Self.split), uniquingKeysWith: { $1 }))
    }

    /// The team's names.
    var nameOverrides: NameOverrides {
        NameOverrides(
            schemas: Dictionary(schemaNames.compactMap(Self.split), uniquingKeysWith: { $1 }),
            operations: Dictionary(operationNames.compactMap(Self.split), uniquingKeysWith: { $1 }))
    }

    /// The options as they were given, for a command line that repeats them.
    var arguments: [String] {
        let pairs: [(String, [String])] = [
            ("--operation", operations), ("--tag", tags), ("--path", paths), ("--type-override", schemaOverrides),
            ("--format-override", formatOverrides), ("--schema-name", schemaNames), ("--operation-name", operationNames),
        ]
        return pairs.flatMap { flag, values in values.flatMap { [flag, $0] } }
    }

    /// `NAME=TYPE` split at its first `=`; nil when either side is empty.
    static func split(_ pair: String) -> (String, String)? {
        guard let equals = pair.firstIndex(of: "=") else { return nil }
        let (name, type) = (String(pair[..<equals]), String(pair[pair.index(after: equals)...]))
        return name.isEmpty || type.isEmpty ? nil : (name, type)
    }
}

/// Decides how each multipart body is sent, once every type is declared:
/// a body whose type is a structure goes part by part (files as file parts,
/// through aliases of `Data`); any other body sends each member of its JSON
/// as a part (``BodyDeclaration/multipartParts`` stays nil).
enum MultipartAnalysis {
    /// The operations with the parts of their multipart bodies filled in.
    static func describeParts(_ operations: [OperationDeclaration], types: [TypeDeclaration]) -> [OperationDeclaration] {
        let byName = Dictionary(types.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        return operations.map { operation in
            guard var body = operation.body, body.encoding == .multipart, let shape = structure(of: body.type, in: byName) else { return operation }
            body.multipartParts = shape.properties.map { property in
                MultipartPart(
                    name: property.wireName, member: property.storageName, kind: kind(of: property.type, in: byName),
                    contentType: body.fieldEncodings.first { $0.name == property.wireName }?.contentType)
            }
            var operation = operation
            operation.body = body
            return operation
        }
    }

    private static func kind(of type: SwiftType, in types: [String: TypeDeclaration]) -> MultipartPart.Kind {
        switch type {
        case .named(let name) where isData(name, in: types): return .file
        case .optional(.named(let name)) where isData(name, in: types): return .file
        case .optional(.nullable(.named(let name))) where isData(name, in: types): return .nullableFile
        case .array(.named(let name)) where isData(name, in: types): return .files
        case .optional(.array(.named(let name))) where isData(name, in: types): return .optionalFiles
        default: return .value
        }
    }

    /// `Data`, or an alias that ends in it.
    private static func isData(_ name: String, in types: [String: TypeDeclaration]) -> Bool {
        var current = name
        for _ in 0..<8 {
            if current == "Data" { return true }
            guard let declaration = types[current], case .alias(.named(let target)) = declaration.kind else { return false }
            current = target
        }
        return false
    }

    /// The struct a body type names, through aliases.
    private static func structure(of type: SwiftType, in types: [String: TypeDeclaration]) -> StructureShape? {
        var current: SwiftType = type
        for _ in 0..<8 {
            switch current {
            case .optional(let wrapped):
                current = wrapped
            case .named(let name):
                guard let declaration = types[name] else { return nil }
                switch declaration.kind {
                case .structure(let shape): return shape
                case .alias(let target): current = target
                default: return nil
                }
            default:
                return nil
            }
        }
        return nil
    }
}

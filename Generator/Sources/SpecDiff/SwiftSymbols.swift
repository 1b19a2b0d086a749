import Codegen
import OpenAPIModel

/// Names the generated Swift symbols a change touches, from the same
/// translation `clientgen generate` renders, so a finding says
/// `SecureNodeAPI.BrandingRecord.logoURL`, not only a JSON pointer.
struct SwiftSymbols {
    let module: String
    private let operations: [String: OperationDeclaration]
    private let types: [String: TypeDeclaration]
    let componentTypeNames: [String: String]

    /// Symbols of `client`, whose module is `module`.
    init(client: ClientRepresentation, module: String) {
        self.module = module
        var operations: [String: OperationDeclaration] = [:]
        for operation in client.operations { operations["\(operation.method.wireName) \(operation.path)"] = operation }
        self.operations = operations
        var types: [String: TypeDeclaration] = [:]
        func index(_ declaration: TypeDeclaration, prefix: String?) {
            let qualified = prefix.map { "\($0).\(declaration.name)" } ?? declaration.name
            types[qualified] = declaration
            for nested in declaration.nested { index(nested, prefix: qualified) }
        }
        for declaration in client.types { index(declaration, prefix: nil) }
        self.types = types
        componentTypeNames = client.componentTypeNames
    }

    /// `Module.Client.method(label:label:)` for `METHOD /path`.
    func method(_ operation: String) -> String? {
        guard let declaration = operations[operation] else { return nil }
        let labels = declaration.arguments.map { argument in
            switch argument {
            case .parameter(let parameter): return SwiftName.unescaped(parameter.label)
            case .body: return "body"
            }
        }
        return "\(module).Client.\(SwiftName.unescaped(declaration.methodName))(\(labels.map { $0 + ":" }.joined()))"
    }

    /// The argument of a parameter: `Module.Client.method(label:)` plus the label.
    func parameter(_ operation: String, wireName: String, location: ParameterLocation) -> String? {
        let signature = method(operation)
        guard let signature, let declaration = operations[operation],
            let parameter = declaration.parameters.first(where: { $0.wireName == wireName && $0.location == location })
        else { return signature }
        return "\(signature) argument \(SwiftName.unescaped(parameter.label))"
    }

    /// What the method returns and what it throws (`APIError<...>`'s body type).
    func resultTypes(_ operation: String) -> (success: String, failure: String?)? {
        guard let declaration = operations[operation] else { return nil }
        return (declaration.success.bodyType, declaration.failure?.bodyType)
    }

    /// The Swift type that holds an operation's request body.
    func requestBodyType(_ operation: String) -> String? {
        operations[operation]?.body.flatMap { Self.namedType($0.type) }
    }

    /// The Swift type that holds an operation's response body for a status.
    func responseBodyType(_ operation: String, status: String) -> String? {
        guard let declaration = operations[operation] else { return nil }
        for response in declaration.responses where response.status == status {
            if case .json(let type) = response.decoding { return Self.namedType(type) }
        }
        return nil
    }

    /// The type a component schema becomes.
    func componentType(_ name: String) -> String? { componentTypeNames[name] }

    /// `Module.Type.property` for a JSON property of a declared type, and the
    /// type the property holds (to descend into).
    func property(_ wireName: String, of typeName: String?) -> (symbol: String, type: String?)? {
        guard let typeName, let declaration = types[typeName], case .structure(let shape) = declaration.kind,
            let property = shape.properties.first(where: { $0.wireName == wireName })
        else { return nil }
        return ("\(module).\(typeName).\(SwiftName.unescaped(property.name))", Self.namedType(property.type))
    }

    /// The element type of an array-typed alias or of a property's array type.
    func element(of typeName: String?) -> String? {
        guard let typeName, let declaration = types[typeName], case .alias(let type) = declaration.kind else { return typeName }
        return Self.namedType(type)
    }

    /// `Module.Type` for a declared type.
    func type(_ typeName: String?) -> String? {
        guard let typeName, types[typeName] != nil else { return nil }
        return "\(module).\(typeName)"
    }

    /// The named type inside optionals, arrays and maps.
    static func namedType(_ type: SwiftType) -> String? {
        switch type {
        case .named(let name): return name
        case .optional(let wrapped), .nullable(let wrapped), .array(let wrapped), .dictionary(let wrapped): return namedType(wrapped)
        }
    }
}

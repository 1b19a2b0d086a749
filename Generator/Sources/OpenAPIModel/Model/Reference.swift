/// A `$ref`, as written and as resolved.
public struct Reference: Sendable, Hashable {
    /// The `$ref` text as written (`#/components/schemas/Pet`, `common.yaml#/Error`).
    public let ref: String
    /// The node the reference finally points at (chains of `$ref`s followed),
    /// or `nil` when it could not be resolved (an error diagnostic says why).
    public let target: ReferenceTarget?
    /// Where the `$ref` is written.
    public let location: SourceLocation
    /// A `summary` next to the `$ref` (OpenAPI 3.1), overriding the target's.
    public let summary: String?
    /// A `description` next to the `$ref`, overriding the target's.
    public let description: String?

    /// Creates a reference.
    public init(ref: String, target: ReferenceTarget?, location: SourceLocation, summary: String? = nil, description: String? = nil) {
        self.ref = ref
        self.target = target
        self.location = location
        self.summary = summary
        self.description = description
    }

    /// The component name when the target is `…/components/<kind>/<name>`
    /// (such as `Pet`), else `nil`.
    public var componentName: String? { target?.componentName }
}

/// The resolved address of a `$ref` target: a file and a JSON pointer in it.
public struct ReferenceTarget: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file, as the loader names it (the root file's display name, or a
    /// path relative to it for other files).
    public let file: String
    /// The pointer inside that file.
    public let pointer: JSONPointer

    /// Creates a target.
    public init(file: String, pointer: JSONPointer) {
        self.file = file
        self.pointer = pointer
    }

    /// The component name when the pointer is `/components/<kind>/<name>`.
    public var componentName: String? {
        let tokens = pointer.tokens
        guard tokens.count == 3, tokens[0] == "components" else { return nil }
        return tokens[2]
    }

    /// The component kind (`schemas`, `parameters`, ...) when the pointer is
    /// `/components/<kind>/<name>`.
    public var componentKind: String? {
        let tokens = pointer.tokens
        guard tokens.count == 3, tokens[0] == "components" else { return nil }
        return tokens[1]
    }

    /// `file#pointer`.
    public var description: String { file + pointer.fragment }

    /// Orders targets by file, then pointer.
    public static func < (lhs: ReferenceTarget, rhs: ReferenceTarget) -> Bool {
        (lhs.file, lhs.pointer.encoded) < (rhs.file, rhs.pointer.encoded)
    }
}

/// Either a `$ref` or an inline value, for every place OpenAPI allows a
/// Reference Object.
public indirect enum RefOr<Value: Sendable>: Sendable {
    /// A `$ref` to a value elsewhere; resolve it with ``OpenAPIDocument/resolve(_:)``.
    case reference(Reference)
    /// The value written in place.
    case value(Value)

    /// The reference, if this is one.
    public var reference: Reference? {
        if case .reference(let reference) = self { return reference }
        return nil
    }

    /// The inline value, if this is one.
    public var value: Value? {
        if case .value(let value) = self { return value }
        return nil
    }
}

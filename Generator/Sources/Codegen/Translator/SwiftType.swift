/// A Swift type as generated code spells it.
public indirect enum SwiftType: Hashable, Sendable, CustomStringConvertible {
    /// A named type: `String`, `Int64`, `Date`, `BrandingRecord`.
    case named(String)
    /// `[Element]`.
    case array(SwiftType)
    /// `[String: Value]`.
    case dictionary(SwiftType)
    /// `Wrapped?`: the value may be absent.
    case optional(SwiftType)
    /// `Nullable<Wrapped>`: the value may be an explicit `null`.
    case nullable(SwiftType)

    /// The type as written in Swift.
    public var description: String {
        switch self {
        case .named(let name): return name
        case .array(let element): return "[\(element)]"
        case .dictionary(let value): return "[String: \(value)]"
        case .optional(let wrapped): return "\(wrapped)?"
        case .nullable(let wrapped): return "Nullable<\(wrapped)>"
        }
    }

    /// Whether the type is `Wrapped?`.
    public var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    /// The named types it mentions, through arrays, maps, optionals and
    /// `Nullable` (`[Pet]?` -> `["Pet"]`).
    public var referencedNames: [String] {
        switch self {
        case .named(let name): return [name]
        case .array(let element), .dictionary(let element), .optional(let element), .nullable(let element): return element.referencedNames
        }
    }

    /// The type with every named type passed through `rename`.
    func renamingReferences(_ rename: (String) -> String) -> SwiftType {
        switch self {
        case .named(let name): return .named(rename(name))
        case .array(let element): return .array(element.renamingReferences(rename))
        case .dictionary(let value): return .dictionary(value.renamingReferences(rename))
        case .optional(let wrapped): return .optional(wrapped.renamingReferences(rename))
        case .nullable(let wrapped): return .nullable(wrapped.renamingReferences(rename))
        }
    }

    /// Free-form JSON.
    public static let json = SwiftType.named("JSONValue")
}

extension SwiftType {
    /// The type without its `?`: `Int?` -> `Int` (a `Nullable` stays).
    var withoutOptional: SwiftType {
        if case .optional(let wrapped) = self { return wrapped.withoutOptional }
        return self
    }
}

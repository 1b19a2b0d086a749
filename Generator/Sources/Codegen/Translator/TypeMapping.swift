import Foundation
import OpenAPIModel

/// Maps schemas to the Swift types generated code uses for them.
///
/// | schema | Swift |
/// | --- | --- |
/// | `string` | `String`; `date-time` `Date`, `date` `CalendarDate`, `uuid` `LowercaseUUID` (a `UUID` written in lower case), `uri`/`url` `URL`, `byte` and `binary` `Data` |
/// | `integer` | `Int`; `int32` `Int32`, `int64` `Int64` |
/// | `number` | `Double`; `float` `Float`, `decimal` `Decimal` |
/// | `boolean` | `Bool` |
/// | `array` | `[Element]` |
/// | `object` with only `additionalProperties` | `[String: Value]` (`JSONValue` when free-form) |
/// | no type, several types | `JSONValue` |
/// | `$ref` to a component | the component's type name |
///
/// Objects with properties, enums and compositions are named types that the
/// translator declares; `named` supplies their names.
public struct TypeMapping {
    /// The document whose references are resolved.
    public let document: OpenAPIDocument
    /// `format` -> the app's type that replaces the mapped one
    /// (``TypeOverrides/formats``).
    public let formatOverrides: [String: String]

    /// Creates a mapping for `document`.
    public init(document: OpenAPIDocument, formatOverrides: [String: String] = [:]) {
        self.document = document
        self.formatOverrides = formatOverrides
    }

    /// The Swift type for a schema or reference. `named` names a schema that
    /// needs its own declaration (an object with properties, an enum, a
    /// composition) and is not a component reference.
    public func swiftType(for schema: RefOr<Schema>, named: (Schema) -> String) -> SwiftType {
        switch schema {
        case .reference(let reference):
            guard let name = reference.componentName else {
                return document.resolve(reference, as: Schema.self).map { swiftType(for: .value($0), named: named) } ?? .json
            }
            return .named(SwiftName.typeName(name))
        case .value(let schema):
            return swiftType(for: schema, named: named)
        }
    }

    /// The Swift type for an inline schema; `named` as for a `RefOr<Schema>`.
    public func swiftType(for schema: Schema, named: (Schema) -> String) -> SwiftType {
        if schema.alwaysValid != nil { return .json }
        if needsDeclaration(schema) { return .named(named(schema)) }
        if !schema.allOf.isEmpty, schema.allOf.count == 1, let only = schema.allOf.first, schema.properties.isEmpty {
            return swiftType(for: only, named: named)
        }
        if let format = schema.format, let type = formatOverrides[format],
            [.string, .integer, .number, .boolean].contains(schema.singleType)
        {
            return .named(type)
        }
        switch schema.singleType {
        case .string?:
            let type = stringType(format: schema.format, contentEncoding: schema.contentEncoding)
            // A `uri` whose default is no URL (GitHub's `environment_url`
            // defaults to "", and the API sends it) stays a String: `URL`
            // cannot hold the value, and a response holding it would not decode.
            if type == "URL", case .string(let text)? = schema.defaultValue, URL(string: text) == nil { return .named("String") }
            return .named(type)
        case .integer?:
            switch schema.format {
            case "int32": return .named("Int32")
            case "int64": return .named("Int64")
            default: return .named("Int")
            }
        case .number?:
            switch schema.format {
            case "float": return .named("Float")
            case "decimal": return .named("Decimal")
            default: return .named("Double")
            }
        case .boolean?: return .named("Bool")
        case .array?:
            guard let items = schema.items else { return .array(.json) }
            return .array(swiftType(for: items, named: named))
        case .object?:
            switch schema.additionalProperties {
            case .schema(let values)?: return .dictionary(swiftType(for: values, named: named))
            default: return .dictionary(.json)
            }
        case .null?, nil:
            return .json
        }
    }

    /// Whether a schema becomes a declaration of its own rather than a
    /// built-in type: objects with properties, enums, and compositions.
    public func needsDeclaration(_ schema: Schema) -> Bool {
        if schema.enumValues != nil { return true }
        if !schema.oneOf.isEmpty || !schema.anyOf.isEmpty { return true }
        if schema.allOf.count > 1 || (!schema.allOf.isEmpty && !schema.properties.isEmpty) { return true }
        // `properties` applies to objects only (`type: array` with `properties` is an array).
        return !schema.properties.isEmpty && (schema.types.isEmpty || schema.types.contains(.object))
    }

    private func stringType(format: String?, contentEncoding: String?) -> String {
        if contentEncoding == "base64" { return "Data" }
        switch format {
        case "date-time": return "Date"
        case "date": return "CalendarDate"
        case "uuid": return "LowercaseUUID"
        case "uri", "url": return "URL"
        case "byte", "binary": return "Data"
        default: return "String"
        }
    }
}

/// `x-stream-array` on a response's media type: the response carries a JSON
/// array too large to hold decoded at once (a full data sync, an export), so
/// the client also gets a method that decodes it element by element while
/// the body arrives.
///
/// - `x-stream-array: true`: the body is the array (`[...]`).
/// - `x-stream-array: records`: the array is the `records` property of the
///   body's object; the other properties decode once the body has ended.
public enum StreamedArray: Sendable, Hashable {
    /// The body is the array.
    case body
    /// The array is this property of the body's object.
    case property(String)

    /// The extension's name.
    public static let extensionName = "x-stream-array"

    /// Reads the extension of `media`: nil when it is absent (or `false`),
    /// else what it names, or why it cannot be used.
    public static func read(_ media: MediaType, in document: OpenAPIDocument) -> Result<StreamedArray, Problem>? {
        guard let value = media.extensions[extensionName] else { return nil }
        let schema = media.schema.flatMap { document.resolve($0) }
        switch value {
        case .bool(false):
            return nil
        case .bool(true):
            guard let schema, isArray(schema) else { return .failure(Problem("the response schema is not an array")) }
            return .success(.body)
        case .string(let name):
            guard let schema else { return .failure(Problem("the response has no schema")) }
            guard let property = schema.properties[name] else {
                return .failure(Problem("the response schema has no property '\(name)'" + (schema.properties.keys.isEmpty ? "" : " (it has: \(schema.properties.keys.joined(separator: ", ")))")))
            }
            guard let resolved = document.resolve(property), isArray(resolved) else {
                return .failure(Problem("the property '\(name)' is not an array"))
            }
            return .success(.property(name))
        default:
            return .failure(Problem("it is \(value.jsonTypeName), not true or a property name"))
        }
    }

    private static func isArray(_ schema: Schema) -> Bool {
        schema.types.contains(.array) || (schema.types.isEmpty && schema.items != nil)
    }

    /// Why the extension cannot be used.
    public struct Problem: Error, Sendable, Hashable {
        /// What is wrong.
        public var reason: String

        /// Creates a problem.
        public init(_ reason: String) { self.reason = reason }
    }
}

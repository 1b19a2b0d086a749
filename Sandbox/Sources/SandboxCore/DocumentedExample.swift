import OpenAPIModel

/// The example a spec gives for a media type, as the bytes a server sends:
/// what the sandbox answers with, and what this repository's test doubles
/// and consumer tests answer with.
public enum DocumentedExample {
    /// The media type's `example`, else the first of its `examples`, else its
    /// schema's first example; a string example of a non-JSON media type is
    /// its text, any other is JSON. Nil when the spec gives none.
    public static func body(of media: MediaType, contentType: String, in document: OpenAPIDocument) -> [UInt8]? {
        let example: JSONValue? = media.example
            ?? media.examples.values.first.flatMap { document.resolve($0)?.value }
            ?? media.schema.flatMap { document.resolve($0)?.examples.first }
        guard let example else { return nil }
        if case .string(let text) = example, !contentType.contains("json") { return Array(text.utf8) }
        return Array(example.description.utf8)
    }
}

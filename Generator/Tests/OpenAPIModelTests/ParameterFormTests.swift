import Testing

@testable import OpenAPIModel

/// A value that has no form under the spec's own rules is a lint finding
/// at its schema, not a runtime surprise: path, header and cookie values
/// are written one level deep.
@Suite struct ParameterFormTests {
    static func spec(location: String, schema: String) -> String {
        """
        openapi: 3.0.3
        info: {title: T, version: '1'}
        paths:
          /things/{id}:
            get:
              parameters:
                - {name: id, in: path, required: true, schema: {type: string}}
                - name: filter
                  in: \(location)
                  schema: \(schema)
              responses:
                '204': {description: done}
        """
    }

    @Test(arguments: ["header", "cookie"])
    func nestedValuesInAHeaderOrCookieAreAFinding(location: String) throws {
        let warning = try only("no-parameter-form", in: load(Self.spec(location: location, schema: "{type: array, items: {type: object, properties: {a: {type: string}}}}")))
        #expect(warning.severity == .warning)
        #expect((warning.line, warning.column) == (10, 19), "at the schema")
        #expect(warning.message.contains("\(location) parameter 'filter'"))
    }

    @Test func anObjectWithAnArrayMemberIsAFinding() throws {
        _ = try only("no-parameter-form", in: load(Self.spec(location: "header", schema: "{type: object, properties: {tags: {type: array, items: {type: string}}}}")))
    }

    @Test(arguments: [
        ("header", "{type: array, items: {type: string}}"),
        ("header", "{type: object, properties: {a: {type: integer}}}"),
        ("query", "{type: array, items: {type: object, properties: {a: {type: string}}}}"),
    ])
    func flatValuesAndQueriesAreNot(location: String, schema: String) {
        let result = load(Self.spec(location: location, schema: schema))
        #expect(!result.diagnostics.contains { $0.code == "no-parameter-form" }, "\(result.diagnostics)")
    }
}

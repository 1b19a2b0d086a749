import Foundation
import Testing

@testable import OpenAPIModel

/// Names become code and comments, so a name that hides what it says (a
/// line break, a bidi override, a comment delimiter, a header name no request
/// can carry) is an error at its file, line and column.
@Suite struct HiddenCharacterTests {
    /// A spec whose `NAME` placeholder in one place is replaced.
    static func spec(path: String = "/pets", operationID: String = "listPets", parameter: String = "limit",
                     headerParameter: String = "X-Trace", responseHeader: String = "X-Rate-Limit",
                     property: String = "name", schemaName: String = "Pet") -> String {
        """
        openapi: 3.0.3
        info: {title: T, version: '1'}
        paths:
          "\(path)":
            get:
              operationId: "\(operationID)"
              parameters:
                - {name: "\(parameter)", in: query, schema: {type: integer}}
                - {name: "\(headerParameter)", in: header, schema: {type: string}}
              responses:
                '200':
                  description: ok
                  headers:
                    "\(responseHeader)": {schema: {type: integer}}
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/\(schemaName)'}
        components:
          schemas:
            "\(schemaName)":
              type: object
              properties:
                "\(property)": {type: string}
        """
    }

    @Test func cleanSpecHasNoFinding() {
        let result = load(Self.spec())
        #expect(result.errors.isEmpty, "\(result.errors)")
    }

    @Test(arguments: [
        ("path", Self.spec(path: "/p\\nlet injected = 3\\n//"), 4, 3, "U+000A"),
        ("operationId", Self.spec(operationID: "list\\u202EsteP"), 6, 20, "U+202E"),
        ("parameter name", Self.spec(parameter: "lim\\rit"), 8, 18, "U+000D"),
        ("header parameter name", Self.spec(headerParameter: "X-\\u2066Trace"), 9, 18, "U+2066"),
        ("header name", Self.spec(responseHeader: "X-Rate\\u0000"), 14, 13, "U+0000"),
        ("property name", Self.spec(property: "na\\u2028me"), 23, 9, "U+2028"),
        ("component name", Self.spec(schemaName: "Pet\\u200F"), 20, 5, "U+200F"),
    ])
    func hiddenCharacterIsAnErrorWhereItStands(what: String, yaml: String, line: Int, column: Int, scalar: String) throws {
        let result = load(yaml)
        let error = try #require(result.errors.first { $0.code == "hidden-character" && $0.message.hasPrefix(what + " ") }, "\(result.diagnostics)")
        #expect((error.line, error.column) == (line, column), "\(error)")
        #expect(error.message.contains(scalar))
        // The message shows the character escaped: a terminal prints what the file holds.
        #expect(!error.description.unicodeScalars.contains { HiddenCharacters.isHidden($0) && $0 != "\n" })
        #expect(error.description.split(separator: "\n").count == 2, "one line and its note:\n\(error)")
    }

    @Test(arguments: [
        ("path", Self.spec(path: "/a*/b"), 4, 3),
        ("operationId", Self.spec(operationID: "list/*Pets"), 6, 20),
    ])
    func commentDelimiterIsAnError(what: String, yaml: String, line: Int, column: Int) throws {
        let error = try only("comment-delimiter", in: load(yaml))
        #expect(error.message.hasPrefix(what + " "))
        #expect((error.line, error.column) == (line, column))
    }

    @Test(arguments: [
        (Self.spec(headerParameter: "X-Bad*/Name"), 9, 18),
        (Self.spec(responseHeader: "X Rate"), 14, 13),
    ])
    func headerNameMustBeAToken(yaml: String, line: Int, column: Int) throws {
        let error = try only("invalid-header-name", in: load(yaml))
        #expect((error.line, error.column) == (line, column))
    }

    @Test func apiKeyHeaderNameIsChecked() throws {
        let yaml = Self.spec() + """

              securitySchemes:
                key: {type: apiKey, in: header, name: "X-Key\\nX-Other: 1"}
            """
        let error = try only("hidden-character", in: load(yaml))
        #expect(error.message.hasPrefix("apiKey header name "))
    }

    @Test func ordinaryPunctuationAndUnicodeLettersStayAllowed() {
        // GitHub's operation ids hold '/', paths hold '*' and '~', names hold letters of any script.
        let yaml = Self.spec(path: "/files/{*}~x", operationID: "repos/get-content", parameter: "größe", property: "名前")
        let result = load(yaml)
        #expect(!result.diagnostics.contains { ["hidden-character", "comment-delimiter", "invalid-header-name"].contains($0.code) }, "\(result.diagnostics)")
    }

    @Test func visibleEscapesEveryHiddenCharacter() {
        #expect(HiddenCharacters.visible("a\nb\u{202E}c\u{85}d") == "a\\u{A}b\\u{202E}c\\u{85}d")
        #expect(HiddenCharacters.visible("plain ASCII ~") == "plain ASCII ~")
        #expect(!HiddenCharacters.contains(in: "emoji 👍🏽 and é"))
        #expect(HiddenCharacters.contains(in: "zero\u{200B}width"))
    }
}

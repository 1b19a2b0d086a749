import Foundation
import Testing

@testable import OpenAPIModel

/// Broken input gets one clear error at the right line and column, never a crash.
@Suite struct MalformedInputTests {
    @Test func unterminatedDoubleQuote() throws {
        let result = load("openapi: 3.1.0\ninfo:\n  title: \"Broken\n  version: '1'\npaths: {}\n")
        let error = try only("yaml-syntax", in: result)
        #expect(error.severity == .error)
        #expect((error.line, error.column) == (3, 10), "points at the opening quote")
        #expect(error.message.contains("unterminated quoted string"))
        #expect(result.document == nil)
    }

    @Test func unterminatedSingleQuote() throws {
        let error = try only("yaml-syntax", in: load("openapi: '3.1.0\ninfo: {}\n"))
        #expect((error.line, error.column) == (1, 10))
    }

    @Test func badIndentation() throws {
        let yaml = "openapi: 3.0.3\ninfo:\n  title: T\n   version: '1'\npaths: {}\n"
        let error = try only("yaml-syntax", in: load(yaml))
        #expect((error.line, error.column) == (4, 11))
        #expect(error.description.hasPrefix("test.yaml:4:11: error: YAML syntax error: mapping values are not allowed"))
        #expect(error.hint != nil)
    }

    @Test func dedentedSiblingKey() throws {
        let yaml = "openapi: 3.0.3\ninfo:\n    title: T\n  version: '1'\npaths: {}\n"
        let error = try only("yaml-syntax", in: load(yaml))
        #expect((error.line, error.column) == (4, 3))
        #expect(error.message.contains("did not find expected key"))
    }

    @Test func tabIndentation() throws {
        let yaml = "openapi: 3.0.3\ninfo:\n\ttitle: T\npaths: {}\n"
        let error = try only("yaml-syntax", in: load(yaml))
        #expect((error.line, error.column) == (3, 1))
        #expect(error.hint?.contains("tabs") == true)
    }

    @Test func unresolvableReference() throws {
        let yaml = """
            openapi: 3.0.3
            info: {title: T, version: '1'}
            paths:
              /pets:
                get:
                  responses:
                    '200':
                      description: ok
                      content:
                        application/json:
                          schema:
                            $ref: '#/components/schemas/Pets'
            components:
              schemas:
                Pet: {type: object}
            """
        let result = load(yaml)
        let error = try only("unresolved-ref", in: result)
        #expect(error.severity == .error)
        #expect((error.line, error.column) == (12, 23), "the $ref value")
        #expect(error.pointer == "#/paths/~1pets/get/responses/200/content/application~1json/schema/$ref")
        #expect(error.message.contains("'#/components/schemas' has no 'Pets'"))
        #expect(error.hint == "did you mean '#/components/schemas/Pet'?")
    }

    @Test func referenceCycleWithoutDefinition() throws {
        let yaml = """
            openapi: 3.0.3
            info: {title: T, version: '1'}
            paths: {}
            components:
              schemas:
                A:
                  $ref: '#/components/schemas/B'
                B:
                  $ref: '#/components/schemas/A'
            """
        let result = load(yaml)
        let errors = result.diagnostics.filter { $0.code == "ref-cycle" }
        #expect(errors.count == 2, "one per reference in the cycle")
        let first = try #require(errors.first)
        #expect((first.line, first.column) == (7, 13))
        #expect(first.message.contains("#/components/schemas/B -> test.yaml#/components/schemas/A -> test.yaml#/components/schemas/B"))
    }

    @Test func recursiveSchemasAreLegal() throws {
        let yaml = """
            openapi: 3.1.0
            info: {title: T, version: '1'}
            components:
              schemas:
                Node:
                  type: object
                  properties:
                    children:
                      type: array
                      items: {$ref: '#/components/schemas/Node'}
                    parent: {$ref: '#/components/schemas/Node'}
            """
        let result = load(yaml)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let document = try #require(result.document)
        let node = try #require(document.schema("Node"))
        let parent = try #require(node.properties["parent"]?.reference)
        #expect(parent.componentName == "Node")
        #expect(document.resolve(parent, as: Schema.self)?.properties.keys == ["children", "parent"])
    }

    @Test func missingOpenAPIField() throws {
        let error = try only("missing-openapi-version", in: load("info: {title: T, version: '1'}\npaths: {}\n"))
        #expect((error.line, error.column) == (1, 1))
        #expect(error.hint?.contains("openapi: 3.1.0") == true)
    }

    @Test func swaggerTwoIsNamed() throws {
        let error = try only("unsupported-version", in: load("swagger: '2.0'\ninfo: {title: T, version: '1'}\n"))
        #expect((error.line, error.column) == (1, 1))
        #expect(error.message.contains("Swagger 2.0"))
    }

    @Test func binaryFile() throws {
        let folder = try Fixtures.folder([:])
        let path = folder + "/image.yaml"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D]).write(to: URL(fileURLWithPath: path))
        let result = OpenAPILoader.load(path: path)
        let error = try only("binary-file", in: result)
        #expect(error.file == path)
        #expect((error.line, error.column) == (3, 1), "the first NUL byte, after the PNG signature's two line feeds")
        #expect(error.message.hasPrefix("not a text file"))
    }

    @Test func invalidUTF8() throws {
        let folder = try Fixtures.folder([:])
        let path = folder + "/latin1.yaml"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("openapi: 3.0.3\ninfo:\n  title: Caf".utf8 + [0xE9] + Data("\n".utf8)).write(to: URL(fileURLWithPath: path))
        let error = try only("binary-file", in: OpenAPILoader.load(path: path))
        #expect((error.line, error.column) == (3, 13))
    }

    @Test func emptyFile() throws {
        let error = try only("empty-document", in: load(""))
        #expect((error.line, error.column) == (1, 1))
        let commentsOnly = try only("empty-document", in: load("# nothing here\n"))
        #expect(commentsOnly.severity == .error)
    }

    @Test func missingFile() throws {
        let result = OpenAPILoader.load(path: "no/such/spec.yaml")
        let error = try only("unreadable-file", in: result)
        #expect(error.message.contains("no such file"))
    }

    @Test func documentThatIsAList() throws {
        let error = try only("not-an-openapi-document", in: load("- a\n- b\n"))
        #expect((error.line, error.column) == (1, 1))
    }

    @Test func duplicateKeysAreErrors() throws {
        let yaml = "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\ninfo: {title: U, version: '2'}\n"
        let error = try only("yaml-duplicate-key", in: load(yaml))
        #expect((error.line, error.column) == (4, 1))
        #expect(error.message.contains("first at line 2, column 1"))
    }

    @Test func wrongKindForAStructure() throws {
        let yaml = "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  - /pets\n"
        let error = try only("wrong-kind", in: load(yaml))
        #expect(error.severity == .error)
        #expect((error.line, error.column) == (4, 3))
    }

    @Test func hostileNestingIsAnErrorNotACrash() throws {
        let lists = "openapi: 3.1.0\ninfo: {title: T, version: '1'}\nx-deep: " + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        let yamlError = try only("yaml-nesting-too-deep", in: load(lists))
        #expect((yamlError.line, yamlError.column) == (3, 1008), "the 1001st collection, counting the root mapping")

        let depth = 400
        let schemas = "openapi: 3.1.0\ninfo: {title: T, version: '1'}\ncomponents:\n  schemas:\n    A: "
            + String(repeating: "{type: array, items: ", count: depth) + "{type: string}" + String(repeating: "}", count: depth)
        let result = load(schemas)
        let modelError = try only("nesting-too-deep", in: result)
        #expect(modelError.line == 5)
        #expect(result.document?.schema("A")?.singleType == .array, "the levels above the limit are kept")
    }
}

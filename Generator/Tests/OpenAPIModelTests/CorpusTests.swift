import Foundation
import Testing

@testable import OpenAPIModel

/// Real public specs written by others must load: no crash, no error on the
/// valid ones, and precise warnings on the known-invalid ones.
@Suite struct CorpusTests {
    static let files: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Fixtures.corpus)) ?? []
        return names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }.sorted()
    }()

    @Test func corpusIsPresent() {
        #expect(Self.files.count >= 15, "the public specs are expected in \(Fixtures.corpus)")
    }

    @Test(arguments: files)
    func loadsWithoutErrors(_ name: String) throws {
        let result = OpenAPILoader.load(path: Fixtures.corpus + "/" + name)
        #expect(result.errors.isEmpty, "\(result.errors.map(\.description))")
        let document = try #require(result.document)
        #expect(!document.info.title.isEmpty)
        // Every reference in the document resolves.
        var unresolved = 0
        for (_, _, operation, item) in document.operations {
            for parameter in item.parameters + operation.parameters where document.resolve(parameter) == nil { unresolved += 1 }
            for (_, response) in operation.responses where document.resolve(response) == nil { unresolved += 1 }
        }
        #expect(unresolved == 0)
    }

    @Test func typeIntIsAWarningAtItsPosition() throws {
        let mindmeld = OpenAPILoader.load(path: Fixtures.corpus + "/14-cisco-mindmeld-custom-action.yaml")
        let warning = try only("unknown-type", in: mindmeld)
        #expect(warning.severity == .warning)
        #expect((warning.line, warning.column) == (134, 17))
        #expect(warning.pointer == "#/components/schemas/Params/properties/timestamp/type")
        #expect(warning.description.contains("14-cisco-mindmeld-custom-action.yaml:134:17: warning: unknown schema type 'int'"))
        let timestamp = mindmeld.document?.property("timestamp", of: "Params")
        #expect(timestamp?.singleType == .integer, "read the way its authors meant")

        let consoleme = OpenAPILoader.load(path: Fixtures.corpus + "/19-netflix-consoleme.yaml")
        let limit = try only("unknown-type", in: consoleme)
        #expect((limit.line, limit.column) == (360, 15))
        #expect(limit.pointer == "#/components/parameters/LimitQueryString/schema/type")
    }

    @Test func integerInServerVariableEnumIsAWarning() throws {
        let result = OpenAPILoader.load(path: Fixtures.corpus + "/09-sog-31-reference-petstore.yaml")
        let warning = try only("server-enum-not-string", in: result)
        #expect((warning.line, warning.column) == (24, 13))
        #expect(warning.pointer == "#/servers/2/variables/port/enum/1")
        let port = try #require(result.document?.servers[2].variables["port"])
        #expect(port.enumValues == ["443", "8443"])
    }

    @Test func githubSpecModelHasItsScale() throws {
        let result = OpenAPILoader.load(path: Fixtures.corpus + "/22-github-rest-api.yaml")
        #expect(result.diagnostics.isEmpty)
        let document = try #require(result.document)
        #expect(document.operations.count > 800)
        #expect(document.components.schemas.count > 300)
        #expect(document.operation(.get, "/repos/{owner}/{repo}") != nil)
    }
}

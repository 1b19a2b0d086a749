import Foundation
import OpenAPIModel
import Testing

@testable import Codegen

/// No spec can make the generator write more Swift than in proportion to
/// its size (``OutputLimit``), or merge `allOf` members exponentially often.
@Suite struct OutputLimitTests {
    static func load(_ yaml: String) throws -> (OpenAPIDocument, OpenAPILoadResult) {
        let result = OpenAPILoader.load(string: yaml, fileName: "limit.yaml")
        #expect(result.errors.isEmpty, "\(result.errors)")
        return (try #require(result.document), result)
    }

    static let header = "openapi: 3.0.3\ninfo: {title: Limit, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n"

    @Test func allOfMembersThatShareAReferenceAreMergedOnce() throws {
        // F_i is all of four references to F_(i-1): merged once per path,
        // F_12 alone took 4^12 merges (and F_30 never finished). `allOf`
        // is followed 16 levels deep, so F_12 still reaches F_0's members.
        var yaml = Self.header + "    F0: {type: object, properties: {a: {type: string}, b: {type: integer}}}\n"
        for index in 1...30 {
            let ref = "{$ref: \"#/components/schemas/F\(index - 1)\"}"
            yaml += "    F\(index): {allOf: [\(ref), \(ref), \(ref), \(ref)]}\n"
        }
        let (document, _) = try Self.load(yaml)
        let models = ModelTranslator(document: document, moduleName: "Limit")
        models.translateComponents()
        #expect(models.mergeSteps < 4 * 30 * 16, "\(models.mergeSteps) merges")
        guard case .structure(let shape)? = models.declarations.first(where: { $0.name == "F12" })?.kind else {
            Issue.record("F12 is not a structure")
            return
        }
        #expect(shape.properties.map(\.wireName) == ["a", "b"])
    }

    /// `Copy<i>`: all of the same twenty objects of twenty members each.
    static func fanIn(copies: Int) -> String {
        var yaml = Self.header
        for index in 0..<20 {
            let members = (0..<20).map { "b\(index)m\($0): {type: string}" }.joined(separator: ", ")
            yaml += "    Base\(index): {type: object, properties: {\(members)}}\n"
        }
        let refs = (0..<20).map { "{$ref: \"#/components/schemas/Base\($0)\"}" }.joined(separator: ", ")
        for index in 0..<copies { yaml += "    Copy\(index): {allOf: [\(refs)], properties: {own\(index): {type: integer}}}\n" }
        return yaml
    }

    @Test func translationStopsAtTheMemberLimitNamingTheSchemaThatPassedIt() throws {
        let (document, result) = try Self.load(Self.fanIn(copies: 200))
        var options = GeneratorOptions(moduleName: "Limit", specName: "limit.yaml")
        // 200 copies of 401 members from a spec of about 10,000 nodes.
        options.outputLimit = OutputLimit(bytes: 1 << 30, members: 20_000)
        #expect(result.sourceNodes < 20_000)
        let client = ClientGenerator.translate(document, options: options)
        let exceeded = try #require(client.outputLimitExceeded)
        #expect(exceeded.written == nil)
        #expect(exceeded.construct.contains("'Copy"), "\(exceeded)")
        let location = try #require(exceeded.location)
        #expect(location.file == "limit.yaml")
        #expect(location.pointer.fragment.hasPrefix("#/components/schemas/Copy"))
        #expect(throws: OutputLimitExceeded.self) { try ClientGenerator.render(client, options: options) }
    }

    @Test func renderingRefusesMoreSwiftThanTheLimitNamingTheLargestSchema() throws {
        let (document, result) = try Self.load(Self.fanIn(copies: 3))
        var options = GeneratorOptions(moduleName: "Limit", specName: "limit.yaml")
        options.outputLimit = OutputLimit(bytes: 100_000, members: .max)
        let client = ClientGenerator.translate(document, options: options)
        #expect(client.outputLimitExceeded == nil)
        do {
            _ = try ClientGenerator.render(client, options: options)
            Issue.record("rendered past the limit")
        } catch {
            #expect(error.written ?? 0 > 100_000)
            #expect(error.construct.hasPrefix("the schema of 'Copy"), "\(error)")
            #expect(error.location?.pointer.fragment.hasPrefix("#/components/schemas/Copy") == true)
        }
        // The spec's own limit leaves room for it.
        options.outputLimit = OutputLimit(specBytes: result.sourceBytes, specNodes: result.sourceNodes)
        #expect(try ClientGenerator.render(ClientGenerator.translate(document, options: options), options: options).count >= 2)
    }

    @Test func everyRealSpecIsWellInsideItsLimit() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let specs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("specs").path).filter { $0.hasSuffix(".yaml") }
        for spec in specs {
            let result = OpenAPILoader.load(path: root.appendingPathComponent("specs/\(spec)").path)
            let document = try #require(result.document)
            let limit = OutputLimit(specBytes: result.sourceBytes, specNodes: result.sourceNodes)
            var options = GeneratorOptions(moduleName: "Limit", specName: spec)
            options.outputLimit = limit
            let files = try ClientGenerator.generate(document, options: options)
            let written = files.reduce(0) { $0 + $1.contents.utf8.count }
            #expect(written * 4 < limit.bytes, "\(spec): \(written) bytes of \(limit.bytes)")
        }
    }
}

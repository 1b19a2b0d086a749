import Foundation
import Testing

@testable import OpenAPIModel
import YAMLReader

/// What a spec can make the loader do is bounded by its size: references
/// resolve once each whatever their chains, aliases add at most a small
/// multiple of the document, and lookups in large mappings do not scan them.
/// Measured in steps, which do not depend on the machine.
@Suite struct SpecCostBoundTests {
    /// `S0 -> S1 -> ... -> S<links>`, each a pure `$ref` to the next, the
    /// last an object; one operation reads `S0`.
    static func chain(_ links: Int) -> String {
        var yaml = """
            openapi: 3.0.3
            info: {title: Chain, version: "1"}
            paths:
              /thing:
                get:
                  responses:
                    "200":
                      description: ok
                      content: {application/json: {schema: {$ref: "#/components/schemas/S0"}}}
            components:
              schemas:

            """
        for index in 0..<links { yaml += "    S\(index): {$ref: \"#/components/schemas/S\(index + 1)\"}\n" }
        yaml += "    S\(links): {type: object, properties: {name: {type: string}}}\n"
        return yaml
    }

    @Test func aChainOfReferencesResolvesInStepsProportionalToItsLength() throws {
        // Each link used to walk the rest of the chain (3,000 links: over a minute).
        let links = 3_000
        let result = load(Self.chain(links))
        #expect(result.errors.isEmpty, "\(result.errors)")
        let document = try #require(result.document)
        #expect(document.schema("S0")?.properties["name"] != nil, "S0 resolves to the object at the end")
        #expect(document.schema("S1500")?.properties["name"] != nil)
        #expect(result.referenceSteps < 4 * links, "\(result.referenceSteps) steps for \(links) links")
    }

    @Test func aCycleOfReferencesIsReportedWhereverItIsEntered() throws {
        let yaml = """
            openapi: 3.0.3
            info: {title: Cycle, version: "1"}
            paths: {}
            components:
              schemas:
                A: {$ref: "#/components/schemas/B"}
                B: {$ref: "#/components/schemas/C"}
                C: {$ref: "#/components/schemas/B"}
                D: {type: object, properties: {a: {$ref: "#/components/schemas/A"}, c: {$ref: "#/components/schemas/C"}}}
            """
        let result = load(yaml)
        let cycles = result.diagnostics.filter { $0.code == "ref-cycle" }
        // A, B, C, and the two properties of D: each place that enters the cycle.
        #expect(cycles.map(\.line) == [6, 7, 8, 9, 9], "\(cycles.map(\.description))")
        #expect(cycles.allSatisfy { $0.message.contains("never reaches a definition") })
    }

    @Test func aComponentMapOfThousandsIsNotScannedForEachReference() throws {
        // Every schema referenced once: a scan of the map per reference made
        // this quadratic in the number of schemas.
        let count = 4_000
        var yaml = "openapi: 3.0.3\ninfo: {title: Many, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n"
        for index in 0..<count {
            yaml += "    Item\(index): {type: object, properties: {next: {$ref: \"#/components/schemas/Item\((index + 1) % count)\"}}}\n"
        }
        let result = load(yaml)
        #expect(result.errors.isEmpty)
        #expect(result.referenceSteps <= 2 * count)
        let document = try #require(result.document)
        #expect(document.components.schemas.count == count)
    }

    @Test func aliasesMayAddTwiceTheDocumentAndNoMore() throws {
        // A few hundred bytes whose aliases expand to about 90,000 nodes:
        // accepted before (the limit was 1,000,000 + 16 x the document).
        var yaml = "openapi: 3.0.3\ninfo: {title: Laughs, version: \"1\"}\npaths: {}\n"
        yaml += "x-l0: &l0 {type: object, properties: {a: {type: string}, b: {type: integer}}}\n"
        for level in 1...6 {
            let members = (0..<4).map { "m\($0): *l\(level - 1)" }.joined(separator: ", ")
            yaml += "x-l\(level): &l\(level) {type: object, properties: {\(members)}}\n"
        }
        yaml += "components:\n  schemas:\n    Top: *l6\n"
        let result = load(yaml)
        let error = try only("yaml-alias-expansion", in: result)
        #expect(error.message.contains("more than the limit of"))
        #expect(error.message.contains("this alias of '&l"))
        #expect(error.line > 4 && error.line <= 11, "at the alias that passes the limit: \(error)")
        #expect(result.document == nil)
    }

    @Test func aliasesThatRepeatABlockAFewTimesAreFine() throws {
        var yaml = "openapi: 3.0.3\ninfo: {title: Shared, version: \"1\"}\n"
        yaml += "x-errors: &errors\n  \"400\": {description: bad}\n  \"500\": {description: failed}\n"
        yaml += "paths:\n"
        for index in 0..<200 {
            yaml += "  /items\(index):\n    get:\n      responses:\n        \"200\": {description: ok}\n        <<: *errors\n"
        }
        let result = load(yaml)
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.document?.paths.count == 200)
    }
}

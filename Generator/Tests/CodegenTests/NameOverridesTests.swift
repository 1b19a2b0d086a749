import OpenAPIModel
import Testing

@testable import Codegen

/// Names a team chooses for schemas and operations.
@Suite struct NameOverridesTests {
    static let spec = """
        openapi: 3.1.0
        info: {title: Shop, version: '1'}
        paths:
          /pets:
            get:
              operationId: listPets
              responses:
                '200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Pets'}}}}
                default: {description: error, content: {application/json: {schema: {$ref: '#/components/schemas/Error'}}}}
          /pets/all:
            get:
              operationId: allPets
              responses:
                '200': {description: ok}
        components:
          schemas:
            Pets: {type: array, items: {$ref: '#/components/schemas/Pet'}}
            Pet: {type: object, properties: {name: {type: string}}}
            Error: {type: object, properties: {message: {type: string}}}
        """

    private func files(_ names: NameOverrides) throws -> [String: String] {
        let result = OpenAPILoader.load(string: Self.spec, fileName: "shop.yaml")
        var options = GeneratorOptions(moduleName: "Shop", specName: "shop.yaml")
        options.nameOverrides = names
        let files = try ClientGenerator.generate(try #require(result.document), options: options)
        return Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0.contents) })
    }

    /// The team's names win over derived ones: `allPets` is the renamed
    /// `listPets`, and the operation whose id is `allPets` takes the suffix.
    @Test func chosenNamesAreUsedEverywhereAndClaimedFirst() throws {
        let generated = try files(NameOverrides(schemas: ["Error": "ServerError", "Pet": "Animal"], operations: ["listPets": "allPets"]))
        let models = try #require(generated["Models.swift"])
        let operations = try #require(generated["Operations.swift"])
        #expect(models.contains("public struct ServerError") && models.contains("public typealias Pets = [Animal]"))
        #expect(!models.contains("ErrorSchema") && !models.contains("struct Pet:"))
        #expect(operations.contains("func allPets() async throws -> Pets") && operations.contains("func allPets2()"))
        #expect(operations.contains("APIError<ServerError>"))
    }

    /// Any text becomes a Swift name as derived names do: nothing of it
    /// reaches the code unescaped.
    @Test func aChosenNameIsMadeASwiftName() throws {
        let generated = try files(NameOverrides(schemas: ["Error": "server error\"; import Evil //"], operations: ["listPets": "list pets"]))
        let all = generated.values.joined()
        #expect(!all.contains("\"; import Evil"))
        #expect(try #require(generated["Operations.swift"]).contains("func listPets()"))
    }
}

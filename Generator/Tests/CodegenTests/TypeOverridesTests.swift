import OpenAPIModel
import Testing

@testable import Codegen

/// The app's own types in place of the spec's: by component schema name and
/// by format, everywhere the value sits, checked at compile time, and never
/// handed the spec's constraints or defaults.
@Suite struct TypeOverridesTests {
    static let spec = """
        openapi: 3.1.0
        info: {title: Shop, version: '1'}
        paths:
          /orders/{id}:
            get:
              operationId: getOrder
              parameters:
                - {name: id, in: path, required: true, schema: {type: string, format: uuid}}
                - {name: max, in: query, schema: {$ref: '#/components/schemas/Price'}}
              responses:
                '200':
                  description: ok
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Order'}
        components:
          schemas:
            Price: {type: number, minimum: 0, default: 0}
            Money: {type: string, pattern: '^[0-9]+$'}
            Order:
              type: object
              required: [id, total]
              properties:
                id: {type: string, format: uuid}
                total: {$ref: '#/components/schemas/Price'}
                tip: {$ref: '#/components/schemas/Money'}
                lines: {type: array, items: {$ref: '#/components/schemas/Price'}}
                created: {type: string, format: date-time}
        """

    private func generate(_ overrides: TypeOverrides) throws -> (client: ClientRepresentation, files: [String: String]) {
        let result = OpenAPILoader.load(string: Self.spec, fileName: "shop.yaml")
        #expect(result.errors.isEmpty, "\(result.errors)")
        var options = GeneratorOptions(moduleName: "Shop", specName: "shop.yaml")
        options.typeOverrides = overrides
        let client = ClientGenerator.translate(try #require(result.document), options: options)
        let files = try ClientGenerator.render(client, options: options)
        return (client, Dictionary(uniqueKeysWithValues: files.map { ($0.name, $0.contents) }))
    }

    @Test func theAppsTypesStandWhereverTheValueSits() throws {
        let (client, files) = try generate(TypeOverrides(schemas: ["Price": "Decimal", "Money": "MyApp.Money"], formats: ["uuid": "Foundation.UUID"]))
        let models = try #require(files["Models.swift"])
        let operations = try #require(files["Operations.swift"])
        #expect(models.contains("public let id: Foundation.UUID") && models.contains("public let total: Decimal"))
        #expect(models.contains("public let tip: MyApp.Money?") && models.contains("public let lines: [Decimal]?"))
        #expect(models.contains("public let created: Date?"), "a format not overridden keeps its type")
        #expect(operations.contains("id: Foundation.UUID") && operations.contains("max: Decimal?"))
        #expect(!models.contains("LowercaseUUID") && !operations.contains("LowercaseUUID"))
        // Not declared: the app's type stands for the component.
        #expect(!client.types.contains { $0.name == "Price" || $0.name == "Money" })
        // Checked at compile time, each type once.
        let clientFile = try #require(files["Client.swift"])
        #expect(clientFile.contains("require(Decimal.self)") && clientFile.contains("require(Foundation.UUID.self)") && clientFile.contains("require(MyApp.Money.self)"))
        // The app's type makes its own values valid: no pattern is checked on MyApp.Money.
        #expect(!models.contains("^[0-9]+$"))
    }

    @Test func withoutOverridesTheSpecsTypesAreDeclared() throws {
        let (client, files) = try generate(TypeOverrides())
        #expect(client.types.contains { $0.name == "Price" })
        #expect(try #require(files["Models.swift"]).contains("public let id: LowercaseUUID"))
        #expect(!(try #require(files["Client.swift"]).contains("TypeOverrideRequirements")))
    }

    /// Each mistake is named, and a type name that is not one never reaches
    /// generated code.
    @Test func problemsAreNamedAndBadTypeNamesNeverReachTheCode() throws {
        let document = try #require(OpenAPILoader.load(string: Self.spec, fileName: "shop.yaml").document)
        let overrides = TypeOverrides(schemas: ["Prize": "Decimal", "Price": "Decimal; import Evil"], formats: ["uuid": "1UUID"])
        #expect(overrides.problems(in: document) == [
            "schema 'Prize' (the spec's components/schemas has no schema of this name)",
            "schema 'Price' -> 'Decimal; import Evil' (not a Swift type name: letters, digits and _, dot-separated, such as Foundation.UUID)",
            "format 'uuid' -> '1UUID' (not a Swift type name: letters, digits and _, dot-separated, such as Foundation.UUID)",
        ])
        let (_, files) = try generate(overrides)
        #expect(!files.values.contains { $0.contains("Evil") || $0.contains("1UUID") })
    }
}

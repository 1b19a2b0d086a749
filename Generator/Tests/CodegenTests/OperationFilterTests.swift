import OpenAPIModel
import Testing

@testable import Codegen

/// A filtered client: the operations the filter names, the types they
/// reach, nothing else.
@Suite struct OperationFilterTests {
    static let spec = """
        openapi: 3.1.0
        info: {title: Shop, version: '1'}
        paths:
          /pets:
            get:
              operationId: listPets
              tags: [pets]
              responses:
                '200':
                  description: ok
                  content:
                    application/json:
                      schema: {type: array, items: {$ref: '#/components/schemas/Pet'}}
            post:
              operationId: createPet
              tags: [pets]
              requestBody:
                content:
                  application/json:
                    schema: {$ref: '#/components/schemas/NewPet'}
              responses:
                '201': {description: created}
          /orders/{id}:
            get:
              operationId: getOrder
              tags: [store]
              parameters:
                - {name: id, in: path, required: true, schema: {type: string}}
              responses:
                '200':
                  description: ok
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Order'}
                default:
                  description: error
                  content:
                    application/json:
                      schema: {$ref: '#/components/schemas/Problem'}
          /health:
            get:
              responses:
                '204': {description: up}
        components:
          schemas:
            Pet:
              type: object
              properties:
                name: {type: string}
                owner: {$ref: '#/components/schemas/Owner'}
                kind:
                  oneOf:
                    - {$ref: '#/components/schemas/Cat'}
                    - {$ref: '#/components/schemas/Dog'}
            Owner: {type: object, properties: {name: {type: string}}}
            Cat: {type: object, properties: {purrs: {type: boolean}}}
            Dog: {type: object, properties: {barks: {type: boolean}}}
            NewPet: {type: object, properties: {name: {type: string}}}
            Order: {type: object, properties: {id: {type: string}, items: {type: array, items: {$ref: '#/components/schemas/Line'}}}}
            Line: {type: object, properties: {sku: {type: string}}}
            Problem: {type: object, properties: {title: {type: string}}}
            Unused: {type: object, properties: {x: {type: string}}}
        """

    private func translate(_ filter: OperationFilter) throws -> ClientRepresentation {
        let result = OpenAPILoader.load(string: Self.spec, fileName: "shop.yaml")
        #expect(result.errors.isEmpty, "\(result.errors)")
        var options = GeneratorOptions(moduleName: "Shop", specName: "shop.yaml")
        options.filter = filter
        return ClientGenerator.translate(try #require(result.document), options: options)
    }

    @Test func anOperationBringsTheTypesItReachesAndNothingElse() throws {
        let client = try translate(OperationFilter(operations: ["listPets"]))
        #expect(client.operations.map(\.id) == ["listPets"])
        let names = Set(client.types.map(\.name))
        // Through the array, a property and a union's members.
        #expect(names.isSuperset(of: ["Pet", "Owner", "Cat", "Dog"]))
        #expect(names.isDisjoint(with: ["NewPet", "Order", "Line", "Problem", "Unused"]))
        #expect(Set(client.componentTypeNames.keys) == names.intersection(["Pet", "Owner", "Cat", "Dog"]))
    }

    @Test func tagsAndPathsNameOperationsToo() throws {
        let byTag = try translate(OperationFilter(tags: ["store"]))
        #expect(byTag.operations.map(\.id) == ["getOrder"])
        #expect(Set(byTag.types.map(\.name)).isSuperset(of: ["Order", "Line", "Problem"]))
        #expect(!byTag.types.contains { $0.name == "Pet" })
        let either = try translate(OperationFilter(operations: ["createPet"], paths: ["/health"]))
        #expect(either.operations.map(\.id) == ["createPet", "get_/health"])
        #expect(either.types.map(\.name) == ["NewPet"])
    }

    @Test func anEmptyFilterKeepsEverySchema() throws {
        let client = try translate(OperationFilter())
        #expect(client.operations.count == 4)
        #expect(client.types.contains { $0.name == "Unused" })
    }

    /// A typo would leave an operation out without a word: each name that
    /// matches nothing is reported.
    @Test func aNameThatMatchesNothingIsReported() throws {
        let document = try #require(OpenAPILoader.load(string: Self.spec, fileName: "shop.yaml").document)
        let filter = OperationFilter(operations: ["listPets", "listPetz"], tags: ["Pets"], paths: ["/orders/{orderId}"])
        #expect(filter.unmatched(in: document) == [
            "operation 'listPetz' (no operation has this operationId)",
            "tag 'Pets' (no operation has this tag)",
            "path '/orders/{orderId}' (no path of the spec is spelled so)",
        ])
    }
}

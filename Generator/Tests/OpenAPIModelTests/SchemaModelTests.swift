import Testing

@testable import OpenAPIModel

/// OpenAPI 3.0 and 3.1 schema dialects normalised to one ``Schema`` shape.
@Suite struct SchemaModelTests {
    private func schemas(_ version: String, _ body: String) throws -> (OpenAPIDocument, OpenAPILoadResult) {
        let yaml = "openapi: \(version)\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n" + body
        let result = load(yaml)
        return (try #require(result.document), result)
    }

    @Test func nullableIn30AndTypeArraysIn31MeanTheSame() throws {
        let (old, oldResult) = try schemas("3.0.3", "    Name: {type: string, nullable: true, maxLength: 5}\n")
        let (new, newResult) = try schemas("3.1.0", "    Name: {type: [string, 'null'], maxLength: 5}\n")
        #expect(oldResult.diagnostics.isEmpty && newResult.diagnostics.isEmpty)
        for document in [old, new] {
            let name = try #require(document.schema("Name"))
            #expect(name.isNullable && name.singleType == .string && name.maxLength == 5)
        }
    }

    @Test func nullableIn31IsAWarningButHonoured() throws {
        let (document, result) = try schemas("3.1.0", "    Name: {type: string, nullable: true}\n")
        #expect(try only("nullable-in-3.1", in: result).severity == .warning)
        #expect(document.schema("Name")?.isNullable == true)
    }

    @Test func aPatternICUCannotCompileIsAWarningAtItsPlace() throws {
        // Unbounded lookbehind is ECMA-262 (2018) but not ICU; `\\d` is both.
        let (document, result) = try schemas("3.1.0", "    Code: {type: string, pattern: '(?<=a+)b'}\n    Digits: {type: string, pattern: '^\\d+$'}\n")
        let warning = try only("pattern-not-checked", in: result)
        #expect(warning.severity == .warning && warning.line == 6 && warning.column == 35)
        #expect(warning.message.contains("'(?<=a+)b'") && warning.message.contains("do not check it"))
        #expect(document.schema("Code")?.pattern == "(?<=a+)b", "the pattern is kept in the model")
        #expect(result.diagnostics.count == 1)
    }

    @Test func exclusiveBoundsIn30And31() throws {
        let (old, _) = try schemas("3.0.3", "    N: {type: number, minimum: 0, exclusiveMinimum: true, maximum: 10}\n")
        let (new, _) = try schemas("3.1.0", "    N: {type: number, exclusiveMinimum: 0, maximum: 10}\n")
        for document in [old, new] {
            let n = try #require(document.schema("N"))
            #expect(n.exclusiveMinimum == 0 && n.minimum == nil && n.maximum == 10)
        }
    }

    @Test func jsonSchema2020Keywords() throws {
        let body = """
                Point:
                  type: array
                  prefixItems: [{type: number}, {type: number}]
                  items: false
                Kind: {const: circle}
                Open: true
                Guarded:
                  type: object
                  if: {required: [a]}
                  then: {required: [b]}
                  $defs:
                    Inner: {type: string}
                  properties:
                    inner: {$ref: '#/components/schemas/Guarded/$defs/Inner'}

            """
        let (document, result) = try schemas("3.1.0", body)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let point = try #require(document.schema("Point"))
        #expect(point.prefixItems.count == 2)
        #expect(point.items?.value?.alwaysValid == false, "items: false")
        #expect(document.schema("Kind")?.constValue == .string("circle"))
        #expect(document.schema("Open")?.alwaysValid == true)
        let guarded = try #require(document.schema("Guarded"))
        #expect(guarded.otherKeywords.keys == ["if", "then"])
        #expect(document.property("inner", of: "Guarded")?.singleType == .string)
    }

    @Test func compositionDiscriminatorAndAdditionalProperties() throws {
        let body = """
                Pet:
                  oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]
                  discriminator:
                    propertyName: kind
                    mapping: {cat: Cat, dog: '#/components/schemas/Dog'}
                Cat:
                  allOf: [{$ref: '#/components/schemas/Base'}, {type: object, properties: {purrs: {type: boolean}}}]
                Dog:
                  anyOf: [{$ref: '#/components/schemas/Base'}]
                  not: {type: string}
                Base:
                  type: object
                  required: [kind]
                  properties: {kind: {type: string, enum: [cat, dog]}}
                  additionalProperties: {type: integer, format: int64}
                Free: {type: object, additionalProperties: true}

            """
        let (document, result) = try schemas("3.0.3", body)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let pet = try #require(document.schema("Pet"))
        #expect(pet.oneOf.compactMap { $0.reference?.componentName } == ["Cat", "Dog"])
        #expect(pet.discriminator?.mapping["cat"]?.target?.pointer.encoded == "/components/schemas/Cat")
        #expect(pet.discriminator?.mapping["dog"]?.componentName == "Dog")
        #expect(document.schema("Cat")?.allOf.count == 2)
        #expect(document.schema("Dog")?.anyOf.count == 1 && document.schema("Dog")?.not != nil)
        guard case .schema(let extra)? = document.schema("Base")?.additionalProperties else {
            Issue.record("typed additionalProperties")
            return
        }
        #expect(document.resolve(extra)?.format == "int64")
        guard case .allowed(true)? = document.schema("Free")?.additionalProperties else {
            Issue.record("free-form additionalProperties")
            return
        }
    }

    @Test func integerInStringEnumIsAWarningAndBecomesAString() throws {
        let (document, result) = try schemas("3.0.3", "    Size:\n      type: string\n      enum: [small, 2, large]\n")
        let warning = try only("enum-type-mismatch", in: result)
        #expect((warning.line, warning.column) == (8, 21))
        #expect(document.schema("Size")?.enumValues == [.string("small"), .string("2"), .string("large")])
    }

    @Test func commonTypeMistakesAreReadAsMeant() throws {
        let (document, result) = try schemas("3.0.3", "    Count: {type: long}\n    Flag: {type: bool}\n")
        #expect(result.warnings.map(\.code) == ["unknown-type", "unknown-type"])
        #expect(result.errors.isEmpty)
        #expect(document.schema("Count")?.singleType == .integer && document.schema("Count")?.format == "int64")
        #expect(document.schema("Flag")?.singleType == .boolean)
    }

    @Test func annotationsAndExtensions() throws {
        let body = """
                Item:
                  type: object
                  description: An item.
                  deprecated: true
                  x-internal: {owner: team}
                  properties:
                    id: {type: string, format: uuid, readOnly: true}
                    secret: {type: string, writeOnly: true}
                    created: {type: string, format: date-time, default: '2024-01-01T00:00:00Z', example: '2024-05-01T10:00:00Z'}

            """
        let (document, _) = try schemas("3.0.3", body)
        let item = try #require(document.schema("Item"))
        #expect(item.deprecated && item.description == "An item.")
        #expect(item.extensions["x-internal"] == .object({ var map = OrderedMap<JSONValue>(); map["owner"] = .string("team"); return map }()))
        #expect(document.property("id", of: "Item")?.readOnly == true)
        #expect(document.property("secret", of: "Item")?.writeOnly == true)
        let created = try #require(document.property("created", of: "Item"))
        #expect(created.defaultValue == .string("2024-01-01T00:00:00Z") && created.examples == [.string("2024-05-01T10:00:00Z")])
        #expect(item.properties.keys == ["id", "secret", "created"], "document order")
    }

    @Test func refWithSiblingsIn31BecomesAllOf() throws {
        let (document, result) = try schemas("3.1.0", "    A: {type: string}\n    B: {$ref: '#/components/schemas/A', maxLength: 3}\n")
        #expect(result.diagnostics.isEmpty)
        let b = try #require(document.schema("B"))
        #expect(b.allOf.first?.reference?.componentName == "A" && b.maxLength == 3)
    }
}

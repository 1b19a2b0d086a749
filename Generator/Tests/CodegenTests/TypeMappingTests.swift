import OpenAPIModel
import Testing

@testable import Codegen

@Suite struct TypeMappingTests {
    /// Maps each component schema of a small spec, naming declared types `Inline`.
    private func types(_ schemas: String, version: String = "3.0.3") throws -> [String: String] {
        let yaml = "openapi: \(version)\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n" + schemas
        let result = OpenAPILoader.load(string: yaml, fileName: "types.yaml")
        #expect(result.errors.isEmpty, "\(result.errors)")
        let document = try #require(result.document)
        let mapping = TypeMapping(document: document)
        var types: [String: String] = [:]
        for (name, schema) in document.components.schemas {
            guard let value = document.resolve(schema) else { continue }
            types[name] = mapping.swiftType(for: value) { _ in "Inline" }.description
        }
        return types
    }

    @Test func formats() throws {
        let mapped = try types("""
                A: {type: string, format: date-time}
                B: {type: string, format: date}
                C: {type: string, format: uuid}
                D: {type: string, format: uri}
                E: {type: string, format: byte}
                F: {type: string, format: binary}
                G: {type: integer, format: int32}
                H: {type: integer, format: int64}
                I: {type: integer}
                J: {type: number, format: float}
                K: {type: number, format: decimal}
                L: {type: number}
                M: {type: boolean}
                N: {type: string, format: email}

            """)
        #expect(mapped == [
            "A": "Date", "B": "CalendarDate", "C": "LowercaseUUID", "D": "URL", "E": "Data", "F": "Data", "G": "Int32", "H": "Int64",
            "I": "Int", "J": "Float", "K": "Decimal", "L": "Double", "M": "Bool", "N": "String",
        ])
    }

    @Test func containersReferencesAndFreeForm() throws {
        let mapped = try types("""
                Record: {type: object, properties: {id: {type: string}}}
                Records: {type: array, items: {$ref: '#/components/schemas/Record'}}
                Counts: {type: object, additionalProperties: {type: integer, format: int64}}
                Free: {type: object, additionalProperties: true}
                Anything: {}
                Nested: {type: array, items: {type: array, items: {type: string, format: date}}}
                Status: {type: string, enum: [ok, failed]}

            """)
        #expect(mapped["Record"] == "Inline", "objects with properties are declared")
        #expect(mapped["Records"] == "[Record]")
        #expect(mapped["Counts"] == "[String: Int64]")
        #expect(mapped["Free"] == "[String: JSONValue]")
        #expect(mapped["Anything"] == "JSONValue")
        #expect(mapped["Nested"] == "[[CalendarDate]]")
        #expect(mapped["Status"] == "Inline", "enums are declared")
    }

    @Test func base64ContentEncodingIn31() throws {
        let mapped = try types("    Blob: {type: string, contentEncoding: base64}\n", version: "3.1.0")
        #expect(mapped["Blob"] == "Data")
    }

    @Test func spelling() {
        #expect(SwiftType.optional(.nullable(.named("String"))).description == "Nullable<String>?")
        #expect(SwiftType.dictionary(.array(.named("Int"))).description == "[String: [Int]]")
    }
}

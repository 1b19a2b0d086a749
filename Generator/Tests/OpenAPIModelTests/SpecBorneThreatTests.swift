import Foundation
import Testing

@testable import OpenAPIModel

/// What a spec written by someone else cannot do to the build that runs
/// the generator on it, or to the app it generates: bend a number, read a
/// file outside its folder, or point the app at anything but a web server.
@Suite struct SpecBorneThreatTests {
    static func schemas(_ lines: String) -> String {
        "openapi: 3.0.3\ninfo: {title: Numbers, version: \"1\"}\npaths: {}\ncomponents:\n  schemas:\n" + lines
    }

    @Test func numbersThatAreNotFiniteOrDoNotFitTheirFormatAreErrorsAtTheirPlace() throws {
        let result = load(Self.schemas("""
                Bound: {type: object, properties: {inf: {type: number}, x: {type: number, maximum: 1e999}}}
                Inf: {type: number, minimum: -.inf, exclusiveMaximum: .nan}
                NaN: {type: number, maximum: "nan"}
                Int32: {type: integer, format: int32, default: 9999999999}
                Int32Enum: {type: integer, format: int32, enum: [1, 4294967296]}
                Int64: {type: integer, default: 99999999999999999999}
                Fraction: {type: integer, default: 1.5}
                Float: {type: number, format: float, maximum: 1e300, example: 1e39}
                Step: {type: number, multipleOf: 0}
                Fine: {type: integer, format: int32, minimum: -2147483648, maximum: 2147483647, default: 7, enum: [7, 8]}

            """))
        let errors = result.diagnostics.filter { $0.code == "invalid-number" }
        let places = errors.compactMap(\.pointer)
        #expect(places == [
            "#/components/schemas/Bound/properties/x/maximum", "#/components/schemas/Inf/minimum", "#/components/schemas/Inf/exclusiveMaximum",
            "#/components/schemas/NaN/maximum", "#/components/schemas/Int32/default", "#/components/schemas/Int32Enum/enum/1",
            "#/components/schemas/Int64/default", "#/components/schemas/Fraction/default",
            "#/components/schemas/Float/example", "#/components/schemas/Step/multipleOf",
        ], "\(errors.map(\.description).joined(separator: "\n"))")
        // A float's maximum of 1e300 lies beyond every float: it bounds nothing.
        #expect(result.diagnostics.filter { $0.code == "bound-outside-format" }.compactMap(\.pointer) == ["#/components/schemas/Float/maximum"])
        #expect(errors.first?.message == "'maximum' is not a finite number")
        #expect(errors.first { $0.pointer?.hasSuffix("Int32/default") == true }?.message.contains("out of the range of an int32") == true)
    }

    @Test func serversMustBeWebAddressesTheClientCanReachSafely() throws {
        let result = load("""
            openapi: 3.0.3
            info: {title: Servers, version: "1"}
            servers:
              - url: javascript:alert(1)
              - url: file:///etc/passwd
              - url: https://api.example.com/{version}
                variables: {version: {default: "v 1"}}
              - url: http://api.example.com
              - url: https://api.example.com
              - url: https://api.example.com
              - url: http://localhost:8080
              - url: http://127.0.0.1:9000/v1
              - url: /v1
            paths: {}
            """)
        let described = result.diagnostics.map { "\($0.code)@\($0.line)" }
        #expect(described == [
            "invalid-server-url@4", "invalid-server-url@5", "invalid-server-url@6", "insecure-server-url@8", "duplicate-server-url@10",
        ], "\(result.diagnostics.map(\.description).joined(separator: "\n"))")
    }

    @Test func aBodyOnAGetOrHeadIsAWarningAtItsPlace() throws {
        let result = load("""
            openapi: 3.0.3
            info: {title: Bodies, version: "1"}
            paths:
              /posts:
                get:
                  requestBody: {content: {application/json: {schema: {type: object}}}}
                  responses: {"200": {description: ok}}
                head:
                  requestBody: {content: {application/json: {schema: {type: object}}}}
                  responses: {"200": {description: ok}}
                delete:
                  requestBody: {content: {application/json: {schema: {type: object}}}}
                  responses: {"204": {description: done}}
            """)
        let described = result.diagnostics.map { "\($0.code)@\($0.line)" }
        #expect(described == ["body-on-get@6", "body-on-get@9"], "\(result.diagnostics.map(\.description).joined(separator: "\n"))")
    }

    @Test func referencesStayInTheSpecsFolderAndSayNothingOfWhatIsOutside() throws {
        let folder = try Fixtures.folder([
            "api/spec.yaml": """
                openapi: 3.0.3
                info: {title: Refs, version: "1"}
                paths: {}
                components:
                  schemas:
                    Up: {$ref: "../secret.yaml#/Nam"}
                    Absolute: {$ref: "\(FileManager.default.temporaryDirectory.path)/elsewhere.yaml#/Thing"}
                    Inside: {$ref: "parts/thing.yaml#/Thing"}
                    Linked: {$ref: "link.yaml#/Thing"}
                """,
            "api/parts/thing.yaml": "Thing: {type: string}\n",
            "secret.yaml": "Name: {type: string}\nPassword: hunter2\n",
        ])
        try FileManager.default.createSymbolicLink(atPath: folder + "/api/link.yaml", withDestinationPath: folder + "/secret.yaml")
        let result = OpenAPILoader.load(path: folder + "/api/spec.yaml")
        let outside = result.diagnostics.filter { $0.code == "ref-outside-root" }
        #expect(outside.compactMap(\.pointer) == [
            "#/components/schemas/Up/$ref", "#/components/schemas/Absolute/$ref", "#/components/schemas/Linked/$ref",
        ], "\(result.diagnostics.map(\.description).joined(separator: "\n"))")
        // Nothing of the file outside: no "did you mean 'Name'", no content.
        for diagnostic in result.diagnostics {
            #expect(!diagnostic.description.contains("Name'") && !diagnostic.description.contains("hunter2"), "\(diagnostic)")
        }
        #expect(result.document?.schema("Inside")?.types == [.string])

        // A folder the team names explicitly widens it.
        let wider = OpenAPILoader.load(path: folder + "/api/spec.yaml", referenceRoot: folder)
        #expect(wider.diagnostics.filter { $0.code == "ref-outside-root" }.compactMap(\.pointer) == ["#/components/schemas/Absolute/$ref"])
        #expect(wider.diagnostics.contains { $0.code == "unresolved-ref" && $0.hint?.contains("Name") == true }, "inside the root, the hint helps")
    }
}

/// A bound beyond the end of its format's range excludes nothing: OpenAI's
/// spec writes int64's limits as the doubles next to them.
@Suite struct BoundOutsideFormatTests {
    @Test func aBoundBeyondItsFormatsEndIsAWarningAndNoBound() throws {
        let result = load(SpecBorneThreatTests.schemas("""
                Seed: {type: integer, minimum: -9223372036854776000, maximum: 9223372036854776000}
                Small: {type: integer, format: int32, maximum: 4294967295}
                Empty: {type: integer, format: int32, minimum: 4294967296}

            """))
        let warnings = result.diagnostics.filter { $0.code == "bound-outside-format" }
        #expect(warnings.compactMap(\.pointer) == ["#/components/schemas/Seed/maximum", "#/components/schemas/Small/maximum"])
        #expect(result.document?.schema("Seed")?.maximum == nil && result.document?.schema("Seed")?.minimum != nil)
        let errors = result.diagnostics.filter { $0.code == "invalid-number" }
        #expect(errors.compactMap(\.pointer) == ["#/components/schemas/Empty/minimum"], "a minimum above every int32 leaves no value")
    }
}

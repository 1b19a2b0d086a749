import OpenAPIModel
import SpecDiff
import Testing

/// One base/revision pair per rule, small and written by hand: each must
/// report exactly its rule id at its level; each near miss must not.
@Suite struct RuleTests {
    /// A spec whose `/items` path has one `post` operation made of `operation`
    /// (YAML lines at operation level), plus extra paths and components.
    static func spec(_ operation: String, paths: String = "", components: String = "") -> String {
        let indented = operation.split(separator: "\n", omittingEmptySubsequences: false).map { "      " + $0 }.joined(separator: "\n")
        return """
            openapi: 3.0.3
            info: {title: Items, version: '1'}
            paths:
              /items:
                post:
                  operationId: createItem
            \(indented)
            \(paths)
            components:
              securitySchemes:
                key: {type: apiKey, in: header, name: X-API-Key}
                bearer: {type: http, scheme: bearer}
              schemas:
                Cat: {type: object, properties: {meow: {type: boolean}}}
                Dog: {type: object, properties: {bark: {type: boolean}}}
                Bird: {type: object, properties: {tweet: {type: boolean}}}
            \(components)
            """
    }

    static let ok = "responses:\n  '200': {description: OK}"

    /// `spec` as OpenAPI 3.1, for lists of types.
    static func spec31(_ operation: String) -> String {
        spec(operation).replacingOccurrences(of: "openapi: 3.0.3", with: "openapi: 3.1.0")
    }

    static func body(_ schema: String, required: Bool = true) -> String {
        "requestBody:\n  required: \(required)\n  content:\n    application/json:\n      schema: \(schema)\n" + ok
    }

    static func response(_ schema: String) -> String {
        "responses:\n  '200':\n    description: OK\n    content:\n      application/json:\n        schema: \(schema)"
    }

    static func parameter(_ parameter: String) -> String {
        "parameters:\n  - \(parameter)\n" + ok
    }

    static func findings(_ base: String, _ revision: String) throws -> [Finding] {
        let old = OpenAPILoader.load(string: base, fileName: "base.yaml")
        let new = OpenAPILoader.load(string: revision, fileName: "revision.yaml")
        #expect(old.errors.isEmpty && new.errors.isEmpty, "\(old.errors) \(new.errors)")
        let comparator = SpecComparator(base: try #require(old.document), revision: try #require(new.document), moduleName: "ItemsAPI", today: "2026-11-22")
        return comparator.compare()
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let rule: String
        let level: FindingLevel
        let base: String
        let revision: String
        var testDescription: String { rule }
    }

    static let other = "  /other:\n    get:\n      operationId: getOther\n      responses: {'200': {description: OK}}"
    static let otherDeprecated = "  /other:\n    get:\n      operationId: getOther\n      deprecated: true\n      responses: {'200': {description: OK}}"
    static let otherSunset = "  /other:\n    get:\n      operationId: getOther\n      deprecated: true\n      x-sunset: '2999-01-01'\n      responses: {'200': {description: OK}}"
    static let itemsGet = "    get:\n      operationId: listItems\n      responses: {'200': {description: OK}}"
    static let itemsGetDeprecated = "    get:\n      operationId: listItems\n      deprecated: true\n      responses: {'200': {description: OK}}"

    static let cases: [Case] = [
        Case(rule: "api-path-removed-without-deprecation", level: .error, base: spec(ok, paths: other), revision: spec(ok)),
        Case(rule: "api-path-removed-with-deprecation", level: .info, base: spec(ok, paths: otherDeprecated), revision: spec(ok)),
        Case(rule: "api-path-removed-before-sunset", level: .error, base: spec(ok, paths: otherSunset), revision: spec(ok)),
        Case(rule: "api-removed-without-deprecation", level: .error, base: spec(ok, paths: itemsGet), revision: spec(ok)),
        Case(rule: "api-removed-with-deprecation", level: .info, base: spec(ok, paths: itemsGetDeprecated), revision: spec(ok)),
        Case(rule: "endpoint-added", level: .info, base: spec(ok), revision: spec(ok, paths: other)),
        Case(rule: "api-operation-id-removed", level: .warning, base: spec(ok),
            revision: spec(ok).replacingOccurrences(of: "operationId: createItem", with: "operationId: addItem")),
        Case(rule: "response-success-status-removed", level: .error,
            base: spec("responses:\n  '200': {description: OK}\n  '201': {description: Created}"), revision: spec("responses:\n  '201': {description: Created}")),
        Case(rule: "response-media-type-removed", level: .error,
            base: spec("responses:\n  '200':\n    description: OK\n    content: {application/json: {schema: {type: string}}, text/plain: {schema: {type: string}}}"),
            revision: spec("responses:\n  '200':\n    description: OK\n    content: {application/json: {schema: {type: string}}}")),
        Case(rule: "required-response-header-removed", level: .error,
            base: spec("responses:\n  '200':\n    description: OK\n    headers: {X-Rate: {required: true, schema: {type: integer}}}"), revision: spec(ok)),
        Case(rule: "optional-response-header-removed", level: .warning,
            base: spec("responses:\n  '200':\n    description: OK\n    headers: {X-Rate: {schema: {type: integer}}}"), revision: spec(ok)),
        Case(rule: "new-required-request-parameter", level: .error, base: spec(ok),
            revision: spec(parameter("{name: q, in: query, required: true, schema: {type: string}}"))),
        Case(rule: "new-optional-request-parameter", level: .info, base: spec(ok),
            revision: spec(parameter("{name: q, in: query, schema: {type: string}}"))),
        Case(rule: "request-parameter-removed", level: .warning, base: spec(parameter("{name: q, in: query, schema: {type: string}}")), revision: spec(ok)),
        Case(rule: "request-parameter-became-required", level: .error,
            base: spec(parameter("{name: q, in: query, schema: {type: string}}")),
            revision: spec(parameter("{name: q, in: query, required: true, schema: {type: string}}"))),
        Case(rule: "request-parameter-type-changed", level: .error,
            base: spec(parameter("{name: q, in: query, schema: {type: integer, format: int32}}")),
            revision: spec(parameter("{name: q, in: query, schema: {type: integer, format: int64}}"))),
        Case(rule: "request-parameter-became-enum", level: .error,
            base: spec(parameter("{name: q, in: query, schema: {type: string}}")),
            revision: spec(parameter("{name: q, in: query, schema: {type: string, enum: [a, b]}}"))),
        Case(rule: "request-parameter-enum-value-removed", level: .error,
            base: spec(parameter("{name: q, in: query, schema: {type: string, enum: [a, b]}}")),
            revision: spec(parameter("{name: q, in: query, schema: {type: string, enum: [a]}}"))),
        Case(rule: "request-parameter-max-decreased", level: .error,
            base: spec(parameter("{name: n, in: query, schema: {type: integer, maximum: 100}}")),
            revision: spec(parameter("{name: n, in: query, schema: {type: integer, maximum: 50}}"))),
        Case(rule: "request-parameter-min-increased", level: .error,
            base: spec(parameter("{name: n, in: query, schema: {type: integer, minimum: 1}}")),
            revision: spec(parameter("{name: n, in: query, schema: {type: integer, minimum: 5}}"))),
        Case(rule: "request-parameter-max-length-decreased", level: .error,
            base: spec(parameter("{name: q, in: query, schema: {type: string, maxLength: 20}}")),
            revision: spec(parameter("{name: q, in: query, schema: {type: string, maxLength: 10}}"))),
        Case(rule: "request-parameter-min-length-increased", level: .error,
            base: spec(parameter("{name: q, in: query, schema: {type: string, minLength: 1}}")),
            revision: spec(parameter("{name: q, in: query, schema: {type: string, minLength: 3}}"))),
        Case(rule: "request-parameter-max-length-set", level: .warning,
            base: spec(parameter("{name: q, in: query, schema: {type: string}}")),
            revision: spec(parameter("{name: q, in: query, schema: {type: string, maxLength: 10}}"))),
        Case(rule: "request-parameter-pattern-added", level: .warning,
            base: spec(parameter("{name: q, in: query, schema: {type: string}}")),
            revision: spec(parameter("{name: q, in: query, schema: {type: string, pattern: '^[a-z]+$'}}"))),
        Case(rule: "request-body-became-required", level: .error,
            base: spec(body("{type: object, properties: {a: {type: string}}}", required: false)),
            revision: spec(body("{type: object, properties: {a: {type: string}}}"))),
        Case(rule: "request-body-added-required", level: .error, base: spec(ok),
            revision: spec(body("{type: object, properties: {a: {type: string}}}"))),
        Case(rule: "new-required-request-property", level: .error,
            base: spec(body("{type: object, properties: {a: {type: string}}}")),
            revision: spec(body("{type: object, required: [b], properties: {a: {type: string}, b: {type: string}}}"))),
        Case(rule: "new-required-request-property-with-default", level: .info,
            base: spec(body("{type: object, properties: {a: {type: string}}}")),
            revision: spec(body("{type: object, required: [b], properties: {a: {type: string}, b: {type: string, default: x}}}"))),
        Case(rule: "new-optional-request-property", level: .info,
            base: spec(body("{type: object, properties: {a: {type: string}}}")),
            revision: spec(body("{type: object, properties: {a: {type: string}, b: {type: string}}}"))),
        Case(rule: "request-property-became-required", level: .error,
            base: spec(body("{type: object, properties: {a: {type: string}}}")),
            revision: spec(body("{type: object, required: [a], properties: {a: {type: string}}}"))),
        Case(rule: "request-property-removed", level: .warning,
            base: spec(body("{type: object, properties: {a: {type: string}, b: {type: string}}}")),
            revision: spec(body("{type: object, properties: {a: {type: string}}}"))),
        Case(rule: "request-property-type-changed", level: .error,
            base: spec(body("{type: object, properties: {a: {type: string}}}")),
            revision: spec(body("{type: object, properties: {a: {type: integer}}}"))),
        Case(rule: "request-property-enum-value-removed", level: .error,
            base: spec(body("{type: object, properties: {a: {type: string, enum: [x, y]}}}")),
            revision: spec(body("{type: object, properties: {a: {type: string, enum: [x]}}}"))),
        Case(rule: "request-property-max-length-decreased", level: .error,
            base: spec(body("{type: object, properties: {a: {type: string, maxLength: 100}}}")),
            revision: spec(body("{type: object, properties: {a: {type: string, maxLength: 20}}}"))),
        Case(rule: "request-body-one-of-added", level: .info,
            base: spec(body("{oneOf: [{$ref: '#/components/schemas/Cat'}]}")),
            revision: spec(body("{oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]}"))),
        Case(rule: "request-body-one-of-removed", level: .error,
            base: spec(body("{oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]}")),
            revision: spec(body("{oneOf: [{$ref: '#/components/schemas/Cat'}]}"))),
        Case(rule: "request-body-any-of-removed", level: .error,
            base: spec(body("{anyOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]}")),
            revision: spec(body("{anyOf: [{$ref: '#/components/schemas/Cat'}]}"))),
        Case(rule: "request-body-all-of-added", level: .error,
            base: spec(body("{allOf: [{$ref: '#/components/schemas/Cat'}]}")),
            revision: spec(body("{allOf: [{$ref: '#/components/schemas/Cat'}, {type: object}]}"))),
        Case(rule: "response-body-one-of-added", level: .info,
            base: spec(response("{oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]}")),
            revision: spec(response("{oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}, {$ref: '#/components/schemas/Bird'}]}"))),
        Case(rule: "response-body-any-of-removed", level: .info,
            base: spec(response("{anyOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}, {$ref: '#/components/schemas/Bird'}]}")),
            revision: spec(response("{anyOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]}"))),
        Case(rule: "response-required-property-removed", level: .error,
            base: spec(response("{type: object, required: [a, b], properties: {a: {type: string}, b: {type: string}}}")),
            revision: spec(response("{type: object, required: [a], properties: {a: {type: string}}}"))),
        Case(rule: "response-optional-property-removed", level: .warning,
            base: spec(response("{type: object, properties: {a: {type: string}, b: {type: string}}}")),
            revision: spec(response("{type: object, properties: {a: {type: string}}}"))),
        Case(rule: "response-property-became-optional", level: .error,
            base: spec(response("{type: object, required: [a], properties: {a: {type: string}}}")),
            revision: spec(response("{type: object, properties: {a: {type: string}}}"))),
        Case(rule: "response-property-became-optional-with-default", level: .info,
            base: spec(response("{type: object, required: [a], properties: {a: {type: boolean}}}")),
            revision: spec(response("{type: object, properties: {a: {type: boolean, default: true}}}"))),
        Case(rule: "response-property-became-nullable", level: .error,
            base: spec(response("{type: object, properties: {a: {type: string}}}")),
            revision: spec(response("{type: object, properties: {a: {type: string, nullable: true}}}"))),
        Case(rule: "response-property-type-changed", level: .error,
            base: spec(response("{type: object, properties: {a: {type: string, format: date-time}}}")),
            revision: spec(response("{type: object, properties: {a: {type: string, format: date}}}"))),
        Case(rule: "response-property-enum-value-added", level: .warning,
            base: spec(response("{type: object, properties: {a: {type: string, enum: [x]}}}")),
            revision: spec(response("{type: object, properties: {a: {type: string, enum: [x, y]}}}"))),
        Case(rule: "request-parameter-max-increased", level: .info,
            base: spec(parameter("{name: n, in: query, schema: {type: integer, maximum: 50}}")),
            revision: spec(parameter("{name: n, in: query, schema: {type: integer, maximum: 100}}"))),
        Case(rule: "request-property-max-length-increased", level: .info,
            base: spec(body("{type: object, properties: {a: {type: string, maxLength: 20}}}")),
            revision: spec(body("{type: object, properties: {a: {type: string, maxLength: 100}}}"))),
        Case(rule: "request-parameter-became-optional", level: .info,
            base: spec(parameter("{name: q, in: query, required: true, schema: {type: string}}")),
            revision: spec(parameter("{name: q, in: query, schema: {type: string}}"))),
        Case(rule: "response-optional-property-added", level: .info,
            base: spec(response("{type: object, properties: {a: {type: string}}}")),
            revision: spec(response("{type: object, properties: {a: {type: string}, b: {type: string}}}"))),
        Case(rule: "response-required-property-removed", level: .error,
            base: spec(response("{oneOf: [{$ref: '#/components/schemas/Card'}, {$ref: '#/components/schemas/Dog'}]}"), components: "    Card: {type: object, required: [last4], properties: {last4: {type: string}}}"),
            revision: spec(response("{oneOf: [{$ref: '#/components/schemas/Card'}, {$ref: '#/components/schemas/Dog'}]}"), components: "    Card: {type: object, properties: {}}")),
        Case(rule: "request-parameter-enum-value-removed", level: .error,
            base: spec(parameter("{name: ids, in: query, schema: {type: array, items: {type: string, enum: [a, b]}}}")),
            revision: spec(parameter("{name: ids, in: query, schema: {type: array, items: {type: string, enum: [a]}}}"))),
        Case(rule: "request-property-list-of-types-narrowed", level: .error,
            base: spec31(body("{type: object, properties: {a: {type: [string, integer]}}}")),
            revision: spec31(body("{type: object, properties: {a: {type: string}}}"))),
        Case(rule: "request-property-list-of-types-widened", level: .info,
            base: spec31(body("{type: object, properties: {a: {type: string}}}")),
            revision: spec31(body("{type: object, properties: {a: {type: [string, integer]}}}"))),
        Case(rule: "request-parameter-list-of-types-narrowed", level: .error,
            base: spec31(parameter("{name: q, in: query, schema: {type: [integer, boolean]}}")),
            revision: spec31(parameter("{name: q, in: query, schema: {type: [integer]}}"))),
        Case(rule: "request-body-list-of-types-widened", level: .info,
            base: spec31(body("{type: [string]}")), revision: spec31(body("{type: [string, number]}"))),
        Case(rule: "response-property-list-of-types-widened", level: .error,
            base: spec31(response("{type: object, properties: {a: {type: [string, integer]}}}")),
            revision: spec31(response("{type: object, properties: {a: {type: [string, integer, boolean]}}}"))),
        Case(rule: "response-property-list-of-types-narrowed", level: .info,
            base: spec31(response("{type: object, properties: {a: {type: [string, integer]}}}")),
            revision: spec31(response("{type: object, properties: {a: {type: integer}}}"))),
        Case(rule: "request-body-became-enum", level: .error,
            base: spec(body("{type: string}")), revision: spec(body("{type: string, enum: [a, b]}"))),
        Case(rule: "request-property-became-enum", level: .error,
            base: spec(body("{type: object, properties: {a: {type: string}}}")),
            revision: spec(body("{type: object, properties: {a: {type: string, enum: [x]}}}"))),
        Case(rule: "response-body-enum-value-added", level: .warning,
            base: spec(response("{type: string, enum: [x]}")), revision: spec(response("{type: string, enum: [x, y]}"))),
        Case(rule: "response-body-enum-value-removed", level: .info,
            base: spec(response("{type: string, enum: [x, y]}")), revision: spec(response("{type: string, enum: [x]}"))),
        Case(rule: "response-property-enum-value-removed", level: .info,
            base: spec(response("{type: object, properties: {a: {type: string, enum: [x, y]}}}")),
            revision: spec(response("{type: object, properties: {a: {type: string, enum: [y]}}}"))),
        Case(rule: "api-security-added", level: .info, base: spec(ok),
            revision: spec("security: [{key: []}]\n" + ok)),
        Case(rule: "api-security-removed", level: .info, base: spec("security: [{key: []}, {bearer: []}]\n" + ok),
            revision: spec("security: [{key: []}]\n" + ok)),
    ]

    @Test(arguments: cases) func reportsExactlyItsRule(_ rule: Case) throws {
        let findings = try Self.findings(rule.base, rule.revision)
        #expect(findings.map(\.id) == [rule.rule], "\(findings.map { "\($0.id): \($0.message)" })")
        #expect(findings.first?.level == rule.level)
        #expect(findings.first?.operation != nil)
    }

    @Test func aNewStatusWithAnotherBodyChangesTheThrownType() throws {
        let base = Self.spec("responses:\n  '200': {description: OK}\n  '400': {description: Bad, content: {application/json: {schema: {$ref: '#/components/schemas/Cat'}}}}")
        let revision = Self.spec("responses:\n  '200': {description: OK}\n  '400': {description: Bad, content: {application/json: {schema: {$ref: '#/components/schemas/Cat'}}}}\n  '422': {description: Invalid, content: {application/json: {schema: {$ref: '#/components/schemas/Dog'}}}}")
        let findings = try Self.findings(base, revision)
        #expect(findings.map(\.id) == ["response-non-success-status-added", "swift-error-type-changed"])
        let changed = try #require(findings.last)
        #expect(changed.level == .warning)
        #expect(changed.message.contains("APIError<CreateItemErrorBody> instead of APIError<Cat>"))
        #expect(changed.swiftSymbols == ["ItemsAPI.Client.createItem()"])
    }

    @Test func aRequiredResponsePropertyTheSpecNowAssumesBecameOptionalAndARequestOneDidNot() throws {
        let response = try Self.findings(
            Self.spec(Self.response("{type: object, required: [a], properties: {a: {type: string}}}")),
            Self.spec(Self.response("{type: object, x-assumed: true, required: [a], properties: {a: {type: string}}}")))
        #expect(response.map(\.id) == ["response-property-became-optional"])
        #expect(response.first?.message.contains("became optional for the status 200 (the spec marks it x-assumed)") == true, "\(response.map(\.message))")
        let request = try Self.findings(
            Self.spec(Self.body("{type: object, required: [a], properties: {a: {type: string, maxLength: 3}}}")),
            Self.spec(Self.body("{type: object, required: [a], properties: {a: {type: string, maxLength: 3, x-assumed: true}}}")))
        #expect(request.filter { $0.level == .error }.isEmpty, "a request property keeps its type: \(request.map(\.id))")
    }

    @Test func aSingleMemberUnionBecomingAnEnumChangesTheReturnType() throws {
        let findings = try Self.findings(
            Self.spec(Self.response("{oneOf: [{$ref: '#/components/schemas/Cat'}]}")),
            Self.spec(Self.response("{oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]}")))
        #expect(findings.map(\.id) == ["response-body-one-of-added", "swift-result-type-changed"])
        #expect(findings.last?.message == "the generated method now returns CreateItemResponse instead of Cat")
    }

    /// Near misses: compatible changes that must not be reported as breaking.
    static let nearMisses: [Case] = [
        Case(rule: "new-required-request-property", level: .error,
            base: spec(body("{type: object, properties: {a: {type: string}}}")),
            revision: spec(body("{type: object, properties: {a: {type: string}, b: {type: string}}}"))),
        Case(rule: "request-parameter-enum-value-removed", level: .error,
            base: spec(parameter("{name: q, in: query, schema: {type: string, enum: [a]}}")),
            revision: spec(parameter("{name: q, in: query, schema: {type: string, enum: [a, b]}}"))),
        Case(rule: "request-parameter-max-decreased", level: .error,
            base: spec(parameter("{name: n, in: query, schema: {type: integer, maximum: 50}}")),
            revision: spec(parameter("{name: n, in: query, schema: {type: integer, maximum: 100}}"))),
        Case(rule: "request-parameter-max-length-decreased", level: .error,
            base: spec(parameter("{name: q, in: query, schema: {type: string, maxLength: 10}}")),
            revision: spec(parameter("{name: q, in: query, schema: {type: string}}"))),
        Case(rule: "response-required-property-removed", level: .error,
            base: spec(response("{type: object, properties: {a: {type: string}}}")),
            revision: spec(response("{type: object, required: [a], properties: {a: {type: string}, b: {type: string}}}"))),
        Case(rule: "request-parameter-became-required", level: .error,
            base: spec(parameter("{name: q, in: query, required: true, schema: {type: string}}")),
            revision: spec(parameter("{name: q, in: query, schema: {type: string}}"))),
        Case(rule: "response-property-became-nullable", level: .error,
            base: spec(body("{type: object, properties: {a: {type: string}}}")),
            revision: spec(body("{type: object, properties: {a: {type: string, nullable: true}}}"))),
        Case(rule: "api-path-removed-without-deprecation", level: .error,
            base: spec(ok, paths: other), revision: spec(ok, paths: other.replacingOccurrences(of: "operationId: getOther", with: "operationId: getOther\n      description: Now documented."))),
        Case(rule: "request-parameter-type-changed", level: .error,
            base: spec(parameter("{name: id, in: path, required: true, schema: {type: string}}")).replacingOccurrences(of: "/items:", with: "/items/{id}:"),
            revision: spec(parameter("{name: itemId, in: path, required: true, schema: {type: string}}")).replacingOccurrences(of: "/items:", with: "/items/{itemId}:")),
        Case(rule: "api-security-removed", level: .info,
            base: spec("security: [{key: []}, {bearer: []}]\n" + ok), revision: spec("security: [{bearer: []}, {key: []}]\n" + ok)),
        Case(rule: "response-optional-property-removed", level: .warning,
            base: spec(response("{type: object, properties: {a: {type: string}}}")),
            revision: spec(response("{type: object, properties: {a: {type: string, description: Renamed in prose only.}}}"))),
        Case(rule: "request-body-one-of-removed", level: .error,
            base: spec(body("{oneOf: [{$ref: '#/components/schemas/Cat'}, {$ref: '#/components/schemas/Dog'}]}")),
            revision: spec(body("{oneOf: [{$ref: '#/components/schemas/Dog'}, {$ref: '#/components/schemas/Cat'}]}"))),
        Case(rule: "api-operation-id-removed", level: .warning, base: spec(ok),
            revision: spec(ok).replacingOccurrences(of: "operationId: createItem", with: "operationId: createItem\n      description: Creates an item.")),
        Case(rule: "request-parameter-removed", level: .warning,
            base: spec(parameter("{name: X-Api-Key, in: header, schema: {type: string}}")),
            revision: spec(parameter("{name: X-API-Key, in: header, schema: {type: string}}"))),
        Case(rule: "request-parameter-type-changed", level: .error,
            base: spec("parameters:\n  - {name: org, in: path, required: true, schema: {type: string}}\n  - {name: repo, in: path, required: true, schema: {type: integer}}\n" + ok)
                .replacingOccurrences(of: "/items:", with: "/orgs/{org}/repos/{repo}:"),
            revision: spec("parameters:\n  - {name: repo, in: path, required: true, schema: {type: integer}}\n  - {name: org, in: path, required: true, schema: {type: string}}\n" + ok)
                .replacingOccurrences(of: "/items:", with: "/orgs/{org}/repos/{repo}:")),
        Case(rule: "request-property-list-of-types-narrowed", level: .error,
            base: spec31(body("{type: object, properties: {a: {type: [string, integer]}}}")),
            revision: spec31(body("{type: object, properties: {a: {type: [integer, string]}}}"))),
        Case(rule: "response-property-list-of-types-narrowed", level: .info,
            base: spec31(response("{type: object, properties: {a: {type: [string, 'null']}}}")),
            revision: spec31(response("{type: object, properties: {a: {type: string}}}"))),
        Case(rule: "request-property-list-of-types-widened", level: .info,
            base: spec31(body("{type: object, properties: {a: {type: [string, integer]}}}")),
            revision: spec31(body("{type: object, properties: {a: {type: [string, integer], description: Either.}}}"))),
        Case(rule: "request-property-became-enum", level: .error,
            base: spec(response("{type: object, properties: {a: {type: string}}}")),
            revision: spec(response("{type: object, properties: {a: {type: string, enum: [x]}}}"))),
        Case(rule: "request-body-became-enum", level: .error,
            base: spec(body("{type: string, enum: [a]}")), revision: spec(body("{type: string, enum: [a, b]}"))),
    ]

    @Test(arguments: nearMisses) func nearMissIsNotReported(_ nearMiss: Case) throws {
        let findings = try Self.findings(nearMiss.base, nearMiss.revision)
        #expect(!findings.contains { $0.id == nearMiss.rule }, "\(findings.map(\.id))")
        #expect(!findings.contains { $0.level == .error }, "\(findings.map { "\($0.id): \($0.message)" })")
    }
}

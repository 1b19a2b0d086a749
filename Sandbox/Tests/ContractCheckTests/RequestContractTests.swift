import ContractCheck
import Foundation
import OpenAPIModel
import Testing

/// Requests checked against a spec: the operation found, and every way a
/// request breaks it, with the spec's file:line; never the value received.
@Suite struct RequestContractTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let soul = try! RequestContract(specPath: root.appendingPathComponent("specs/soul.yaml").path)
    static let json = [(name: "Content-Type", value: "application/json")]

    static func body(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func aRequestTheSpecAllowsHasNoViolations() {
        let result = Self.soul.check(ContractRequest(
            method: "POST", path: "/api/auth/verify-otp", headers: Self.json, body: Self.body(#"{"phone": "+15555550123", "otp": "123456"}"#)))
        #expect(result.operation == "verifyOTP" && result.pathTemplate == "/api/auth/verify-otp")
        #expect(result.isValid, "\(result.violations)")
    }

    @Test func eachBrokenRuleIsNamedWithItsFieldAndSpecPosition() throws {
        let result = Self.soul.check(ContractRequest(
            method: "POST", path: "/api/auth/verify-otp", headers: Self.json, body: Self.body(#"{"phone": "5555550123", "otp": "12345"}"#)))
        let rules = result.violations.map { "\($0.field) \($0.rule)" }.sorted()
        #expect(rules == ["body.otp minLength", "body.otp pattern", "body.phone pattern"])
        let phone = try #require(result.violations.first { $0.field == "body.phone" })
        let schema = try #require(Self.soul.document.components.schemas["PhoneNumber"].flatMap { Self.soul.document.resolve($0) })
        #expect(phone.location == schema.location)
        #expect(phone.specPosition?.contains("specs/soul.yaml:\(schema.location.mark.line):") == true)
        #expect(phone.description.contains(#"does not match pattern ^\+[1-9]\d{1,14}$"#))
        #expect(result.violations.allSatisfy { !$0.description.contains("5555550123") && !$0.description.contains("12345\"") }, "no value echoed")
    }

    @Test func missingBodyMembersWrongTypesAndContentTypes() {
        let missing = Self.soul.check(ContractRequest(method: "POST", path: "/api/auth/verify-otp", headers: Self.json, body: Self.body(#"{"phone": 15555550123}"#)))
        #expect(missing.violations.map { "\($0.field) \($0.rule)" }.sorted() == ["body.otp required", "body.phone type"])
        let noBody = Self.soul.check(ContractRequest(method: "POST", path: "/api/auth/verify-otp", headers: Self.json))
        #expect(noBody.violations.map(\.rule) == ["required"] && noBody.violations[0].field == "body")
        let text = Self.soul.check(ContractRequest(
            method: "POST", path: "/api/auth/verify-otp", headers: [("Content-Type", "text/plain")], body: Self.body("+15555550123 123456")))
        #expect(text.violations.map(\.rule) == ["content-type"] && text.violations[0].message.contains("application/json"))
        let broken = Self.soul.check(ContractRequest(method: "POST", path: "/api/auth/verify-otp", headers: Self.json, body: Self.body(#"{"phone": "+1"#)))
        #expect(broken.violations.map(\.rule) == ["json"])
        let tracker = try! RequestContract(specPath: Self.root.appendingPathComponent("specs/mobiletracker.yaml").path)
        let bounds = tracker.check(ContractRequest(
            method: "PUT", path: "/v2/tracking-session/s-1/location", headers: Self.json + [("X-API-Key", "k")],
            body: Self.body(#"{"latitude": 91, "longitude": 0, "accuracy": 10}"#)))
        #expect(bounds.violations.map { "\($0.field) \($0.rule)" } == ["body.latitude maximum"])
    }

    @Test func whatTheSpecAssumesIsHeldToItsTypeOnly() throws {
        // The moods payload is a guess (x-assumed): a score the guess bounds to 1...10 is the server's to judge.
        let guessed = Self.soul.check(ContractRequest(
            method: "POST", path: "/api/moods", headers: Self.json + [("Authorization", "Bearer t")], body: Self.body(#"{"score": 11, "mood": "calm"}"#)))
        #expect(guessed.isValid, "\(guessed.violations)")
        let wrongType = Self.soul.check(ContractRequest(
            method: "POST", path: "/api/moods", headers: Self.json + [("Authorization", "Bearer t")], body: Self.body(#"["calm"]"#)))
        #expect(wrongType.violations.map { "\($0.field) \($0.rule)" } == ["body type"])
        // Safepocket's `from` has no documented format: a day passes; the documented `month` is still checked.
        let safepocket = try RequestContract(specPath: Self.root.appendingPathComponent("specs/safepocket.yaml").path)
        let bearer = [(name: "Authorization", value: "Bearer t")]
        #expect(safepocket.check(ContractRequest(method: "GET", path: "/transactions", query: "from=2024-01-15&to=2024-02-10", headers: bearer)).isValid)
        let month = safepocket.check(ContractRequest(method: "GET", path: "/transactions", query: "month=2024-01-15", headers: bearer))
        #expect(month.violations.map { "\($0.field) \($0.rule)" } == ["query.month pattern"])
    }

    @Test func credentialsAreCheckedByTheirShape() throws {
        let secureNode = try RequestContract(specPath: Self.root.appendingPathComponent("specs/securenode.yaml").path)
        let anonymous = secureNode.check(ContractRequest(method: "GET", path: "/api/mobile/branding/sync"))
        #expect(anonymous.violations.map(\.rule) == ["security"] && anonymous.violations[0].message.contains("header.X-API-Key"))
        #expect(anonymous.violations[0].location != nil)
        #expect(secureNode.check(ContractRequest(method: "GET", path: "/api/mobile/branding/sync", headers: [("x-api-key", "sk_live_1")])).isValid)
        let basic = Self.soul.check(ContractRequest(method: "GET", path: "/api/moods", headers: [("Authorization", "Basic YTpi")]))
        #expect(basic.violations.map(\.rule) == ["security"] && basic.violations[0].message.contains("Authorization: Bearer"))
        #expect(Self.soul.check(ContractRequest(method: "GET", path: "/api/moods", headers: [("Authorization", "bearer abc")])).isValid)
        #expect(Self.soul.check(ContractRequest(method: "GET", path: "/healthz")).isValid, "security: [] needs nothing")
    }

    @Test func unknownPathsAndMethods() {
        let path = Self.soul.check(ContractRequest(method: "GET", path: "/api/mood"))
        #expect(path.operation == nil && path.violations.map(\.rule) == ["path"])
        let method = Self.soul.check(ContractRequest(method: "DELETE", path: "/api/moods"))
        #expect(method.violations.map(\.rule) == ["method"] && method.violations[0].message.contains("GET, POST"))
        #expect(method.violations[0].location != nil)
        #expect(Self.soul.check(ContractRequest(method: "GET", path: "//api/moods")).violations.map(\.rule) == ["path"], "a doubled slash is another path")
    }

    @Test func parametersByLocationStyleAndType() throws {
        let spec = try Self.temporarySpec("""
            openapi: 3.1.0
            info: {title: T, version: '1'}
            paths:
              /pets/{petId}/photos/today:
                get:
                  operationId: todaysPhoto
                  responses: {'200': {description: ok}}
              /pets/{petId}/photos/{day}:
                get:
                  operationId: photo
                  parameters:
                    - {name: petId, in: path, required: true, schema: {type: integer, minimum: 1}}
                    - {name: day, in: path, required: true, schema: {type: string, format: date}}
                    - {name: size, in: query, schema: {type: string, enum: [s, m, l]}}
                    - {name: tags, in: query, explode: false, schema: {type: array, maxItems: 2, items: {type: string}}}
                    - {name: ids, in: query, schema: {type: array, items: {$ref: '#/components/schemas/Id'}}}
                    - {name: X-Request-ID, in: header, required: true, schema: {type: string, format: uuid}}
                    - {name: session, in: cookie, required: true, schema: {type: string, minLength: 4}}
                  responses: {'200': {description: ok}}
            components:
              schemas:
                Id: {type: integer, minimum: 1}
            """)
        let contract = try RequestContract(specPath: spec)
        let good = contract.check(ContractRequest(
            method: "GET", path: "/pets/7/photos/2024-02-29", query: "size=m&tags=a,b&ids=1&ids=2",
            headers: [("x-request-id", "3f2504e0-4f89-11d3-9a0c-0305e82c3301"), ("Cookie", "theme=dark; session=abcd")]))
        #expect(good.operation == "photo" && good.isValid, "\(good.violations)")
        #expect(contract.check(ContractRequest(method: "GET", path: "/pets/7/photos/today")).operation == "todaysPhoto", "literal segments win")
        let bad = contract.check(ContractRequest(
            method: "GET", path: "/pets/0/photos/2024-02-30", query: "size=xl&tags=a,b,c&ids=0", headers: [("Cookie", "session=ab")]))
        #expect(bad.violations.map { "\($0.field) \($0.rule)" }.sorted() == [
            "cookie.session minLength", "header.X-Request-ID required", "path.day format", "path.petId minimum", "query.ids[0] minimum", "query.size enum",
            "query.tags maxItems",
        ])
        let notANumber = contract.check(ContractRequest(
            method: "GET", path: "/pets/seven/photos/2024-02-28", headers: [("X-Request-ID", "not-a-uuid"), ("Cookie", "session=abcd")]))
        #expect(notANumber.violations.map { "\($0.field) \($0.rule)" }.sorted() == ["header.X-Request-ID format", "path.petId type"])
    }

    @Test func objectsUnionsAndReadOnly() throws {
        let spec = try Self.temporarySpec("""
            openapi: 3.1.0
            info: {title: T, version: '1'}
            paths:
              /shapes:
                post:
                  operationId: addShape
                  requestBody:
                    required: true
                    content:
                      application/json:
                        schema: {$ref: '#/components/schemas/Shape'}
                  responses: {'201': {description: ok}}
            components:
              schemas:
                Shape:
                  oneOf: [{$ref: '#/components/schemas/Circle'}, {$ref: '#/components/schemas/Square'}]
                  discriminator: {propertyName: kind}
                Circle:
                  type: object
                  additionalProperties: false
                  required: [kind, radius, id]
                  properties:
                    kind: {const: Circle}
                    radius: {type: number, exclusiveMinimum: 0, multipleOf: 0.5}
                    id: {type: string, readOnly: true}
                    labels: {type: array, uniqueItems: true, items: {type: string}}
                Square:
                  type: object
                  required: [kind, side]
                  properties:
                    kind: {const: Square}
                    side: {type: integer}
            """)
        let contract = try RequestContract(specPath: spec)
        func check(_ body: String) -> [String] {
            contract.check(ContractRequest(method: "POST", path: "/shapes", headers: Self.json, body: Self.body(body))).violations
                .map { "\($0.field) \($0.rule)" }.sorted()
        }
        #expect(check(#"{"kind": "Circle", "radius": 1.5, "labels": ["a", "b"]}"#) == [], "readOnly id is not required in a request")
        #expect(check(#"{"kind": "Square", "side": 2}"#) == [])
        #expect(check(#"{"kind": "Circle", "radius": 0.7, "id": "c1", "colour": "red", "labels": ["a", "a"]}"#) == [
            "body.colour additionalProperties", "body.id readOnly", "body.labels uniqueItems", "body.radius multipleOf",
        ])
        #expect(check(#"{"kind": "Circle", "radius": 0}"#) == ["body.radius exclusiveMinimum"])
        #expect(check(#"{"kind": "Triangle"}"#) == ["body discriminator"])
        #expect(check(#"{"side": 2}"#) == ["body.kind discriminator"])
    }

    /// Every request body example in the four specs (checked against its
    /// schema by `make lint`'s independent validator) passes the contract;
    /// the same example with its required members removed does not, unless
    /// the body's schema is the spec's guess (`x-assumed`: its type only).
    @Test(arguments: ["securenode", "soul", "safepocket", "mobiletracker"])
    func theSpecsOwnExamplesPass(_ name: String) throws {
        let contract = try RequestContract(specPath: Self.root.appendingPathComponent("specs/\(name).yaml").path)
        var checked = 0
        for (path, method, operation, _) in contract.document.operations {
            guard let body = operation.requestBody.flatMap({ contract.document.resolve($0) }), let media = body.content["application/json"],
                  case .object(let members)? = media.example else { continue }
            let concrete = path.replacing(/\{[^}]+\}/, with: "x")
            let request = ContractRequest(method: method.wireName, path: concrete, headers: Self.json, body: Self.body(JSONValue.object(members).description))
            let violations = contract.check(request).violations.filter { $0.field.hasPrefix("body") }
            #expect(violations.isEmpty, "\(name) \(method.wireName) \(path): \(violations)")
            checked += 1
            if let schema = media.schema.flatMap({ contract.document.resolve($0) }), let first = schema.required.first,
               !AssumedExtension.isMarked(schema.extensions) {
                var without = members
                without[first] = nil
                let broken = ContractRequest(method: method.wireName, path: concrete, headers: Self.json, body: Self.body(JSONValue.object(without).description))
                #expect(contract.check(broken).violations.contains { $0.rule == "required" && $0.field == "body.\(first)" }, "\(path) without \(first)")
            }
        }
        #expect(checked > 0, "\(name) has request body examples")
    }

    @Test func aSpecWithErrorsIsRefusedWithPositions() throws {
        let spec = try Self.temporarySpec("openapi: 3.1.0\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      responses:\n        '200': {$ref: '#/components/responses/Nope'}\n")
        #expect(throws: RequestContract.LoadError.self) { try RequestContract(specPath: spec) }
        do {
            _ = try RequestContract(specPath: spec)
        } catch {
            #expect("\(error)".contains("\(spec):7:"))
        }
    }

    static func temporarySpec(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString).yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}

import ContractCheck
import Foundation
import Testing

/// Answers checked against a spec (the sandbox's strict mode): the status
/// documented (exact, range or default), required headers, the content
/// type, a body present, and the body against its schema with `writeOnly`
/// members refused; each violation with the spec's file:line.
@Suite struct ResponseCheckTests {
    static let json = [(name: "Content-Type", value: "application/json")]

    static func contract() throws -> RequestContract {
        let spec = try RequestContractTests.temporarySpec("""
            openapi: 3.1.0
            info: {title: T, version: '1'}
            paths:
              /users/{id}:
                get:
                  operationId: getUser
                  parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
                  responses:
                    '200':
                      description: The user.
                      headers:
                        X-Request-Id: {required: true, schema: {type: string}}
                      content:
                        application/json:
                          schema:
                            type: object
                            required: [id, name]
                            properties:
                              id: {type: integer}
                              name: {type: string, maxLength: 8}
                              password: {type: string, writeOnly: true}
                    4XX:
                      description: A client error.
                      content:
                        application/json:
                          schema: {type: object, required: [message], properties: {message: {type: string}}}
                    '204': {description: Nothing.}
            """)
        return try RequestContract(specPath: spec)
    }

    @Test func anAnswerTheSpecDocumentsHasNoViolations() throws {
        let contract = try Self.contract()
        let headers = Self.json + [(name: "X-Request-Id", value: "r-1")]
        #expect(contract.checkResponse(operation: "getUser", status: 200, headers: headers, body: Array(#"{"id": 1, "name": "Ada"}"#.utf8)).isEmpty)
        #expect(contract.checkResponse(operation: "getUser", status: 404, headers: Self.json, body: Array(#"{"message": "no"}"#.utf8)).isEmpty, "4XX covers it")
        #expect(contract.checkResponse(operation: "getUser", status: 204, headers: [], body: []).isEmpty)
    }

    @Test func eachWayAnAnswerBreaksTheSpecIsNamed() throws {
        let contract = try Self.contract()
        let undocumented = contract.checkResponse(operation: "getUser", status: 503, headers: [], body: [])
        #expect(undocumented.map(\.rule) == ["status"] && undocumented[0].message.contains("200, 4XX, 204"))
        let noHeader = contract.checkResponse(operation: "getUser", status: 200, headers: Self.json, body: Array(#"{"id": 1, "name": "Ada"}"#.utf8))
        #expect(noHeader.map(\.field) == ["response.header.X-Request-Id"])
        let headers = Self.json + [(name: "X-Request-Id", value: "r-1")]
        #expect(contract.checkResponse(operation: "getUser", status: 200, headers: headers, body: []).map(\.rule) == ["body"])
        let text = contract.checkResponse(operation: "getUser", status: 200, headers: [(name: "Content-Type", value: "text/plain"), (name: "X-Request-Id", value: "r")], body: Array("hi".utf8))
        #expect(text.map(\.rule) == ["content-type"])
        let notJSON = contract.checkResponse(operation: "getUser", status: 200, headers: headers, body: Array(#"{"id": 1,"#.utf8))
        #expect(notJSON.map(\.rule) == ["json"])
        let broken = contract.checkResponse(
            operation: "getUser", status: 200, headers: headers, body: Array(#"{"id": "1", "name": "Ada Lovelace", "password": "x"}"#.utf8))
        #expect(Set(broken.map { "\($0.field) \($0.rule)" }) == ["response.body.id type", "response.body.name maxLength", "response.body.password writeOnly"])
        #expect(broken.allSatisfy { $0.specPosition?.contains(".yaml:") == true })
        #expect(contract.checkResponse(operation: "nope", status: 200, headers: [], body: []).map(\.rule) == ["operation"])
    }
}

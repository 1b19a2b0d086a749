import Foundation
import Testing

@testable import OpenAPIModel

/// OpenAPI 3.2 documents: each new field read where it stands, no
/// version warning, and each misuse a located diagnostic.
@Suite struct OpenAPI32Tests {
    static let reference = Fixtures.repositoryRoot.appendingPathComponent("Generator/Tests/References/ReferenceOpenapi32/openapi-32.yaml").path

    @Test func aDocumentUsingEveryNewFieldLoadsWithoutADiagnostic() throws {
        let result = OpenAPILoader.load(path: Self.reference)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
        let document = try #require(result.document)
        #expect(document.selfURI == "https://api.example.com/openapi.yaml")
        #expect(document.tags.map(\.parent) == [nil, "catalog"])
        #expect(document.tags.map(\.kind) == ["nav", "nav"])
        #expect(document.tags.first?.summary == "The catalog")
        let item = try #require(document.paths["/items"].flatMap { document.resolve($0) })
        #expect(item.operations.map(\.method.wireName) == ["QUERY", "PURGE"])
        #expect(item.operations.map(\.method.isFixedField) == [true, false])
        let search = document.parameters(.get, "/search")
        #expect(search.map(\.location) == [.querystring, .cookie])
        #expect(search.last?.style == "cookie")
        let feed = try #require(document.operation(.get, "/feed")?.responses["200"].flatMap { document.resolve($0) })
        let item32 = try #require(feed.content["text/event-stream"]?.itemSchema.flatMap { document.resolve($0) })
        #expect(item32.properties["data"].flatMap { document.resolve($0) }?.contentSchema != nil)
        #expect(document.schema("Pet")?.discriminator?.defaultMapping?.ref == "#/components/schemas/Item")
        let example = try #require(document.components.examples["AnItem"].flatMap { document.resolve($0) })
        var expected = OrderedMap<JSONValue>()
        expected["id"] = .string("a1")
        #expect(example.dataValue == .object(expected))
        #expect(example.serializedValue == #"{"id":"a1"}"#)
        let scheme = try #require(document.components.securitySchemes["device"].flatMap { document.resolve($0) })
        #expect(scheme.oauth2MetadataURL == "https://auth.example.com/.well-known/oauth-authorization-server")
        #expect(scheme.flows["deviceAuthorization"]?.deviceAuthorizationURL == "https://auth.example.com/device")
    }

    @Test func theSameFieldsInA31DocumentAreUnknownAndQueryIsNoOperation() throws {
        let text = try String(contentsOfFile: Self.reference, encoding: .utf8).replacingOccurrences(of: "openapi: 3.2.0", with: "openapi: 3.1.0")
        let result = load(text)
        let unknown = Set(result.diagnostics.filter { $0.code == "unknown-field" }.map { $0.pointer ?? "" })
        #expect(unknown.contains("#/$self"))
        #expect(unknown.contains("#/paths/~1items/query"))
        #expect(unknown.contains("#/paths/~1items/additionalOperations"))
        let line = text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("in: querystring") }.map { $0 + 1 }
        #expect(try only("invalid-parameter-location", in: result).line == line)
    }

    @Test func aLaterMinorVersionIsReadWith32Rules() throws {
        let result = load("openapi: 3.3.0\ninfo: {title: T, version: '1'}\npaths: {}\n")
        #expect(try only("newer-version", in: result).message.contains("read with 3.2 rules"))
        #expect(load("openapi: 3.2.0\ninfo: {title: T, version: '1'}\npaths: {}\n").diagnostics.isEmpty)
    }

    @Test func eachMisuseIsReportedWhereItStands() throws {
        let result = load("""
            openapi: 3.2.0
            $self: https://api.example.com/openapi.yaml#top
            info: {title: Misuse, version: '1'}
            tags:
              - {name: a, parent: b}
              - {name: b, parent: a}
              - {name: c, parent: missing}
            paths:
              /x:
                get:
                  operationId: x
                  parameters:
                    - {name: f, in: querystring, schema: {type: object}}
                    - {name: g, in: query, schema: {type: string}}
                  responses:
                    '200':
                      description: OK
                      content:
                        application/json:
                          itemSchema: {type: string}
                additionalOperations:
                  GET: {operationId: dup, responses: {'200': {description: OK}}}
                  'BAD METHOD': {operationId: bad, responses: {'200': {description: OK}}}
              /y:
                post:
                  operationId: y
                  requestBody:
                    content:
                      application/json:
                        schema: {type: array, items: {type: string}}
                        itemEncoding: {contentType: text/plain}
                      multipart/form-data:
                        schema: {type: object}
                        encoding: {a: {contentType: text/plain}}
                        prefixEncoding: [{contentType: text/plain}]
                  responses: {'204': {description: done}}
            components:
              examples:
                E: {value: 1, dataValue: 1}
            """)
        let found = result.diagnostics.map { "\($0.code) \($0.line):\($0.column)" }
        #expect(found == [
            "invalid-self 2:8", "unknown-parent-tag 5:5", "unknown-parent-tag 6:5", "unknown-parent-tag 7:5",
            "invalid-querystring 13:11", "invalid-querystring 14:11", "item-schema-not-sequential 20:15",
            "invalid-additional-method 22:7", "invalid-additional-method 23:7",
            "misplaced-positional-encoding 30:13", "misplaced-positional-encoding 33:13", "conflicting-example-values 39:9",
        ])
        #expect(result.errors.count == 2)
        // The refused methods are left out; the document's own operation stays.
        let item = try #require(result.document?.paths["/x"].flatMap { result.document?.resolve($0) })
        #expect(item.operations.map(\.method.wireName) == ["GET"])
    }

    /// A device flow, a token endpoint or the metadata document over plain
    /// http to another machine hands codes and tokens to anyone on the
    /// path; each is reported where it stands. Loopback and relative URLs
    /// are fine.
    @Test func authorizationURLsThatSendTokensInTheClearAreReported() throws {
        let result = load("""
            openapi: 3.2.0
            info: {title: Device, version: '1'}
            paths: {}
            components:
              securitySchemes:
                device:
                  type: oauth2
                  oauth2MetadataUrl: http://auth.example.com/.well-known/oauth-authorization-server
                  flows:
                    deviceAuthorization:
                      deviceAuthorizationUrl: http://auth.example.com/device
                      tokenUrl: not a url
                      scopes: {}
                    clientCredentials:
                      tokenUrl: http://127.0.0.1:8080/token
                      refreshUrl: /oauth/refresh
                      scopes: {}
                oidc:
                  type: openIdConnect
                  openIdConnectUrl: javascript:alert(1)
            """)
        let found = result.diagnostics.map { "\($0.code) \($0.line):\($0.column)" }
        #expect(found == ["insecure-auth-url 8:26", "insecure-auth-url 11:35", "insecure-auth-url 12:21", "insecure-auth-url 20:25"])
        #expect(result.diagnostics.first?.message.contains("unencrypted to 'auth.example.com'") == true)
    }

    @Test func aReferenceByTheDocumentsOwnURIIsReadFromItsFile() throws {
        let folder = try Fixtures.folder([
            "api/openapi.yaml": """
                openapi: 3.2.0
                $self: https://api.example.com/v1/openapi.yaml
                info: {title: Self, version: '1'}
                paths:
                  /pets:
                    get:
                      responses:
                        '200':
                          description: OK
                          content:
                            application/json:
                              schema: {$ref: 'https://api.example.com/v1/openapi.yaml#/components/schemas/Pet'}
                        '404':
                          description: Missing
                          content:
                            application/json:
                              schema: {$ref: 'https://api.example.com/v1/shared/errors.yaml#/Problem'}
                components:
                  schemas:
                    Pet: {type: object, properties: {name: {type: string}}}
                """,
            "api/shared/errors.yaml": "Problem: {type: object, properties: {title: {type: string}}}\n",
        ])
        let result = OpenAPILoader.load(path: folder + "/api/openapi.yaml")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics.map(\.description))")
        let document = try #require(result.document)
        let ok = try #require(document.operation(.get, "/pets")?.responses["200"].flatMap { document.resolve($0) })
        #expect(ok.content["application/json"]?.schema.flatMap { document.resolve($0) }?.properties.keys == ["name"])
        let missing = try #require(document.operation(.get, "/pets")?.responses["404"].flatMap { document.resolve($0) })
        #expect(missing.content["application/json"]?.schema.flatMap { document.resolve($0) }?.properties.keys == ["title"])
        // Another host is still remote, and refused.
        let elsewhere = load("""
            openapi: 3.2.0
            $self: https://api.example.com/v1/openapi.yaml
            info: {title: Self, version: '1'}
            paths:
              /pets:
                get:
                  responses:
                    '200': {description: OK, content: {application/json: {schema: {$ref: 'https://other.example.com/v1/pet.yaml'}}}}
            """)
        #expect(try only("unsupported-ref", in: elsewhere).message.contains("remote reference"))
    }
}

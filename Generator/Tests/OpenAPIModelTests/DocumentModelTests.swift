import Foundation
import Testing

@testable import OpenAPIModel

/// Operations, parameters, servers, security, callbacks, webhooks, links and
/// cross-file references.
@Suite struct DocumentModelTests {
    static let petstore = """
        openapi: 3.0.3
        info: {title: Pets, version: 1.0.0, x-audience: public}
        servers:
          - url: https://{env}.example.com/v1
            description: Production
            variables:
              env: {default: api, enum: [api, staging]}
        security: [{apiKey: []}]
        tags: [{name: pets, description: Pets.}]
        paths:
          /pets/{petId}:
            parameters:
              - {name: petId, in: path, required: true, schema: {type: string}}
            get:
              operationId: getPet
              tags: [pets]
              deprecated: true
              parameters:
                - {name: fields, in: query, style: form, explode: false, schema: {type: array, items: {type: string}}}
                - {name: X-Trace, in: header, schema: {type: string}}
              responses:
                '200':
                  description: The pet.
                  headers:
                    Retry-After: {schema: {type: integer}}
                  links:
                    owner: {operationId: getOwner, parameters: {id: '$response.body#/ownerId'}}
                  content:
                    application/json:
                      schema: {type: object}
                      example: {name: Rex}
                4XX: {description: Client error.}
                default: {description: Anything else.}
            post:
              operationId: updatePet
              security: []
              requestBody:
                required: true
                content:
                  application/x-www-form-urlencoded:
                    schema: {type: object, properties: {name: {type: string}}}
                  multipart/form-data:
                    schema: {type: object, properties: {photo: {type: string, format: binary}}}
                    encoding: {photo: {contentType: image/png}}
              callbacks:
                onChange:
                  '{$request.body#/callbackUrl}':
                    post: {responses: {'204': {description: Received.}}}
              responses: {'204': {description: Updated.}}
        components:
          securitySchemes:
            apiKey: {type: apiKey, in: header, name: X-API-Key}
            bearer: {type: http, scheme: bearer, bearerFormat: JWT}
        """

    @Test func operationsParametersAndResponses() throws {
        let result = load(Self.petstore)
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let document = try #require(result.document)
        #expect(document.version.raw == "3.0.3" && !document.version.usesJSONSchema2020)
        #expect(document.info.version == "1.0.0" && document.info.extensions["x-audience"] == .string("public"))
        #expect(document.operations.map { "\($0.method.wireName) \($0.operation.operationId ?? "")" } == ["GET getPet", "POST updatePet"])
        let get = try #require(document.operation(.get, "/pets/{petId}"))
        #expect(get.deprecated && get.tags == ["pets"])
        let parameters = document.parameters(.get, "/pets/{petId}")
        #expect(parameters.map(\.name) == ["petId", "fields", "X-Trace"])
        #expect(parameters[1].effectiveStyle == "form" && parameters[1].effectiveExplode == false)
        #expect(parameters[2].location == .header && parameters[2].effectiveStyle == "simple")
        #expect(get.responses.keys == ["200", "4XX", "default"])
        let ok = try #require(document.response(.get, "/pets/{petId}", "200"))
        #expect(ok.headers.keys == ["Retry-After"])
        #expect(ok.links["owner"]?.value?.operationId == "getOwner")
        #expect(ok.content["application/json"]?.example == .object({ var m = OrderedMap<JSONValue>(); m["name"] = .string("Rex"); return m }()))
    }

    @Test func bodiesCallbacksAndSecurity() throws {
        let document = try #require(load(Self.petstore).document)
        let post = try #require(document.operation(.post, "/pets/{petId}"))
        #expect(post.security == [], "explicitly public")
        #expect(document.operation(.get, "/pets/{petId}")?.security == nil, "inherits the document's")
        #expect(document.security?.first?.schemes.keys == ["apiKey"])
        let body = try #require(post.requestBody.flatMap { document.resolve($0) })
        #expect(body.required && body.content.keys == ["application/x-www-form-urlencoded", "multipart/form-data"])
        #expect(body.content["multipart/form-data"]?.encoding["photo"]?.contentType == "image/png")
        let callback = try #require(post.callbacks["onChange"]?.value)
        #expect(callback.expressions.keys == ["{$request.body#/callbackUrl}"])
        let bearer = try #require(document.components.securitySchemes["bearer"].flatMap { document.resolve($0) })
        #expect(bearer.kind == .http && bearer.scheme == "bearer" && bearer.bearerFormat == "JWT")
    }

    @Test func serversWithVariables() throws {
        let document = try #require(load(Self.petstore).document)
        let server = try #require(document.servers.first)
        #expect(server.url == "https://{env}.example.com/v1" && server.description == "Production")
        let env = try #require(server.variables["env"])
        #expect(env.enumValues == ["api", "staging"] && env.defaultValue == "api" && env.description == nil)
        #expect((env.location.line, env.location.column) == (7, 12))
    }

    @Test func webhooksIn31() throws {
        let yaml = """
            openapi: 3.1.0
            info: {title: Hooks, version: '1'}
            webhooks:
              newPet:
                post:
                  requestBody: {content: {application/json: {schema: {type: object}}}}
                  responses: {'200': {description: OK}}
            """
        let result = load(yaml)
        #expect(result.diagnostics.isEmpty)
        #expect(result.document?.webhooks.keys == ["newPet"])
        #expect(result.document?.paths.isEmpty == true)
    }

    @Test func referencesIntoOtherFiles() throws {
        let folder = try Fixtures.folder([
            "api.yaml": """
                openapi: 3.0.3
                info: {title: Split, version: '1'}
                paths:
                  /items:
                    get:
                      parameters: [{$ref: 'common/parameters.yaml#/Limit'}]
                      responses:
                        '200':
                          description: OK
                          content: {application/json: {schema: {$ref: 'schemas/item.yaml'}}}
                """,
            "common/parameters.yaml": "Limit: {name: limit, in: query, schema: {$ref: '../schemas/limit.yaml#/Limit'}}\n",
            "schemas/item.yaml": "type: object\nproperties:\n  next: {$ref: '#'}\n  id: {type: string}\n",
            "schemas/limit.yaml": "Limit: {type: integer, maximum: 100}\n",
        ])
        let result = OpenAPILoader.load(path: folder + "/api.yaml")
        #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        let document = try #require(result.document)
        let limit = try #require(document.parameters(.get, "/items").first)
        #expect(limit.name == "limit")
        #expect(limit.schema.flatMap { document.resolve($0) }?.maximum == 100)
        let schemaRef = try #require(document.response(.get, "/items", "200")?.content["application/json"]?.schema?.reference)
        #expect(schemaRef.target?.file == folder + "/schemas/item.yaml")
        let item = try #require(document.resolve(schemaRef, as: Schema.self))
        #expect(item.properties.keys == ["next", "id"])
        #expect(item.properties["next"]?.reference?.target == schemaRef.target, "a self-reference across files is legal")
    }

    @Test func missingReferencedFileIsAnError() throws {
        let folder = try Fixtures.folder([
            "api.yaml": "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths: {}\ncomponents:\n  schemas:\n    A: {$ref: 'missing.yaml#/A'}\n"
        ])
        let error = try only("unresolved-ref", in: OpenAPILoader.load(path: folder + "/api.yaml"))
        #expect((error.line, error.column) == (6, 15), "the $ref value")
        #expect(error.message.contains("missing.yaml"))
    }

    @Test func semanticWarningsForCommonMistakes() throws {
        let yaml = """
            openapi: 3.0.3
            info: {title: T, version: '1'}
            paths:
              /a/{id}:
                get:
                  operationId: same
              /b:
                get:
                  operationId: same
                  security: [{oauth: []}]
                  responses: {'200': {description: OK}}
            """
        let result = load(yaml)
        #expect(result.errors.isEmpty)
        #expect(Set(result.warnings.map(\.code)) == ["no-responses", "missing-path-parameter", "duplicate-operation-id", "undefined-security-scheme"])
        let noResponses = try only("no-responses", in: result)
        #expect((noResponses.line, noResponses.column) == (6, 7))
    }

    @Test func aStyleItsLocationDoesNotTakeIsAWarningAtTheStyle() throws {
        let yaml = """
            openapi: 3.0.3
            info: {title: T, version: '1'}
            paths:
              /items/{id}:
                get:
                  parameters:
                    - {name: id, in: path, required: true, style: deepObject, schema: {type: string}}
                    - {name: tags, in: query, style: pipeDelimited, schema: {type: array, items: {type: string}}}
                    - {name: filter, in: query, style: matrix, schema: {type: string}}
                    - {name: X-Mode, in: header, style: simple, schema: {type: string}}
                  responses: {'200': {description: OK}}
            """
        let result = load(yaml)
        let warnings = result.warnings.filter { $0.code == "invalid-parameter-style" }
        #expect(warnings.count == 2, "deepObject in a path and matrix in a query; pipeDelimited and simple are fine: \(result.warnings)")
        #expect(warnings.map(\.line) == [7, 9])
        #expect(warnings.first?.line == 7 && warnings.first?.column == 55, "at the style's value")
        #expect(warnings.first?.message.contains("'id' is written as 'simple'") == true)
        #expect(warnings.last?.message.contains("'filter' is written as 'form'") == true)
    }

    @Test func aStreamedArrayMustNameAnArray() throws {
        func yaml(_ hint: String, schema: String = "{type: object, properties: {items: {type: array, items: {type: string}}, next: {type: string}}}") -> String {
            """
            openapi: 3.0.3
            info: {title: T, version: '1'}
            paths:
              /a:
                get:
                  responses:
                    '200':
                      description: OK
                      content:
                        application/json:
                          x-stream-array: \(hint)
                          schema: \(schema)
            """
        }
        #expect(load(yaml("items")).warnings.isEmpty)
        #expect(load(yaml("true", schema: "{type: array, items: {type: string}}")).warnings.isEmpty)
        let missing = try only("invalid-x-stream-array", in: load(yaml("records")))
        #expect(missing.message.contains("has no property 'records' (it has: items, next)"))
        #expect((missing.line, missing.column) == (11, 15))
        #expect(try only("invalid-x-stream-array", in: load(yaml("next"))).message.contains("'next' is not an array"))
        #expect(try only("invalid-x-stream-array", in: load(yaml("true"))).message.contains("not an array"))
        #expect(try only("invalid-x-stream-array", in: load(yaml("3"))).message.contains("not true or a property name"))
    }

    @Test func offlineExtensionsAreCheckedWhereTheyStand() throws {
        func yaml(method: String = "get", _ extensionLine: String) -> String {
            """
            openapi: 3.0.3
            info: {title: T, version: '1'}
            paths:
              /a:
                \(method):
                  \(extensionLine)
                  responses: {'200': {description: OK}}
            """
        }
        for fine in ["x-cache: false", "x-cache: true", "x-cache: {max-age: 60}", "x-offline-queue: false"] {
            #expect(load(yaml(fine)).warnings.isEmpty, "\(fine)")
        }
        #expect(load(yaml(method: "post", "x-offline-queue: true")).warnings.isEmpty)
        let negative = try only("invalid-x-cache", in: load(yaml("x-cache: {max-age: -5}")))
        #expect(negative.message.contains("x-cache of GET /a is ignored"))
        #expect(negative.hint?.contains("x-cache: {max-age: 60}") == true)
        #expect((negative.line, negative.column) == (6, 7), "at the operation that carries it")
        #expect(try only("invalid-x-cache", in: load(yaml("x-cache: 'yes'"))).message.contains("it is string"))
        #expect(try only("invalid-x-cache", in: load(yaml(method: "post", "x-cache: true"))).message.contains("only GET responses are cached"))
        #expect(try only("invalid-x-offline-queue", in: load(yaml("x-offline-queue: true"))).message.contains("a GET is a read"))
        #expect(try only("invalid-x-offline-queue", in: load(yaml(method: "post", "x-offline-queue: 1"))).message.contains("not a boolean"))
    }

    @Test func assumedSecretAndLoggableMarksThatAreNotBooleansAreReportedWhereTheyStand() throws {
        let spec = """
            openapi: 3.0.3
            info: {title: T, version: '1'}
            paths:
              /a:
                get:
                  parameters:
                    - {name: token, in: query, x-secret: 'true', schema: {type: string}}
                  responses: {'200': {description: OK}}
            components:
              schemas:
                Mood:
                  type: object
                  x-assumed: yes
                  properties:
                    note: {type: string, x-secret: true}
                    at: {type: string, x-assumed: false}
                    status: {type: string, x-loggable: 1}
                    kind: {type: string, x-loggable: true}
            """
        let result = load(spec)
        let secret = try only("invalid-x-secret", in: result)
        #expect(secret.message == "x-secret is the quoted text 'true', not true or false: it is ignored, so the value is not masked in logs")
        #expect(secret.pointer == "#/paths/~1a/get/parameters/0/x-secret" && (secret.line, secret.column) == (7, 46))
        #expect(secret.hint?.contains("x-secret: true") == true)
        let assumed = try only("invalid-x-assumed", in: result)
        #expect(assumed.message.hasPrefix("x-assumed is 'yes', not true or false: it is ignored"))
        #expect(assumed.pointer == "#/components/schemas/Mood/x-assumed" && assumed.line == 13)
        let loggable = try only("invalid-x-loggable", in: result)
        #expect(loggable.message == "x-loggable is '1', not true or false: it is ignored, so a body's log shows the field's shape, not its value")
        #expect(loggable.pointer == "#/components/schemas/Mood/properties/status/x-loggable" && loggable.line == 17)
        #expect(result.warnings.count == 3, "true and false are fine: \(result.warnings.map(\.message))")

        // Named x-secret, or data: not marks. A header named x-... holds a mark that is one.
        let names = """
            openapi: 3.0.3
            info: {title: T, version: '1'}
            security: [{x-secret: []}]
            paths:
              /a:
                get:
                  responses:
                    '200':
                      description: OK
                      headers:
                        x-api-key: {x-secret: 'true', schema: {type: string}}
                      content:
                        application/json:
                          schema:
                            type: object
                            properties:
                              x-secret: {type: string}
                            example: {x-secret: abc}
            components:
              securitySchemes:
                x-secret: {type: apiKey, in: header, name: X-Secret}
            """
        let named = load(names)
        let header = try only("invalid-x-secret", in: named)
        #expect(header.pointer == "#/paths/~1a/get/responses/200/headers/x-api-key/x-secret", "\(named.warnings.map(\.message))")
    }

    @Test func unknownFieldsSuggestTheRightOne() throws {
        let yaml = "openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get:\n      sumary: Typo\n      responses: {'200': {description: OK}}\n"
        let warning = try only("unknown-field", in: load(yaml))
        #expect((warning.line, warning.column) == (6, 7))
        #expect(warning.hint?.hasPrefix("did you mean 'summary'?") == true)
    }

    @Test func yamlAnchorsAndMergeKeysWork() throws {
        let yaml = """
            openapi: 3.0.3
            info: {title: T, version: '1'}
            paths: {}
            components:
              schemas:
                Base: &base {type: object, description: Base.}
                Derived:
                  <<: *base
                  description: Derived.
            """
        let document = try #require(load(yaml).document)
        #expect(document.schema("Derived")?.description == "Derived.")
        #expect(document.schema("Derived")?.singleType == .object)
    }

    @Test func jsonInputWorks() throws {
        let json = #"{"openapi": "3.1.0", "info": {"title": "J", "version": "1"}, "paths": {"/x": {"get": {"responses": {"200": {"description": "OK"}}}}}}"#
        let result = load(json, file: "api.json")
        #expect(result.diagnostics.isEmpty)
        #expect(result.document?.paths.keys == ["/x"])
    }

    @Test func diagnosticsRenderForEditors() throws {
        let diagnostic = try only("no-responses", in: load("openapi: 3.0.3\ninfo: {title: T, version: '1'}\npaths:\n  /a:\n    get: {}\n"))
        let lines = diagnostic.description.split(separator: "\n")
        #expect(lines.first?.hasPrefix("test.yaml:5:10: warning: operation has no responses") == true)
        #expect(lines.first?.hasSuffix("[no-responses] (at #/paths/~1a/get)") == true)
        #expect(lines.last?.hasPrefix("test.yaml:5:10: note: add a 'responses:'") == true)
    }
}

import Codegen
import OpenAPIModel
import Testing

/// What the generator finds for the runtime's log redaction in specs whose
/// schemas refer to each other in every direction, as vendor specs with
/// expandable references do.
@Suite struct LogMarkAnalysisTests {
    /// Twelve schemas, each referring to all the others, each with a secret
    /// and a loggable property. The secrets are found by one walk of each
    /// schema; the loggable places within the path search's budget. Walked
    /// along every path, this graph has billions of them (the time limit
    /// is a hang guard).
    @Test(.timeLimit(.minutes(1))) func aDenseRecursionIsWalkedOnceForNamesAndWithinABudgetForPaths() throws {
        let count = 12
        var schemas = ""
        for index in 0..<count {
            schemas += "    S\(index):\n      type: object\n      properties:\n"
            schemas += "        state\(index): {type: string, x-loggable: true}\n        pin\(index): {type: string, format: password}\n"
            for other in 0..<count where other != index { schemas += "        to\(other): {$ref: '#/components/schemas/S\(other)'}\n" }
        }
        let spec = """
            openapi: 3.0.3
            info: {title: Dense, version: '1'}
            paths:
              /s:
                get:
                  operationId: getS
                  responses:
                    '200':
                      description: S.
                      content:
                        application/json:
                          schema: {$ref: '#/components/schemas/S0'}
            components:
              schemas:

            """ + schemas
        let result = OpenAPILoader.load(string: spec, fileName: "dense.yaml")
        #expect(result.errors.isEmpty, "\(result.errors)")
        let document = try #require(result.document)
        let client = ClientGenerator.translate(document, options: GeneratorOptions(moduleName: "Dense", specName: "dense.yaml"))
        let operation = try #require(client.operations.first)
        #expect(operation.secretFields == (0..<count).map { "pin\($0)" }.sorted(), "every secret, through the recursion")
        #expect(operation.loggablePaths.contains("state0") && operation.loggablePaths.contains("to1.state1") && operation.loggablePaths.contains("to1.to2.state2"))
        #expect(!operation.loggablePaths.contains("to1.to0.state0"), "a schema is not followed back into itself")
        #expect(client.memberNames.count == 3 * count, "state, pin and to of each schema, once: \(client.memberNames.count)")
    }
}

import BackendDoubles
import Foundation
import SafepocketAPI
import Testing

/// The sandbox refuses a request its spec does not allow as the real
/// backend does, with a status and body its spec documents, so a generated
/// client reads the refusal as its typed error instead of failing to decode
/// a body of the sandbox's own.
@Suite struct SandboxRefusalConsumerTests {
    @Test func aSafepocketRequestWithoutItsCredentialIsReadAsTheTypedEnvelope() async throws {
        let sandbox = try SandboxServer()
        let client = Client(serverURL: sandbox.baseURL(of: "safepocket"), transport: ConsumerCheck.makeTransport())
        do {
            _ = try await client.listAccounts()
            Issue.record("expected APIError<ErrorEnvelope>")
        } catch let error as APIError<ErrorEnvelope> {
            #expect(error.status == 401)
            #expect(error.operationID == "listAccounts")
            #expect(error.body.error.code == .unauthenticated)
            #expect(error.body.error.details?["request"]?.contains("[security]") == true, "the broken rule rides in `details`: \(error.body.error)")
            #expect(error.body.error.details?["request"]?.contains("safepocket.yaml:") == true, "with its place in the spec")
        }
        #expect(sandbox.log.withLock { $0 }.contains { $0.contains("safepocket GET /accounts rejected (listAccounts)") && $0.hasSuffix("[401]") })
    }
}

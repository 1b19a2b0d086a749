import ClientRuntime
import RetryMatrix
import SafepocketAPI
import SecureNodeAPI
import SoulAPI
import Testing

@Suite struct RetryContractTests {
    @Test func everySoulAndSafepocketOperationIsRetriedAsItsDocumentAllows() async throws {
        let cells = await RetryMatrix.run()
        print(RetryMatrix.table(cells))
        #expect(cells.count == RetryMatrix.expectedCellCount, "every operation x every fault ran")
        for cell in cells where !cell.passed {
            Issue.record("\(cell.backend) \(cell.operation) x \(cell.fault.rawValue): \(cell.attempts) attempts (expected \(cell.expected)), shortest gap \(String(describing: cell.shortestGap))")
        }
    }

    @Test func theGeneratedDescriptorsCarryTheDocumentsRule() {
        let generated = SoulAPI.Client.Operations.all.map { ($0.id, $0.isIdempotent) } + SafepocketAPI.Client.Operations.all.map { ($0.id, $0.isIdempotent) }
        for (id, isIdempotent) in generated {
            #expect(isIdempotent == RetryMatrix.repeatable.contains(id), "\(id)")
        }
        // SecureNode's billing events are deduplicated by event_key (x-idempotent in the spec); its other writes are not.
        let secureNode = Dictionary(uniqueKeysWithValues: SecureNodeAPI.Client.Operations.all.map { ($0.id, $0.isIdempotent) })
        #expect(secureNode["recordImprint"] == true && secureNode["recordBrandingEvent"] == true)
        #expect(secureNode["registerDevice"] == false && secureNode["syncBranding"] == true)
    }
}

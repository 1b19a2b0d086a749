import Foundation
import Safepocket
import Testing
import Waiting

/// An app that lets a `Safepocket` go (a new one after sign-out, another
/// environment) leaves nothing of it running: the object goes, and so does
/// its URLSession, which iOS keeps, with its delegate and connections,
/// until it is invalidated.
@Suite struct SafepocketReleaseTests {
    @Test func aSafepocketTheAppLetsGoInvalidatesItsSession() async throws {
        let harness = try SafepocketHarness()
        defer { harness.cleanUp() }
        var safepocket: Safepocket? = try await harness.signedIn()
        _ = try await safepocket?.accounts()
        weak let released = safepocket
        safepocket = nil
        try await waitUntil("the SDK object released") { released == nil }
        try await waitUntil("its URLSession invalidated") { harness.log.all.contains { $0.contains("an SDK URLSession was invalidated") } }
    }
}

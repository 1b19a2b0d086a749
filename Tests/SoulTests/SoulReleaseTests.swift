import Foundation
import Soul
import Testing
import Waiting

/// An app that lets a `Soul` go (a sign-out flow that makes a new one, a
/// switch of environment) leaves nothing of it running: the object goes,
/// and so does its URLSession, which iOS keeps, with its delegate and
/// connections, until it is invalidated.
@Suite struct SoulReleaseTests {
    @Test func aSoulTheAppLetsGoInvalidatesItsSession() async throws {
        let harness = try SoulHarness()
        defer { harness.cleanUp() }
        var soul: Soul? = try await harness.signedIn()
        _ = try await soul?.listMoods()
        weak let released = soul
        soul = nil
        try await waitUntil("the SDK object released") { released == nil }
        try await waitUntil("its URLSession invalidated") { harness.log.all.contains { $0.contains("an SDK URLSession was invalidated") } }
    }
}

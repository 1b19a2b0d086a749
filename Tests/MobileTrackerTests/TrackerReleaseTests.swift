import Foundation
import MobileTracker
import Testing
import Waiting

/// An app that lets a `MobileTracker` go leaves nothing of it running once
/// its queue is delivered: the object goes, and so does its URLSession,
/// which iOS keeps, with its delegate and connections, until it is
/// invalidated.
@Suite struct TrackerReleaseTests {
    @Test func aTrackerTheAppLetsGoInvalidatesItsSession() async throws {
        let harness = try TrackerHarness()
        defer { harness.cleanUp() }
        var tracker: MobileTracker? = try await harness.initialized()
        await tracker?.track(eventName: "page_view")
        #expect(await tracker?.flush() == true)
        weak let released = tracker
        tracker = nil
        try await waitUntil("the tracker released") { released == nil }
        try await waitUntil("its URLSession invalidated") { harness.log.all.contains { $0.contains("an SDK URLSession was invalidated") } }
    }
}

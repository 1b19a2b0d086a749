import BackendDoubles
import Foundation
import Logging
import MobileTracker
import RuntimeSupport
import Testing
import Waiting

/// The API reference's Swift examples (`ReferenceExamples.swift`, pasted
/// unchanged) run through `MobileTracker.shared` against the sandbox's
/// MobileTracker (a loopback double of `TrackerBehaviour`): the only test
/// of this process that uses `shared`.
@Suite(.serialized) struct ReferenceExamplesTests {
    @Test func theReferencesExamplesRunAsDocumented() async throws {
        let backend = try TrackerBackend(apiKey: "your-api-key", keepAlive: false)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tracker-reference-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        MobileTracker.sharedOptions = .init(
            folder: folder, primaryStore: InMemoryKeyValueStore(), transport: RedirectingTransport(to: backend.baseURL), connectivity: nil)

        referenceInitialize()
        try await waitUntil("the reference's initialize to create a session") { await MobileTracker.shared.sessionID() != nil }
        let first = try #require(await MobileTracker.shared.sessionID(), "the reference's initialize created a session")
        try await referenceConfiguration()  // the same brand, initialized: returns at once
        await referenceTrack()
        await referenceScreenView()
        await referenceSetMetadata()
        await referenceIdentify()
        await MobileTracker.shared.track(eventName: "AFTER_IDENTIFY", attributes: ["step": 1])
        await referenceSet()
        #expect(await MobileTracker.shared.flush(timeout: .seconds(60)))

        let events = backend.events
        #expect(events.map(\.eventName) == ["BUTTON_CLICK", "PRODUCT_VIEWED", "PURCHASE", "VIEW_PAGE", "AFTER_IDENTIFY"])
        #expect(events.allSatisfy { $0.sessionID == first })
        let purchase = try #require(events.first { $0.eventName == "PURCHASE" }?.json["data"] as? [String: Any])
        #expect(purchase["order_id"] as? String == "ORD-789" && purchase["flow_id"] as? String == "checkout_v2", "attributes and metadata merged")
        #expect(purchase["user_id"] == nil, "no user yet")
        let attributed = try #require(events.last?.json["data"] as? [String: Any])
        #expect(attributed["user_id"] as? String == "user123", "after identify, events carry user_id as the reference's payload shows")
        #expect(attributed["session_type"] as? String == "premium", "the session's metadata too")

        // identify: the change of user links the session first (identifyById), then the profile.
        let profiles = backend.received.filter { $0.kind == "profile" }.map(\.json)
        let linking = try #require(profiles.first { $0["user_id"] as? String == "user123" && $0["email"] == nil && $0["metadata"] == nil })
        #expect(linking["session_id"] as? String == first)
        #expect(profiles.contains { $0["email"] as? String == "user@example.com" && $0["name"] as? String == "John Doe" })

        // The synchronous reset: what is tracked next belongs to the new session, without the user.
        referenceReset()
        await MobileTracker.shared.track(eventName: "AFTER_RESET", attributes: nil, metadata: nil)
        #expect(await MobileTracker.shared.flush(timeout: .seconds(60)))
        let afterReset = try #require(backend.events.last)
        #expect(afterReset.eventName == "AFTER_RESET" && afterReset.sessionID != first)
        #expect((afterReset.json["data"] as? [String: Any])?["user_id"] == nil, "reset forgets the user")

        // The reference's environment example with no API_KEY: a typed configuration error, printed.
        referenceEnvironment()
        #expect(referenceErrorCase(.networkError(underlying: URLError(.notConnectedToInternet))).hasPrefix("networkError"))
        #expect(referenceErrorCase(.invalidBrandId) == "invalidBrandId")
    }
}

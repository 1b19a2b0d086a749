import BrandingStore
import ClientRuntime
import Foundation
import Resilience
import RuntimeSupport
import SecureNodeAPI

/// The network fallback for a number the local store does not know:
/// `GET /branding/lookup`, run in the background after a miss and never
/// awaited by the lookup that missed. A found record is stored, so the next
/// call from that number resolves locally; a number the server does not
/// know either is not asked again for an hour.
package actor LookupFallback {
    private let store: BrandingStore
    private let client: SecureNodeAPI.Client
    private let deviceID: String?
    private let quietPeriod: TimeInterval
    private var inFlight = Set<String>()
    private var lastAsked: [String: Date] = [:]
    private let now: @Sendable () -> Date

    /// A fallback that stores answers in `store`; a number is asked at most
    /// once per `quietPeriod`, on the wall clock `now`.
    package init(
        store: BrandingStore, client: SecureNodeAPI.Client, deviceID: String? = nil, quietPeriod: Duration = .seconds(3600),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.now = now
        self.store = store
        self.client = client
        self.deviceID = deviceID
        self.quietPeriod = quietPeriod.totalSeconds
    }

    /// Whether no lookup is out (a test waits for the one it caused to end).
    package var isIdle: Bool { inFlight.isEmpty }

    /// Schedules a lookup of `e164` and returns at once.
    package nonisolated func schedule(e164: String) {
        Task { await self.resolve(e164: e164) }
    }

    /// Asks the server about `e164` and stores what it knows; nil when it
    /// knows nothing, the number was asked recently, or the request failed
    /// (failures are silent: the call shows the plain number).
    @discardableResult
    package func resolve(e164: String) async -> StoredBrandingRecord? {
        guard StoredBrandingRecord.number(e164: e164) != nil, !inFlight.contains(e164) else { return nil }
        if let last = lastAsked[e164], now().timeIntervalSince(last) < quietPeriod { return nil }
        inFlight.insert(e164)
        defer { inFlight.remove(e164) }
        lastAsked[e164] = now()
        guard case .ok(let answer)? = try? await client.lookupBranding(e164: e164, deviceID: deviceID) else { return nil }
        // Stored without touching the cursor or config: the next sync stays
        // authoritative over it. Before the first sync there is nothing to add to.
        let record = IncomingBrandingRecord(
            e164: e164, brandName: answer.brandName, brandID: "",
            logoURL: answer.logoURL?.absoluteString, callReason: answer.callReason,
            updatedAt: answer.updatedAt.map(JSONCoding.formatDateTime) ?? JSONCoding.formatDateTime(now()), isActive: true)
        guard (try? store.storeLookupAnswer(record)) == true else { return nil }
        return store.lookup(e164: e164)
    }
}

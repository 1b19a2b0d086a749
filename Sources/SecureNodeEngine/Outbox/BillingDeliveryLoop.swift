import Foundation
import Resilience
import SDKCore

/// Keeps billing delivery going on its own while events are pending, on the
/// family's one delivery loop (`DeliveryLoop`): a pass when asked (an event
/// recorded, new credentials, launch), then a sleep until the earliest
/// event's backoff ends, then another pass, until the outbox is empty or
/// delivery is paused for credentials. Asking again while it sleeps, or
/// while a pass runs, runs another pass at once; connectivity coming back
/// also makes every waiting event due (``BillingOutbox/makeAllDue(at:)``).
///
/// One loop per SDK instance; it holds the delivery and the outbox, never
/// the facade, and ``stop()`` (the facade's `deinit`) ends it.
package final class BillingDeliveryLoop: Sendable {
    private let loop: DeliveryLoop
    private let outbox: BillingOutbox
    private let clock: SDKClock

    init(delivery: OutboxDelivery, outbox: BillingOutbox, clock: SDKClock = .system, signposts: Signposts = .none) {
        self.outbox = outbox
        self.clock = clock
        loop = DeliveryLoop(clock: clock) {
            _ = try? await signposts.interval("billing delivery", detail: "loop") { try await delivery.deliverDue() }
            if await delivery.pausedForStatus != nil { return .done }
            guard let next = (try? outbox.nextAttemptDate()) ?? nil else { return .done }
            // At least 50 ms: events in flight in another pass must not spin this.
            return .wait(.milliseconds(Int64(min(max(0.05, next.timeIntervalSince(clock.now())), 600) * 1000)))
        }
    }

    /// Runs a pass soon: wakes the loop, or starts it.
    package func kick() async {
        await loop.kick()
    }

    /// Connectivity came back: every waiting event is due now, and a pass runs.
    func connectivityReturned() async {
        _ = try? outbox.makeAllDue(at: clock.now())
        await loop.kick()
    }

    /// Passes run so far, and whether the loop sleeps between two (a test
    /// waits for a pass to have found nothing due).
    package var progress: (passes: Int, isSleeping: Bool) {
        get async { await loop.progress }
    }

    /// Ends the loop for good.
    func stop() async {
        await loop.stop()
    }
}

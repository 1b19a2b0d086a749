import Foundation

/// Keeps billing delivery going on its own while events are pending: a
/// pass when asked (an event recorded, new credentials, launch), then a
/// sleep until the earliest event's backoff ends, then another pass, until
/// the outbox is empty or delivery is paused for credentials. Asking again
/// while it sleeps wakes it at once; connectivity coming back also makes
/// every waiting event due (``BillingOutbox/makeAllDue(at:)``).
///
/// One loop per SDK instance; it holds the delivery and the outbox, never
/// the facade, and ``stop()`` (the facade's `deinit`) ends it.
actor BillingDeliveryLoop {
    private let delivery: OutboxDelivery
    private let outbox: BillingOutbox
    private var running: Task<Void, Never>?
    private var sleeper: CheckedContinuation<Void, Never>?
    private var timer: Task<Void, Never>?
    /// Set by ``kick()``; a sleep that starts after it returns at once.
    private var kicked = false
    private var stopped = false

    init(delivery: OutboxDelivery, outbox: BillingOutbox) {
        self.delivery = delivery
        self.outbox = outbox
    }

    /// Runs a pass soon: wakes the loop, or starts it.
    func kick() {
        guard !stopped else { return }
        kicked = true
        wake()
        if running == nil { running = Task { await self.run() } }
    }

    /// Connectivity came back: every waiting event is due now, and a pass runs.
    func connectivityReturned() {
        _ = try? outbox.makeAllDue(at: Date())
        kick()
    }

    /// Ends the loop for good.
    func stop() {
        stopped = true
        running?.cancel()
        wake()
    }

    private func run() async {
        while !stopped, !Task.isCancelled {
            kicked = false
            _ = try? await delivery.deliverDue()
            // A kick during the pass (new credentials, a new event) asks for another look.
            if await delivery.pausedForStatus != nil {
                if kicked { continue }
                break
            }
            // No suspension from here to the end of the loop or the sleep's
            // start: a kick in between is seen by the sleep (`kicked`).
            guard let next = (try? outbox.nextAttemptDate()) ?? nil else {
                if kicked { continue }
                break
            }
            // At least 50 ms: events in flight in another pass must not spin this.
            await sleep(seconds: min(max(0.05, next.timeIntervalSinceNow), 600))
        }
        running = nil
    }

    private func sleep(seconds: Double) async {
        guard !kicked, !stopped else { return }
        await withCheckedContinuation { continuation in
            sleeper = continuation
            timer = Task { [weak self] in
                try? await Task.sleep(for: .seconds(seconds))
                await self?.wake()
            }
        }
        timer?.cancel()
        timer = nil
    }

    private func wake() {
        sleeper?.resume()
        sleeper = nil
    }
}

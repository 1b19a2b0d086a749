import Foundation
import Resilience
import RuntimeSupport

/// Keeps a durable queue's delivery going on its own: the one loop of the
/// SDKs' queues (SecureNode's billing outbox, MobileTracker's event queue).
/// It runs passes, each the queue's own (``Pass``), and between them sleeps
/// as long as the pass asks, waking early on ``kick()``.
///
/// - ``kick()`` (an item queued, new credentials, a launch, connectivity
///   back) starts the loop, or wakes it from its sleep. A kick that arrives
///   while a pass runs is kept: the sleep after that pass returns at once,
///   and a pass that found nothing to do runs again, so nothing queued
///   during a send waits for the next backoff.
/// - A pass that returns ``Next/done`` ends the loop (the queue is empty,
///   or delivery is paused); the next kick starts it again.
/// - ``stop()`` ends it for good (the SDK instance went away).
///
/// One loop per queue; it holds the pass, never the SDK's facade.
package actor DeliveryLoop {
    /// What the loop does after a pass.
    package enum Next: Sendable, Hashable {
        /// Run another pass at once (an item was settled; more may be due).
        case again
        /// Sleep this long (the next item's backoff), then run a pass;
        /// a kick ends the sleep early.
        case wait(Duration)
        /// Nothing to do until the next kick: end the loop.
        case done
    }

    /// One pass over the queue: send what is due, say what comes next.
    package typealias Pass = @Sendable () async -> Next

    private let pass: Pass
    private let clock: SDKClock
    private var running: Task<Void, Never>?
    private var sleeper: CheckedContinuation<Void, Never>?
    /// Which sleep ``sleeper`` is: a timer wakes only its own, so one whose
    /// sleep had already ended when a kick cancelled it cannot end the next.
    private var sleepNumber = 0
    private var timer: Task<Void, Never>?
    /// Set by ``kick()``, cleared as a pass starts; a sleep or an end
    /// after a pass during which it was set does not happen.
    private var kicked = false
    private var stopped = false

    /// Passes run so far (read through ``progress``).
    private var passes = 0

    /// A loop running `pass`, sleeping on `clock` between passes.
    package init(clock: SDKClock = .system, pass: @escaping Pass) {
        self.clock = clock
        self.pass = pass
    }

    /// Whether a loop runs now (a pass, or a sleep between passes).
    package var isRunning: Bool { running != nil }

    /// Passes run so far, and whether the loop sleeps between two now
    /// (not in a pass, not ended), read together.
    package var progress: (passes: Int, isSleeping: Bool) { (passes, sleeper != nil) }

    /// Runs a pass soon: wakes the loop, or starts it.
    package func kick() {
        guard !stopped else { return }
        kicked = true
        wake()
        if running == nil { running = Task { await self.run() } }
    }

    /// Ends the loop for good.
    package func stop() {
        stopped = true
        running?.cancel()
        wake()
    }

    private func run() async {
        while !stopped, !Task.isCancelled {
            kicked = false
            let next = await pass()
            passes += 1
            switch next {
            case .again:
                continue
            case .done:
                // A kick during the pass (new credentials, a new item) asks for another look.
                if kicked { continue }
                running = nil
                return
            case .wait(let duration):
                await sleep(duration)
            }
        }
        running = nil
    }

    /// Sleeps `duration`, unless a kick came since the pass started or
    /// comes during the sleep.
    private func sleep(_ duration: Duration) async {
        guard !kicked, !stopped else { return }
        sleepNumber &+= 1
        let number = sleepNumber
        await withCheckedContinuation { continuation in
            sleeper = continuation
            let clock = self.clock
            timer = Task { [weak self] in
                // Cancelled (a kick ended the sleep): no late wake. A timer
                // past its sleep when cancelled still wakes only this sleep.
                guard (try? await clock.sleep(duration)) != nil else { return }
                await self?.wakeTimer(of: number)
            }
        }
        timer?.cancel()
        timer = nil
    }

    /// The timer of sleep `number` ran out: ends that sleep, if it still runs.
    private func wakeTimer(of number: Int) {
        guard number == sleepNumber else { return }
        wake()
    }

    private func wake() {
        sleeper?.resume()
        sleeper = nil
    }
}

import ClientRuntime
import Foundation
import Resilience
import SDKCore
import SecureNodeAPI

/// Asks again whether refused credentials are accepted now, so that a
/// 401/403 never turns caller ID off for good: while branding is disabled
/// by a refusal, one cheap request (an incremental sync from now: no
/// records, nothing applied) goes out at each launch and then on a
/// backoff while the app runs; the first that the server accepts ends the
/// watch and brings branding back (``SecureNodeEngine`` restores it).
actor RefusalWatch {
    /// What one check found.
    enum Verdict: Sendable, Equatable {
        /// The server took the request: the credentials are good again.
        case accepted
        /// 401 or 403 again.
        case refused(status: Int)
        /// No answer that tells (offline, a 5xx): ask again later.
        case unknown
    }

    private let check: @Sendable () async -> Verdict
    private let backoff: BackoffPolicy
    private let clock: SDKClock
    private var watching: Task<Void, Never>?
    /// Whether the watch's check is out (a request in flight).
    private var isChecking = false
    /// `stop()` came while the watch's check was out: the watch ends when
    /// the check returns, without running `accepted`.
    private var stopRequested = false
    /// Checks made since the watch started (for the app's diagnostics and tests).
    private(set) var checks = 0

    /// A watch whose checks run `check`, spaced by `backoff` on `clock`.
    init(backoff: BackoffPolicy, clock: SDKClock = .system, check: @escaping @Sendable () async -> Verdict) {
        self.backoff = backoff
        self.clock = clock
        self.check = check
    }

    /// The check over `client`: `GET /branding/sync?since=<now>` through the
    /// SDK's stack (key, mount, quiet while a call rings); its body is not
    /// applied.
    static func syncProbe(client: SecureNodeAPI.Client, deviceID: String?, now: @escaping @Sendable () -> Date) -> @Sendable () async -> Verdict {
        {
            do {
                _ = try await client.syncBrandingWithResponse(since: now(), deviceID: deviceID)
                return .accepted
            } catch let failure as any HTTPStatusError {
                return [401, 403].contains(failure.status) ? .refused(status: failure.status) : .unknown
            } catch let decoding as ResponseDecodingError {
                if decoding.status == 401 || decoding.status == 403 { return .refused(status: decoding.status) }
                return (200...299).contains(decoding.status) ? .accepted : .unknown
            } catch {
                return .unknown
            }
        }
    }

    /// Whether a watch is running.
    var isWatching: Bool { watching != nil }

    /// Starts watching unless a watch runs: the first check at once
    /// (`immediately`: at launch) or after the backoff's base delay (just
    /// after a refusal), then on the backoff, until one is accepted; then
    /// `accepted` runs once. A watch ends with the SDK that started it.
    func start(immediately: Bool, accepted: @escaping @Sendable () async -> Void) {
        guard watching == nil else { return }
        let backoff = self.backoff
        let clock = self.clock
        watching = Task { [weak self] in
            var delay = immediately ? Duration.zero : backoff.baseDelay
            var retry = 0
            while !Task.isCancelled {
                if delay > .zero {
                    do { try await clock.sleep(delay) } catch { return }
                }
                guard let watch = self else { return }
                let verdict = await watch.watchCheck()
                if await watch.endIfStopped() { return }
                if verdict == .accepted {
                    await watch.finished()
                    await accepted()
                    return
                }
                retry += 1
                // Between half the ceiling and the ceiling: never two checks back to back.
                delay = backoff.delay(forRetry: retry) { Double.random(in: ($0.upperBound / 2)...$0.upperBound) }
            }
        }
    }

    /// One check now, outside the backoff (a sync asked for while branding
    /// is off: the app's launch flow learns at once whether the key is
    /// accepted again); an accepted check ends a running watch.
    func checkNow() async -> Verdict {
        let verdict = await checkOnce()
        if verdict == .accepted { stop() }
        return verdict
    }

    /// Stops watching (new credentials were configured, or a check of the
    /// app's was accepted). A watch waiting for its next check is cancelled;
    /// one whose check is out ends when it returns: cancelling a request in
    /// flight is what FoundationNetworking (Linux) can crash on, and the
    /// answer changes nothing once the watch is stopped.
    func stop() {
        if isChecking {
            stopRequested = true
        } else {
            watching?.cancel()
        }
        watching = nil
    }

    private func checkOnce() async -> Verdict {
        checks += 1
        return await check()
    }

    /// The watch's own check, marked as out while it runs.
    private func watchCheck() async -> Verdict {
        isChecking = true
        defer { isChecking = false }
        return await checkOnce()
    }

    /// Whether `stop()` came during the check just made (and resets it).
    private func endIfStopped() -> Bool {
        guard stopRequested else { return false }
        stopRequested = false
        return true
    }

    private func finished() { watching = nil }
}

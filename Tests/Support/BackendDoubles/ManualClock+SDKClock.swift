import ClientRuntimeTesting
import SDKCore

extension ManualClock {
    /// This clock as an SDK's one clock (`ConnectionConfiguration.clock`):
    /// its wall time, its continuous time, and sleeps that return when the
    /// test moves it, so a test advances time instead of waiting for it.
    package var sdkClock: SDKClock {
        let continuous = continuous
        return SDKClock(now: { self.now }, elapsed: { continuous.now.elapsed }, sleep: { try await continuous.sleep(for: $0) })
    }
}

import BrandingStore
import Foundation
import Resilience

/// What the last sync attempt came to. Failures are reported here, never
/// thrown at the app: the local dataset stays readable whatever happens.
public enum BrandingSyncStatus: Sendable, Hashable {
    /// No sync has completed on this install yet.
    case neverSynced
    /// The store holds a synced dataset; no attempt since the SDK started.
    case idle
    /// A sync is running.
    case syncing
    /// The last sync succeeded (`since` is the cursor it stored).
    case upToDate(at: Date, kind: SyncBatch.Kind, outcome: SyncOutcome)
    /// The server could not be reached (refused, not found, no network, no
    /// connection within the connect timeout); the next sync tries again.
    case offline(lastSuccess: Date?)
    /// The server did not answer in time: an answer that stalled (no byte
    /// for the stall timeout) or a sync past its deadline; nothing was
    /// applied, and the next sync tries again.
    case timedOut(lastSuccess: Date?)
    /// The connection was cut after it was made (a reset, an answer cut
    /// short by the network); nothing was applied, and the next sync tries again.
    case connectionLost(lastSuccess: Date?)
    /// The connection could not be verified: the system does not trust the
    /// server's certificate (or the TLS handshake failed), its chain has
    /// none of the pinned keys, or the server redirected to another host.
    /// Nothing was sent (not the API key) and nothing applied: not a dead
    /// network but an interception or a misconfigured server. The next sync
    /// tries again.
    case connectionNotVerified(CertificatePinningError, lastSuccess: Date?)
    /// The server answered with a status that may pass (429, 5xx, 400);
    /// the next sync tries again.
    case serverError(status: Int, lastSuccess: Date?)
    /// The response could not be applied (malformed, a number twice); the
    /// store is unchanged. `reason` names the field, never a phone number.
    case rejected(reason: String)
    /// A call was in progress: the sync did not run (or was not applied).
    case deferredForCall
    /// The server refused the credentials (401/403): branding is off and no
    /// sync runs until the server accepts them again (the SDK asks, on a
    /// backoff and at each launch) or the SDK is reconfigured.
    case disabled(status: Int)

    /// Whether branding is off because of the credentials.
    public var isDisabled: Bool {
        if case .disabled = self { return true }
        return false
    }

    /// Whether the last sync succeeded.
    public var isUpToDate: Bool {
        if case .upToDate = self { return true }
        return false
    }
}

import BrandingStore
import ClientRuntime
import Foundation
import OpenAPIRuntime
import Resilience
import SecureNodeAPI

/// What runs while the phone rings: lookups, logos from the cache, and the
/// Call Directory snapshot with its reload policy. No network request.
extension SecureNodeEngine {
    // MARK: Ring time

    /// The branding for an incoming number, from the local dataset only:
    /// synchronous, no network, safe on any thread. A miss schedules the
    /// server lookup in the background so the next call from the number
    /// resolves; nil while branding is disabled (a 401/403, or the server's
    /// config saying `branding_enabled: false`).
    ///
    /// At ring time (the default) the lookup opens the quiet window itself
    /// (`CallActivity.ringStarted(bound:)`): whether the host reports the
    /// call before or after looking it up, nothing (the miss's server
    /// lookup, billing, heartbeats, logos) goes out until the call ends, or
    /// the ring bound (60 s) passes when the host reports no
    /// call. A hit is remembered as the moment identity was shown (the
    /// `displayed_at` of the call's events). Pass `atRingTime: false` for a
    /// lookup outside a call (a call-history screen).
    public func lookup(e164: String, atRingTime: Bool = true) -> StoredBrandingRecord? {
        if atRingTime { calls.ringStarted(bound: ringQuietBound) }
        guard isBrandingActive else { return nil }
        if let record = store.lookup(e164: e164) {
            if atRingTime { displays.record(e164, at: now()) }
            return record
        }
        fallback.schedule(e164: e164)
        return nil
    }

    /// The cached logo for a record, from disk only. A logo that is not
    /// cached is fetched in the background (once the call is over), so the
    /// next call from the number shows it.
    public func cachedLogo(for record: StoredBrandingRecord) -> Data? {
        guard let url = record.logoURL else { return nil }
        if let logo = logos.cachedLogo(for: url) { return logo }
        logos.fetchSoon(url)
        return nil
    }

    /// Removes every cached logo.
    public func clearImageCache() throws { try logos.clear() }

    /// Writes the Call Directory snapshot when the dataset changed, and calls
    /// `reload` (the host's `CXCallDirectoryManager.reloadExtension`) when
    /// the snapshot changed and the last reload is old enough. Returns
    /// whether it reloaded. When `reload` returns, the extension's load is
    /// confirmed (`CallDirectorySnapshot.didReload(_:)`): the next export
    /// prepares only the changes from it. When `reload` throws, what iOS
    /// holds becomes unknown (the next request loads the complete list),
    /// the snapshot iOS last loaded is put back (the extension keeps
    /// serving what the phone shows) and the error is rethrown; the next
    /// call exports and tries again.
    @discardableResult
    package func reloadCallDirectoryIfNeeded(now: Date = Date(), reload: () throws -> Void) throws -> Bool {
        guard let version = try callDirectoryVersionToReload(now: now) else { return false }
        let ticket = callDirectory.reloadTicket()
        do {
            try reload()
        } catch {
            rollBackCallDirectory()
            throw error
        }
        try callDirectoryDidReload(version: version, ticket: ticket, at: now)
        return true
    }

    /// `reloadCallDirectoryIfNeeded(now:reload:)` for an asynchronous
    /// reload (`try await CXCallDirectoryManager.sharedInstance.reloadExtension(withIdentifier:)`).
    @discardableResult
    package func reloadCallDirectoryIfNeeded(now: Date = Date(), reload: () async throws -> Void) async throws -> Bool {
        guard let version = try callDirectoryVersionToReload(now: now) else { return false }
        let ticket = callDirectory.reloadTicket()
        do {
            try await reload()
        } catch {
            rollBackCallDirectory()
            throw error
        }
        try callDirectoryDidReload(version: version, ticket: ticket, at: now)
        return true
    }

    /// Whether branding shows: the credentials were not refused (401/403)
    /// and the server's config does not say `branding_enabled: false`.
    public var isBrandingActive: Bool {
        state.withLock { !$0.brandingDisabled && $0.brandingEnabledByServer }
    }

    /// The snapshot version of branding turned off: an empty snapshot.
    static let brandingOffVersion = "off"

    /// Exports the snapshot if what it should hold changed since the last
    /// export (the dataset, or branding turned off or on: then it is
    /// empty); the version to reload, or nil when no reload is due. Turning
    /// branding off or on reloads without waiting out the minimum interval.
    func callDirectoryVersionToReload(now: Date) throws -> String? {
        let version = try state.exportLock.withLock {
            let wanted = isBrandingActive ? String(store.syncGeneration) : Self.brandingOffVersion
            if state.withLock({ $0.exportedVersion }) != wanted {
                if wanted == Self.brandingOffVersion {
                    try callDirectory.exportEmpty()
                } else {
                    try callDirectory.export(from: store)
                }
                state.withLock { $0.exportedVersion = wanted }
            }
            return wanted
        }
        return state.withLock { values in
            let switching = (version == Self.brandingOffVersion) != (values.reloadPolicy.lastReload?.version == Self.brandingOffVersion)
            return values.reloadPolicy.shouldReload(version: version, now: now, immediately: switching) ? version : nil
        }
    }

    /// Exports and reloads through the configuration's
    /// ``CallDirectoryReloading`` when there is one (after a sync, a key
    /// change, a background refresh); returns whether it reloaded. A failed
    /// reload leaves what iOS last loaded (see `reloadCallDirectoryIfNeeded(now:reload:)`).
    @discardableResult
    func reloadCallDirectoryIfConfigured() async -> Bool {
        guard let reloader else { return false }
        return (try? await reloadCallDirectoryIfNeeded(now: now(), reload: { try await reloader.reloadExtension() })) ?? false
    }

    /// A reload succeeded: the extension's attempt since `ticket` is
    /// confirmed (under the export lock: no export moves the snapshot meanwhile).
    func callDirectoryDidReload(version: String, ticket: CallDirectorySnapshot.ReloadTicket, at now: Date) throws {
        try state.exportLock.withLock { _ = try callDirectory.didReload(ticket) }
        state.withLock { $0.reloadPolicy.didReload(version: version, at: now) }
        // Kept for the next launch: a cold start does not reload unchanged data.
        try? Data("\(version)\n\(now.timeIntervalSince1970)".utf8).write(to: reloadStateFile, options: .atomic)
    }

    /// Exports and reloads through the configuration's
    /// ``Configuration/callDirectoryReloader`` when the snapshot changed and
    /// the last reload (this launch or an earlier one) is old enough: the
    /// README's `SecureNode.reloadCallDirectoryIfNeeded()`, throttled by the
    /// SDK. False when nothing was due, no reloader is configured, or the
    /// reload failed (the snapshot iOS last loaded is then put back).
    @discardableResult
    public func reloadCallDirectoryIfNeeded() async -> Bool {
        await reloadCallDirectoryIfConfigured()
    }

    /// A reload failed: what iOS holds becomes unknown, the snapshot iOS
    /// last loaded becomes current again, and the next reload exports anew.
    func rollBackCallDirectory() {
        state.exportLock.withLock {
            _ = try? callDirectory.reloadFailed()
            state.withLock { $0.exportedVersion = nil }
        }
    }

    /// A call started ringing or was placed (the host's CallKit delegate
    /// says so): no sync, lookup, billing delivery, heartbeat or logo
    /// download goes out until the last call ends. Calls overlap with call
    /// waiting: each start needs its end.
    public func callStarted() { calls.callStarted() }

    /// A call ended (answered and hung up, missed, rejected). When it was
    /// the last one, the requests held back during the calls go out.
    public func callEnded() { calls.callEnded() }
}

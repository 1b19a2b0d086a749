import BrandingStore
import ClientRuntime
import Foundation
import OpenAPIRuntime
import Resilience
import SecureNodeAPI

/// The API key, syncs of the branding dataset, heartbeats and debug logs.
extension SecureNodeEngine {
    // MARK: Configuration

    /// New credentials: later requests send `apiKey` (kept in the key
    /// store for later launches), branding turned off by a 401/403 is on
    /// again (the Call Directory snapshot restored, when a reloader is
    /// configured), and billing delivery paused by one resumes.
    public func configure(apiKey: String) async {
        // A sync in flight was sent with the old key: one asked for from now on runs again after it.
        syncGeneration.withLock { $0 += 1 }
        keys.adopt(apiKey)
        state.withLock { $0.apiKey = apiKey }
        await refusalWatch.stop()
        await restoreBranding()
        await reloadCallDirectoryIfConfigured()
        syncManagedContacts()
    }

    /// The server accepts the refused key again: the stored refusal goes, branding comes back.
    func credentialsAcceptedAgain() async {
        keys.forgetRefusal()
        await restoreBranding()
    }

    /// Branding on again after a refusal: syncs allowed, billing resumed.
    func restoreBranding() async {
        state.withLock { $0.brandingDisabled = false }
        await syncEngine.reenable()
        await delivery.resume()
        await deliveryLoop.kick()
    }

    /// Watches refused credentials until the server accepts them again
    /// (the refusal recheck backoff); then branding comes back and a
    /// sync runs (restoring and reloading the Call Directory).
    func watchRefusal(immediately: Bool) async {
        await refusalWatch.start(immediately: immediately) { [weak self] in
            guard let self else { return }
            await self.credentialsAcceptedAgain()
            // A sync in flight saw branding off: this one runs after it.
            self.syncGeneration.withLock { $0 += 1 }
            _ = await self.sync()
        }
    }

    // MARK: Sync

    /// The app-launch flow: register or update the device, sync the
    /// branding dataset, then (after a successful sync) send a presence
    /// heartbeat, fetch new logos and deliver pending events. Returns the
    /// sync's status; never throws.
    ///
    /// Asked for while another sync runs (the app's launch sync, a
    /// background refresh, the SDK's own check after a refused key is
    /// accepted again), it joins that sync and returns its final status.
    /// Asked for after a change the running sync cannot see (new
    /// credentials, branding back after a refusal), it runs once more when
    /// that one ends.
    ///
    /// During a call (or while a ring-time lookup's phone may still ring)
    /// it returns `deferredForCall` at once: no request goes out then, and
    /// the flow runs at the next sync after the call.
    ///
    /// When branding is turned off (a 401/403, or the config's
    /// `branding_enabled: false`) or back on, and a
    /// ``Configuration/callDirectoryReloader`` is configured, the Call
    /// Directory snapshot is emptied or restored and reloaded at once.
    @discardableResult
    public func sync() async -> BrandingSyncStatus {
        await syncAndDeliver().status
    }

    /// What one run of the launch flow did.
    struct SyncPass: Sendable {
        /// The sync's final status.
        var status: BrandingSyncStatus
        /// What its delivery pass did, when it ran.
        var delivery: OutboxDelivery.PassReport?
        /// Whether it reloaded the Call Directory.
        var reloaded: Bool
    }

    /// ``sync()`` with what its delivery pass did and whether it reloaded
    /// the Call Directory: the pass in flight when one runs (see ``sync()``).
    /// A caller whose task is cancelled gets the current status at once.
    func syncAndDeliver() async -> SyncPass {
        do {
            return try await syncPasses.run(generation: syncGeneration.read()) { [self] in await self.runSyncPass() }
        } catch {
            return SyncPass(status: await syncEngine.status, delivery: nil, reloaded: false)
        }
    }

    /// How many callers wait for the launch flow in flight and the one queued behind it.
    var waitingSyncCallers: Int { syncPasses.waiterCount }

    /// One run of the launch flow, for every caller that joined it.
    private func runSyncPass() async -> SyncPass {
        // A call in progress (or a phone that may still ring): nothing goes
        // out, so the flow ends at once with the sync's `deferredForCall`
        // rather than wait for the call behind a held-back request.
        if calls.isCallInProgress { return SyncPass(status: await syncEngine.sync(), delivery: nil, reloaded: false) }
        // Off for a refusal: ask once now whether the key is accepted again, rather than report `disabled` unasked.
        if await syncEngine.status.isDisabled, await refusalWatch.checkNow() == .accepted {
            await credentialsAcceptedAgain()
        }
        _ = try? await device.registerOrUpdate()
        let status = await intervals.interval("branding sync", detail: "launch flow") { await syncEngine.sync() }
        // A call began while the device was registered: as above.
        if status == .deferredForCall { return SyncPass(status: status, delivery: nil, reloaded: false) }
        // The engine keeps a 401 to replaced credentials from disabling the
        // new ones; its status is what holds.
        if case .disabled(let refusal) = await syncEngine.status {
            let newlyRefused = state.withLock { values in
                let wasDisabled = values.brandingDisabled
                values.brandingDisabled = true
                return !wasDisabled
            }
            if newlyRefused {
                keys.recordRefusal(status: refusal)
                await watchRefusal(immediately: false)
            }
        }
        if case .upToDate(let at, _, let outcome) = status {
            let enabled = Self.brandingEnabled(in: store)
            state.withLock { $0.brandingEnabledByServer = enabled }
            _ = try? await device.heartbeat(lastSyncedAt: at, force: true)
            // Logos of purged or changed records go; every record's logo is fetched (a failed
            // download again once its backoff is due), and failures are retried on the backoff.
            if let urls = try? store.logoURLs() {
                if outcome.stored > 0 || outcome.deleted > 0 || outcome.unbranded > 0 { logos.removeLogos(except: urls) }
                await logos.prefetch(urls)
                if logos.pendingRetries > 0 {
                    let store = self.store
                    logos.retryFailed { (try? store.logoURLs()) ?? [] }
                }
            }
        }
        let report = try? await intervals.interval("billing delivery", detail: "after sync") { try await delivery.deliverDue() }
        let reloaded = await reloadCallDirectoryIfConfigured()
        // After a sync, or when branding was turned off (a refusal: the contacts go too).
        if status.isUpToDate || status.isDisabled { syncManagedContacts() }
        return SyncPass(status: status, delivery: report, reloaded: reloaded)
    }

    /// The last sync's status.
    public func syncStatus() async -> BrandingSyncStatus { await syncEngine.status }

    /// Every sync status change, starting with the current one.
    public func syncStatusUpdates() async -> AsyncStream<BrandingSyncStatus> { await syncEngine.statusUpdates() }

    /// A presence heartbeat if 5 minutes have passed since the last one
    /// (call from a timer or background task); returns whether one was sent.
    @discardableResult
    public func heartbeatIfDue() async -> Bool {
        (try? await device.heartbeat()) ?? false
    }

    /// The server config stored with the last sync.
    static func serverConfig(in store: BrandingStore) -> BrandingConfig? {
        ((try? store.config()) ?? nil).flatMap { try? JSONCoding.makeDecoder().decode(BrandingConfig.self, from: Data($0.utf8)) }
    }

    /// Whether the last config leaves branding on (`branding_enabled` absent or true).
    static func brandingEnabled(in store: BrandingStore) -> Bool {
        serverConfig(in: store)?.brandingEnabled ?? true
    }

    /// Uploads debug logs when the server's last config enables it.
    @discardableResult
    public func uploadDebugLogs(_ logs: [DebugLogEntry], context: [String: JSONValue]? = nil) async -> Bool {
        (try? await device.uploadDebugLogs(logs, context: context, config: Self.serverConfig(in: store))) ?? false
    }
}

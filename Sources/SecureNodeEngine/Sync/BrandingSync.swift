import BrandingStore
import ClientRuntime
import Foundation
import OpenAPIRuntime
import Resilience
import RuntimeSupport
import SDKCore
import SecureNodeAPI

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Keeps the branding store in step with the server through the generated
/// client: the first sync of an install is full, later ones send the stored
/// cursor as `since`. Each response is applied in one transaction with its
/// `synced_at` (the next cursor), so a failure, a malformed response or a
/// crash leaves the previous dataset and cursor.
///
/// Nothing is thrown at the app: the outcome of each attempt is the
/// ``status`` (and the ``statusUpdates()`` stream). A 401/403 turns
/// branding off until ``reenable()`` (the SDK's `configure` with new
/// credentials); no sync starts, or is applied, while a call is in progress.
package actor BrandingSync {
    /// The outcome of the last attempt.
    package private(set) var status: BrandingSyncStatus
    private let store: BrandingStore
    private let client: SecureNodeAPI.Client
    private let deviceID: String?
    private let calls: CallActivity
    private var lastSuccess: Date?
    private var observers: [UUID: AsyncStream<BrandingSyncStatus>.Continuation] = [:]
    /// Bumped by `reenable()`: a 401/403 to a request sent with older
    /// credentials does not disable the new ones.
    private var credentialsEpoch = 0
    /// The longest a sync may take, its whole body included.
    private let deadline: Duration
    /// The SDK's clock: a success is dated by its wall time, the deadline
    /// waited on it.
    private let clock: SDKClock
    /// The sync in flight, which callers join, and the one queued behind it.
    private let runs = SharedRun<BrandingSyncStatus>()

    /// A sync engine for `store` over `client`; `deviceID` is sent as
    /// `device_id` when given. `refusedWithStatus` starts it disabled: the
    /// server refused these credentials before the app was relaunched.
    package init(
        store: BrandingStore, client: SecureNodeAPI.Client, deviceID: String? = nil, calls: CallActivity = CallActivity(),
        refusedWithStatus: Int? = nil, deadline: Duration = .seconds(60), clock: SDKClock = .system
    ) {
        self.clock = clock
        self.deadline = deadline
        self.store = store
        self.client = client
        self.deviceID = deviceID
        self.calls = calls
        if let refusedWithStatus {
            status = .disabled(status: refusedWithStatus)
        } else {
            status = ((try? store.cursor()) ?? nil) == nil ? .neverSynced : .idle
        }
    }

    /// The current status, then every change, until the consumer stops.
    package func statusUpdates() -> AsyncStream<BrandingSyncStatus> {
        let (stream, continuation) = AsyncStream.makeStream(of: BrandingSyncStatus.self, bufferingPolicy: .bufferingNewest(8))
        let id = UUID()
        observers[id] = continuation
        continuation.yield(status)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeObserver(id) }
        }
        return stream
    }

    private func removeObserver(_ id: UUID) { observers[id] = nil }

    private func publish(_ status: BrandingSyncStatus) {
        self.status = status
        for observer in observers.values { observer.yield(status) }
    }

    /// Allows syncs again after a 401/403 (new credentials were configured).
    package func reenable() {
        credentialsEpoch += 1
        if status.isDisabled { publish(((try? store.cursor()) ?? nil) == nil ? .neverSynced : .idle) }
    }

    /// Runs one sync (full without a stored cursor, incremental with it)
    /// and returns the resulting status. Asked for while a sync runs, it
    /// joins that sync and returns its final status; asked for after
    /// ``reenable()`` while a sync that started before it runs, it runs once
    /// more when that one ends (one follow-up for every such caller).
    /// Returns at once when branding is disabled, or when a call is in
    /// progress and no sync runs (`deferredForCall`). A caller whose task is
    /// cancelled gets the current status at once; the sync is cancelled
    /// (nothing applied) when no other caller waits for it.
    @discardableResult
    package func sync() async -> BrandingSyncStatus {
        if status.isDisabled { return status }
        if !runs.isRunning, calls.isCallInProgress {
            publish(.deferredForCall)
            return status
        }
        do {
            return try await runs.run(generation: credentialsEpoch) { [self] in await self.performSync() }
        } catch {
            return status
        }
    }

    /// How many callers wait for the sync in flight and the one queued behind it.
    var waitingCallers: Int { runs.waiterCount }

    /// One sync, run for every caller that joined it.
    private func performSync() async -> BrandingSyncStatus {
        if status.isDisabled { return status }
        guard !calls.isCallInProgress else {
            publish(.deferredForCall)
            return status
        }
        publish(.syncing)
        let epoch = credentialsEpoch
        // The last cursor, or an earlier one while a record it passed was not applied.
        let cursor = (try? store.nextSyncCursor()) ?? nil
        let since = cursor.flatMap(JSONCoding.parseDateTime)
        let kind: SyncBatch.Kind = since == nil ? .full : .incremental
        let (client, deviceID, store, calls) = (self.client, self.deviceID, self.store, self.calls)
        // The request and the body's reading, bounded as a whole: a stalled
        // answer ends as a timeout (the transaction rolled back) by `deadline`.
        let result = await Self.within(deadline, on: clock) {
            let response: StreamedJSONArray<SecureNodeAPI.BrandingRecord, BrandingSyncResponse>
            do {
                response = try await client.syncBrandingStreamed(since: since, deviceID: deviceID)
            } catch {
                throw RequestFailed(underlying: error)
            }
            return try await Self.apply(response, kind: kind, to: store, calls: calls)
        }
        switch result {
        case .success(let outcome):
            lastSuccess = clock.now()
            publish(.upToDate(at: lastSuccess!, kind: kind, outcome: outcome))
        case .failure(let failed as RequestFailed):
            var failed = Self.status(for: failed.underlying, lastSuccess: lastSuccess)
            if failed.isDisabled, epoch != credentialsEpoch {
                // Refused credentials that were replaced while the request was out.
                failed = .offline(lastSuccess: lastSuccess)
            }
            publish(failed)
        case .failure(is SyncDeadlineExceeded):
            publish(.timedOut(lastSuccess: lastSuccess))
        case .failure(is CallStartedDuringSync):
            publish(.deferredForCall)
        case .failure(let rejection as SyncRejection):
            publish(.rejected(reason: rejection.description))
        case .failure(let failure as ResponseReadFailure):
            // The body was malformed or stopped arriving (a reset, a timeout): nothing was applied.
            publish(Self.status(for: failure.underlying, lastSuccess: lastSuccess))
        case .failure(let error):
            publish(.rejected(reason: "the store could not apply the sync: \(error)"))
        }
        return status
    }

    /// How many decoded records travel to the store's thread together.
    static let chunkSize = 512

    /// Reads the response as it arrives and applies it in one transaction
    /// on a thread of its own: a record that does not decode is salvaged
    /// where it can be (``RecordSalvage``: tombstones, dropped optional
    /// fields, unusable records that unbrand their number), else skipped and
    /// reported with its index; the cursor and config, which may come
    /// after the records, are committed with them, and any record not
    /// applied makes the next sync fetch the range again. A call that starts before
    /// the commit rolls the sync back (``CallStartedDuringSync``).
    static func apply(
        _ response: StreamedJSONArray<SecureNodeAPI.BrandingRecord, BrandingSyncResponse>, kind: SyncBatch.Kind, to store: BrandingStore,
        calls: CallActivity
    ) async throws -> SyncOutcome {
        let handoff = RecordHandoff()
        let applying = Task<SyncOutcome, any Error>.detachedThread {
            defer { handoff.close() }
            return try store.apply(kind, records: handoff.records) {
                let state = try handoff.finalState()
                if calls.isCallInProgress { throw CallStartedDuringSync() }
                return state
            }
        }
        var skips: [SkippedRecord] = []
        var skipCount = 0
        var droppedFields = 0
        do {
            var chunk: [IncomingBrandingRecord] = []
            chunk.reserveCapacity(chunkSize)
            reading: for try await element in response {
                switch element.result {
                case .success(let record):
                    chunk.append(incoming(record, index: element.index))
                case .failure(let error):
                    if let raw = element.rawElement,
                        case .record(let salvaged, let dropped) = RecordSalvage.salvage(raw, index: element.index, decodingReason: Self.reason(error))
                    {
                        droppedFields += dropped
                        chunk.append(salvaged)
                        break
                    }
                    skipCount += 1
                    if skips.count < SyncOutcome.reportedSkipsLimit {
                        // The field path without the array's name: `[12].updated_at` -> `updated_at`.
                        skips.append(SkippedRecord(index: element.index, reason: Self.reason(error)))
                    }
                }
                if chunk.count == chunkSize {
                    guard await handoff.put(chunk) else { break reading }
                    chunk.removeAll(keepingCapacity: true)
                }
            }
            if !chunk.isEmpty { _ = await handoff.put(chunk) }
            guard let envelope = response.envelope else { throw HandoffNotFinished() }
            let config = envelope.config.flatMap { try? JSONCoding.makeEncoder().encode($0) }.map { String(decoding: $0, as: UTF8.self) }
            handoff.finish(.success(SyncState(cursor: JSONCoding.formatDateTime(envelope.syncedAt), config: config, unreadableRecords: skipCount)))
        } catch {
            handoff.finish(.failure(ResponseReadFailure(underlying: error)))
        }
        var outcome = try await applying.value
        outcome.merge(skips: skips, total: skipCount)
        outcome.droppedFields += droppedFields
        return outcome
    }

    /// `updated_at: expected Date: ...` from `branding[12].updated_at`.
    static func reason(_ error: ResponseDecodingError) -> String {
        var field = Substring(error.field)
        if let close = field.firstIndex(of: "]") { field = field[field.index(after: close)...] }
        if field.hasPrefix(".") { field = field.dropFirst() }
        return (field.isEmpty ? "" : field + ": ") + error.reason
    }

    /// A record as the generated client decoded it, in the store's terms;
    /// `index` is its position in the response. A record without `brand_id`
    /// (the README's shape) has an empty one.
    static func incoming(_ record: SecureNodeAPI.BrandingRecord, index: Int? = nil) -> IncomingBrandingRecord {
        IncomingBrandingRecord(
            e164: record.phoneNumberE164, brandName: record.brandName, brandID: record.brandID ?? "",
            logoURL: record.logoURL?.absoluteString, callReason: record.callReason,
            updatedAt: JSONCoding.formatDateTime(record.updatedAt), isActive: record.isActive, sourceIndex: index)
    }

    /// Runs `work` for at most `deadline`: its result, or
    /// ``SyncDeadlineExceeded`` once the deadline passed (the work is then
    /// cancelled and waited for, so a transaction it opened has rolled back).
    static func within<T: Sendable>(_ deadline: Duration, on clock: SDKClock, _ work: @escaping @Sendable () async throws -> T) async -> Result<T, any Error> {
        await withTaskGroup(of: Result<T, any Error>?.self) { group in
            group.addTask {
                do { return .success(try await work()) } catch { return .failure(error) }
            }
            group.addTask {
                do { try await clock.sleep(deadline) } catch { return nil }
                return .failure(SyncDeadlineExceeded(deadline: deadline))
            }
            var outcome: Result<T, any Error>?
            while let next = await group.next() {
                guard let result = next else { continue }
                if outcome == nil {
                    outcome = result
                    group.cancelAll()
                }
            }
            return outcome ?? .failure(CancellationError())
        }
    }

    /// The status a failed request leads to: a refusal (401/403), a server
    /// error, a response that breaks the spec, or a network failure named
    /// for what happened (``networkStatus(for:lastSuccess:)``).
    static func status(for error: any Error, lastSuccess: Date?) -> BrandingSyncStatus {
        if let failure = error as? any HTTPStatusError {
            switch failure.status {
            case 401, 403: return .disabled(status: failure.status)
            default: return .serverError(status: failure.status, lastSuccess: lastSuccess)
            }
        }
        if let decoding = error as? ResponseDecodingError {
            // Auth failure disables branding whatever the body is (empty, text, another shape).
            if decoding.status == 401 || decoding.status == 403 { return .disabled(status: decoding.status) }
            return .rejected(reason: "the sync response does not match the spec at \(decoding.field): \(decoding.reason)")
        }
        return networkStatus(for: error, lastSuccess: lastSuccess)
    }

    /// A network failure, named for what happened: no answer in time (a
    /// stalled answer, the transport's idle or total timeout, the attempt's
    /// deadline) is `timedOut`; a connection cut after it was made (a reset)
    /// is `connectionLost`; a connection that could not be verified is
    /// `connectionNotVerified`; anything else that kept the request from
    /// reaching the server (refused, not found, no route, no network, a
    /// connect timeout) is `offline`.
    static func networkStatus(for error: any Error, lastSuccess: Date?) -> BrandingSyncStatus {
        let cause = (error as? ClientError)?.underlyingError ?? error
        if let refusal = cause as? CertificatePinningError { return .connectionNotVerified(refusal, lastSuccess: lastSuccess) }
        if cause is SyncDeadlineExceeded || cause is RequestTimeoutError { return .timedOut(lastSuccess: lastSuccess) }
        if let failure = cause as? ResponseReadFailure { return networkStatus(for: failure.underlying, lastSuccess: lastSuccess) }
        guard let urlError = cause as? URLError else { return .offline(lastSuccess: lastSuccess) }
        switch urlError.code {
        case .timedOut: return .timedOut(lastSuccess: lastSuccess)
        case .networkConnectionLost, .badServerResponse, .cannotParseResponse, .zeroByteResource:
            return .connectionLost(lastSuccess: lastSuccess)
        default: return .offline(lastSuccess: lastSuccess)
        }
    }
}

/// The request of a sync failed (before any record was read).
struct RequestFailed: Error {
    let underlying: any Error
}

/// A sync did not finish within its deadline.
struct SyncDeadlineExceeded: Error, CustomStringConvertible {
    let deadline: Duration
    var description: String { "the sync did not finish within \(deadline)" }
}

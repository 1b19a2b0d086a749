import BackendDoubles
import BrandingStore
import Foundation
import LoopbackHTTPServer
import PlatformRules
import RuntimeSupport
import SecureNodeSDK
import Testing
import Waiting

/// The README's API (`SecureNodeSDK`) as an app uses it: its samples run
/// unchanged against the sandbox's SecureNode (a loopback double), through
/// the real generated client and the SDK's whole middleware stack.
/// Serialized: `SecureNode.configure(_:)` sets up the one SDK of the process.
@Suite(.serialized) struct SecureNodeSDKTests {
    let backend: SecureNodeBackend
    let folder: URL
    let transport: RedirectingTransport

    init() throws {
        backend = try SecureNodeBackend(apiKey: "your-api-key-here")
        backend.setRecord("+61412345678", name: "Acme Bank", callReason: "Fraud alert")
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("securenode-sdk-\(UUID().uuidString)", isDirectory: true)
        transport = RedirectingTransport(to: backend.baseURL)
        SecureNode.defaults = SecureNode.Defaults(transport: transport, storageFolder: folder)
    }

    func cleanUp() {
        try? FileManager.default.removeItem(at: folder)
    }


    @Test func theQuickStartConfiguresTheSDKWhichSyncsAndLooksUpLocally() async throws {
        defer { cleanUp() }
        readmeQuickStart()
        #expect(SecureNode.configurationError == nil)
        let engine = try #require(SecureNode.engine)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("group.com.customer.app.securenode/branding.sqlite").path),
            "off iOS, the files go to the defaults' folder, a subfolder per App Group")
        guard case .upToDate(_, .full, let outcome) = await SecureNode.sync() else {
            Issue.record("the README's sync: \(await engine.syncStatus())")
            return
        }
        #expect(outcome.stored == 1)
        #expect(engine.lookup(e164: "+61412345678", atRingTime: false)?.brandName == "Acme Bank")
        #expect(backend.devices.count == 1, "the device registered once")
        // Linux has no CallKit: the reload reports false; the snapshot was written for the extension.
        #expect(await SecureNode.reloadCallDirectoryIfNeeded() == false)
        #expect(FileManager.default.fileExists(atPath: engine.callDirectory.current.path))
        // The fire-and-forget forms the README names, with their completions.
        let synced = Locked<BrandingSyncStatus?>(nil)
        SecureNode.sync { status in synced.withLock { $0 = status } }
        #expect(try await eventually { synced.read()?.isUpToDate == true })
    }

    @Test func theCallEventSampleGetsTheServersEventIdAndAttributesTheReturnCall() async throws {
        defer { cleanUp() }
        readmeQuickStart()
        let sdk = SecureNodeSDK()
        #expect(!sdk.registeredBackgroundRefresh, "no BGTaskScheduler here")
        readmeCallEventSample(sdk: sdk)
        #expect(try await eventually { backend.billed.count == 2 }, "the seen event, then the return call from its completion")
        let seen = try #require(backend.billed.first?.json)
        #expect(seen["outcome"] as? String == "displayed" && seen["surface"] as? String == "display")
        let meta = try #require(seen["meta"] as? [String: Any])
        #expect(meta["call_outcome"] as? String == "ANSWERED" && meta["ring_duration_seconds"] as? Int == 12)
        #expect(meta["destination_number_e164"] as? String == "+61234567890")
        let returned = try #require(backend.billed.last?.json)
        let returnedMeta = try #require(returned["meta"] as? [String: Any])
        #expect(returned["outcome"] as? String == "returned")
        #expect(returnedMeta["call_event_id"] as? String == "evt_1", "the seen event's id, which the completion received")
        #expect(returnedMeta["return_call_latency_seconds"] as? Int == 120)
    }

    @Test func offlineTheCompletionSaysQueuedAndTheEventIsBilledOnceLaterWithItsReturnCall() async throws {
        defer { cleanUp() }
        let unreachable = try ClosedPort()
        defer { withExtendedLifetime(unreachable) {} }
        transport.target.withLock { $0 = unreachable.baseURL }
        readmeQuickStart()
        let sdk = SecureNodeSDK(engine: SecureNode.engine, scheduler: nil, completionWait: .milliseconds(400))
        let answer = Locked<Result<CallEventResponse, any Error>?>(nil)
        sdk.recordCallSeen(phoneNumberE164: "+61412345678", brandingDisplayed: true, callOutcome: .missed) { result in
            answer.withLock { $0 = result }
        }
        #expect(try await eventually { answer.read() != nil })
        guard case .success(let response)? = answer.read() else {
            Issue.record("queued is not a failure: \(String(describing: answer.read()))")
            return
        }
        #expect(response.isQueued && response.eventId == LocalCallID.make(eventKey: response.eventKey), "a local call id: the event waits in the outbox")
        sdk.recordCallReturned(phoneNumberE164: "+61412345678", callEventKey: response.eventKey, returnCallLatencySeconds: 60)

        // The network comes back.
        transport.target.withLock { $0 = backend.baseURL }
        let engine = try #require(SecureNode.engine)
        // Delivery waits out its backoff; bounded here so a failure cannot hang the suite.
        let delivering = Task { await engine.deliverPendingEvents() }
        #expect(try await eventually { backend.billed.count == 2 })
        // The server has counted both; the outbox marks each delivered once it has read the answer.
        #expect(try await eventually { try engine.outbox.counts() == BillingOutbox.Counts(pending: 0, delivered: 2, dropped: 0) })
        delivering.cancel()
        let returned = try #require(backend.billed.last?.json["meta"] as? [String: Any])
        #expect(returned["call_event_id"] as? String == "evt_1", "the queued event's server id, learned when it was delivered")
    }

    /// The README's call-event sample, pasted unchanged (`readmeCallEventSample`),
    /// with the server away: the seen event is queued, its completion's call
    /// id is a local one, and the sample's own `recordCallReturned(callId:)`
    /// is recorded against it. The app is relaunched before the server comes
    /// back: the return call goes out once, with the seen event's server id.
    @Test func theREADMECallEventSampleAttributesTheReturnCallOfflineAndAcrossARelaunch() async throws {
        defer { cleanUp() }
        let unreachable = try ClosedPort()
        defer { withExtendedLifetime(unreachable) {} }
        transport.target.withLock { $0 = unreachable.baseURL }
        readmeQuickStart()
        let first = try #require(SecureNode.engine)
        do {
            let sdk = SecureNodeSDK(engine: first, scheduler: nil, completionWait: .milliseconds(300))
            readmeCallEventSample(sdk: sdk)
            // The sample's completion ran and recorded the return against the local id: two events wait.
            #expect(try await eventually { try first.outbox.counts().pending == 2 })
        }
        #expect(backend.billed.isEmpty, "the server was away")

        // The app is relaunched (a new engine over the same files); the server is back.
        readmeQuickStart()
        let relaunched = try #require(SecureNode.engine)
        #expect(relaunched !== first)
        transport.target.withLock { $0 = backend.baseURL }
        let delivering = Task { await relaunched.deliverPendingEvents() }
        defer { delivering.cancel() }
        #expect(try await eventually { try relaunched.outbox.counts() == BillingOutbox.Counts(pending: 0, delivered: 2, dropped: 0) })
        let events = backend.billed.filter { $0.kind == "event" }
        #expect(events.count == 2, "each event billed once")
        #expect(events.first?.json["outcome"] as? String != "returned", "the seen event first")
        let returned = try #require(events.last)
        #expect(returned.json["outcome"] as? String == "returned")
        #expect((returned.json["meta"] as? [String: Any])?["call_event_id"] as? String == "evt_1", "attributed to the seen call's server id")
        #expect((returned.json["meta"] as? [String: Any])?["return_call_latency_seconds"] as? Int == 120)
    }

    @Test func aRefusedEventFailsItsCompletionAndAnUnconfiguredSDKSaysSo() async throws {
        defer { cleanUp() }
        readmeQuickStart()
        let sdk = SecureNodeSDK(engine: SecureNode.engine, scheduler: nil, completionWait: .seconds(5))
        let answer = Locked<Result<CallEventResponse, any Error>?>(nil)
        // The server states the event invalid (400 with its error body).
        backend.fault.withLock {
            $0 = { request in
                request.path.hasSuffix("/branding/event") ? .json(400, #"{"error":"invalid_request","message":"phone_number_e164 is not E.164"}"#) : nil
            }
        }
        sdk.recordCallSeen(phoneNumberE164: "+61412345678", brandingDisplayed: false, callOutcome: .answered) { result in
            answer.withLock { $0 = result }
        }
        #expect(try await eventually { answer.read() != nil })
        if case .failure(let error)? = answer.read() {
            #expect(error as? SecureNodeSDKError == .refused(status: 400, reason: "invalid_request"))
        } else {
            Issue.record("a refused event is a failure: \(String(describing: answer.read()))")
        }
        let detached = SecureNodeSDK(engine: nil, scheduler: nil)
        let none = Locked<Result<CallEventResponse, any Error>?>(nil)
        detached.recordMissedCall(phoneNumberE164: "+61412345678", brandingDisplayed: true) { result in none.withLock { $0 = result } }
        #expect(try await eventually { none.read() != nil })
        if case .failure(let error)? = none.read() { #expect(error as? SecureNodeSDKError == .notConfigured) }
    }

    @Test func theSDKStartsHeartbeatsAndTheAppRegistersTheBackgroundTaskAtLaunch() async throws {
        defer { cleanUp() }
        let system = SimulatedBackgroundTasks(permitted: [SecureNodeSDK.backgroundRefreshTaskIdentifier])
        // didFinishLaunching: the registration first, synchronously, then the README's configure and SDK.
        #expect(SecureNode.registerBackgroundRefresh(scheduler: system.scheduler))
        readmeQuickStart()
        let sdk = SecureNodeSDK(engine: SecureNode.engine, scheduler: system.scheduler)
        system.finishLaunching()
        #expect(sdk.registeredBackgroundRefresh && system.registered == [SecureNodeSDK.backgroundRefreshTaskIdentifier])
        // A second SDK object later (a settings switch): nothing is registered again.
        let again = SecureNodeSDK(engine: SecureNode.engine, scheduler: system.scheduler)
        #expect(again.registeredBackgroundRefresh && SecureNode.registerBackgroundRefresh(scheduler: system.scheduler))
        #expect(SecureNodeSDK.backgroundRefreshTaskIdentifier == "com.securenode.branding.sync")
        #expect(try await eventually { backend.presenceCount > 0 }, "a heartbeat from the timer the SDK started")
        #expect(await system.launch(SecureNodeSDK.backgroundRefreshTaskIdentifier) != nil, "a wake runs the configured SDK's refresh")
        #expect(system.violations.isEmpty)
    }
}

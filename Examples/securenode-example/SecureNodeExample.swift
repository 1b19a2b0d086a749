import ArgumentParser
import Foundation
import ExampleLogging
import Logging
import SecureNodeSDK

/// A command-line SecureNode client: the code an app team copies. The
/// branding dataset, the billing outbox and the device's identity live in
/// `--state`, so each run goes on from the last one: the first `sync` is
/// full, later ones incremental; events recorded offline are delivered by
/// a later run.
///
/// Success: one JSON object per line on stdout, phone numbers masked.
/// Failure: one line `error: <kind>: <what happened>` on stderr, exit status 1.
@main
struct SecureNodeExample: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "securenode-example", abstract: "Sync SecureNode branding, look numbers up, record calls and deliver billing events.",
        subcommands: [Sync.self, Lookup.self, Call.self, Seen.self, Deliver.self, Refresh.self, Contacts.self])

    @OptionGroup var options: Options

    struct Options: ParsableArguments {
        @Option(help: "The API's base URL (the SDK finds whether it is mounted at / or /api/).")
        var baseURL: String
        @Option(help: "The API key sent as X-API-Key.")
        var apiKey: String
        @Option(help: "Folder for the dataset, the outbox and the device id (created if missing).")
        var state: String
        @OptionGroup var logging: LoggingOptions

        func makeSDK() throws -> SecureNodeEngine {
            guard let url = URL(string: baseURL), url.scheme == "https" || url.host == "127.0.0.1" || url.host == "localhost" else {
                throw SecureNodeExampleError.configuration("--base-url must be an https URL (http only to a loopback host): \(baseURL)")
            }
            let folder = URL(fileURLWithPath: state, isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let device = DeviceProfile(deviceID: try Self.deviceID(in: folder), platform: .ios, osVersion: "17.4", sdkVersion: "1.0.0",
                                       capabilities: ["call_directory": true])
            // Quiet unless asked (--log-level, --verbose): stderr carries the one error line.
            let logger = logging.logger(label: "securenode")
            // A command-line run sends its heartbeat with each sync only. The SDK's own transport (none
            // given) verifies every connection, ends a stalled answer after 10 s without a byte, and gives
            // a sync 120 s in all (SecureNodeEngine.defaultTimeouts).
            return try SecureNodeEngine(.init(apiURL: url, apiKey: apiKey, folder: folder, device: device, sendsHeartbeats: false, logger: logger))
        }

        /// This install's id: made once, kept in the state folder.
        static func deviceID(in folder: URL) throws -> String {
            let file = folder.appendingPathComponent("device-id")
            if let saved = try? String(contentsOf: file, encoding: .utf8), !saved.isEmpty { return saved }
            let id = UUID().uuidString.lowercased()
            try id.write(to: file, atomically: true, encoding: .utf8)
            return id
        }
    }

    struct Sync: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Register the device, sync the branding dataset and send a heartbeat.")
        @ParentCommand var root: SecureNodeExample

        func run() async throws {
            try await report {
                let sdk = try root.options.makeSDK()
                let status = await sdk.sync()
                guard case .upToDate(_, let kind, let outcome) = status else { throw SecureNodeExampleError.sync(status) }
                printJSON([
                    "event": "synced", "kind": kind == .full ? "full" : "incremental", "stored": outcome.stored, "deleted": outcome.deleted,
                    "skipped": outcome.skipped, "clamped": outcome.clamped, "dropped_fields": outcome.droppedFields,
                    "unbranded": outcome.unbranded, "retry_pending": outcome.retryPending, "records": try sdk.store.count(),
                    "cursor": (try sdk.store.cursor()) ?? NSNull(), "next_since": (try sdk.store.nextSyncCursor()) ?? NSNull(),
                    "skipped_records": outcome.skippedRecords.map { ["index": $0.index, "reason": $0.reason] },
                ])
            }
        }
    }

    struct Refresh: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "What the app's background refresh task runs: sync, deliver, and report whether new data arrived, within a budget.")
        @ParentCommand var root: SecureNodeExample
        @Option(help: "Seconds the system grants the task (iOS gives about 30).")
        var budget: Double = 25

        func run() async throws {
            try await report {
                let report = try await root.options.makeSDK().performBackgroundRefresh(budget: .seconds(budget))
                printJSON([
                    "event": "background_refresh", "succeeded": report.succeeded, "new_data": report.receivedNewData,
                    "events_delivered": report.eventsDelivered, "events_pending": report.eventsPending, "ran_out_of_time": report.ranOutOfTime,
                ])
                if !report.succeeded { throw SecureNodeExampleError.sync(report.syncStatus) }
            }
        }
    }

    struct Lookup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Look numbers up in the local dataset (no network, as at ring time).")
        @ParentCommand var root: SecureNodeExample
        @Argument(help: "Numbers in E.164 form (+61412345678).") var numbers: [String]

        func run() async throws {
            try await report {
                let sdk = try root.options.makeSDK()
                for number in numbers {
                    guard let record = sdk.lookup(e164: number) else {
                        printJSON(["number": mask(number), "match": false])
                        continue
                    }
                    printJSON(["number": mask(number), "match": true, "brand_name": record.brandName, "call_reason": record.callReason ?? NSNull(),
                               "logo_cached": sdk.cachedLogo(for: record) != nil])
                }
            }
        }
    }

    struct Call: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "An incoming call: show its branding (an imprint when it applies), record its outcome, deliver the events.")
        @ParentCommand var root: SecureNodeExample
        @Argument(help: "The caller's number in E.164 form.") var number: String
        @Option(help: "How the call ended, as your exports expect it (ANSWERED, MISSED, REJECTED, ...).") var outcome = "ANSWERED"
        @Option(help: "Seconds the phone rang.") var ringSeconds: Int?
        @Option(help: "Seconds the call lasted.") var callSeconds: Int?
        @Option(help: "The longest wait for delivery, in seconds.") var timeout = 10

        func run() async throws {
            try await report {
                let sdk = try root.options.makeSDK()
                sdk.callStarted()
                let assisted = sdk.assistIncomingCall(phoneNumberE164: number)
                sdk.callEnded()
                let key = sdk.recordCallEvent(
                    phoneNumberE164: number, callOutcome: CallOutcome(rawValue: outcome), brandingApplied: assisted != nil,
                    ringDurationSeconds: ringSeconds, callDurationSeconds: callSeconds, callEventKey: assisted?.imprintKey)
                guard let key else { throw SecureNodeExampleError.notRecorded }
                let counts = try await deliver(sdk, timeout: timeout)
                printJSON(["event": "call", "number": mask(number), "branded": assisted != nil, "brand_name": assisted?.record.brandName ?? NSNull(),
                           "event_key": key, "pending": counts.pending, "delivered": counts.delivered, "dropped": counts.dropped])
            }
        }
    }

    struct Seen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The README's call event: SecureNode.configure, then SecureNodeSDK.recordCallSeen with its completion (the call id, or queued).")
        @ParentCommand var root: SecureNodeExample
        @Argument(help: "The caller's number in E.164 form.") var number: String
        @Option(help: "How the call ended (ANSWERED, MISSED, REJECTED, ...).") var outcome = "ANSWERED"
        @Option(help: "Seconds to wait for the server before the event counts as queued.") var wait = 10.0
        @Option(help: "Seconds after which the user called back (records a return call with the call id).") var returnAfter: Int?

        func run() async throws {
            try await report {
                let options = root.options
                guard let url = URL(string: options.baseURL) else { throw SecureNodeExampleError.configuration("--base-url is not a URL") }
                SecureNode.configure(.init(apiURL: url, apiKey: options.apiKey, folder: URL(fileURLWithPath: options.state, isDirectory: true)))
                if let error = SecureNode.configurationError { throw SecureNodeExampleError.configuration("\(error)") }
                let sdk = SecureNodeSDK(engine: SecureNode.engine, scheduler: nil, completionWait: .seconds(wait))
                let result = await withCheckedContinuation { (done: CheckedContinuation<Result<CallEventResponse, any Error>, Never>) in
                    sdk.recordCallSeen(phoneNumberE164: number, brandingDisplayed: true, callOutcome: CallOutcome(rawValue: outcome)) { done.resume(returning: $0) }
                }
                switch result {
                case .success(let response):
                    printJSON(["event": "seen", "number": mask(number), "event_id": response.eventId ?? NSNull(), "event_key": response.eventKey,
                               "queued": response.isQueued])
                    // As the README does: the call id is the server's, or a local one while the
                    // seen event is queued (the return then waits for its delivery, across runs).
                    if let latency = returnAfter, let callId = response.eventId {
                        sdk.recordCallReturned(phoneNumberE164: number, callId: callId, returnCallLatencySeconds: latency)
                        printJSON(["event": "returned", "number": mask(number), "call_id": callId])
                    }
                case .failure(let error):
                    throw SecureNodeExampleError.configuration("the event was not recorded: \(error)")
                }
            }
        }
    }

    struct Contacts: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The managed contacts the dataset asks for (one per brand, its numbers, its cached logo as the photo): what the optional Managed Contacts sync writes on iOS.")
        @ParentCommand var root: SecureNodeExample
        @Option(help: "The most numbers the contacts hold in all.") var maximumNumbers = 10_000

        func run() async throws {
            try await report {
                let sdk = try root.options.makeSDK()
                let (contacts, leftOut) = sdk.desiredManagedContacts(maximumNumbers: maximumNumbers)
                for contact in contacts {
                    printJSON(["brand": contact.brandKey, "name": contact.displayName, "numbers": contact.phoneNumbers.count, "photo": contact.photo != nil])
                }
                printJSON(["event": "contacts", "contacts": contacts.count, "numbers_left_out": leftOut, "branding_active": sdk.isBrandingActive])
            }
        }
    }

    struct Deliver: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Deliver the billing events the outbox holds; fail if some remain.")
        @ParentCommand var root: SecureNodeExample
        @Option(help: "The longest wait, in seconds.") var timeout = 30

        func run() async throws {
            try await report {
                let sdk = try root.options.makeSDK()
                let counts = try await deliver(sdk, timeout: timeout)
                printJSON(["event": "delivered", "pending": counts.pending, "delivered": counts.delivered, "dropped": counts.dropped])
                if counts.pending > 0 { throw SecureNodeExampleError.notDelivered(pending: counts.pending) }
            }
        }
    }
}

/// Delivers pending events for at most `timeout` seconds (delivery waits
/// out backoff while the server is unreachable); what is left stays in the
/// outbox for the next run.
func deliver(_ sdk: SecureNodeEngine, timeout: Int) async throws -> BillingCounts {
    await withTaskGroup(of: Void.self) { group in
        group.addTask { await sdk.deliverPendingEvents() }
        group.addTask { try? await Task.sleep(for: .seconds(timeout)) }
        await group.next()
        group.cancelAll()
    }
    if let status = await sdk.billingPausedForStatus() { throw SecureNodeExampleError.billingPaused(status: status) }
    return try sdk.billingCounts()
}

/// What can go wrong, as the one line on stderr says it.
enum SecureNodeExampleError: Error, CustomStringConvertible {
    case configuration(String)
    case sync(BrandingSyncStatus)
    case notRecorded
    case notDelivered(pending: Int)
    case billingPaused(status: Int)

    var kind: String {
        switch self {
        case .configuration: return "configuration"
        case .sync(let status):
            switch status {
            case .offline: return "offline"
            case .timedOut: return "timedOut"
            case .connectionLost: return "connectionLost"
            case .connectionNotVerified: return "connectionNotVerified"
            case .serverError: return "serverError"
            case .rejected: return "rejected"
            case .disabled: return "disabled"
            case .deferredForCall: return "deferredForCall"
            default: return "notSynced"
            }
        case .notRecorded: return "notRecorded"
        case .notDelivered: return "notDelivered"
        case .billingPaused: return "billingPaused"
        }
    }

    var description: String {
        switch self {
        case .configuration(let message): return message
        case .sync(let status):
            switch status {
            case .offline: return "the server could not be reached (refused, not found, or no network); the dataset and cursor are unchanged"
            case .timedOut: return "the server did not answer in time (an answer stalled, or the sync passed its bound); nothing applied, the dataset and cursor are unchanged"
            case .connectionLost: return "the connection was cut before the answer was complete; nothing applied, the dataset and cursor are unchanged"
            case .connectionNotVerified(let refusal, _):
                return "the secure connection could not be verified (\(refusal.host): \(refusal.summary)); nothing was sent, the dataset and cursor are unchanged"
            case .serverError(let code, _): return "the server answered \(code); the dataset and cursor are unchanged"
            case .rejected(let reason): return "the response was refused, nothing applied: \(reason)"
            case .disabled(let code):
                return "the server refused the API key (\(code)); branding is off until the server accepts it again (asked at each launch and on a backoff) or the key changes"
            default: return "the sync did not run (\(status))"
            }
        case .notRecorded: return "the event could not be written to the outbox"
        case .notDelivered(let pending): return "\(pending) event(s) not delivered yet; they stay in the outbox for the next run"
        case .billingPaused(let status): return "the server refused the API key (\(status)); events are kept until the key changes"
        }
    }
}

/// Runs `body`; a failure becomes one line on stderr and exit status 1.
func report(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as SecureNodeExampleError {
        FileHandle.standardError.write(Data("error: \(error.kind): \(error)\n".utf8))
        throw ExitCode.failure
    }
}

/// `+*******5678`: numbers are not printed whole (the SDKs' rule, `Redactor.maskPhone`).
func mask(_ e164: String) -> String {
    Redactor.maskPhone(e164)
}

/// One JSON object on one line of stdout.
func printJSON(_ object: [String: Any]) {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    print(String(decoding: data, as: UTF8.self))
}

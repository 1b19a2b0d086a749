import ArgumentParser
import Foundation
import ExampleLogging
import Logging
import MobileTracker

/// A command-line MobileTracker client: the code an app team copies.
/// Events go to a durable queue in `--state` and are delivered from there;
/// `flush` waits until the queue is empty, so a run that could not deliver
/// leaves its events for the next one.
///
/// Success: one JSON object per line on stdout. Failure: one line
/// `error: <kind>: <what happened>` on stderr, exit status 1.
@main
struct TrackerExample: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tracker-example", abstract: "Track events, identify users and flush the MobileTracker queue.",
        subcommands: [Track.self, Identify.self, Flush.self, Reset.self])

    @OptionGroup var options: Options

    struct Options: ParsableArguments {
        @Option(help: "The backend's base URL (https, no trailing slash; http to a loopback host).")
        var baseURL: String
        @Option(help: "The API key sent as X-API-Key.")
        var apiKey: String
        @Option(help: "The numeric brand id.")
        var brandID: String
        @Option(help: "Folder for the queue and the stored session (created if missing).")
        var state: String
        @OptionGroup var logging: LoggingOptions

        func makeTracker() async throws -> MobileTracker {
            // Quiet unless asked (--log-level, --verbose): stderr carries the one error line.
            let logger = logging.logger(label: "tracker")
            // The primary store of a command-line tool is its state folder too.
            let folder = URL(fileURLWithPath: state, isDirectory: true)
            let tracker = MobileTracker(options: .init(folder: folder, primaryStore: InMemoryKeyValueStore(), logger: logger))
            try await tracker.initialize(brandId: brandID, config: TrackerConfig(debug: logging.level.map { $0 <= .debug } ?? false, apiUrl: baseURL, xApiKey: apiKey))
            return tracker
        }
    }

    struct Track: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Queue EVENT with key=value attributes, then deliver what the queue holds.")
        @ParentCommand var root: TrackerExample
        @Argument(help: "The event name (BUTTON_CLICK).") var event: String
        @Argument(help: "Attributes as key=value (numbers and true/false are sent as such).") var attributes: [String] = []

        func run() async throws {
            try await report {
                let tracker = try await root.options.makeTracker()
                var values: [String: Any] = [:]
                for pair in attributes {
                    guard let equals = pair.firstIndex(of: "=") else { throw ValidationError("attributes are key=value: \(pair)") }
                    let raw = String(pair[pair.index(after: equals)...])
                    values[String(pair[..<equals])] = Int(raw).map { $0 as Any } ?? Double(raw).map { $0 as Any } ?? Bool(raw).map { $0 as Any } ?? raw
                }
                await tracker.track(eventName: event, attributes: values)
                try await printStatus(tracker, ["event": "tracked", "name": event])
            }
        }
    }

    struct Identify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Associate user ID (and an email) with the session.")
        @ParentCommand var root: TrackerExample
        @Argument(help: "The user id.") var id: String
        @Argument(help: "The user's email.") var email: String?

        func run() async throws {
            try await report {
                let tracker = try await root.options.makeTracker()
                await tracker.identify(userId: id, profileData: email.map { ["email": $0] })
                try await printStatus(tracker, ["event": "identified"])
            }
        }
    }

    struct Flush: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Deliver the queue; wait until it is empty.")
        @ParentCommand var root: TrackerExample
        @Option(help: "The longest wait, in seconds.") var timeout = 30

        func run() async throws {
            try await report {
                let tracker = try await root.options.makeTracker()
                let empty = await tracker.flush(timeout: .seconds(timeout))
                let status = await tracker.queueStatus()
                printJSON(["event": "flushed", "empty": empty, "pending": status.pending, "delivered": status.delivered,
                           "dropped_rejected": status.droppedAsRejected, "dropped_for_space": status.droppedForSpace,
                           "paused": status.isPaused, "paused_for_status": status.pausedForStatus ?? NSNull()])
                // A refused key pauses delivery and keeps every row: not a
                // failure of this run; the next run with a valid key delivers them.
                if !empty && !status.isPaused { throw TrackerExampleError.notDelivered(pending: status.pending) }
            }
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Forget the session and identity; start a new session.")
        @ParentCommand var root: TrackerExample

        func run() async throws {
            try await report {
                let tracker = try await root.options.makeTracker()
                tracker.reset()
                printJSON(["event": "reset", "session_id": await tracker.sessionID() ?? NSNull()])
            }
        }
    }
}

/// The queue could not be emptied in time.
enum TrackerExampleError: Error, CustomStringConvertible {
    case notDelivered(pending: Int)

    var description: String {
        switch self {
        case .notDelivered(let pending): return "\(pending) queued item(s) not delivered yet; they stay queued for the next run"
        }
    }
}

/// Delivers what can be delivered in a few seconds, then prints the result
/// with the session and the queue's state.
func printStatus(_ tracker: MobileTracker, _ fields: [String: Any]) async throws {
    _ = await tracker.flush(timeout: .seconds(5))
    let status = await tracker.queueStatus()
    var line = fields
    line["session_id"] = await tracker.sessionID() ?? NSNull()
    line["pending"] = status.pending
    printJSON(line)
}

/// Runs `body`; a failure becomes one line on stderr and exit status 1.
func report(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as TrackerError {
        // A connection that could not be verified is not the network's fault: say so.
        let kind = error.connectionRefusal == nil ? error.kind : "connectionNotVerified"
        FileHandle.standardError.write(Data("error: \(kind): \(error)\n".utf8))
        throw ExitCode.failure
    } catch let error as TrackerExampleError {
        FileHandle.standardError.write(Data("error: notDelivered: \(error)\n".utf8))
        throw ExitCode.failure
    }
}

/// One JSON object on one line of stdout.
func printJSON(_ object: [String: Any]) {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    print(String(decoding: data, as: UTF8.self))
}

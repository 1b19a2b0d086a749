import ArgumentParser
import Foundation
import ExampleLogging
import Logging
import Soul

/// A command-line SOUL client: the code an app team copies. Signs in with an
/// OTP (in one run with `login`, or across two runs with `request-code` and
/// `verify`), lists and adds moods, signs out. `--state` keeps between runs
/// the refresh token (the access token is never written down), the OTP
/// flow, the response cache and the moods made offline.
///
/// Offline: `moods` answers from the cache with its age
/// (`"source":"cache"`); `add-mood` stores the mood (`"queued":true`) and
/// the next run that reaches the server sends it first, once; `pending`
/// lists what waits.
///
/// Success: one JSON object per line on stdout. Failure: one line
/// `error: <kind>: <what happened>` on stderr, exit status 1.
@main
struct SoulExample: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soul-example", abstract: "Sign in to SOUL with an OTP and use the moods API.",
        subcommands: [Login.self, RequestCode.self, Verify.self, Moods.self, AddMood.self, Pending.self, Logout.self])

    @OptionGroup var options: Options

    struct Options: ParsableArguments {
        @OptionGroup var logging: LoggingOptions
        @Option(help: "The API's base URL (https, or http to a loopback host).")
        var baseURL: String = "https://api.soulapp.app"
        @Option(help: "Folder that keeps the refresh token, the OTP flow, the cache and queued moods between runs (created if missing).")
        var state: String
        @Flag(help: "Staging (DEV_MODE): show the OTP preview code.")
        var staging = false

        func makeSoul() throws -> Soul {
            guard let url = URL(string: baseURL), url.scheme != nil else { throw ValidationError("--base-url is not a URL: \(baseURL)") }
            // Quiet unless asked (--log-level, --verbose): stderr carries the one error line.
            let logger = logging.logger(label: "soul")
            let folder = URL(fileURLWithPath: state, isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return try Soul(.init(
                environment: .init(baseURL: url, isStaging: staging),
                tokenStore: FileTokenStore(url: folder.appendingPathComponent("soul-refresh-token.json")), logger: logger, storageFolder: folder))
        }
    }

    struct Login: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Request a code for PHONE (E.164), then verify CODE.")
        @ParentCommand var root: SoulExample
        @Argument(help: "The phone number, E.164 (+14155550123).") var phone: String
        @Argument(help: "The 6-digit code received by SMS.") var code: String

        func run() async throws {
            try await report {
                let soul = try root.options.makeSoul()
                let request = try await soul.signIn.requestCode(phone: phone)
                var sent: [String: Any] = ["event": "code_sent", "phone": request.phone.description]
                if let preview = request.previewCode { sent["preview_code"] = preview }
                printJSON(sent)
                let user = try await soul.signIn.verify(code: code)
                printJSON(["event": "signed_in", "user_id": user.id])
            }
        }
    }

    struct RequestCode: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "request-code", abstract: "Send a code to PHONE (E.164); finish with `verify CODE`, in this run or a later one.")
        @ParentCommand var root: SoulExample
        @Argument(help: "The phone number, E.164 (+14155550123).") var phone: String

        func run() async throws {
            try await report {
                let request = try await root.options.makeSoul().signIn.requestCode(phone: phone)
                var sent: [String: Any] = [
                    "event": "code_sent", "phone": request.phone.description,
                    "resend_allowed_at": ISO8601DateFormatter().string(from: request.resendAllowedAt),
                ]
                if let preview = request.previewCode { sent["preview_code"] = preview }
                printJSON(sent)
            }
        }
    }

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Verify CODE, sent by an earlier `request-code`, and sign in.")
        @ParentCommand var root: SoulExample
        @Argument(help: "The 6-digit code received by SMS.") var code: String

        func run() async throws {
            try await report {
                let user = try await root.options.makeSoul().signIn.verify(code: code)
                printJSON(["event": "signed_in", "user_id": user.id])
            }
        }
    }

    struct Moods: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the signed-in user's moods, newest first, with where they came from (the server, or the cache and its age).")
        @ParentCommand var root: SoulExample

        func run() async throws {
            try await report {
                let moods = try await root.options.makeSoul().listMoods()
                printLine(MoodsLine(moods: moods.value, source: moods.source))
            }
        }
    }

    struct AddMood: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add-mood", abstract: "Record a mood (SCORE 1 to 10, optional NOTE).")
        @ParentCommand var root: SoulExample
        @Argument(help: "1 (lowest) to 10 (highest).") var score: Int32
        @Argument(help: "A note.") var note: String?

        func run() async throws {
            try await report {
                switch try await root.options.makeSoul().addMood(score: score, note: note) {
                case .sent(let mood): printLine(AddMoodLine(queued: false, mood: mood, pendingID: nil))
                case .queued(let write): printLine(AddMoodLine(queued: true, mood: nil, pendingID: write.id))
                }
            }
        }
    }

    struct Pending: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the moods made offline that the server has not confirmed.")
        @ParentCommand var root: SoulExample

        func run() async throws {
            try await report {
                for write in try await root.options.makeSoul().pendingWrites() { printLine(PendingLine(write)) }
            }
        }
    }

    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Sign out: revoke the refresh token (best effort), forget both tokens, the pending sign-in, the cached moods and the queued ones.")
        @ParentCommand var root: SoulExample

        func run() async throws {
            try await report {
                let soul = try root.options.makeSoul()
                await soul.signOut()
                printJSON(["event": "signed_out"])
            }
        }
    }
}

/// Runs `body`; a ``SoulError`` becomes one line on stderr and exit status 1.
func report(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as SoulError {
        // A rate limit comes at once with its wait: the countdown an app shows.
        if case .rateLimited(let wait) = error { printLine(RateLimitedLine(retryAfterSeconds: SoulError.wholeSeconds(wait))) }
        FileHandle.standardError.write(Data("error: \(error.kind): \(error)\n".utf8))
        throw ExitCode.failure
    }
}

/// `{"event":"rate_limited","retry_after_seconds":30}`.
struct RateLimitedLine: Encodable {
    var event = "rate_limited"
    let retryAfterSeconds: Int

    enum CodingKeys: String, CodingKey {
        case event
        case retryAfterSeconds = "retry_after_seconds"
    }
}

/// A value as the JSON the API uses, on one line of stdout.
func printLine(_ value: some Encodable) {
    let encoder = JSONCoding.makeEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    let data = (try? encoder.encode(value)) ?? Data("{}".utf8)
    print(String(decoding: data, as: UTF8.self))
}

/// One JSON object on one line of stdout.
func printJSON(_ object: [String: Any]) {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    print(String(decoding: data, as: UTF8.self))
}

/// The `moods` line: the moods and where they came from.
struct MoodsLine: Encodable {
    let moods: [Mood]
    let source: String
    let ageSeconds: Int64

    init(moods: [Mood], source: ResponseSource) {
        self.moods = moods
        self.source = source.label
        ageSeconds = source.age.components.seconds
    }

    enum CodingKeys: String, CodingKey {
        case moods, source
        case ageSeconds = "age_seconds"
    }
}

/// The `add-mood` line: the stored mood, or the id of the queued write.
struct AddMoodLine: Encodable {
    let queued: Bool
    let mood: Mood?
    let pendingID: String?

    enum CodingKeys: String, CodingKey {
        case queued, mood
        case pendingID = "pending_id"
    }
}

/// One `pending` line: a queued mood and where it stands.
struct PendingLine: Encodable {
    let id: String
    let operation: String
    let state: String
    let attempts: Int
    let queuedAt: Date

    init(_ write: QueuedWrite) {
        id = write.id
        operation = write.operationID
        state = write.state.label
        attempts = write.attempts
        queuedAt = write.enqueuedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, operation, state, attempts
        case queuedAt = "queued_at"
    }
}


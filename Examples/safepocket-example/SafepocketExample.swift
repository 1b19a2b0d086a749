import ArgumentParser
import Foundation
import ExampleLogging
import Logging
import Safepocket

/// A command-line Safepocket client: the code an app team copies. Signs in
/// with Authorization Code + PKCE (the PKCE verifier and state wait in
/// `--state` between `authorize-url` and `exchange`, as they would across an
/// app's trip to the browser), reads accounts and transactions, signs out.
/// `--pin sha256/...` (twice or more) pins the API host's public keys;
/// `--development` turns pinning off, as Safepocket's guide asks; in a debug
/// build, `--development-key sha256/...` accepts a local server's
/// certificate the system refuses, from the base URL's host alone.
///
/// Success: one JSON object per line on stdout. Failure: one line
/// `error: <kind>: <what happened>` on stderr (with the server's trace id
/// when it sent one), exit status 1.
@main
struct SafepocketExample: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "safepocket-example", abstract: "Sign in to Safepocket with PKCE and read the finance API.",
        subcommands: [AuthorizeURL.self, Exchange.self, Accounts.self, Transactions.self, UpdateTransaction.self, Pending.self, Logout.self])

    @OptionGroup var options: Options

    struct Options: ParsableArguments {
        @OptionGroup var logging: LoggingOptions
        @Option(help: "The API's base URL (https, or http to a loopback host).")
        var baseURL: String = "https://api.safepocket.app"
        @Option(help: "Folder that keeps the refresh token and a started sign-in between runs (created if missing).")
        var state: String
        @Option(help: "The hosted UI's authorization endpoint.")
        var authorizeEndpoint: String = "https://auth.safepocket.app/oauth2/authorize"
        @Option(help: "The app client id registered with the authorization server.")
        var clientID: String = "safepocket-ios"
        @Option(help: "The redirect URI registered for the app.")
        var redirectURI: String = "safepocket://auth/callback"
        @Option(
            name: .customLong("pin"),
            help: ArgumentHelp(
                "A public-key pin of the base URL's host, sha256/<base64>; repeat it: at least two, the served key and a backup.",
                discussion: "Checked in production against every certificate of the chain, after the system's own trust evaluation."))
        var pins: [String] = []
        @Flag(help: "Development: no pin is checked (the system's own trust evaluation still is).")
        var development = false
        #if DEBUG
        @Option(
            name: .customLong("development-key"),
            help: ArgumentHelp(
                "Debug builds only: the sha256/ pin of the development server's (or its CA's) key, whose certificate the system refuses.",
                discussion: "Accepted from the base URL's host alone, and logged each time; a release build has no such option."))
        var developmentKeys: [String] = []
        #endif

        func makeSafepocket() throws -> Safepocket {
            guard let url = URL(string: baseURL), url.scheme != nil else { throw ValidationError("--base-url is not a URL: \(baseURL)") }
            guard let endpoint = URL(string: authorizeEndpoint), endpoint.scheme != nil else {
                throw ValidationError("--authorize-endpoint is not a URL: \(authorizeEndpoint)")
            }
            // Quiet unless asked (--log-level, --verbose): stderr carries the one error line.
            let logger = logging.logger(label: "safepocket")
            let folder = URL(fileURLWithPath: state, isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // The pins are for the API's host; fewer than two are refused here, before any connection.
            var pinning = try pins.isEmpty ? CertificatePinning.none : CertificatePinning([PinnedHost(url.host ?? "", pins: pins)])
            #if DEBUG
            if !developmentKeys.isEmpty { pinning = try pinning.acceptingForDevelopment(host: url.host ?? "", pins: developmentKeys) }
            #endif
            return try Safepocket(.init(
                baseURL: url, authorization: .init(authorizeEndpoint: endpoint, clientID: clientID, redirectURI: redirectURI),
                tokenStore: FileTokenStore(url: folder.appendingPathComponent("safepocket-refresh-token.json")),
                pendingSignInFile: folder.appendingPathComponent("safepocket-pending-sign-in.json"), logger: logger, storageFolder: folder,
                pinning: pinning, isDevelopment: development ? true : nil))
        }
    }

    struct AuthorizeURL: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "authorize-url", abstract: "Start a sign-in: print the URL to open in a browser.")
        @ParentCommand var root: SafepocketExample

        func run() async throws {
            try await report {
                let url = try await root.options.makeSafepocket().startSignIn()
                printJSON(["authorize_url": url.absoluteString])
            }
        }
    }

    struct Exchange: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Finish the sign-in with the CODE and STATE the redirect carried.",
            discussion: "Write `exchange -- CODE STATE`: both are random base64url and may begin with '-', which would otherwise read as an option.")
        @ParentCommand var root: SafepocketExample
        @Argument(help: "The `code` of the redirect.") var code: String
        @Argument(help: "The `state` of the redirect.") var stateValue: String

        func run() async throws {
            try await report {
                try await root.options.makeSafepocket().completeSignIn(code: code, state: stateValue)
                printJSON(["event": "signed_in"])
            }
        }
    }

    struct Accounts: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the linked accounts on one JSON line, with where they came from (the server, or the cache and its age).")
        @ParentCommand var root: SafepocketExample

        func run() async throws {
            try await report {
                let accounts = try await root.options.makeSafepocket().accounts()
                printLine(SourcedLine(key: "accounts", value: accounts.value.accounts, source: accounts.source))
            }
        }
    }

    struct Transactions: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a month's transactions on one JSON line, with where they came from (the server, or the cache and its age).")
        @ParentCommand var root: SafepocketExample
        @Option(help: "The month, YYYY-MM (the current one when no filter is given).") var month: String?
        @Option(help: "The start of a window: a month, YYYY-MM, or a day, YYYY-MM-DD, as the backend takes it.") var from: String?
        @Option(help: "The end of a window: a month, YYYY-MM, or a day, YYYY-MM-DD.") var to: String?
        @Option(help: "Only this account's transactions (its id).") var account: String?
        @Option(help: "The page, from 0.") var page: Int32?
        @Option(help: "Transactions per page (1 to 100).") var pageSize: Int32?

        func run() async throws {
            try await report {
                let accountID = try account.map { text -> LowercaseUUID in
                    guard let id = try? LowercaseUUID(text) else { throw ValidationError("--account is not an account id (a UUID): \(text)") }
                    return id
                }
                let transactions = try await root.options.makeSafepocket().transactions(
                    month: month, from: from, to: to, accountID: accountID, page: page, pageSize: pageSize)
                printLine(SourcedLine(key: "transactions", value: transactions.value.transactions, source: transactions.source))
            }
        }
    }

    struct UpdateTransaction: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "update-transaction",
            abstract: "Change a transaction's category or notes: sent now, or queued when it cannot leave the device (sent by a later run, once, with the same Idempotency-Key).")
        @ParentCommand var root: SafepocketExample
        @Argument(help: "The transaction's id.") var id: String
        @Option(help: "The new category.") var category: String?
        @Option(help: "The new notes.") var notes: String?

        func run() async throws {
            try await report {
                guard let transactionID = try? LowercaseUUID(id) else { throw ValidationError("not a transaction id (a UUID): \(id)") }
                guard category != nil || notes != nil else { throw ValidationError("give --category, --notes or both") }
                let submission = try await root.options.makeSafepocket().updateTransaction(
                    id: transactionID, TransactionUpdate(category: category, notes: notes.map { .value($0) }))
                switch submission {
                case .sent(let transaction): printLine(UpdateLine(queued: false, transaction: transaction, pendingID: nil, idempotencyKey: nil))
                case .queued(let write):
                    printLine(UpdateLine(queued: true, transaction: nil, pendingID: write.id, idempotencyKey: write.idempotencyKey))
                }
            }
        }
    }

    struct Pending: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send the queued writes the server can take now, then list what is still waiting (one JSON line each).")
        @ParentCommand var root: SafepocketExample

        func run() async throws {
            try await report {
                let safepocket = try root.options.makeSafepocket()
                let report = await safepocket.deliverPendingWrites()
                printJSON(["event": "delivered", "count": String(report.delivered.count)])
                for write in await safepocket.pendingWrites() {
                    printJSON([
                        "id": write.id, "operation": write.operationID, "idempotency_key": write.idempotencyKey ?? "", "state": write.state.label,
                        "attempts": String(write.attempts),
                    ])
                }
            }
        }
    }

    struct Logout: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Sign out: forget both tokens, the pending sign-in, the cached answers and the queued edits.")
        @ParentCommand var root: SafepocketExample

        func run() async throws {
            try await report {
                let safepocket = try root.options.makeSafepocket()
                await safepocket.signOut()
                printJSON(["event": "signed_out"])
            }
        }
    }
}

/// Runs `body`; a ``SafepocketError``, or pins refused by their
/// configuration, becomes one line on stderr and exit status 1.
func report(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as SafepocketError {
        FileHandle.standardError.write(Data("error: \(error.kind): \(error)\n".utf8))
        throw ExitCode.failure
    } catch let error as PinningConfigurationError {
        FileHandle.standardError.write(Data("error: invalidPins: \(error)\n".utf8))
        throw ExitCode.failure
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
func printJSON(_ object: [String: String]) {
    let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    print(String(decoding: data, as: UTF8.self))
}

/// A read's line: the values under `key`, and where they came from
/// (`source`: `network`, `revalidated` or `cache`; `age_seconds`).
struct SourcedLine<Value: Encodable>: Encodable {
    let key: String
    let value: Value
    let source: ResponseSource

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(value, forKey: Key(key))
        try container.encode(source.label, forKey: Key("source"))
        try container.encode(source.age.components.seconds, forKey: Key("age_seconds"))
    }

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// `update-transaction`'s line: sent (with the transaction) or queued (with
/// the queued write's id and its `Idempotency-Key`).
struct UpdateLine: Encodable {
    let queued: Bool
    let transaction: Transaction?
    let pendingID: String?
    let idempotencyKey: String?

    enum CodingKeys: String, CodingKey {
        case queued, transaction
        case pendingID = "pending_id"
        case idempotencyKey = "idempotency_key"
    }
}

import ArgumentParser
import ContractCheck
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import SandboxCore

/// `sandbox`: serves the backends' specs on one port, each under its own
/// path prefix, checking every request against its spec.
@main
struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Serve the backends' specs locally, checking every request against its spec.",
        discussion: """
            Each backend answers under /NAME (http://127.0.0.1:8080/soul/api/moods).
            A request its spec does not allow gets the status and error body its spec
            documents (400 for a broken rule, 401 for a missing or refused key or
            token, 404 and 405 with Allow for a path or method the spec does not
            have), each rule and the spec's file:line:column in the
            Sandbox-Violations header, and one log line; a valid one is answered from
            the backend's state as its document describes (SOUL's OTP sign-in and
            token rotation, Safepocket's PKCE sign-in at /safepocket/oauth2/authorize
            and its seeded ledger, SecureNode's seeded branding dataset and billing
            deduplicated by event_key, MobileTracker's sessions and events), or with
            the spec's documented example, or with a fault drawn from the --*-share
            options (seeded). GET /_sandbox/requests lists what each backend
            received and holds; GET and PUT /_sandbox/faults read and replace the
            fault plan.
            """)

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port, printed at start).")
    var port = 8080

    @Option(name: .customLong("backend"), help: "NAME=SPEC for each backend (default: the four specs in --specs).")
    var backends: [String] = []

    @Option(help: "The folder of the default backends' specs.")
    var specs = "specs"

    @Flag(help: "Also check every answer against the spec; one that breaks it becomes a 500 naming each violation, and a log line.")
    var strict = false

    @Option(help: "Milliseconds added to every answer.")
    var latencyMs = 0

    @Option(help: "Share (0-1) of valid requests answered 503.")
    var errorShare = 0.0

    @Option(help: "Share (0-1) of valid requests answered 429 with Retry-After.")
    var rateLimitShare = 0.0

    @Option(help: "The Retry-After seconds of an injected 429.")
    var retryAfter = 1

    @Option(help: "How many 429s in a row one drawn 429 starts (a burst).")
    var rateLimitBurst = 1

    @Option(help: "Share (0-1) of valid requests answered with a body cut in half.")
    var malformedShare = 0.0

    @Option(help: "Share (0-1) of valid requests applied and then left unanswered (the connection closes).")
    var dropShare = 0.0

    @Option(help: "Share (0-1) of requests with a bearer token whose token the backend expires first.")
    var expiredTokenShare = 0.0

    @Option(help: "The seed of the fault draws and of the seeded datasets: one seed, one sequence.")
    var seed: UInt64 = 1

    @Flag(help: "SOUL as production: the OTP answer carries no preview code; the code to type is --soul-sms-code.")
    var soulProduction = false

    @Option(help: "The six-digit code SOUL 'sends by SMS' in production mode.")
    var soulSmsCode = "246810"

    @Option(help: "Seconds a SOUL or Safepocket access token lives.")
    var tokenLifetime = 3600

    @Option(help: "SOUL code requests allowed per number per minute before a 429.")
    var soulCodeRequests = 3

    @Option(help: "Numbers in SecureNode's generated branding dataset (up to 10,000,000).")
    var securenodeNumbers = 1_000

    @Option(help: "Seconds between batches of SecureNode branding changes (0: none).")
    var securenodeChangeInterval = 60

    @Option(help: "Changes per SecureNode batch (updates, deactivations, new numbers).")
    var securenodeChanges = 5

    @Option(help: "The X-API-Key SecureNode accepts; a request with another key gets the spec's 401.")
    var securenodeApiKey = "sk_sandbox"

    @Flag(help: "SecureNode's incremental syncs send damaged records as some servers do: bare tombstones, logo_url \"\" (breaks the spec: not with --strict).")
    var securenodeDamagedRecords = false

    @Option(help: "What answers at SecureNode's root mount ({base}/mobile/...), in front of the API under /api: forbidden (a gateway's 403 page), html (a 200 page) or bad-gateway (a 502 page).")
    var securenodeRootAnswer: String?

    @Option(help: "The X-API-Key MobileTracker accepts; a request with another key gets the spec's 401.")
    var trackerApiKey = "tk_sandbox"

    @Option(help: "What MobileTracker's session ids look like: uuid, numeric (12345) or prefixed (sess_8f3a2c).")
    var trackerSessionIds = "uuid"

    func run() async throws {
        guard !securenodeApiKey.isEmpty, !trackerApiKey.isEmpty else { throw ValidationError("--securenode-api-key and --tracker-api-key take a key, not an empty string") }
        guard (0...10_000_000).contains(securenodeNumbers) else { throw ValidationError("--securenode-numbers must be between 0 and 10000000") }
        guard tokenLifetime > 0, soulCodeRequests >= 0, securenodeChangeInterval >= 0, securenodeChanges >= 0 else {
            throw ValidationError("--token-lifetime must be positive; --soul-code-requests, --securenode-change-interval and --securenode-changes not negative")
        }
        var standard = StandardBackends()
        standard.soul.isStaging = !soulProduction
        standard.soul.smsCode = soulSmsCode
        standard.soul.codeRequestsPerNumber = soulCodeRequests
        standard.soul.accessTokenLifetime = .seconds(tokenLifetime)
        standard.safepocketTokenLifetime = .seconds(tokenLifetime)
        standard.safepocketSeed = seed
        standard.secureNode.datasetSize = securenodeNumbers
        standard.secureNode.seed = seed
        standard.secureNode.changeInterval = securenodeChangeInterval > 0 ? .seconds(securenodeChangeInterval) : nil
        standard.secureNode.changesPerInterval = securenodeChanges
        standard.secureNode.apiKey = securenodeApiKey
        standard.secureNode.damagedRecords = securenodeDamagedRecords
        if let answer = securenodeRootAnswer {
            guard let parsed = SecureNodeBehaviour.RootAnswer(rawValue: answer) else {
                throw ValidationError("--securenode-root-answer takes \(SecureNodeBehaviour.RootAnswer.allCases.map(\.rawValue).joined(separator: ", ")), not '\(answer)'")
            }
            standard.secureNode.rootAnswer = parsed
        }
        if strict, securenodeDamagedRecords { throw ValidationError("--securenode-damaged-records breaks the spec on purpose: leave out --strict") }
        standard.trackerAPIKey = trackerApiKey
        guard let sessionIDStyle = TrackerBehaviour.SessionIDStyle(rawValue: trackerSessionIds) else {
            throw ValidationError("--tracker-session-ids takes uuid, numeric or prefixed, not '\(trackerSessionIds)'")
        }
        standard.trackerSessionIDStyle = sessionIDStyle
        let pairs = backends.isEmpty
            ? StandardBackends.names.map { ($0, "\(specs)/\($0).yaml") }
            : try backends.map { entry -> (String, String) in
                let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty else { throw ValidationError("--backend takes NAME=SPEC, not '\(entry)'") }
                return (parts[0], parts[1])
            }
        var loaded: [SandboxBackend] = []
        for (name, path) in pairs {
            do {
                loaded.append(try SandboxBackend(name: name, specPath: path, behaviour: standard.behaviour(for: name)))
            } catch {
                FileHandle.standardError.write(Data("sandbox: \(path) did not load:\n\(error)\n".utf8))
                throw ExitCode(1)
            }
        }
        let faults = FaultPlan(
            latencyMilliseconds: latencyMs, serverErrorShare: errorShare, rateLimitShare: rateLimitShare, rateLimitRetryAfter: retryAfter,
            rateLimitBurst: rateLimitBurst, malformedBodyShare: malformedShare, droppedResponseShare: dropShare, expiredTokenShare: expiredTokenShare, seed: seed)
        if let problem = faults.problem { throw ValidationError(problem) }
        let sandbox = Sandbox(backends: loaded, faults: faults, strict: strict) { line in say(line) }
        let responder = CallbackResponder<ConnectionContext> { request, context in
            var request = request
            let body = try await request.collectBody(upTo: 32 << 20)
            let reply = sandbox.handle(ContractRequest(
                method: request.method.rawValue, path: request.uri.path, query: request.uri.query,
                headers: request.headers.map { ($0.name.rawName, $0.value) }, body: Array(body.readableBytesView)))
            if reply.delay > .zero { try await Task.sleep(for: reply.delay) }
            var fields = HTTPFields()
            for (name, value) in reply.headers {
                if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) }
            }
            if reply.dropsConnection {
                // The request was applied; close the connection before any
                // byte of the answer: the client sees no response at all.
                try? await context.channel.close().get()
                throw DroppedResponse()
            }
            if let stream = reply.stream {
                return Response(status: .init(code: reply.status), headers: fields, body: ResponseBody { writer in
                    var index = 0
                    while let chunk = stream.chunk(index) {
                        try await writer.write(ByteBuffer(bytes: chunk))
                        index += 1
                    }
                    try await writer.finish(nil)
                })
            }
            return Response(status: .init(code: reply.status), headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: reply.body)))
        }
        var logger = Logger(label: "sandbox")
        logger.logLevel = .warning
        let names = loaded.map { "/\($0.name)" }.joined(separator: ", ")
        let host = host
        let app = Application(
            responder: responder, configuration: ApplicationConfiguration(address: .hostname(host, port: port)),
            onServerRunning: { channel in
                say("sandbox: listening on http://\(host):\(channel.localAddress?.port ?? 0) (\(names))")
            },
            logger: logger)
        try await app.runService()
    }
}

/// The error that ends a request whose connection the sandbox closed
/// (the dropped-response fault); nothing is left to answer on.
struct DroppedResponse: Error {}

/// A request context that keeps the connection's channel, so the sandbox
/// can close a connection instead of answering.
struct ConnectionContext: RequestContext {
    /// Hummingbird's per-request storage.
    var coreContext: CoreRequestContextStorage
    /// The connection the request came on.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// One line on standard output, written at once (a script waits for it through a pipe).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

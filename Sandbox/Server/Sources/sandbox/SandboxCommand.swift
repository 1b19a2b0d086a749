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
            A request its spec does not allow gets a 400 naming each rule and the
            spec's file:line:column, and one log line; a valid one gets the success
            response its spec documents, or a fault drawn from the --*-share options
            (seeded). GET /_sandbox/requests lists what each backend received;
            GET and PUT /_sandbox/faults read and replace the fault plan.
            """)

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0: any free port, printed at start).")
    var port = 8080

    @Option(name: .customLong("backend"), help: "NAME=SPEC for each backend (default: the four specs in --specs).")
    var backends: [String] = []

    @Option(help: "The folder of the default backends' specs.")
    var specs = "specs"

    @Option(help: "Milliseconds added to every answer.")
    var latencyMs = 0

    @Option(help: "Share (0-1) of valid requests answered 503.")
    var errorShare = 0.0

    @Option(help: "Share (0-1) of valid requests answered 429 with Retry-After.")
    var rateLimitShare = 0.0

    @Option(help: "The Retry-After seconds of an injected 429.")
    var retryAfter = 1

    @Option(help: "Share (0-1) of valid requests answered with a body cut in half.")
    var malformedShare = 0.0

    @Option(help: "The seed of the fault draws: one seed, one sequence.")
    var seed: UInt64 = 1

    func run() async throws {
        let pairs = backends.isEmpty
            ? ["soul", "safepocket", "securenode", "mobiletracker"].map { ($0, "\(specs)/\($0).yaml") }
            : try backends.map { entry -> (String, String) in
                let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty else { throw ValidationError("--backend takes NAME=SPEC, not '\(entry)'") }
                return (parts[0], parts[1])
            }
        var loaded: [SandboxBackend] = []
        for (name, path) in pairs {
            do {
                loaded.append(try SandboxBackend(name: name, specPath: path))
            } catch {
                FileHandle.standardError.write(Data("sandbox: \(path) did not load:\n\(error)\n".utf8))
                throw ExitCode(1)
            }
        }
        let faults = FaultPlan(
            latencyMilliseconds: latencyMs, serverErrorShare: errorShare, rateLimitShare: rateLimitShare, rateLimitRetryAfter: retryAfter,
            malformedBodyShare: malformedShare, seed: seed)
        if let problem = faults.problem { throw ValidationError(problem) }
        let sandbox = Sandbox(backends: loaded, faults: faults) { line in say(line) }
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
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

/// One line on standard output, written at once (a script waits for it through a pipe).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

import Foundation

/// A TLS server on `127.0.0.1` whose certificate no system trusts: a
/// self-signed one made for the run (`openssl req`), served by the openssl
/// command line (`openssl s_server`). It stands for an interception: a
/// server on the path that answers TLS with a certificate of its own. A
/// client that verifies its connections fails the handshake, so nothing of
/// a request (no header, no body) ever reaches it.
///
/// ```swift
/// let server = try UntrustedTLSServer()
/// defer { server.stop() }
/// // https://127.0.0.1:<port>
/// ```
public final class UntrustedTLSServer: @unchecked Sendable {
    // @unchecked Sendable: every stored property is a `let` set in init; the
    // child process is only signalled and reaped (kill, waitpid), which any
    // thread may do, and `stop` is idempotent (a second kill finds it reaped).

    /// The port it accepts on.
    public let port: Int
    /// `https://127.0.0.1:<port>`.
    public var url: URL { URL(string: "https://127.0.0.1:\(port)")! }
    /// The SHA-256 pin (`sha256/<base64>`) of its certificate's key, for a
    /// test that names it.
    public let pin: String
    private let process: SpawnedProcess
    private let folder: URL

    /// Makes the key and certificate and starts the server; throws when the
    /// openssl command line is missing (`make deps` installs it) or the
    /// server did not say where it listens.
    public init() throws {
        guard let openssl = Self.executable("openssl") else { throw Failure("the openssl command line is not installed (make deps installs it)") }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("untrusted-tls-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = folder.appendingPathComponent("key.pem")
        let certificate = folder.appendingPathComponent("certificate.pem")
        let made = try Self.run(openssl, [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-keyout", key.path, "-out", certificate.path,
            "-days", "2", "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
        ], in: folder)
        guard made == 0 else { throw Failure("openssl req failed with status \(made)") }
        let pinFile = folder.appendingPathComponent("pin")
        guard let shell = Self.executable("sh"),
            try Self.run(shell, [
                "-c", "'\(openssl.path)' x509 -in '\(certificate.path)' -pubkey -noout | '\(openssl.path)' pkey -pubin -outform der "
                    + "| '\(openssl.path)' dgst -sha256 -binary | base64 > '\(pinFile.path)'",
            ], in: folder) == 0
        else { throw Failure("the certificate's pin could not be computed") }
        pin = "sha256/" + (try String(contentsOf: pinFile, encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)
        let log = folder.appendingPathComponent("server.log")
        process = try SpawnedProcess(
            openssl, arguments: ["s_server", "-accept", "127.0.0.1:0", "-cert", certificate.path, "-key", key.path, "-www"], output: log,
            errors: log, directory: folder)
        // `ACCEPT 127.0.0.1:<port>` once it listens.
        let output = ChildOutput(file: log)
        guard let line = output.waitForLine(where: { $0.hasPrefix("ACCEPT ") }), let port = line.split(separator: ":").last.flatMap({ Int($0) }) else {
            process.kill()
            _ = process.wait()
            throw Failure("openssl s_server did not say where it listens: \(output.lines().joined(separator: " | "))")
        }
        self.port = port
    }

    /// Stops the server and deletes its key.
    public func stop() {
        if process.kill() { _ = process.wait() }
        try? FileManager.default.removeItem(at: folder)
    }

    deinit { stop() }

    /// The first `name` on `PATH`.
    static func executable(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    /// Runs `executable` to its end; its exit status.
    private static func run(_ executable: URL, _ arguments: [String], in folder: URL) throws -> Int32 {
        let output = folder.appendingPathComponent("setup.log")
        let process = try SpawnedProcess(executable, arguments: arguments, output: output, errors: output, directory: folder)
        return process.wait() ?? -1
    }

    /// Why the server could not start.
    public struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        public let description: String
        init(_ description: String) { self.description = description }
    }
}

import Foundation
import Waiting

/// Test executables that `swift build` puts beside the test bundle, run as
/// child processes a test can SIGKILL.
public enum ChildProcess {
    /// The executable `name` beside the running test bundle, if built.
    public static func executable(named name: String) -> URL? {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// Starts `executable` and returns once it has printed `ready` on its
    /// standard output (or closed it), so a kill lands after its set-up.
    public static func start(_ executable: URL, arguments: [String], readyLine ready: String) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains(ready) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        return process
    }
}

/// What a child process printed and how it ended.
public struct CompletedRun: Sendable {
    /// The exit status.
    public let status: Int32
    /// Everything it wrote to stdout.
    public let stdout: String
    /// Everything it wrote to stderr.
    public let stderr: String
}

extension ChildProcess {
    /// Runs `executable` to the end and returns its status and output,
    /// waiting on a thread of its own (``onOwnThread(_:)``), not on the
    /// test's: the suites beside it go on meanwhile.
    public static func run(_ executable: URL, arguments: [String], in directory: URL? = nil) async throws -> CompletedRun {
        try await onOwnThread { try runBlocking(executable, arguments: arguments, in: directory) }
    }

    /// ``run(_:arguments:in:)`` on the calling thread. Standard error goes to
    /// a temporary file while standard output is read, so a chatty child
    /// cannot block on a full pipe.
    static func runBlocking(_ executable: URL, arguments: [String], in directory: URL?) throws -> CompletedRun {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("child-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errors = try FileHandle(forWritingTo: errorFile)
        defer { try? errors.close() }
        process.standardOutput = out
        process.standardError = errors
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CompletedRun(
            status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
            stderr: String(decoding: (try? Data(contentsOf: errorFile)) ?? Data(), as: UTF8.self))
    }
}

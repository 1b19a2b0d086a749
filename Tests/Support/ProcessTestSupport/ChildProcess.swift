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

    /// ``run(_:arguments:in:)`` on the calling thread: spawned with
    /// ``SpawnedProcess`` (never Foundation's `Process`; see there why), its
    /// standard output and error written to temporary files, so a chatty
    /// child never blocks on a full pipe, and read once it has ended.
    static func runBlocking(_ executable: URL, arguments: [String], in directory: URL?) throws -> CompletedRun {
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        let output = files.appendingPathExtension("out")
        let errors = files.appendingPathExtension("err")
        defer {
            try? FileManager.default.removeItem(at: output)
            try? FileManager.default.removeItem(at: errors)
        }
        let child = try SpawnedProcess(executable, arguments: arguments, output: output, errors: errors, directory: directory)
        let status = child.waitForTermination() ?? -1
        return CompletedRun(
            status: status, stdout: String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self),
            stderr: String(decoding: (try? Data(contentsOf: errors)) ?? Data(), as: UTF8.self))
    }
}

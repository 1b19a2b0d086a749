import Foundation

/// Test executables that `swift build` puts beside the test bundle, run as
/// child processes a test can SIGKILL.
package enum ChildProcess {
    /// The executable `name` beside the running test bundle, if built.
    package static func executable(named name: String) -> URL? {
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
    package static func start(_ executable: URL, arguments: [String], readyLine ready: String) throws -> Process {
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
package struct CompletedRun: Sendable {
    /// The exit status.
    package let status: Int32
    /// Everything it wrote to stdout.
    package let stdout: String
    /// Everything it wrote to stderr.
    package let stderr: String
}

extension ChildProcess {
    /// Runs `executable` to the end and returns its status and output. Both
    /// pipes are drained at once (stderr on its own thread), so a chatty
    /// child cannot block on a full pipe.
    package static func run(_ executable: URL, arguments: [String], in directory: URL? = nil) throws -> CompletedRun {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let errors = Mutex(Data())
        let drained = DispatchSemaphore(value: 0)
        Thread {
            let data = err.fileHandleForReading.readDataToEndOfFile()
            errors.withLock { $0 = data }
            drained.signal()
        }.start()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        return CompletedRun(
            status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self),
            stderr: String(decoding: errors.withLock { $0 }, as: UTF8.self))
    }
}

/// A value behind a lock, for results collected from several threads.
package final class Mutex<Value>: @unchecked Sendable {
    // `@unchecked Sendable` is safe: `value` is only touched inside
    // `withLock`, which holds `lock` for the whole access.
    private let lock = NSLock()
    private var value: Value

    /// Wraps `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with the value, under the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

import Foundation
import ProcessTestSupport
import Testing

/// What one run of a sample app printed.
struct ExampleRun {
    let status: Int32
    let stdout: [String]
    let stderr: String

    /// The stdout lines as JSON objects.
    var objects: [[String: Any]] {
        stdout.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    }

    /// Runs the built executable `name` with `arguments` and waits for it.
    static func run(_ name: String, _ arguments: [String]) async throws -> ExampleRun {
        let executable = try #require(ChildProcess.executable(named: name), "\(name) is not built beside the tests")
        let run = try await ChildProcess.run(executable, arguments: arguments)
        return ExampleRun(status: run.status, stdout: run.stdout.split(separator: "\n").map(String.init), stderr: run.stderr)
    }
}

/// A fresh folder for a sample app's state.
func makeStateFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("example-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

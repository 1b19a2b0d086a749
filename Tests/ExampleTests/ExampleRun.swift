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
    static func run(_ name: String, _ arguments: [String]) throws -> ExampleRun {
        let executable = try #require(ChildProcess.executable(named: name), "\(name) is not built beside the tests")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outData = output.fileHandleForReading.readDataToEndOfFile()
        let errData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ExampleRun(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self).split(separator: "\n").map(String.init),
            stderr: String(decoding: errData, as: UTF8.self))
    }
}

/// A fresh folder for a sample app's state.
func makeStateFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("example-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}

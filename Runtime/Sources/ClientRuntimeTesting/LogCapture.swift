import Foundation
import Logging
import RuntimeSupport

/// A swift-log handler that keeps every line at every level, so a test can
/// check what an SDK would have written to an app's logs.
public final class LogCapture: Sendable {
    private let lines = Locked<[String]>([])

    /// Creates an empty capture.
    public init() {}

    /// A logger at `level` (every line by default) whose lines (message and
    /// metadata) land here; `.info` is what an app's release build logs.
    public func logger(label: String = "test", level: Logger.Level = .trace) -> Logger {
        var logger = Logger(label: label) { _ in Handler(capture: self) }
        logger.logLevel = level
        return logger
    }

    /// Every line so far.
    public var all: [String] { lines.withLock { $0 } }

    /// The lines that contain any of `secrets`, with the secret named.
    public func leaks(of secrets: [String]) -> [String] {
        let captured = all
        return secrets.filter { !$0.isEmpty }.flatMap { secret in
            captured.filter { $0.contains(secret) }.map { "\(secret.prefix(3))...: \($0)" }
        }
    }

    fileprivate func append(_ line: String) { lines.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            let error = event.error.map { " error=\($0)" } ?? ""
            capture.append("\(event.level) \(event.message) \(merged.map { "\($0)=\($1)" }.sorted().joined(separator: " "))\(error)")
        }
    }
}

import ArgumentParser
import Logging

/// The sample tools' logging options, one set for the four: `--log-level`
/// with swift-log's level names, and `--verbose` for `--log-level debug`.
/// Without either a tool is quiet, and stderr carries its one error line.
///
/// `--log-level trace` logs what an app at its most verbose would: every
/// request and response with its headers, and each body as its shape (its
/// members, types and lengths; values only where the spec marks a field
/// `x-loggable`), secrets masked at every level.
public struct LoggingOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Log to stderr from this level up (swift-log's level names).",
            discussion: "Secrets are masked at every level; at trace, bodies are logged as their shape.", valueName: "level"))
    public var logLevel: Logger.Level?

    @Flag(help: "Log each request and response (secrets masked) to stderr: --log-level debug.")
    public var verbose = false

    public init() {}

    /// The level asked for: `--log-level`, else `debug` for `--verbose`,
    /// else none.
    public var level: Logger.Level? { logLevel ?? (verbose ? .debug : nil) }

    /// A logger to stderr at the level asked for, or one that writes
    /// nothing.
    public func logger(label: String) -> Logger {
        guard let level else { return Logger(label: label) { _ in SwiftLogNoOpLogHandler() } }
        var logger = Logger(label: label) { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = level
        return logger
    }
}

/// `--log-level debug`: swift-log's level names are the option's values.
extension Logger.Level: @retroactive ExpressibleByArgument {}

import Logging

/// A swift-log handler that writes to Apple's unified log (Console,
/// `log stream`, Instruments) through a ``UnifiedLogSink``: the SDKs'
/// default on Apple platforms when the app neither passes a logger nor
/// bootstraps swift-log (``Logging/Logger/sdkDefault(subsystem:)``).
///
/// Each line goes to the SDK's subsystem, in a category per component (the
/// module that logged: `Resilience` for the requests, `Soul`, `SecureNode`,
/// ...). swift-log's levels map to the unified log's types:
///
/// | swift-log | unified log |
/// | --- | --- |
/// | trace, debug | debug |
/// | info | info |
/// | notice | default |
/// | warning, error | error |
/// | critical | fault |
///
/// Privacy: a swift-log message arrives as one string, its values already
/// in it, so the whole message is private (already redacted of secrets, it
/// may still hold a user's data); so is every metadata value but those the
/// code marks public (``publicMetadataKeys``: the operation's id, which
/// the spec names, and the HTTP status). Console shows the level and the
/// public values, and `<private>` for the rest unless a debugger is
/// attached.
package struct UnifiedLogHandler: LogHandler {
    /// The metadata keys whose values are public.
    package static let publicMetadataKeys: Set<String> = ["operation", "status"]

    /// The SDK's subsystem.
    package let subsystem: String
    /// Where the entries go.
    package let sink: any UnifiedLogSink
    /// The lowest level logged. Default `.info`, swift-log's.
    package var logLevel: Logger.Level = .info
    /// Metadata added to every line.
    package var metadata: Logger.Metadata = [:]

    /// A handler for `subsystem`, writing to `sink`.
    package init(subsystem: String, sink: any UnifiedLogSink) {
        self.subsystem = subsystem
        self.sink = sink
    }

    /// Metadata of every line, by key.
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one line.
    package func log(event: LogEvent) {
        var all = event.metadata.map { metadata.merging($0) { $1 } } ?? metadata
        if let error = event.error { all["error"] = "\(error)" }
        sink.write(Self.entry(level: event.level, message: event.message, metadata: all), subsystem: subsystem, category: event.source)
    }

    /// The entry of one line: its type and its public and private parts.
    package static func entry(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata) -> UnifiedLogEntry {
        let sorted = metadata.sorted { $0.key < $1.key }
        let shown = sorted.filter { publicMetadataKeys.contains($0.key) }.map { "\($0.key)=\($0.value)" }
        let hidden = sorted.filter { !publicMetadataKeys.contains($0.key) }.map { "\($0.key)=\($0.value)" }
        return UnifiedLogEntry(
            kind: kind(of: level), publicText: ([level.rawValue] + shown).joined(separator: " "),
            privateText: ([message.description] + hidden).joined(separator: " "))
    }

    /// The unified log's type for a swift-log level.
    package static func kind(of level: Logger.Level) -> UnifiedLogEntry.Kind {
        switch level {
        case .trace, .debug: .debug
        case .info: .info
        case .notice: .default
        case .warning, .error: .error
        case .critical: .fault
        }
    }
}

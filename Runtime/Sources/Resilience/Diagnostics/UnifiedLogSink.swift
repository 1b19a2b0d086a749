/// One line for Apple's unified log, as ``UnifiedLogHandler`` makes it from
/// a swift-log line: its log type, and its text in two parts, what Console
/// shows to anyone (public) and what it shows only to an attached debugger
/// or a device with a logging profile (private, `<private>` otherwise).
package struct UnifiedLogEntry: Sendable, Equatable {
    /// The unified log's types (`OSLogType`), which decide what the system
    /// keeps: `debug` only while streamed, `info` in memory, the rest on
    /// disk, `fault` with the process's context.
    package enum Kind: Sendable, Equatable {
        /// `OSLogType.debug`.
        case debug
        /// `OSLogType.info`.
        case info
        /// `OSLogType.default` (notice).
        case `default`
        /// `OSLogType.error`.
        case error
        /// `OSLogType.fault`.
        case fault
    }

    /// The log type.
    package var kind: Kind
    /// What anyone reading the device's log sees: the level and the values
    /// the code marks public (an operation's id from the spec, a status).
    package var publicText: String
    /// The message and every other value: `<private>` unless a debugger is
    /// attached or the device has a logging profile.
    package var privateText: String

    /// An entry of `kind` with its two parts.
    package init(kind: Kind, publicText: String, privateText: String) {
        self.kind = kind
        self.publicText = publicText
        self.privateText = privateText
    }
}

/// Where unified-log entries go: `os.Logger` on Apple platforms (an Apple
/// adapter), a simulated unified log in tests.
package protocol UnifiedLogSink: Sendable {
    /// Writes `entry` under `subsystem` (the SDK) and `category` (the
    /// component: the module that logged).
    func write(_ entry: UnifiedLogEntry, subsystem: String, category: String)
}

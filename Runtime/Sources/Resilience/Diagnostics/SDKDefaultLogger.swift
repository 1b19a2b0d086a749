import Logging

extension Logger {
    /// The logger an SDK uses when the app passes none: the app's own
    /// swift-log set-up when it bootstrapped one with a handler of its own
    /// (`LoggingSystem.bootstrap`), and otherwise, on Apple platforms,
    /// Apple's unified log under `subsystem` (``UnifiedLogHandler``), where
    /// Console and Instruments read it; elsewhere swift-log's default
    /// (standard output). An app that bootstrapped swift-log's own
    /// `StreamLogHandler` cannot be told from one that did not, and gets the
    /// unified log too; it passes its logger to keep the SDK's lines in its
    /// stream.
    @usableFromInline
    package static func sdkDefault(subsystem: String) -> Logger {
        sdkDefault(subsystem: subsystem, unifiedLog: UnifiedLog.systemSink)
    }

    /// ``sdkDefault(subsystem:)`` with the unified log given (a test's
    /// simulated one; nil: none, as on Linux).
    package static func sdkDefault(subsystem: String, unifiedLog: (any UnifiedLogSink)?) -> Logger {
        let bootstrapped = Logger(label: subsystem)
        guard let sink = unifiedLog, UnifiedLog.appLeftSwiftLogAlone(bootstrapped.handler) else { return bootstrapped }
        return Logger(label: subsystem) { _ in UnifiedLogHandler(subsystem: subsystem, sink: sink) }
    }
}

/// Where the SDKs' default logs and intervals go.
package enum UnifiedLog {
    /// The unified log of this platform: `os.Logger` on Apple platforms,
    /// none elsewhere.
    package static var systemSink: (any UnifiedLogSink)? {
        #if canImport(os)
        OSLogSink()
        #else
        nil
        #endif
    }

    /// The signposter of this platform: `OSSignposter` on Apple platforms,
    /// none elsewhere.
    package static var systemSignposts: (any SignpostSink)? {
        #if canImport(os)
        OSSignposterSink.shared
        #else
        nil
        #endif
    }

    /// Whether `handler` is what swift-log makes when no one bootstrapped it
    /// (its stream handler): then the SDKs choose where their logs go. An
    /// app that bootstrapped swift-log with a handler of its own decides.
    package static func appLeftSwiftLogAlone(_ handler: any LogHandler) -> Bool {
        handler is StreamLogHandler
    }
}

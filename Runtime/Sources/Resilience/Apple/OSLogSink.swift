#if canImport(os)
import os

// ios-check: with ../Diagnostics/UnifiedLogSink.swift

/// Apple's unified log through `os.Logger`: a logger per subsystem and
/// category, the public part of each entry `.public`, the rest `.private`.
///
/// An Apple adapter: this file imports only os, so `make ios-check`
/// type-checks it for iOS on its own.
struct OSLogSink: UnifiedLogSink {
    func write(_ entry: UnifiedLogEntry, subsystem: String, category: String) {
        let logger = os.Logger(subsystem: subsystem, category: category)
        logger.log(level: Self.type(of: entry.kind), "\(entry.publicText, privacy: .public) \(entry.privateText, privacy: .private)")
    }

    static func type(of kind: UnifiedLogEntry.Kind) -> OSLogType {
        switch kind {
        case .debug: .debug
        case .info: .info
        case .default: .default
        case .error: .error
        case .fault: .fault
        }
    }
}
#endif

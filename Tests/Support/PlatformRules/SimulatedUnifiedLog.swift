import Foundation
import Resilience
import RuntimeSupport

/// Apple's unified log as the SDKs write to it through `os.Logger`: each
/// entry under its subsystem and category, and what Console shows of it to
/// someone without a debugger attached (the public part, `<private>` for
/// the rest), as the documented privacy rules do.
package final class SimulatedUnifiedLog: UnifiedLogSink {
    /// One written entry.
    package struct Line: Sendable, Equatable {
        /// The SDK's subsystem.
        package var subsystem: String
        /// The component: the module that logged.
        package var category: String
        /// The entry.
        package var entry: UnifiedLogEntry

        /// What Console shows without a debugger: the public part, and
        /// `<private>` for the rest.
        package var shownInConsole: String { entry.publicText + " <private>" }
        /// What a debugger attached to the app sees: everything.
        package var shownToDebugger: String { entry.publicText + " " + entry.privateText }
    }

    private let lines = Locked<[Line]>([])
    /// What the unified log refused: an entry without a subsystem or a
    /// category, which `os.Logger` would file where no filter finds it.
    private let refusals = Locked<[String]>([])

    /// An empty log.
    package init() {}

    /// Every entry so far.
    package var all: [Line] { lines.read() }
    /// What was refused, if anything.
    package var refused: [String] { refusals.read() }

    /// Records `entry`.
    package func write(_ entry: UnifiedLogEntry, subsystem: String, category: String) {
        guard !subsystem.isEmpty, !category.isEmpty else {
            refusals.withLock { $0.append("an entry without a subsystem or a category: \(entry.publicText)") }
            return
        }
        lines.withLock { $0.append(Line(subsystem: subsystem, category: category, entry: entry)) }
    }
}

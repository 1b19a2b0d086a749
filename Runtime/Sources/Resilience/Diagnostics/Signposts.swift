/// Intervals an app profiles, for Instruments: a request with its
/// operation's id, a branding sync, a billing delivery, a queue flush. On
/// Apple platforms they are `OSSignposter` intervals under the SDK's
/// subsystem (the os_signpost instrument, and the Points of Interest
/// track); elsewhere nothing, unless a test gives a sink.
package struct Signposts: Sendable {
    /// The SDK's subsystem.
    package let subsystem: String
    /// Where the intervals go; nil: nowhere.
    package let sink: (any SignpostSink)?

    /// Intervals of `subsystem` to `sink`.
    package init(subsystem: String, sink: (any SignpostSink)?) {
        self.subsystem = subsystem
        self.sink = sink
    }

    /// No intervals.
    package static let none = Signposts(subsystem: "", sink: nil)

    /// The SDK's intervals on this platform: `OSSignposter` on Apple
    /// platforms, none elsewhere.
    package static func sdkDefault(subsystem: String) -> Signposts {
        Signposts(subsystem: subsystem, sink: UnifiedLog.systemSignposts)
    }

    /// Runs `body` inside an interval named `name`; `detail` must be a value
    /// the code marks public (an operation's id from the spec, a kind of
    /// sync): Instruments shows it to whoever profiles the app.
    package func interval<T>(
        _ name: StaticString, detail: @autoclosure () -> String, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T
    ) async rethrows -> T {
        guard let sink else { return try await body() }
        let interval = sink.beginInterval(name, subsystem: subsystem, detail: detail())
        defer { sink.endInterval(name, interval) }
        return try await body()
    }
}

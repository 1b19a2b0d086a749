/// When a dropped server-sent-event stream connects again.
///
/// A connection that fails while an operation's `text/event-stream` body
/// arrives (a reset, a timeout, the network gone: not the end of the body,
/// not a cancelled task) is opened again when the operation may be repeated
/// (its method is idempotent, or its `x-idempotent` says so), after the
/// stream's `retry` time or ``defaultDelay``, with `Last-Event-ID` set to the
/// last event ID the stream gave, as the WHATWG standard's `EventSource`
/// does. The request goes through the client's middlewares again, so a
/// retry middleware retries the reconnection itself under its policy. At
/// most ``maximumAttempts`` connections in a row fail before the error
/// reaches the app; an event that arrives starts the count again. Each
/// reconnection is told to ``observer`` (to log it) and counted in
/// ``EventStream/reconnections``.
///
/// JSON Lines and JSON Sequences never reconnect: they have no event IDs,
/// so a server could only start over and the app would see elements twice.
public struct EventStreamReconnection: Sendable {
    /// The most connections in a row that may fail (0: never reconnect).
    public var maximumAttempts: Int
    /// The wait before connecting again when the stream gave no `retry`.
    public var defaultDelay: Duration
    /// The longest wait, whatever the stream's `retry` asks for.
    public var maximumDelay: Duration
    /// The clock the wait runs on.
    public var clock: any Clock<Duration>
    /// Told of each reconnection before its request goes out.
    public var observer: (@Sendable (EventStreamReconnectionNotice) -> Void)?

    /// Reconnects up to `maximumAttempts` times in a row, after the stream's
    /// `retry` (at most `maximumDelay`) or `defaultDelay`.
    public init(
        maximumAttempts: Int = 3, defaultDelay: Duration = .seconds(3), maximumDelay: Duration = .seconds(60),
        clock: any Clock<Duration> = ContinuousClock(), observer: (@Sendable (EventStreamReconnectionNotice) -> Void)? = nil
    ) {
        self.maximumAttempts = Swift.max(0, maximumAttempts)
        self.defaultDelay = defaultDelay
        self.maximumDelay = maximumDelay
        self.clock = clock
        self.observer = observer
    }

    /// The default: three attempts in a row, 3 s apart unless the stream asks otherwise.
    public static let standard = EventStreamReconnection()

    /// Never reconnect: a dropped connection ends the stream with its error.
    public static let never = EventStreamReconnection(maximumAttempts: 0)

    /// The wait before the next connection: the stream's `retry` when it
    /// gave one, within ``maximumDelay``.
    func delay(retryMilliseconds: Int?) -> Duration {
        guard let retryMilliseconds else { return Swift.min(defaultDelay, maximumDelay) }
        let asked = Duration.milliseconds(Swift.min(retryMilliseconds, Int(Int32.max)))
        return Swift.min(asked, maximumDelay)
    }
}

/// One reconnection of an event stream, as ``EventStreamReconnection/observer`` hears of it.
public struct EventStreamReconnectionNotice: Sendable, CustomStringConvertible {
    /// The operation.
    public let operationID: String
    /// This reconnection's place among the ones in a row (1 for the first).
    public let attempt: Int
    /// The wait before it.
    public let delay: Duration
    /// Whether a `Last-Event-ID` goes with it (its value is the server's
    /// and is not repeated here: an ID may carry what a log must not).
    public let resumesFromEventID: Bool
    /// What ended the connection.
    public let cause: String

    /// `streamChat: connection lost (...), reconnecting in 3 s (attempt 1), resuming after the last event ID`.
    public var description: String {
        "\(operationID): connection lost (\(cause)), reconnecting in \(delay) (attempt \(attempt))"
            + (resumesFromEventID ? ", resuming after the last event ID" : "")
    }
}

/// One event of a `text/event-stream` body, as the WHATWG HTML standard's
/// event stream interpretation dispatches it.
struct ServerSentEventFields: Sendable, Hashable {
    /// The `event` field, or nil when the event gave none (the standard's
    /// `message` type).
    var event: String?
    /// The `data` fields joined by line feeds.
    var data: String
    /// The last event ID at dispatch: the most recent `id` field of the
    /// stream (it carries over to later events), nil while none or an empty
    /// one was given.
    var id: String?

    /// Creates the fields of an event.
    init(event: String?, data: String, id: String?) {
        self.event = event
        self.data = data
        self.id = id
    }
}

/// Reads a `text/event-stream` body as the WHATWG HTML standard says
/// (section 9.2.6, "Interpreting an event stream"), in pieces cut anywhere:
/// a leading byte order mark is dropped; lines end in CR LF, LF or CR (a CR
/// at the end of one piece and an LF at the start of the next are one line
/// end); a line starting with a colon is a comment; a field without a colon
/// has an empty value; one space after the colon is dropped; `data` lines
/// join with line feeds; an `id` holding NULL is ignored; `retry` is taken
/// only when it is all ASCII digits; a blank line dispatches the event,
/// unless its data is empty; an event the stream ends in the middle of is
/// never dispatched. Bytes that are not UTF-8 read as U+FFFD.
///
/// Memory holds one line and one event's data: a line or an event's data
/// longer than `limit` bytes throws ``Failure/eventTooLarge(limit:)``.
struct EventStreamParser: Sendable {
    /// Why a stream cannot be read.
    enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// One event's data, or one line, passed the limit in bytes.
        case eventTooLarge(limit: Int)

        /// What went wrong, and what to change.
        var description: String {
            switch self {
            case .eventTooLarge(let limit):
                "an event of the stream is larger than \(limit) bytes; raise ClientCore.maximumResponseBytes if this is expected"
            }
        }
    }

    private let limit: Int
    private var line: [UInt8] = []
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType: [UInt8] = []
    /// The last event ID buffer: the latest `id` field.
    private var lastEventID: String?
    /// The event source's last event ID: the buffer as the last blank line found it.
    private var dispatchedEventID: String?
    private var atStart = true
    private var bomBytesSeen = 0
    private var afterCR = false
    private var ready: [ServerSentEventFields] = []

    /// The reconnection time the stream asked for (`retry`), in
    /// milliseconds; nil until it does.
    private(set) var reconnectionMilliseconds: Int?

    /// The ID a reconnection sends as `Last-Event-ID`: the last event ID
    /// as of the last blank line (an `id` whose event the connection lost
    /// before its blank line does not count).
    var lastEventIDForReconnection: String? {
        dispatchedEventID
    }

    /// A parser for a stream whose lines and events hold at most `limit` bytes.
    init(limit: Int = 32 << 20) {
        self.limit = Swift.max(1, limit)
    }

    /// A parser for a new connection of the same stream: the event source's
    /// last event ID and the reconnection time carry over; the buffers start
    /// empty, as the standard associates them with each stream (so the new
    /// connection's first event sets the ID anew).
    func resumed() -> EventStreamParser {
        var next = EventStreamParser(limit: limit)
        next.dispatchedEventID = dispatchedEventID
        next.reconnectionMilliseconds = reconnectionMilliseconds
        return next
    }

    /// Reads `bytes`, the next piece of the stream.
    mutating func consume(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        var index = 0
        let count = bytes.count
        // The byte order mark is dropped only at the very start of the stream.
        while atStart, index < count {
            let expected: UInt8 = bomBytesSeen == 0 ? 0xEF : bomBytesSeen == 1 ? 0xBB : 0xBF
            if bytes[index] == expected {
                bomBytesSeen += 1
                index += 1
                if bomBytesSeen == 3 { atStart = false }
            } else {
                // Not a byte order mark after all: what was taken for one is text.
                if bomBytesSeen > 0 { line.append(contentsOf: [0xEF, 0xBB, 0xBF][0..<bomBytesSeen]) }
                atStart = false
            }
        }
        if afterCR, index < count {
            afterCR = false
            if bytes[index] == 0x0A { index += 1 }
        }
        var start = index
        while index < count {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D {
                if line.isEmpty {
                    try processLine(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                } else {
                    line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                    try line.withUnsafeBufferPointer { try processLine($0) }
                    line.removeAll(keepingCapacity: true)
                }
                index += 1
                if byte == 0x0D {
                    if index == count {
                        afterCR = true
                    } else if bytes[index] == 0x0A {
                        index += 1
                    }
                }
                start = index
            } else {
                index += 1
            }
        }
        if start < count {
            line.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<count]))
            if line.count > limit { throw Failure.eventTooLarge(limit: limit) }
        }
    }

    /// Reads `bytes`, the next piece of the stream.
    mutating func consume(_ bytes: some Sequence<UInt8>) throws {
        let array = Array(bytes)
        try array.withUnsafeBufferPointer { try consume($0) }
    }

    /// The events dispatched since the last call, in order.
    mutating func takeEvents() -> [ServerSentEventFields] {
        defer { ready.removeAll(keepingCapacity: true) }
        return ready
    }

    /// Whether events wait to be taken.
    var hasEvents: Bool { !ready.isEmpty }

    /// The stream has ended: an event not followed by a blank line is
    /// dropped, as the standard says.
    mutating func finish() {
        afterCR = false
        line.removeAll()
        data.removeAll()
        hasData = false
        eventType.removeAll()
    }

    private mutating func processLine(_ line: UnsafeBufferPointer<UInt8>) throws {
        if line.isEmpty {
            dispatch()
            return
        }
        if line[0] == UInt8(ascii: ":") { return }
        var colon = 0
        while colon < line.count, line[colon] != UInt8(ascii: ":") { colon += 1 }
        let name = UnsafeBufferPointer(rebasing: line[0..<colon])
        var valueStart = Swift.min(colon + 1, line.count)
        if colon < line.count, valueStart < line.count, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let value = UnsafeBufferPointer(rebasing: line[valueStart..<line.count])
        if Self.equals(name, "data") {
            if data.count + value.count + 1 > limit { throw Failure.eventTooLarge(limit: limit) }
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
        } else if Self.equals(name, "event") {
            eventType.removeAll(keepingCapacity: true)
            eventType.append(contentsOf: value)
        } else if Self.equals(name, "id") {
            if !value.contains(0) { lastEventID = value.isEmpty ? nil : String(decoding: value, as: UTF8.self) }
        } else if Self.equals(name, "retry") {
            if !value.isEmpty, value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
                // Digits past what an Int holds keep the largest time.
                var milliseconds = 0
                for digit in value {
                    let (times, overflowTimes) = milliseconds.multipliedReportingOverflow(by: 10)
                    let (sum, overflowSum) = times.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
                    if overflowTimes || overflowSum {
                        milliseconds = Int.max
                        break
                    }
                    milliseconds = sum
                }
                reconnectionMilliseconds = milliseconds
            }
        }
    }

    private mutating func dispatch() {
        dispatchedEventID = lastEventID
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            eventType.removeAll(keepingCapacity: true)
        }
        guard hasData else { return }
        ready.append(ServerSentEventFields(
            event: eventType.isEmpty ? nil : String(decoding: eventType, as: UTF8.self),
            data: String(decoding: data, as: UTF8.self), id: lastEventID))
    }

    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        guard bytes.count == name.utf8CodeUnitCount else { return false }
        let expected = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        for index in 0..<bytes.count where bytes[index] != expected[index] { return false }
        return true
    }
}

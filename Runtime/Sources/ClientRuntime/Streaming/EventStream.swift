import Foundation
import HTTPTypes
import OpenAPIRuntime

/// One element of an ``EventStream``: its payload decoded, and for a
/// server-sent event its `event` and ID.
public struct StreamedEvent<Payload: Sendable>: Sendable {
    /// The element's position in the stream (0-based), across reconnections.
    public let index: Int
    /// The event's `event` field; nil when it gave none (the standard's
    /// `message`) and for JSON Lines and JSON Sequences.
    public let event: String?
    /// The last event ID when the event was dispatched (an `id` carries
    /// over to later events); nil when none was given, and for JSON Lines
    /// and JSON Sequences.
    public let id: String?
    /// The event's data (a line, a record) decoded.
    public let data: Payload

    /// Creates an element.
    public init(index: Int, event: String?, id: String?, data: Payload) {
        self.index = index
        self.event = event
        self.id = id
        self.data = data
    }
}

extension StreamedEvent: Equatable where Payload: Equatable {}
extension StreamedEvent: Hashable where Payload: Hashable {}

/// A response of a sequential media type (server-sent events, JSON Lines,
/// JSON Text Sequences) read one element at a time while the body arrives:
/// memory holds one piece of the body and the elements it completed, never
/// the whole body, however long the stream runs.
///
/// ```swift
/// let stream = try await client.createChatCompletionEvents(body: request)
///     .ending(at: "[DONE]")
/// for try await event in stream {
///     print(event.data.choices.first?.delta.content ?? "", terminator: "")
/// }
/// ```
///
/// The format is the response's `Content-Type` (the one the client asked
/// for when it has none). An element that does not decode ends the stream
/// with ``ResponseDecodingError`` naming it (`events[3].choices`); a
/// transport error ends it as it is, unless a dropped server-sent-event
/// connection reconnects (``EventStreamReconnection``). Cancelling the task
/// that iterates stops reading and closes the connection. The body can be
/// read once: iterate one iterator only.
public struct EventStream<Payload: Sendable>: AsyncSequence, Sendable {
    /// Each element, in order.
    public typealias Element = StreamedEvent<Payload>

    /// Opens the stream again after a dropped connection, with the
    /// `Last-Event-ID` to send (nil: none).
    public typealias Reopen = @Sendable (_ lastEventID: String?) async throws -> OpenedResponse

    /// Decodes one element's data (an event's `data`, a line, a record).
    public typealias Decode = @Sendable (_ data: Data) throws -> Payload

    /// The operation.
    public let operationID: String
    /// The status and headers of the first connection.
    public let response: HTTPResponse
    /// How the body is read.
    public let format: EventStreamFormat
    private let body: HTTPBody?
    private let limit: Int
    private let decode: Decode
    private let terminator: String?
    private let reopen: Reopen?
    private let reconnection: EventStreamReconnection
    private let counts: EnvelopeSlot<Int>

    /// A stream over `body` in `format`, each element's data decoded with
    /// `decode`; `reopen` (nil: the operation may not be repeated) is how a
    /// dropped server-sent-event connection connects again, under
    /// `reconnection`. An element larger than `limit` bytes fails the stream.
    public init(
        operationID: String, response: HTTPResponse, body: HTTPBody?, format: EventStreamFormat, limit: Int,
        decode: @escaping Decode, terminator: String? = nil, reopen: Reopen? = nil, reconnection: EventStreamReconnection = .standard
    ) {
        self.operationID = operationID
        self.response = response
        self.format = format
        self.body = body
        self.limit = limit
        self.decode = decode
        self.terminator = terminator
        self.reopen = reopen
        self.reconnection = reconnection
        counts = EnvelopeSlot()
    }

    /// The status code of the first connection.
    public var status: Int { response.status.code }

    /// The same stream ending, without an error, at the first element whose
    /// data is exactly `terminator` (`[DONE]` in OpenAI's chat streams);
    /// that element is not delivered. Call before iterating.
    public func ending(at terminator: String) -> EventStream {
        EventStream(
            operationID: operationID, response: response, body: body, format: format, limit: limit, decode: decode,
            terminator: terminator, reopen: reopen, reconnection: reconnection)
    }

    /// How many times the stream has connected again, so far.
    public var reconnections: Int { counts.value ?? 0 }

    /// An iterator over the elements.
    public func makeAsyncIterator() -> Iterator {
        Iterator(owner: self)
    }

    /// Reads pieces of the body, cuts them into elements and decodes each.
    public struct Iterator: AsyncIteratorProtocol {
        private let owner: EventStream
        private var chunks: HTTPBody.AsyncIterator?
        private var parser: EventStreamParser
        private var splitter: RecordSplitter
        private var events: [ServerSentEventFields] = []
        private var eventIndex = 0
        private var records: [ArraySlice<UInt8>] = []
        private var recordIndex = 0
        private var unread: ArraySlice<UInt8> = []
        private var nextIndex = 0
        private var ended = false
        private var failuresInARow = 0
        private var reconnections = 0

        init(owner: EventStream) {
            self.owner = owner
            chunks = owner.body?.makeAsyncIterator()
            parser = EventStreamParser(limit: owner.limit)
            splitter = RecordSplitter(framing: owner.format == .jsonSequence ? .sequence : .lines, limit: owner.limit)
        }

        /// The next element, or nil once the body has ended (or the terminator came).
        public mutating func next() async throws -> StreamedEvent<Payload>? {
            while true {
                if let element = try takeReady() { return element }
                if ended { return nil }
                try await read()
            }
        }

        /// An element already cut from the body, decoded; nil when none waits.
        private mutating func takeReady() throws -> StreamedEvent<Payload>? {
            if eventIndex < events.count {
                let fields = events[eventIndex]
                eventIndex += 1
                if let terminator = owner.terminator, fields.data == terminator {
                    finish()
                    return nil
                }
                return try element(Data(fields.data.utf8), event: fields.event, id: fields.id)
            }
            if recordIndex < records.count {
                let record = records[recordIndex]
                recordIndex += 1
                if let terminator = owner.terminator, record.elementsEqual(terminator.utf8) {
                    finish()
                    return nil
                }
                return try element(Data(record), event: nil, id: nil)
            }
            return nil
        }

        private mutating func element(_ data: Data, event: String?, id: String?) throws -> StreamedEvent<Payload> {
            defer { nextIndex += 1 }
            failuresInARow = 0
            do {
                return StreamedEvent(index: nextIndex, event: event, id: id, data: try owner.decode(data))
            } catch {
                let base = ResponseDecodingError(operationID: owner.operationID, status: owner.status, decoding: error, headerFields: owner.response.headerFields)
                let field = "events[\(nextIndex)]" + (base.field.isEmpty || base.field.hasPrefix("[") ? "" : ".") + base.field
                ended = true
                throw ResponseDecodingError(
                    operationID: owner.operationID, status: owner.status, field: field, reason: base.reason, headerFields: owner.response.headerFields,
                    rawBody: data)
            }
        }

        /// The terminator came: stop reading, and let the connection go.
        private mutating func finish() {
            ended = true
            events.removeAll()
            records.removeAll()
            unread = []
            chunks = nil
        }

        /// Reads the next piece of the body (at most 64 KB of it, so that a
        /// transport handing over the whole body at once still gives
        /// elements a few at a time) and cuts it.
        private mutating func read() async throws {
            events.removeAll(keepingCapacity: true)
            eventIndex = 0
            records.removeAll(keepingCapacity: true)
            recordIndex = 0
            guard let piece = try await nextPiece() else {
                ended = true
                if owner.format == .serverSentEvents {
                    parser.finish()
                } else if let last = splitter.finish() {
                    records.append(last)
                }
                return
            }
            do {
                if owner.format == .serverSentEvents {
                    try piece.withUnsafeBufferPointer { try parser.consume($0) }
                    events = parser.takeEvents()
                } else {
                    splitter.append(piece)
                    while let record = try splitter.next() { records.append(record) }
                }
            } catch let failure as EventStreamParser.Failure {
                ended = true
                throw ResponseDecodingError(
                    operationID: owner.operationID, status: owner.status, field: "events[\(nextIndex)]", reason: failure.description,
                    headerFields: owner.response.headerFields)
            }
        }

        private mutating func nextPiece() async throws -> ArraySlice<UInt8>? {
            while unread.isEmpty {
                guard chunks != nil else { return nil }
                do {
                    guard let chunk = try await chunks!.next() else {
                        chunks = nil
                        return nil
                    }
                    unread = chunk
                } catch {
                    try await reconnect(after: error)
                }
            }
            let piece = unread.prefix(64 << 10)
            unread = unread.dropFirst(piece.count)
            return piece
        }

        /// Connects again after `error`, or throws it: only a server-sent
        /// event stream of an operation that may be repeated, not cancelled,
        /// within the attempts allowed.
        private mutating func reconnect(after error: any Error) async throws {
            let policy = owner.reconnection
            guard owner.format == .serverSentEvents, let reopen = owner.reopen, !(error is CancellationError), !Task.isCancelled,
                  failuresInARow < policy.maximumAttempts
            else { throw error }
            var lastError = error
            while failuresInARow < policy.maximumAttempts {
                try Task.checkCancellation()
                failuresInARow += 1
                let delay = policy.delay(retryMilliseconds: parser.reconnectionMilliseconds)
                let lastEventID = parser.lastEventIDForReconnection
                policy.observer?(EventStreamReconnectionNotice(
                    operationID: owner.operationID, attempt: failuresInARow, delay: delay, resumesFromEventID: lastEventID != nil,
                    cause: Self.cause(of: lastError)))
                try await policy.clock.sleep(for: delay)
                reconnections += 1
                owner.counts.set(reconnections)
                do {
                    let opened = try await reopen(lastEventID)
                    guard (200...299).contains(opened.status) else {
                        throw try await opened.collect().undocumented()
                    }
                    parser = parser.resumed()
                    chunks = opened.body?.makeAsyncIterator()
                    return
                } catch let refused as UndocumentedResponseError {
                    // The server answered and said no: connecting again would not change that.
                    throw refused
                } catch {
                    if error is CancellationError || Task.isCancelled { throw error }
                    lastError = error
                }
            }
            throw lastError
        }

        /// The error's kind, never its text: a transport's message can hold
        /// the request's URL, and a query can hold a key.
        private static func cause(of error: any Error) -> String {
            let error = error as NSError
            return "\(error.domain) \(error.code)"
        }
    }
}

extension OpenedResponse {
    /// The body as a stream of `Payload`s decoded from JSON, in the format
    /// of the response's `Content-Type` (`expected` when it names none of
    /// them). See ``EventStream``.
    public func eventStream<Payload: Decodable & Sendable>(
        of payload: Payload.Type, expected: EventStreamFormat, reopen: EventStream<Payload>.Reopen? = nil,
        reconnection: EventStreamReconnection = .standard
    ) -> EventStream<Payload> {
        EventStream(
            operationID: operationID, response: response, body: body, format: format(expected: expected), limit: maximumBytes,
            decode: { data in try ResponseJSONDecoder().decode(Payload.self, from: data) }, reopen: reopen, reconnection: reconnection)
    }

    /// The body as a stream of texts: each event's `data` (a line, a record)
    /// as it came, for a stream whose spec gives its elements no schema.
    public func eventTextStream(
        expected: EventStreamFormat, reopen: EventStream<String>.Reopen? = nil, reconnection: EventStreamReconnection = .standard
    ) -> EventStream<String> {
        EventStream(
            operationID: operationID, response: response, body: body, format: format(expected: expected), limit: maximumBytes,
            decode: { data in String(decoding: data, as: UTF8.self) }, reopen: reopen, reconnection: reconnection)
    }

    private func format(expected: EventStreamFormat) -> EventStreamFormat {
        response.headerFields[.contentType].flatMap(EventStreamFormat.init(mediaType:)) ?? expected
    }
}

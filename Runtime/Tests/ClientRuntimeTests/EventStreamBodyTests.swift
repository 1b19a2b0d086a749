import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import ClientRuntime

/// Request bodies written from the app's sequence of elements: each format
/// framed as its readers expect (read back with this runtime's own parser),
/// one element taken at a time, and an element that cannot be framed named
/// by its position.
@Suite struct EventStreamBodyTests {
    struct Line: Codable, Hashable, Sendable {
        let level: String
        let message: String
    }

    static let lines = [Line(level: "info", message: "started"), Line(level: "error", message: "café 中 😀 \"quoted\"\nsecond line")]

    static let operation = OperationDescriptor(id: "uploadLogs", method: .post, pathTemplate: "/logs", security: [])

    /// Answers 202 after reading the whole request body; keeps what it read.
    /// `@unchecked Sendable` is safe: both properties are read and written
    /// only under `lock`.
    final class Recorder: ClientTransport, @unchecked Sendable {
        private let lock = NSLock()
        private var bytes: [UInt8] = []
        private var type: String?
        var received: [UInt8] { lock.withLock { bytes } }
        var contentType: String? { lock.withLock { type } }

        func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
            lock.withLock { type = request.headerFields[.contentType] }
            if let body {
                for try await piece in body { lock.withLock { bytes += piece } }
            }
            return (HTTPResponse(status: .accepted), nil)
        }

        var text: String { String(decoding: received, as: UTF8.self) }
    }

    static func elements<T: Sendable>(_ values: [T]) -> AsyncStream<T> {
        AsyncStream { continuation in
            values.forEach { continuation.yield($0) }
            continuation.finish()
        }
    }

    static func send(_ configure: (inout RequestBuilder) -> Void) async throws -> Recorder {
        let recorder = Recorder()
        let core = ClientCore(serverURL: URL(string: "https://api.example.com")!, transport: recorder)
        var request = RequestBuilder(Self.operation)
        configure(&request)
        _ = try await core.send(request)
        return recorder
    }

    @Test func jsonLinesAreOneJSONTextALine() async throws {
        let recorder = try await Self.send { $0.setEventStreamBody(Self.elements(Self.lines), format: .jsonLines, contentType: "application/jsonl") }
        #expect(recorder.contentType == "application/jsonl")
        let records = recorder.text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(records.count == 3 && records.last == "", "two records, each ended by LF: \(recorder.text)")
        let decoded = try records.dropLast().map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        #expect(decoded == Self.lines)
    }

    @Test func jsonSequenceRecordsStartWithTheRecordSeparator() async throws {
        let recorder = try await Self.send { $0.setEventStreamBody(Self.elements(Self.lines), format: .jsonSequence, contentType: "application/json-seq") }
        let bytes = recorder.received
        #expect(bytes.first == 0x1E && bytes.last == 0x0A)
        var splitter = RecordSplitter(framing: .sequence, limit: 1 << 20)
        splitter.append(bytes)
        var records: [ArraySlice<UInt8>] = []
        while let record = try splitter.next() { records.append(record) }
        if let last = splitter.finish() { records.append(last) }
        #expect(try records.map { try JSONDecoder().decode(Line.self, from: Data($0)) } == Self.lines)
    }

    @Test func serverSentEventsCarryEachLineOfATextInItsOwnDataField() async throws {
        let texts = ["one line", "two\nlines", "CR LF\r\nand CR\rend", ""]
        let recorder = try await Self.send { $0.setEventTextStreamBody(Self.elements(texts), format: .serverSentEvents, contentType: "text/event-stream") }
        #expect(recorder.text.hasPrefix("data: one line\n\ndata: two\ndata: lines\n\n"))
        // Read back by the WHATWG parser: every text arrives as it was sent, its line breaks as LF.
        var parser = EventStreamParser(limit: 1 << 20)
        try parser.consume(recorder.received)
        parser.finish()
        #expect(parser.takeEvents().map(\.data) == ["one line", "two\nlines", "CR LF\nand CR\nend", ""],
                "an empty text is one empty data field, which a reader dispatches as an empty event")
    }

    @Test func aTextThatWouldSplitItsRecordEndsTheBodyNamingItsPosition() async throws {
        await #expect(throws: EventStreamBodyError(index: 1, reason: .lineBreakInRecord)) {
            _ = try await Self.send { $0.setEventTextStreamBody(Self.elements(["{}", "{\n}"]), format: .jsonLines, contentType: "application/jsonl") }
        }
        await #expect(throws: EventStreamBodyError(index: 0, reason: .recordSeparatorInRecord)) {
            _ = try await Self.send { $0.setEventTextStreamBody(Self.elements(["\u{1E}{}"]), format: .jsonSequence, contentType: "application/json-seq") }
        }
        let error = EventStreamBodyError(index: 3, reason: .lineBreakInRecord)
        #expect(error.description.contains("element 3") && error.description.contains("on one line"))
    }

    /// The transport has the first element before the app has produced the
    /// second: nothing waits for the sequence to end.
    @Test func eachElementGoesOutBeforeTheNextIsProduced() async throws {
        let (elements, continuation) = AsyncStream.makeStream(of: Line.self)
        var request = RequestBuilder(Self.operation)
        request.setEventStreamBody(elements, format: .jsonLines, contentType: "application/jsonl")
        let body = try #require(request.streamedBody)
        #expect(body.iterationBehavior == .single && body.length == .unknown)
        var iterator = body.makeAsyncIterator()
        continuation.yield(Self.lines[0])
        let first = try await iterator.next()
        #expect(first.map { String(decoding: $0, as: UTF8.self) } == #"{"level":"info","message":"started"}"# + "\n")
        continuation.yield(Self.lines[1])
        continuation.finish()
        #expect(try await iterator.next() != nil)
        #expect(try await iterator.next() == nil)
    }
}

import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import ClientRuntime

/// The streamed decode of a JSON array: elements come out in order whatever
/// the chunk boundaries, a bad element costs only itself, a broken body
/// fails as a whole, and the rest of the body decodes once it has ended.
@Suite struct StreamedJSONArrayTests {
    struct Record: Codable, Hashable, Sendable {
        let id: Int
        let name: String
    }

    struct Page: Codable, Hashable, Sendable {
        let records: [Record]
        let cursor: String
        let meta: [String: JSONValue]?
    }

    /// A body delivered in chunks of `size` bytes.
    private func body(_ text: String, chunk size: Int) -> HTTPBody {
        let bytes = Array(text.utf8)
        let stream = AsyncStream<ArraySlice<UInt8>> { continuation in
            var start = 0
            while start < bytes.count {
                let end = Swift.min(start + size, bytes.count)
                continuation.yield(bytes[start..<end])
                start = end
            }
            continuation.finish()
        }
        return HTTPBody(stream, length: .known(Int64(bytes.count)))
    }

    private func stream<Envelope: Decodable & Sendable>(
        _ text: String, member: String?, envelope: Envelope.Type, chunk: Int, batch: Int = 3, limit: Int = 1 << 20
    ) -> StreamedJSONArray<Record, Envelope> {
        StreamedJSONArray(
            operationID: "listRecords", response: HTTPResponse(status: .ok), body: body(text, chunk: chunk), member: member,
            limit: limit, batchSize: batch)
    }

    private func collect<Envelope>(_ stream: StreamedJSONArray<Record, Envelope>) async throws -> [StreamedElement<Record>] {
        var elements: [StreamedElement<Record>] = []
        for try await element in stream { elements.append(element) }
        return elements
    }

    static let page = """
        {"cursor": "c-1", "records": [ {"id": 1, "name": "a,]}"}, {"id": 2, "name": "b \\"quoted\\" [x]"},
        {"id":3,"name":"c"} ,{"id": 4, "name": "d", "extra": {"nested": [1, {"deep": "]"}]}} ], "meta": {"records": [9]}}
        """

    @Test(arguments: [1, 2, 3, 7, 64, 100_000])
    func elementsAndEnvelopeWhateverTheChunks(chunk: Int) async throws {
        let streamed = stream(Self.page, member: "records", envelope: Page.self, chunk: chunk)
        let elements = try await collect(streamed)
        #expect(elements.map(\.index) == [0, 1, 2, 3])
        #expect(try elements.map { try $0.result.get() } == [
            Record(id: 1, name: "a,]}"), Record(id: 2, name: "b \"quoted\" [x]"), Record(id: 3, name: "c"), Record(id: 4, name: "d"),
        ])
        let envelope = try #require(streamed.envelope)
        #expect(envelope.cursor == "c-1")
        #expect(envelope.records.isEmpty)
        #expect(envelope.meta?["records"] == .array([.int(9)]))
    }

    @Test func aBadElementCostsOnlyItself() async throws {
        let text = """
            {"records": [{"id": 1, "name": "a"}, {"id": "two", "name": "b"}, {"id": 3}, 5, {"id": 4, "name": "d"}], "cursor": "c"}
            """
        for chunk in [1, 5, 1000] {
            let streamed = stream(text, member: "records", envelope: Page.self, chunk: chunk, batch: 2)
            let elements = try await collect(streamed)
            #expect(elements.map(\.index) == [0, 1, 2, 3, 4])
            #expect(elements.compactMap { try? $0.result.get().id } == [1, 4])
            let failures = elements.compactMap { element -> ResponseDecodingError? in
                if case .failure(let error) = element.result { return error }
                return nil
            }
            #expect(failures.map(\.field) == ["records[1].id", "records[2].name", "records[3]"])
            #expect(streamed.envelope?.cursor == "c")
        }
    }

    @Test func aBodyThatIsItselfAnArray() async throws {
        let streamed = stream(#"  [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]  "#, member: nil, envelope: EmptyBody.self, chunk: 4)
        let elements = try await collect(streamed)
        #expect(elements.compactMap { try? $0.result.get().id } == [1, 2])
        #expect(streamed.envelope != nil)
        let empty = stream("[]", member: nil, envelope: EmptyBody.self, chunk: 1)
        #expect(try await collect(empty).isEmpty)
    }

    @Test(arguments: [
        (#"{"records": [{"id": 1, "name": "a"}, {"id": 2"#, "ends before"),
        (#"{"records": [{"id": 1, "name": "a"}], "cursor": "c"} trailing"#, "unexpected 't'"),
        (#"{"cursor": "c"}"#, "no 'records' array"),
        (#"{"records": null, "cursor": "c"}"#, "'records' is not an array"),
        (#"{"records": {"id": 1}, "cursor": "c"}"#, "'records' is not an array"),
        (#"[{"id": 1, "name": "a"}]"#, "unexpected '['"),
        (#"{"records": [{"id": 1, "name": "a"}}], "cursor": "c"}"#, "unexpected '}'"),
    ])
    func aBrokenBodyFailsAsAWhole(text: String, reason: String) async throws {
        let streamed = stream(text, member: "records", envelope: Page.self, chunk: 3)
        await #expect {
            _ = try await collect(streamed)
        } throws: { error in
            guard let failure = error as? ResponseDecodingError else { return false }
            return failure.reason.contains(reason) && failure.operationID == "listRecords"
        }
        #expect(streamed.envelope == nil)
    }

    @Test func theEnvelopeMustMatchItsType() async throws {
        let streamed = stream(#"{"records": [{"id": 1, "name": "a"}]}"#, member: "records", envelope: Page.self, chunk: 8)
        await #expect {
            _ = try await collect(streamed)
        } throws: { error in
            (error as? ResponseDecodingError)?.field == "cursor"
        }
    }

    @Test func anElementPastTheLimitFailsTheBody() async throws {
        let big = String(repeating: "x", count: 5000)
        let streamed = stream(#"{"records": [{"id": 1, "name": "\#(big)"}], "cursor": "c"}"#, member: "records", envelope: Page.self, chunk: 512, limit: 1024)
        await #expect {
            _ = try await collect(streamed)
        } throws: { error in
            (error as? ResponseDecodingError)?.reason.contains("larger than 1024 bytes") == true
        }
    }

    /// Random arrays of random records cut at random places come out whole.
    @Test func randomBodiesCutAnywhere() async throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let count = Int.random(in: 0..<40, using: &generator)
            let records = (0..<count).map { Record(id: $0, name: String(repeating: ["a", ",", "]", "}", "\\", "\"", "é"].randomElement()!, count: Int.random(in: 0..<6))) }
            let cursorFirst = Bool.random()
            let encoded = String(decoding: try JSONEncoder().encode(records), as: UTF8.self)
            let text = cursorFirst ? #"{"cursor":"x","records":\#(encoded)}"# : #"{"records":\#(encoded),"cursor":"x"}"#
            let streamed = stream(text, member: "records", envelope: Page.self, chunk: Int.random(in: 1...50), batch: Int.random(in: 1...8))
            let decoded = try await collect(streamed).map { try $0.result.get() }
            #expect(decoded == records)
            #expect(streamed.envelope?.cursor == "x")
        }
    }

    /// Large elements are decoded as soon as a batch reaches its byte
    /// budget: a hostile server's 256 elements of the limit each are never
    /// held at once (memory stays at the budget plus one element).
    @Test func theBytesHeldBeforeDecodingStayWithinTheBatchBudget() async throws {
        let name = String(repeating: "x", count: 300_000)
        let records = (0..<40).map { #"{"id":\#($0),"name":"\#(name)"}"# }.joined(separator: ",")
        let text = #"{"records":[\#(records)],"cursor":"c"}"#
        let streamed = StreamedJSONArray<Record, Page>(
            operationID: "listRecords", response: HTTPResponse(status: .ok), body: body(text, chunk: 64 << 10), member: "records",
            limit: 1 << 20, batchSize: 256, batchBytes: 1 << 20)
        var iterator = streamed.makeAsyncIterator()
        var count = 0
        while let element = try await iterator.next() {
            #expect(try element.result.get().name.count == 300_000)
            count += 1
        }
        #expect(count == 40 && streamed.envelope?.cursor == "c")
        #expect(text.utf8.count > 12_000_000)
        #expect(iterator.largestPendingBytes <= (1 << 20) + (1 << 20) + (64 << 10), "held \(iterator.largestPendingBytes) bytes at once of 12 MB")
        #expect(iterator.largestPendingBytes >= 1 << 20, "a batch fills to its budget before it is decoded")
    }

    /// A body handed over in one piece (a buffering transport) still comes
    /// out in batches: the first element arrives before the last is decoded.
    @Test func aBodyInOnePieceIsDecodedInBatches() async throws {
        let count = 20_000
        let records = (0..<count).map { #"{"id":\#($0),"name":"n"}"# }.joined(separator: ",")
        let text = #"{"records":[\#(records)],"cursor":"c"}"#
        let streamed = stream(text, member: "records", envelope: Page.self, chunk: text.utf8.count, batch: 256)
        var iterator = streamed.makeAsyncIterator()
        let first = try await iterator.next()
        #expect(try first?.result.get().id == 0)
        #expect(iterator.decodedAhead < count / 4, "decoded ahead: \(iterator.decodedAhead) of \(count)")
        #expect(streamed.envelope == nil, "the body was not read to its end for the first element")
        var seen = 1
        while let element = try await iterator.next() {
            #expect(element.index == seen)
            seen += 1
        }
        #expect(seen == count && streamed.envelope?.cursor == "c")
    }
}

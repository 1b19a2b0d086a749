import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import ClientRuntime

/// Typed event streams: each format read one element at a time whatever the
/// cuts, a terminator, a bad element named, a dropped connection resumed
/// with `Last-Event-ID` (on a test clock) or not at all, and cancellation.
@Suite struct EventStreamTests {
    struct Score: Codable, Hashable, Sendable {
        let home: Int
        let away: Int
    }

    /// A body delivered in pieces of `size` bytes, then `failure` if given.
    static func body(_ text: String, chunk size: Int, failing failure: (any Error)? = nil) -> HTTPBody {
        let bytes = Array(text.utf8)
        let stream = AsyncThrowingStream<ArraySlice<UInt8>, any Error> { continuation in
            var start = 0
            while start < bytes.count {
                let end = Swift.min(start + size, bytes.count)
                continuation.yield(bytes[start..<end])
                start = end
            }
            continuation.finish(throwing: failure)
        }
        return HTTPBody(stream, length: .unknown)
    }

    static func opened(_ body: HTTPBody, contentType: String?) -> OpenedResponse {
        var response = HTTPResponse(status: .ok)
        if let contentType { response.headerFields[.contentType] = contentType }
        return OpenedResponse(operationID: "watchScores", response: response, body: body, maximumBytes: 1 << 20)
    }

    static func collect<Payload>(_ stream: EventStream<Payload>) async throws -> [StreamedEvent<Payload>] {
        var events: [StreamedEvent<Payload>] = []
        for try await event in stream { events.append(event) }
        return events
    }

    static let scores = [Score(home: 0, away: 0), Score(home: 1, away: 0), Score(home: 1, away: 1)]

    @Test(arguments: [1, 2, 7, 1000])
    func eachFormatGivesTheSameElementsWhateverTheCuts(chunk: Int) async throws {
        let sse = "event: goal\r\nid: 1\r\ndata: {\"home\": 0,\r\ndata: \"away\": 0}\r\n\r\n: keep-alive\r\n\r\ndata: {\"home\":1,\"away\":0}\r\n\r\n"
            + "id: 3\ndata:{\"home\":1,\"away\":1}\n\n"
        let lines = "{\"home\":0,\"away\":0}\r\n\n{\"home\":1,\"away\":0}\n  {\"home\":1,\"away\":1}"
        let sequence = "\u{1E}{\"home\":0,\"away\":0}\n\u{1E}{\"home\":1,\"away\":0}\n\u{1E}\n\u{1E}{\"home\":1,\"away\":1}\n"
        for (text, contentType) in [(sse, "text/event-stream; charset=utf-8"), (lines, "application/x-ndjson"), (sequence, "application/json-seq")] {
            let stream = Self.opened(Self.body(text, chunk: chunk), contentType: contentType).eventStream(of: Score.self, expected: .jsonLines)
            let events = try await Self.collect(stream)
            #expect(events.map(\.data) == Self.scores, "\(contentType)")
            #expect(events.map(\.index) == [0, 1, 2])
            if contentType.hasPrefix("text/event-stream") {
                #expect(events.map(\.event) == ["goal", nil, nil])
                #expect(events.map(\.id) == ["1", "1", "3"])
            } else {
                #expect(events.allSatisfy { $0.event == nil && $0.id == nil })
            }
        }
    }

    @Test func aResponseWithoutContentTypeIsReadAsTheClientAsked() async throws {
        let stream = Self.opened(Self.body("{\"home\":2,\"away\":2}\n", chunk: 3), contentType: nil).eventStream(of: Score.self, expected: .jsonLines)
        #expect(try await Self.collect(stream).map(\.data) == [Score(home: 2, away: 2)])
    }

    @Test func theTerminatorEndsTheStreamWithoutAnError() async throws {
        let text = "data: {\"home\":0,\"away\":0}\n\ndata: [DONE]\n\ndata: not json\n\n"
        let stream = Self.opened(Self.body(text, chunk: 5), contentType: "text/event-stream").eventStream(of: Score.self, expected: .serverSentEvents)
        #expect(try await Self.collect(stream.ending(at: "[DONE]")).map(\.data) == [Score(home: 0, away: 0)])
        // Without it, `[DONE]` is an element that does not decode, named by its place.
        let again = Self.opened(Self.body(text, chunk: 5), contentType: "text/event-stream").eventStream(of: Score.self, expected: .serverSentEvents)
        let error = await #expect(throws: ResponseDecodingError.self) { _ = try await Self.collect(again) }
        #expect(error?.field == "events[1]")
        #expect(error?.rawBody == Data("[DONE]".utf8))
    }

    @Test func aBadElementNamesItsFieldAndPlace() async throws {
        let text = "{\"home\":0,\"away\":0}\n{\"home\":\"one\",\"away\":0}\n"
        let stream = Self.opened(Self.body(text, chunk: 4), contentType: "application/jsonl").eventStream(of: Score.self, expected: .jsonLines)
        let error = await #expect(throws: ResponseDecodingError.self) { _ = try await Self.collect(stream) }
        #expect(error?.field == "events[1].home")
        #expect(error?.operationID == "watchScores")
    }

    @Test func aLineWithoutItsEndPastTheLimitFails() async throws {
        let text = String(repeating: "x", count: 5000)
        let opened = OpenedResponse(
            operationID: "watchScores", response: HTTPResponse(status: .ok, headerFields: [.contentType: "application/jsonl"]),
            body: Self.body(text, chunk: 100), maximumBytes: 1000)
        let error = await #expect(throws: ResponseDecodingError.self) { _ = try await Self.collect(opened.eventTextStream(expected: .jsonLines)) }
        #expect(error?.reason.contains("larger than 1000 bytes") == true)
    }

    @Test func aTextStreamGivesEachEventsDataAsItCame() async throws {
        let stream = Self.opened(Self.body("data: first\ndata: second\n\ndata: caf\u{E9}\n\n", chunk: 1), contentType: "text/event-stream")
            .eventTextStream(expected: .serverSentEvents)
        #expect(try await Self.collect(stream).map(\.data) == ["first\nsecond", "caf\u{E9}"])
    }

    /// A clock whose sleeps return at once and are recorded: the wait a
    /// reconnection asks for is read, never waited.
    final class RecordingClock: Clock, @unchecked Sendable {
        // `@unchecked Sendable`: `sleeps` is read and written only under `lock`.
        private let lock = NSLock()
        private var sleeps: [Duration] = []
        var now: ContinuousClock.Instant { ContinuousClock.now }
        var minimumResolution: Duration { .zero }
        func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
            lock.withLock { sleeps.append(deadline - ContinuousClock.now) }
        }
        var recorded: [Duration] { lock.withLock { sleeps } }
    }

    /// Records what each reconnection asked for.
    final class Reopens: @unchecked Sendable {
        // `@unchecked Sendable`: `ids` is read and written only under `lock`.
        private let lock = NSLock()
        private var ids: [String?] = []
        func record(_ id: String?) -> Int { lock.withLock { ids.append(id); return ids.count } }
        var lastEventIDs: [String?] { lock.withLock { ids } }
    }

    @Test func aDroppedConnectionResumesFromTheLastEventAfterTheStreamsRetry() async throws {
        let clock = RecordingClock()
        let reopens = Reopens()
        let notices = Reopens()
        let first = "retry: 250\nid: 1\ndata: {\"home\":0,\"away\":0}\n\nid: 2\ndata: {\"home\":9"
        let body = Self.body(first, chunk: 8, failing: URLError(.networkConnectionLost))
        let policy = EventStreamReconnection(clock: clock, observer: { notice in _ = notices.record(notice.description) })
        let stream = Self.opened(body, contentType: "text/event-stream").eventStream(
            of: Score.self, expected: .serverSentEvents,
            reopen: { lastEventID in
                let attempt = reopens.record(lastEventID)
                // The first reconnection fails before any event; the second resumes.
                let text = attempt == 1 ? "" : "id: 2\ndata: {\"home\":1,\"away\":0}\n\nid: 3\ndata: {\"home\":1,\"away\":1}\n\n"
                return Self.opened(Self.body(text, chunk: 5, failing: attempt == 1 ? URLError(.timedOut) : nil), contentType: "text/event-stream")
            },
            reconnection: policy)
        let events = try await Self.collect(stream)
        #expect(events.map(\.data) == Self.scores)
        #expect(events.map(\.id) == ["1", "2", "3"])
        #expect(reopens.lastEventIDs == ["1", "1"])
        #expect(clock.recorded.map { $0 > .milliseconds(240) && $0 <= .milliseconds(250) } == [true, true])
        #expect(stream.reconnections == 2)
        let said = notices.lastEventIDs.compactMap { $0 }
        #expect(said.count == 2)
        #expect(said.first?.contains("reconnecting in 0.25 seconds (attempt 1), resuming after the last event ID") == true, "\(said)")
    }

    @Test func reconnectionStopsAfterItsAttemptsAndTheErrorReachesTheApp() async throws {
        let clock = RecordingClock()
        let stream = Self.opened(Self.body("data: {\"home\":0,\"away\":0}\n\n", chunk: 4, failing: URLError(.networkConnectionLost)), contentType: "text/event-stream")
            .eventStream(
                of: Score.self, expected: .serverSentEvents,
                reopen: { _ in Self.opened(Self.body("", chunk: 1, failing: URLError(.cannotConnectToHost)), contentType: "text/event-stream") },
                reconnection: EventStreamReconnection(maximumAttempts: 2, defaultDelay: .seconds(3), clock: clock))
        var received: [Score] = []
        let error = await #expect(throws: URLError.self) { for try await event in stream { received.append(event.data) } }
        #expect(error?.code == .cannotConnectToHost)
        #expect(received == [Score(home: 0, away: 0)])
        #expect(clock.recorded.count == 2)
        #expect(clock.recorded.allSatisfy { $0 > .milliseconds(2900) })
    }

    @Test func aStreamThatMayNotBeRepeatedOrIsNotSSEDoesNotReconnect() async throws {
        let reopens = Reopens()
        let reopen: EventStream<Score>.Reopen = { id in
            _ = reopens.record(id)
            return Self.opened(Self.body("", chunk: 1), contentType: "text/event-stream")
        }
        let noReopen = Self.opened(Self.body("data: {}\n\n", chunk: 4, failing: URLError(.networkConnectionLost)), contentType: "text/event-stream")
            .eventTextStream(expected: .serverSentEvents)
        await #expect(throws: URLError.self) { _ = try await Self.collect(noReopen) }
        let lines = Self.opened(Self.body("{\"home\":0,\"away\":0}\n", chunk: 4, failing: URLError(.networkConnectionLost)), contentType: "application/jsonl")
            .eventStream(of: Score.self, expected: .jsonLines, reopen: reopen, reconnection: EventStreamReconnection(clock: RecordingClock()))
        await #expect(throws: URLError.self) { _ = try await Self.collect(lines) }
        #expect(reopens.lastEventIDs.isEmpty)
    }

    @Test func aRefusalOnReconnectionIsTheServersAnswerNotAnotherAttempt() async throws {
        let reopens = Reopens()
        let stream = Self.opened(Self.body("id: 5\ndata: {\"home\":0,\"away\":0}\n\n", chunk: 4, failing: URLError(.networkConnectionLost)), contentType: "text/event-stream")
            .eventStream(
                of: Score.self, expected: .serverSentEvents,
                reopen: { id in
                    _ = reopens.record(id)
                    return OpenedResponse(operationID: "watchScores", response: HTTPResponse(status: .notFound), body: Self.body("gone", chunk: 4), maximumBytes: 1 << 20)
                },
                reconnection: EventStreamReconnection(clock: RecordingClock()))
        let error = await #expect(throws: UndocumentedResponseError.self) { _ = try await Self.collect(stream) }
        #expect(error?.response.status.code == 404)
        #expect(reopens.lastEventIDs == ["5"])
    }

    @Test func cancellingTheIteratingTaskStopsReadingTheBody() async throws {
        let (pieces, continuation) = AsyncThrowingStream<ArraySlice<UInt8>, any Error>.makeStream()
        let ended = Reopens()
        continuation.onTermination = { _ in _ = ended.record("ended") }
        continuation.yield(Array("data: {\"home\":0,\"away\":0}\n\n".utf8)[...])
        let stream = Self.opened(HTTPBody(pieces, length: .unknown), contentType: "text/event-stream")
            .eventStream(of: Score.self, expected: .serverSentEvents, reopen: { _ in Issue.record("reconnected after cancellation"); throw CancellationError() })
        let (first, firstArrived) = AsyncStream<Void>.makeStream()
        let task = Task {
            var count = 0
            for try await _ in stream {
                count += 1
                firstArrived.yield()
            }
            return count
        }
        for await _ in first { break }
        task.cancel()
        _ = await task.result
        #expect(ended.lastEventIDs == ["ended"])
    }
}

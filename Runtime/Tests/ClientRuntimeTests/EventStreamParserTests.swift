import Foundation
import Testing

@testable import ClientRuntime

/// The server-sent-event parser against an independent reading of the
/// WHATWG rules: the web platform tests' `eventsource/format-*` cases
/// (`Runtime/Tests/Fixtures/wpt-eventsource-format-cases.json`, each stream
/// as its test's server sends it), fed whole, a byte at a time and cut at
/// every place, and the cuts a network makes that the cases do not.
@Suite struct EventStreamParserTests {
    struct Fixture: Decodable {
        let source: String
        let cases: [Case]
    }

    struct Case: Decodable, CustomTestStringConvertible, Sendable {
        struct Event: Decodable, Sendable {
            let event: String
            let data: String
            let id: String
        }

        let name: String
        let stream_base64: String
        let expected: [Event]
        let retry_ms: Int?

        var testDescription: String { name }
        var bytes: [UInt8] { Array(Data(base64Encoded: stream_base64) ?? Data()) }
    }

    static let fixture: Fixture = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/wpt-eventsource-format-cases.json")
        // A missing or unreadable fixture fails `theFixtureHoldsTheCases`.
        return (try? JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))) ?? Fixture(source: "", cases: [])
    }()

    /// The events a parser dispatches of `pieces`, with the standard's
    /// names (`message` for no `event`, "" for no ID), and its retry.
    static func parse(_ pieces: [ArraySlice<UInt8>], limit: Int = 1 << 20) throws -> (events: [[String]], retry: Int?) {
        var parser = EventStreamParser(limit: limit)
        var events: [[String]] = []
        for piece in pieces {
            try parser.consume(piece)
            events += parser.takeEvents().map { [$0.event ?? "message", $0.data, $0.id ?? ""] }
        }
        parser.finish()
        events += parser.takeEvents().map { [$0.event ?? "message", $0.data, $0.id ?? ""] }
        return (events, parser.reconnectionMilliseconds)
    }

    @Test func theFixtureHoldsTheCases() {
        #expect(Self.fixture.cases.count >= 25, "read \(Self.fixture.cases.count) cases")
        #expect(Self.fixture.source.contains("web-platform-tests/wpt"))
    }

    @Test(arguments: fixture.cases)
    func theWebPlatformCaseParsesWhateverTheCuts(_ testCase: Case) throws {
        let bytes = testCase.bytes
        let expected = testCase.expected.map { [$0.event, $0.data, $0.id] }
        let whole = try Self.parse([bytes[...]])
        #expect(whole.events == expected, "whole")
        if let retry = testCase.retry_ms { #expect(whole.retry == retry) }
        #expect(try Self.parse(bytes.indices.map { bytes[$0...$0] }).events == expected, "a byte at a time")
        for cut in 0...bytes.count {
            #expect(try Self.parse([bytes[..<cut], bytes[cut...]]).events == expected, "cut at \(cut)")
        }
    }

    @Test func aCarriageReturnEndingOnePieceAndALineFeedStartingTheNextAreOneLineEnd() throws {
        // Were they two, the empty line between would dispatch "a" alone and lose the id.
        let pieces: [ArraySlice<UInt8>] = [Array("data: a\r".utf8)[...], Array("\nid: 7\r".utf8)[...], Array("\n\r\n".utf8)[...]]
        #expect(try Self.parse(pieces).events == [["message", "a", "7"]])
    }

    @Test func linesEndInCarriageReturnsAlone() throws {
        let text = "event: score\rdata: {\"home\": 1,\rdata:  \"away\": 0}\rid: é\r\r"
        #expect(try Self.parse([Array(text.utf8)[...]]).events == [["score", "{\"home\": 1,\n \"away\": 0}", "é"]])
    }

    @Test func aByteOrderMarkCutAcrossPiecesIsStillDropped() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("data: x\n\n".utf8)
        #expect(try Self.parse([bytes[0..<1], bytes[1..<2], bytes[2...]]).events == [["message", "x", ""]])
        // Two bytes of one are text: the field name is no longer `data`.
        let partial: [UInt8] = [0xEF, 0xBB] + Array("data: x\n\ndata: y\n\n".utf8)
        #expect(try Self.parse([partial[...]]).events == [["message", "y", ""]])
    }

    @Test func aCharacterCutBetweenPiecesArrivesWhole() throws {
        let bytes = Array("data: caf\u{E9} \u{1F600}\n\n".utf8)
        for cut in 0...bytes.count {
            #expect(try Self.parse([bytes[..<cut], bytes[cut...]]).events == [["message", "caf\u{E9} \u{1F600}", ""]])
        }
    }

    @Test func anEventPastTheLimitFailsInsteadOfGrowing() throws {
        let line = Array(("data: " + String(repeating: "x", count: 100)).utf8)
        #expect(throws: EventStreamParser.Failure.eventTooLarge(limit: 64)) { try Self.parse([line[...]], limit: 64) }
        // Many short data lines add up to one event.
        let lines = Array(String(repeating: "data: xxxxxxxx\n", count: 20).utf8)
        #expect(throws: EventStreamParser.Failure.eventTooLarge(limit: 64)) { try Self.parse([lines[...]], limit: 64) }
    }

    @Test func reconnectionSendsTheIDOfTheLastDispatchedEventAndResumesItsRetry() throws {
        var parser = EventStreamParser()
        try parser.consume(Array("retry: 1500\nid: 1\ndata: a\n\nid: 2\ndata: b".utf8))
        #expect(parser.takeEvents().map(\.data) == ["a"])
        // The connection dropped before event 2's blank line: it never happened.
        #expect(parser.lastEventIDForReconnection == "1")
        var resumed = parser.resumed()
        #expect(resumed.reconnectionMilliseconds == 1500)
        #expect(resumed.lastEventIDForReconnection == "1")
        try resumed.consume(Array("id: 2\ndata: b\n\n".utf8))
        #expect(resumed.takeEvents() == [ServerSentEventFields(event: nil, data: "b", id: "2")])
    }

    @Test func aRetryPastWhatAnIntHoldsKeepsTheLargestTime() throws {
        #expect(try Self.parse([Array("retry: 99999999999999999999999\n\n".utf8)[...]]).retry == Int.max)
    }
}

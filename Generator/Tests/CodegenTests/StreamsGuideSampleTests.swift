import Foundation
import HTTPTypes
import ReferenceEventStreams
import Testing

// The sample of docs/Streams.md, compiled against a generated client (the
// event-streams reference) and run over a transport that streams a chat
// answer; `theGuidesSampleIsThisCode` fails when the page and this file
// part ways.

// BEGIN docs/Streams.md sample
/// The answer to `prompt`, each piece handed to `show` the moment it
/// arrives; the whole answer once the server says `[DONE]`.
func streamAnswer(to prompt: String, with client: Client, show: (String) -> Void) async throws -> String {
    let events = try await client.createChatEvents(body: ChatRequest(prompt: prompt, stream: true))
        .ending(at: "[DONE]")
    var answer = ""
    for try await event in events {
        show(event.data.delta)
        answer += event.data.delta
    }
    return answer
}
// END docs/Streams.md sample

// BEGIN docs/Streams.md sending sample
/// Uploads the lines `write` produces while it produces them; how many
/// lines the server took.
func upload(from device: String, with client: Client, write: (AsyncStream<LogLine>.Continuation) -> Void) async throws -> Int {
    let (lines, writer) = AsyncStream.makeStream(of: LogLine.self)
    async let accepted = client.uploadLogsEvents(device: device, events: lines)
    write(writer)
    writer.finish()
    return try await accepted.body.lines
}
// END docs/Streams.md sending sample

@Suite struct StreamsGuideSampleTests {
    /// Answers every request with `body` as `text/event-stream`, in pieces of 5 bytes.
    struct StreamingTransport: ClientTransport {
        let body: String

        func send(_ request: HTTPRequest, body requestBody: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
            let bytes = Array(body.utf8)
            let pieces = stride(from: 0, to: bytes.count, by: 5).map { bytes[$0..<Swift.min($0 + 5, bytes.count)] }
            let stream = AsyncStream<ArraySlice<UInt8>> { continuation in
                pieces.forEach { continuation.yield($0) }
                continuation.finish()
            }
            return (HTTPResponse(status: .ok, headerFields: [.contentType: "text/event-stream"]), HTTPBody(stream, length: .unknown))
        }
    }

    @Test func theSampleShowsTheAnswerAsItArrives() async throws {
        let stream = "data: {\"delta\": \"Bon\"}\n\ndata: {\"delta\": \"jour\"}\n\n: keep-alive\n\ndata: [DONE]\n\n"
        let client = Client(serverURL: URL(string: "https://api.example.com")!, transport: StreamingTransport(body: stream))
        var shown: [String] = []
        let answer = try await streamAnswer(to: "Hello in French", with: client) { shown.append($0) }
        #expect(shown == ["Bon", "jour"])
        #expect(answer == "Bonjour")
    }

    /// Reads the request body as it arrives and answers with the number of lines.
    struct LineCountingTransport: ClientTransport {
        func send(_ request: HTTPRequest, body requestBody: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
            var bytes: [UInt8] = []
            if let requestBody { for try await piece in requestBody { bytes += piece } }
            let count = bytes.filter { $0 == 0x0A }.count
            return (HTTPResponse(status: .accepted, headerFields: [.contentType: "application/json"]), HTTPBody("{\"lines\": \(count)}"))
        }
    }

    @Test func theSendingSampleUploadsEachLine() async throws {
        let client = Client(serverURL: URL(string: "https://api.example.com")!, transport: LineCountingTransport())
        let taken = try await upload(from: "phone-1", with: client) { writer in
            writer.yield(LogLine(level: .info, message: "started"))
            writer.yield(LogLine(level: .error, message: "two\nlines"))
        }
        #expect(taken == 2)
    }

    @Test func theGuidesSampleIsThisCode() throws {
        let here = URL(fileURLWithPath: #filePath)
        let source = try String(contentsOf: here, encoding: .utf8)
        let guide = try String(contentsOf: here.appendingPathComponent("../../../../docs/Streams.md").standardizedFileURL, encoding: .utf8)
        for name in ["sample", "sending sample"] {
            let start = try #require(source.range(of: "// BEGIN docs/Streams.md \(name)\n"))
            let end = try #require(source.range(of: "// END docs/Streams.md \(name)"))
            let sample = String(source[start.upperBound..<end.lowerBound])
            #expect(guide.contains("```swift\n" + sample + "```"), "docs/Streams.md's \(name) differs from the code compiled here")
        }
    }
}

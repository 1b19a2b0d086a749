import ClientRuntimeTesting
import FeatureClient
import Foundation
import Testing

/// Request building and response handling of generated code, without a
/// socket: `ScriptedTransport` (the `ClientRuntimeTesting` product apps use
/// for their own tests) sees exactly what the client built, and plays
/// statuses, delays and transport failures on cue.
@Suite struct ScriptedTransportTests {
    static let base = URL(string: "https://api.example.com/v1")!

    @Test func theTransportSeesExactlyWhatTheClientBuilt() async throws {
        let transport = ScriptedTransport { _ in .json(200, "[]") }
        let client = Client(serverURL: Self.base, transport: transport)
        _ = try await client.listItems(
            tags: ["a b", "c&d"], ids: [1, 2, 3], pipes: ["x", "y"], filter: Filter(color: "red", size: 2),
            since: try! CalendarDate(year: 2024, month: 2, day: 29), traceID: LowercaseUUID(UUID(uuidString: "3F2504E0-4F89-11D3-9A0C-0305E82C3301")!), session: "s1")
        _ = try await client.listItems()
        let sent = try #require(transport.requests(for: "listItems").first)
        #expect(sent.method == "GET" && sent.baseURL == Self.base)
        #expect(sent.target == "/items?tags=a%20b&tags=c%26d&ids=1,2,3&pipes=x%7Cy&filter%5Bcolor%5D=red&filter%5Bsize%5D=2&since=2024-02-29")
        #expect(sent.header("X-Trace-ID") == "3f2504e0-4f89-11d3-9a0c-0305e82c3301" && sent.header("Cookie") == "session=s1")
        #expect(sent.body == nil)
        #expect(transport.requests.last?.target == "/items" && transport.requests.last?.query == nil, "left-out parameters are not sent")
    }

    @Test func uuidsGoOutInLowerCaseWhereverTheySit() async throws {
        let upper = "3F2504E0-4F89-11D3-9A0C-0305E82C3301"
        let lower = upper.lowercased()
        let transport = ScriptedTransport { request in .json(200, request.bodyText ?? "{}") }
        let client = Client(serverURL: Self.base, transport: transport)
        let id = LowercaseUUID(UUID(uuidString: upper)!)
        let sent = Links(owner: .value(id), related: [id], groups: [[id], [id]], byName: ["a": id], target: .uuid(id))
        let echoed = try await client.linkItems(body: sent, ids: [id, id])
        let request = try #require(transport.requests.first)
        #expect(request.query == "ids=\(lower)&ids=\(lower)")
        let body = try #require(request.bodyText)
        #expect(!body.contains(upper) && body.components(separatedBy: lower).count == 7, "owner, related, two groups, byName and target: \(body)")
        #expect(echoed == sent)
        // Upper case from a server reads as the same value.
        let shouted = ScriptedTransport { _ in .json(200, #"{"owner": "\#(upper)", "target": "\#(upper)"}"#) }
        let read = try await Client(serverURL: Self.base, transport: shouted).linkItems(body: Links())
        #expect(read.owner == .value(id) && read.target == .uuid(id))
        #expect((try? LowercaseUUID("3f2504e0-4f89-11d3-9a0c-0305e82c330")) == nil && (try? LowercaseUUID("3f2504e0x4f89-11d3-9a0c-0305e82c3301")) == nil)
        #expect((try? LowercaseUUID(lower))?.uuidString == lower && (try? LowercaseUUID(upper))?.uuid == UUID(uuidString: upper))
    }

    @Test func bodiesAreRecorded() async throws {
        let transport = ScriptedTransport(replies: [.json(200, #"{"id": "i1", "status": "active"}"#), .json(200, #"{"access_token": "t"}"#)])
        let client = Client(serverURL: Self.base, transport: transport)
        _ = try await client.patchItem(itemID: "a b/c", body: ItemPatch(note: .null))
        _ = try await client.exchangeCode(body: ExchangeCodeRequest(grantType: "authorization_code", code: "a/b+c", scope: ["read", "write"]))
        let (patch, form) = (transport.requests[0], transport.requests[1])
        #expect(patch.method == "PATCH" && patch.path == "/items/a%20b%2Fc")
        #expect(patch.bodyText == #"{"note":null}"# && patch.header("Content-Type") == "application/merge-patch+json")
        #expect(form.bodyText == "code=a/b%2Bc&grant_type=authorization_code&scope=read&scope=write")
    }

    @Test func statusesFailuresDelaysAndAnExhaustedScript() async throws {
        struct Offline: Error {}
        let transport = ScriptedTransport(replies: [
            .json(410, #"{"reason": "expired"}"#), .failure(Offline()), .delayed(.milliseconds(10), .respond(status: 200, headers: [:], body: Data("ok".utf8))),
        ])
        let client = Client(serverURL: Self.base, transport: transport)
        let gone = await #expect(throws: APIError<DownloadErrorBody>.self) { try await client.download(name: "f") }
        #expect(gone?.body == .gone(Problem(reason: "expired")))
        await #expect(throws: Offline.self) { try await client.download(name: "f") }
        #expect(try await client.download(name: "f") == Data("ok".utf8))
        let exhausted = await #expect(throws: ScriptedTransport.ScriptExhausted.self) { try await client.download(name: "f") }
        #expect(exhausted?.description == "download: request 4 has no scripted reply (the script has 3)")
        #expect(transport.requests.count == 4)
    }

    @Test func aDelayedReplyIsCancellable() async throws {
        let transport = ScriptedTransport { _ in .delayed(.seconds(30), .status(200)) }
        let client = Client(serverURL: Self.base, transport: transport)
        let call = Task { try await client.download(name: "slow") }
        try await Task.sleep(for: .milliseconds(20))
        call.cancel()
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(transport.requests.count == 1)
    }

    @Test func aKeywordNamedOperationThroughTheProtocolShorthand() async throws {
        let transport = ScriptedTransport { _ in .status(204) }
        let api: any APIProtocol = Client(serverURL: Self.base, transport: transport)
        try await api.`import`()
        try await api.`import`(default: true)
        #expect(transport.requests.map(\.target) == ["/imports", "/imports?default=true"])
    }
}

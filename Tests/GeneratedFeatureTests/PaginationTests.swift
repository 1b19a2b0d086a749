import FeatureClient
import Foundation
import LoopbackHTTPServer
import OpenAPIURLSession
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The generated `...Pages` methods over real HTTP: a server holding seven
/// items answers pages of three by each convention, and every item must
/// arrive once, in order, with no request the app did not iterate to.
@Suite struct PaginationTests {
    static let ids = (0..<7).map { "item\($0)" }

    static func json(_ items: ArraySlice<String>) -> String {
        "[" + items.map { #"{"id":"\#($0)","n":\#($0.dropFirst(4))}"# }.joined(separator: ",") + "]"
    }

    /// The query items of a request.
    static func query(_ request: LoopbackHTTPServer.Request) -> [String: String] {
        var result: [String: String] = [:]
        for item in URLComponents(string: request.target)?.queryItems ?? [] { result[item.name] = item.value ?? "" }
        return result
    }

    /// A server answering the list paths by their conventions, and a client.
    struct Harness {
        let server: LoopbackHTTPServer
        let client: Client

        init(pageSize: Int = 3, reply: (@Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Reply?)? = nil) throws {
            server = try LoopbackHTTPServer { request in
                if let reply, let answer = reply(request) { return answer }
                return PaginationTests.answer(request, pageSize: pageSize)
            }
            client = Client(serverURL: server.baseURL, transport: URLSessionTransport())
        }
    }

    static func answer(_ request: LoopbackHTTPServer.Request, pageSize: Int) -> LoopbackHTTPServer.Reply {
        let query = Self.query(request)
        let json = [("Content-Type", "application/json")]
        switch request.path {
        case "/pages/cursor":
            let start = Int(query["cursor"]?.dropFirst(1) ?? "0") ?? 0
            let end = min(start + pageSize, ids.count)
            let next = end < ids.count ? #""c\#(end)""# : "null"
            return .respond(status: 200, headers: json, body: #"{"data":\#(Self.json(ids[start..<end])),"next_cursor":\#(next)}"#)
        case "/pages/after":
            let start = query["starting_after"].flatMap { ids.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
            let end = min(start + pageSize, ids.count)
            return .respond(status: 200, headers: json, body: #"{"data":\#(Self.json(ids[start..<end])),"has_more":\#(end < ids.count)}"#)
        case "/pages/linked":
            let page = Int(query["page"] ?? "1") ?? 1
            let start = min((page - 1) * pageSize, ids.count)
            let end = min(start + pageSize, ids.count)
            var headers = json
            if end < ids.count {
                headers.append(("Link", #"<https://api.example.com/pages/linked?page=\#(page + 1)&per_page=\#(pageSize)>; rel="next", <https://api.example.com/pages/linked?page=3>; rel="last""#))
            }
            return .respond(status: 200, headers: headers, body: Self.json(ids[start..<end]))
        case "/pages/offset":
            let start = min(Int(query["offset"] ?? "0") ?? 0, ids.count)
            let end = min(start + pageSize, ids.count)
            return .respond(status: 200, headers: json, body: #"{"items":\#(Self.json(ids[start..<end])),"total":\#(ids.count)}"#)
        case "/pages/declared":
            let start = query["after"].flatMap { ids.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
            let end = min(start + pageSize, ids.count)
            let last = end > start ? #","last_id":"\#(ids[end - 1])""# : ""
            return .respond(status: 200, headers: json, body: #"{"rows":\#(Self.json(ids[start..<end]))\#(last),"has_more":\#(end < ids.count)}"#)
        case "/pages/done":
            // The iterator is there on the last page too: `done` ends it.
            let start = Int(query["iterator"]?.dropFirst(1) ?? "0") ?? 0
            let end = min(start + pageSize, ids.count)
            return .respond(status: 200, headers: json, body: #"{"data":\#(Self.json(ids[start..<end])),"done":\#(end >= ids.count),"iterator":"i\#(end)"}"#)
        case "/pages/next-uri":
            let start = Int(query["PageToken"]?.dropFirst(2) ?? "0") ?? 0
            let number = Int(query["Page"] ?? "0") ?? 0
            let end = min(start + pageSize, ids.count)
            let next = end < ids.count ? #""/pages/next-uri?PageSize=\#(pageSize)&Page=\#(number + 1)&PageToken=PT\#(end)""# : "null"
            return .respond(status: 200, headers: json, body: #"{"calls":\#(Self.json(ids[start..<end])),"page":\#(number),"next_page_uri":\#(next)}"#)
        case "/pages/hal":
            let number = Int(query["pageNumber"] ?? "1") ?? 1
            let start = min((number - 1) * pageSize, ids.count)
            let end = min(start + pageSize, ids.count)
            let next = end < ids.count ? #","next":{"href":"https://api.example.com/pages/hal?pageNumber=\#(number + 1)&pageSize=\#(pageSize)"}"# : ""
            let links = #"{"self":{"href":"https://api.example.com/pages/hal?pageNumber=\#(number)"}\#(next)}"#
            return .respond(status: 200, headers: json, body: #"{"_links":\#(links),"data":\#(Self.json(ids[start..<end])),"pagesTotal":3}"#)
        case "/pages/numbered":
            let number = Int(query["currentPage"] ?? "1") ?? 1
            let start = min((number - 1) * pageSize, ids.count)
            let end = min(start + pageSize, ids.count)
            let pages = (ids.count + pageSize - 1) / pageSize
            return .respond(status: 200, headers: json, body: #"{"data":\#(Self.json(ids[start..<end])),"pagination":{"currentPage":\#(number),"pagesTotal":\#(pages)}}"#)
        case "/pages/numbered-items":
            let number = Int(query["page"] ?? "0") ?? 0
            let start = min(number * pageSize, ids.count)
            let end = min(start + pageSize, ids.count)
            return .respond(status: 200, headers: json, body: #"{"page":\#(number),"total":\#(ids.count),"transactions":\#(Self.json(ids[start..<end]))}"#)
        case "/pages/or-none":
            // Pages while there are items, then 204 No Content.
            let start = Int(query["cursor"]?.dropFirst(1) ?? "0") ?? 0
            guard start < ids.count else { return .respond(status: 204, body: "") }
            let end = min(start + pageSize, ids.count)
            return .respond(status: 200, headers: json, body: #"{"data":\#(Self.json(ids[start..<end])),"next_cursor":"c\#(end)"}"#)
        default:
            return .respond(status: 404, body: "")
        }
    }

    /// A list whose spec documents `204 No Content` beside its page: the
    /// pages are the result's `ok` case, and a 204 is an empty last page.
    @Test func aNoContentAnswerIsAnEmptyLastPage() async throws {
        let harness = try Harness()
        defer { harness.server.shutdown() }
        var ids: [String] = []
        var pages: [ListOrNoneResult] = []
        for try await page in harness.client.listOrNonePages() { pages.append(page) }
        for try await item in harness.client.listOrNonePages().items { ids.append(item.id) }
        #expect(ids == Self.ids)
        #expect(pages.count == 4 && pages.last == .noContent)
        #expect(harness.server.requests.map(\.target).prefix(4) == ["/pages/or-none", "/pages/or-none?cursor=c3", "/pages/or-none?cursor=c6", "/pages/or-none?cursor=c7"])
    }

    /// The conventions a page tells the next by more than one member: a
    /// flag beside the cursor, the next page's URL in the page (its query
    /// items, two of them, carried), a page number up to the pages or the
    /// items in all. No request past the last page, not even after a short
    /// one.
    @Test func everyItemArrivesOnceInOrderWhenThePageSaysWhereTheListEnds() async throws {
        let harness = try Harness()
        defer { harness.server.shutdown() }
        let client = harness.client
        var untilDone: [String] = []
        for try await item in client.listUntilDonePages().items { untilDone.append(item.id) }
        var byURI: [String] = []
        for try await item in client.listByNextURIPages(pageSize: 3).items { byURI.append(item.id) }
        var byHAL: [String] = []
        for try await item in client.listByHalLinkPages(pageSize: 3).items { byHAL.append(item.id) }
        var numbered: [String] = []
        for try await item in client.listNumberedPages(pageSize: 3).items { numbered.append(item.id) }
        var numberedItems: [String] = []
        for try await item in client.listNumberedItemsPages(pageSize: 3).items { numberedItems.append(item.id) }
        #expect(untilDone == Self.ids && byURI == Self.ids && byHAL == Self.ids && numbered == Self.ids && numberedItems == Self.ids)
        let targets = harness.server.requests.map(\.target)
        #expect(targets.filter { $0.hasPrefix("/pages/done") } == ["/pages/done", "/pages/done?iterator=i3", "/pages/done?iterator=i6"])
        #expect(targets.filter { $0.hasPrefix("/pages/next-uri") } == [
            "/pages/next-uri?PageSize=3", "/pages/next-uri?PageSize=3&Page=1&PageToken=PT3", "/pages/next-uri?PageSize=3&Page=2&PageToken=PT6",
        ])
        #expect(targets.filter { $0.hasPrefix("/pages/hal") } == ["/pages/hal?pageSize=3", "/pages/hal?pageNumber=2&pageSize=3", "/pages/hal?pageNumber=3&pageSize=3"])
        #expect(targets.filter { $0.hasPrefix("/pages/numbered?") } == [
            "/pages/numbered?pageSize=3", "/pages/numbered?currentPage=2&pageSize=3", "/pages/numbered?currentPage=3&pageSize=3",
        ])
        #expect(targets.filter { $0.hasPrefix("/pages/numbered-items") } == [
            "/pages/numbered-items?pageSize=3", "/pages/numbered-items?page=1&pageSize=3", "/pages/numbered-items?page=2&pageSize=3",
        ])
    }

    /// A list numbered by page, started where the app says, goes on from
    /// there; pages of a list counted in items, started past its first,
    /// end at the total too.
    @Test func aPageNumberTheAppGivesIsWhereTheListStarts() async throws {
        let harness = try Harness()
        defer { harness.server.shutdown() }
        var numbered: [String] = []
        for try await item in harness.client.listNumberedPages(currentPage: 2, pageSize: 3).items { numbered.append(item.id) }
        var numberedItems: [String] = []
        for try await item in harness.client.listNumberedItemsPages(page: 1, pageSize: 3).items { numberedItems.append(item.id) }
        #expect(numbered == Array(Self.ids[3...]) && numberedItems == Array(Self.ids[3...]))
        #expect(harness.server.requests.count == 4)
    }

    /// A next link that carries none of the query items the list pages by
    /// cannot be followed as the operation's call: it would fetch the first
    /// page again. The sequence stops with a typed error that says so.
    @Test func aNextLinkWithoutThePagingItemsStopsWithATypedError() async throws {
        let harness = try Harness(reply: { request in
            request.path == "/pages/next-uri"
                ? .respond(status: 200, headers: [("Content-Type", "application/json")], body: #"{"calls":[{"id":"a"}],"next_page_uri":"/pages/next-uri?Other=1"}"#)
                : nil
        })
        defer { harness.server.shutdown() }
        var ids: [String] = []
        await #expect(throws: PaginationError.nextLinkUnfollowable(operationID: "listByNextURI", parameters: ["Page", "PageToken"])) {
            for try await item in harness.client.listByNextURIPages().items { ids.append(item.id) }
        }
        #expect(ids.isEmpty && harness.server.requests.count == 1)
        #expect(!String(describing: PaginationError.nextLinkUnfollowable(operationID: "listByNextURI", parameters: ["Page"])).contains("Other=1"))
    }

    @Test func everyItemArrivesOnceInOrderByEachConvention() async throws {
        let harness = try Harness()
        defer { harness.server.shutdown() }
        let client = harness.client
        var byCursor: [String] = []
        for try await item in client.listByCursorPages(kind: "open").items { byCursor.append(item.id) }
        var byLastItem: [String] = []
        for try await item in client.listAfterPages(limit: 3).items { byLastItem.append(item.id) }
        var byLink: [String] = []
        for try await item in client.listLinkedPages(perPage: 3).items { byLink.append(item.id) }
        var byOffset: [String] = []
        for try await item in client.listByOffsetPages(limit: 3).items { byOffset.append(item.id) }
        var declared: [String] = []
        for try await item in client.listDeclaredPages().items { declared.append(item.id) }
        #expect(byCursor == Self.ids && byLastItem == Self.ids && byLink == Self.ids && byOffset == Self.ids && declared == Self.ids)
        // Each convention's requests: the cursor each page gave, and the
        // other arguments passed on unchanged.
        let targets = harness.server.requests.map(\.target)
        #expect(targets.filter { $0.hasPrefix("/pages/cursor") } == ["/pages/cursor?kind=open", "/pages/cursor?cursor=c3&kind=open", "/pages/cursor?cursor=c6&kind=open"])
        #expect(targets.filter { $0.hasPrefix("/pages/after") } == [
            "/pages/after?limit=3", "/pages/after?starting_after=item2&limit=3", "/pages/after?starting_after=item5&limit=3",
        ])
        #expect(targets.filter { $0.hasPrefix("/pages/linked") } == ["/pages/linked?per_page=3", "/pages/linked?page=2&per_page=3", "/pages/linked?page=3&per_page=3"])
        #expect(targets.filter { $0.hasPrefix("/pages/offset") } == ["/pages/offset?limit=3", "/pages/offset?offset=3&limit=3", "/pages/offset?offset=6&limit=3"])
        // OpenAI's last_id is there on the last page too: one more request, answered empty, ends it.
        #expect(targets.filter { $0.hasPrefix("/pages/declared") }.count == 4)
    }

    /// A list that ends exactly at a page boundary ends at the empty page
    /// that follows, and an empty list is one empty page.
    @Test func anEmptyLastPageEndsTheSequence() async throws {
        let harness = try Harness(reply: { request in
            // All seven, and has_more says more; the next page is empty (and still says more).
            guard request.path == "/pages/after" else { return nil }
            let all = PaginationTests.query(request)["starting_after"] == nil
            let data = all ? PaginationTests.json(PaginationTests.ids[...]) : "[]"
            return .respond(status: 200, headers: [("Content-Type", "application/json")], body: #"{"data":\#(data),"has_more":true}"#)
        })
        defer { harness.server.shutdown() }
        var pages: [Int] = []
        for try await page in harness.client.listAfterPages() { pages.append(page.data.count) }
        #expect(pages == [7, 0])
        let empty = try Harness(reply: { _ in .respond(status: 200, headers: [("Content-Type", "application/json")], body: #"{"data":[],"next_cursor":"c9"}"#) })
        defer { empty.server.shutdown() }
        var items = 0
        for try await _ in empty.client.listByCursorPages().items { items += 1 }
        #expect(items == 0 && empty.server.requests.count == 1)
    }

    /// Nothing is fetched until the app iterates, and an app that stops
    /// early fetches no further page.
    @Test func pagesAreFetchedOnlyAsTheAppIterates() async throws {
        let harness = try Harness()
        defer { harness.server.shutdown() }
        let pages = harness.client.listByCursorPages()
        #expect(harness.server.requests.isEmpty)
        var seen: [String] = []
        for try await item in pages.items {
            seen.append(item.id)
            if seen.count == 2 { break }
        }
        #expect(seen == ["item0", "item1"] && harness.server.requests.count == 1)
    }

    /// A cancelled task ends the sequence before the next request.
    @Test func cancellationEndsTheSequenceBeforeTheNextRequest() async throws {
        let harness = try Harness()
        defer { harness.server.shutdown() }
        let pages = harness.client.listByOffsetPages(limit: 3)
        let task = Task {
            var read = 0
            for try await _ in pages {
                read += 1
                withUnsafeCurrentTask { $0?.cancel() }
            }
            return read
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(harness.server.requests.count == 1)
    }

    /// A server that answers a page with the cursor it was asked for would
    /// loop an app forever: the sequence stops with a typed error instead,
    /// after handing out that page.
    @Test func aRepeatedCursorStopsWithATypedError() async throws {
        let harness = try Harness(reply: { request in
            PaginationTests.query(request)["cursor"] == "c3"
                ? .respond(status: 200, headers: [("Content-Type", "application/json")], body: #"{"data":[{"id":"x"}],"next_cursor":"c3"}"#) : nil
        })
        defer { harness.server.shutdown() }
        var ids: [String] = []
        await #expect(throws: PaginationError.cursorRepeated(operationID: "listByCursor", page: 2)) {
            for try await item in harness.client.listByCursorPages().items { ids.append(item.id) }
        }
        #expect(ids == ["item0", "item1", "item2", "x"] && harness.server.requests.count == 2)
    }

    /// A server error ends the sequence with the operation's own error.
    @Test func aFailedPageThrowsTheCallsError() async throws {
        let harness = try Harness(reply: { request in
            PaginationTests.query(request)["offset"] == "3" ? .respond(status: 503, body: "busy") : nil
        })
        defer { harness.server.shutdown() }
        var ids: [String] = []
        await #expect(throws: UndocumentedResponseError.self) {
            for try await item in harness.client.listByOffsetPages(limit: 3).items { ids.append(item.id) }
        }
        #expect(ids == ["item0", "item1", "item2"])
    }
}

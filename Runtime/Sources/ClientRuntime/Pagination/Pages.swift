import Foundation
import HTTPTypes

/// Every page of a list operation, fetched one at a time as the app
/// iterates: the generated `...Pages(...)` method of an operation whose spec
/// shows how it pages (a cursor, the last item's id, a `Link` header, an
/// offset; `docs/Pagination.md`).
///
/// ```swift
/// for try await customer in client.listCustomersPages(limit: 100).items {
///     print(customer.id)
/// }
/// ```
///
/// The first request goes out with the arguments the app gave; each next
/// one with the same arguments and the cursor the previous page gave. The
/// sequence ends after the page that gives none (or an empty page); it
/// fetches nothing more once the app stops iterating, and a cancelled task
/// ends it with `CancellationError` before the next request. A server that
/// answers the same cursor twice in a row ends it with
/// ``PaginationError/cursorRepeated(operationID:page:)`` rather than
/// looping forever.
public struct Pages<Page: Sendable, Item: Sendable, Cursor: Sendable & Equatable>: AsyncSequence, Sendable {
    /// A page: the operation's decoded body.
    public typealias Element = Page

    /// One fetched page and the cursor of the next, nil at the end.
    public typealias Fetched = (page: Page, next: Cursor?)

    private let operationID: String
    private let first: Cursor?
    private let fetch: @Sendable (Cursor?, Int) async throws -> Fetched
    private let itemsOf: @Sendable (Page) -> [Item]

    /// Pages of `operationID` starting at `first` (the app's own cursor
    /// argument, nil for the first page): `fetch` sends one request for a
    /// cursor, and `items` reads a page's items.
    public init(
        operationID: String, first: Cursor?, items: @escaping @Sendable (Page) -> [Item],
        fetch: @escaping @Sendable (Cursor?) async throws -> Fetched
    ) {
        self.operationID = operationID
        self.first = first
        self.itemsOf = items
        self.fetch = { cursor, _ in try await fetch(cursor) }
    }

    /// Pages whose `fetch` also takes the most items a page has held so far
    /// (0 before the first): a list numbered by page, whose total counts
    /// items, tells a short last page by it.
    public init(
        operationID: String, first: Cursor?, items: @escaping @Sendable (Page) -> [Item],
        fetchWithLargestPage fetch: @escaping @Sendable (Cursor?, Int) async throws -> Fetched
    ) {
        self.operationID = operationID
        self.first = first
        self.itemsOf = items
        self.fetch = fetch
    }

    /// The items of every page, in order, one at a time.
    public var items: PageItems<Page, Item, Cursor> { PageItems(pages: self, itemsOf: itemsOf) }

    /// Iterates the pages.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(operationID: operationID, cursor: first, fetch: fetch, itemsOf: itemsOf)
    }

    /// Fetches the next page when asked for it.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let operationID: String
        var cursor: Cursor?
        let fetch: @Sendable (Cursor?, Int) async throws -> Fetched
        let itemsOf: @Sendable (Page) -> [Item]
        var pagesRead = 0
        var largestPage = 0
        var finished = false
        var pendingError: PaginationError?

        /// The next page, or nil after the last.
        public mutating func next() async throws -> Page? {
            if let error = pendingError {
                (pendingError, finished) = (nil, true)
                throw error
            }
            guard !finished else { return nil }
            try Task.checkCancellation()
            let sent = cursor
            let fetched: Fetched
            do {
                fetched = try await fetch(sent, largestPage)
            } catch {
                finished = true
                throw error
            }
            pagesRead += 1
            let count = itemsOf(fetched.page).count
            largestPage = Swift.max(largestPage, count)
            // No cursor, or an empty page: this was the last.
            guard let next = fetched.next, count > 0 else {
                finished = true
                return fetched.page
            }
            // The page is the app's; the loop it would start is not.
            if next == sent {
                pendingError = .cursorRepeated(operationID: operationID, page: pagesRead)
            } else {
                cursor = next
            }
            return fetched.page
        }
    }
}

/// The items of every page of a ``Pages``, in order.
public struct PageItems<Page: Sendable, Item: Sendable, Cursor: Sendable & Equatable>: AsyncSequence, Sendable {
    /// An item.
    public typealias Element = Item

    let pages: Pages<Page, Item, Cursor>
    let itemsOf: @Sendable (Page) -> [Item]

    /// Iterates the items, fetching a page when the previous one is used up.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(pages: pages.makeAsyncIterator(), itemsOf: itemsOf)
    }

    /// Hands out a page's items, then fetches the next page.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var pages: Pages<Page, Item, Cursor>.AsyncIterator
        let itemsOf: @Sendable (Page) -> [Item]
        var buffer: [Item] = []
        var index = 0

        /// The next item, or nil after the last page's last.
        public mutating func next() async throws -> Item? {
            while index == buffer.count {
                guard let page = try await pages.next() else { return nil }
                buffer = itemsOf(page)
                index = 0
            }
            defer { index += 1 }
            return buffer[index]
        }
    }
}

/// A list that cannot be paged further.
public enum PaginationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server answered a page with the cursor it was asked for: the
    /// next request would fetch the same page again.
    case cursorRepeated(operationID: String, page: Int)
    /// A page's link to the next carries none of the query items the
    /// operation pages by: following it would fetch the first page again.
    case nextLinkUnfollowable(operationID: String, parameters: [String])

    /// `listCustomers: page 3 gave the cursor it was fetched with; paging stopped`.
    public var description: String {
        switch self {
        case .cursorRepeated(let operationID, let page):
            return "\(operationID): page \(page) gave the cursor it was fetched with; paging stopped rather than fetch it again"
        case .nextLinkUnfollowable(let operationID, let parameters):
            return "\(operationID): the link to the next page carries none of the query items \(parameters.joined(separator: ", ")); paging stopped rather than fetch the first page again"
        }
    }
}

/// The URL of a list's next page, from the `Link` header (RFC 8288,
/// `rel="next"`) or a member of the page (`next_page_uri`,
/// `_links.next.href`), and the query items it carries: a generated pages
/// method sends each next request as the operation's own call, with those
/// items in the parameters of their names. The URL's host and path are
/// never requested.
public enum PageLink {
    /// The target of the `rel="next"` link of `fields`, or nil.
    public static func next(in fields: HTTPFields) -> String? {
        guard let field = HTTPField.Name("Link") else { return nil }
        for value in fields[values: field] {
            for link in links(value) where link.relations.contains("next") { return link.target }
        }
        return nil
    }

    /// `link` when it names a next page the call can be sent for: nil when
    /// it is nil or empty (the last page); ``PaginationError/nextLinkUnfollowable(operationID:parameters:)``
    /// when it carries none of the query items `names`, since following it
    /// as the operation's call would fetch the first page again.
    public static func followable(_ link: String?, names: [String], operationID: String) throws -> String? {
        guard let link, !link.isEmpty else { return nil }
        let items = URLComponents(string: link)?.queryItems ?? []
        guard items.contains(where: { names.contains($0.name) }) else {
            throw PaginationError.nextLinkUnfollowable(operationID: operationID, parameters: names)
        }
        return link
    }

    /// The value of the query item `name` of `link`, or nil when it has none.
    public static func queryValue(_ link: String, name: String) -> String? {
        URLComponents(string: link)?.queryItems?.first { $0.name == name }?.value
    }

    /// The links of one `Link` field value: `<target>; rel="next"; ...`, with
    /// their relation types (lower case; `rel` may list several).
    static func links(_ value: String) -> [(target: String, relations: Set<String>)] {
        var result: [(String, Set<String>)] = []
        var rest = Substring(value)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            let target = String(rest[rest.index(after: open)..<close])
            var parameters = rest[rest.index(after: close)...]
            // The parameters run to the next link's `<` (a comma before it).
            if let next = parameters.firstIndex(of: "<") {
                rest = parameters[next...]
                parameters = parameters[..<next]
            } else {
                rest = ""
            }
            var relations = Set<String>()
            for parameter in parameters.split(separator: ";") {
                let parts = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, parts[0].lowercased() == "rel" else { continue }
                let text = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\", "))
                relations.formUnion(text.lowercased().split(separator: " ").map(String.init))
            }
            result.append((target, relations))
        }
        return result
    }
}

/// The next page's number of a list whose pages say their own number and
/// how many pages (or items) there are.
public enum PageNumbering {
    /// The number after `number` while it is below `first + pagesTotal`;
    /// nil after the last page, or when the page does not say its number.
    /// Without a total, the list ends at an empty page.
    public static func next<Number: BinaryInteger, Total: BinaryInteger>(after number: Number?, first: Int, pagesTotal: Total?) -> Number? {
        guard let number, let current = Int(exactly: number) else { return nil }
        let (next, overflow) = current.addingReportingOverflow(1)
        guard !overflow else { return nil }
        if let pagesTotal {
            guard let total = Int(exactly: pagesTotal) else { return nil }
            guard next - first < total else { return nil }
        }
        return Number(exactly: next)
    }

    /// The number after `number` while the pages up to it hold fewer than
    /// `itemsTotal`: the pages before it as full as the largest page read
    /// (`largestPage`, or this one's `itemsOnPage` when larger), this one
    /// with `itemsOnPage`. A list whose pages before the app's first were
    /// fuller than the first it read costs one more request at most,
    /// answered by an empty page; the count never ends the list early.
    public static func next<Number: BinaryInteger, Total: BinaryInteger>(
        after number: Number?, first: Int, itemsTotal: Total?, itemsOnPage: Int, largestPage: Int
    ) -> Number? {
        guard let number, let current = Int(exactly: number), current >= first else { return nil }
        let (next, overflow) = current.addingReportingOverflow(1)
        guard !overflow else { return nil }
        if let itemsTotal {
            guard let total = Int(exactly: itemsTotal) else { return nil }
            let (before, beforeOverflow) = (current - first).multipliedReportingOverflow(by: max(largestPage, itemsOnPage))
            let (read, readOverflow) = before.addingReportingOverflow(itemsOnPage)
            guard !beforeOverflow, !readOverflow, read < total else { return nil }
        }
        return Number(exactly: next)
    }
}

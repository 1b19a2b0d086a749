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
    private let fetch: @Sendable (Cursor?) async throws -> Fetched
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
        let fetch: @Sendable (Cursor?) async throws -> Fetched
        let itemsOf: @Sendable (Page) -> [Item]
        var pagesRead = 0
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
                fetched = try await fetch(sent)
            } catch {
                finished = true
                throw error
            }
            pagesRead += 1
            // No cursor, or an empty page: this was the last.
            guard let next = fetched.next, !itemsOf(fetched.page).isEmpty else {
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

    /// `listCustomers: page 3 gave the cursor it was fetched with; paging stopped`.
    public var description: String {
        switch self {
        case .cursorRepeated(let operationID, let page):
            return "\(operationID): page \(page) gave the cursor it was fetched with; paging stopped rather than fetch it again"
        }
    }
}

/// The `Link` header (RFC 8288) of a response, for pages linked by
/// `rel="next"`.
public enum LinkHeader {
    /// The value of the query item `name` in the `rel="next"` link of
    /// `fields`, or nil when there is no next link or it has no such item.
    public static func nextQueryValue(_ fields: HTTPFields, name: String) -> String? {
        guard let field = HTTPField.Name("Link") else { return nil }
        for value in fields[values: field] {
            for link in links(value) where link.relations.contains("next") {
                return URLComponents(string: link.target)?.queryItems?.first { $0.name == name }?.value
            }
        }
        return nil
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

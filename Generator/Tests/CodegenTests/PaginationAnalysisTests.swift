import OpenAPIModel
import Testing

@testable import Codegen

/// What the generator takes for pagination, and what it does not: a wrong
/// guess is worse than none.
@Suite struct PaginationAnalysisTests {
    /// The operations of a spec with one list path, its `get` as given.
    private func translate(_ get: String, page: String = "{type: object, properties: {data: {type: array, items: {$ref: '#/components/schemas/Item'}}, next_cursor: {type: string}}}") throws -> ClientRepresentation {
        let yaml = """
            openapi: 3.1.0
            info: {title: T, version: '1'}
            paths:
              /things:
            \(get.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            components:
              schemas:
                Item: {type: object, properties: {id: {type: string}}}
                Page: \(page)
            """
        let result = OpenAPILoader.load(string: yaml, fileName: "t.yaml")
        #expect(result.errors.isEmpty, "\(result.errors)")
        return ClientGenerator.translate(try #require(result.document), options: GeneratorOptions(moduleName: "T", specName: "t.yaml"))
    }

    private static let ok = "responses: {'200': {description: ok, content: {application/json: {schema: {$ref: '#/components/schemas/Page'}}}}}"

    @Test func aCursorAnsweredByACursorMemberIsFoundAndNoted() throws {
        let client = try translate("get:\n  operationId: listThings\n  parameters: [{name: cursor, in: query, schema: {type: string}}]\n  \(Self.ok)")
        let pagination = try #require(client.operations.first?.pagination)
        #expect(pagination.style == .cursor && pagination.methodName == "listThingsPages" && pagination.cursorLabel == "cursor")
        #expect(client.paginationFindings.map(\.text) == [
            "pages by `cursor` from the page's `next_cursor`; generated listThingsPages(...) (x-pagination declares another way, false turns it off)",
        ])
    }

    /// Half a convention is none: no parameter, a write, two candidate members.
    @Test func halfAConventionIsNotTaken() throws {
        #expect(try translate("get:\n  operationId: a\n  \(Self.ok)").operations.first?.pagination == nil, "no cursor parameter")
        #expect(try translate("post:\n  operationId: b\n  parameters: [{name: cursor, in: query, schema: {type: string}}]\n  \(Self.ok)").operations.first?.pagination == nil, "not a GET")
        let twoMembers = try translate(
            "get:\n  operationId: c\n  parameters: [{name: cursor, in: query, schema: {type: string}}]\n  \(Self.ok)",
            page: "{type: object, properties: {data: {type: array, items: {$ref: '#/components/schemas/Item'}}, next_cursor: {type: string}, nextCursor: {type: string}}}")
        #expect(twoMembers.operations.first?.pagination == nil, "two candidate members")
        let noItems = try translate(
            "get:\n  operationId: d\n  parameters: [{name: cursor, in: query, schema: {type: string}}]\n  \(Self.ok)",
            page: "{type: object, properties: {next_cursor: {type: string}}}")
        #expect(noItems.operations.first?.pagination == nil, "no items")
        let offsetWithoutTotal = try translate(
            "get:\n  operationId: e\n  parameters: [{name: offset, in: query, schema: {type: integer}}, {name: limit, in: query, schema: {type: integer}}]\n  \(Self.ok)")
        #expect(offsetWithoutTotal.operations.first?.pagination == nil, "an offset without a total")
    }

    /// OpenAI's `after` with `has_more` is the last-item convention; an
    /// `after` that is a date is a filter, not a cursor.
    @Test func anAfterCursorIsTheLastItemsIDButAnAfterDateIsAFilter() throws {
        let page = "{type: object, properties: {data: {type: array, items: {$ref: '#/components/schemas/Item'}}, has_more: {type: boolean}}}"
        let cursor = try translate("get:\n  operationId: listThings\n  parameters: [{name: after, in: query, schema: {type: string}}]\n  \(Self.ok)", page: page)
        #expect(cursor.operations.first?.pagination?.style == .lastItem && cursor.operations.first?.pagination?.cursorWireName == "after")
        let date = try translate("get:\n  operationId: listThings\n  parameters: [{name: after, in: query, schema: {type: string, format: date-time}}]\n  \(Self.ok)", page: page)
        #expect(date.operations.first?.pagination == nil)
    }

    @Test func falseTurnsItOffAndABadDeclarationIsNotFollowedButSaysWhy() throws {
        let off = try translate("get:\n  operationId: f\n  x-pagination: false\n  parameters: [{name: cursor, in: query, schema: {type: string}}]\n  \(Self.ok)")
        #expect(off.operations.first?.pagination == nil && off.paginationFindings.isEmpty)
        let bad = try translate("get:\n  operationId: g\n  x-pagination: {style: cursor, parameter: after, next: next_cursor}\n  \(Self.ok)")
        #expect(bad.operations.first?.pagination == nil)
        #expect(bad.paginationFindings.map(\.text) == ["x-pagination's parameter 'after' is not a query parameter of the operation; not followed"])
        let declared = try translate("get:\n  operationId: h\n  x-pagination: {style: cursor, parameter: after, next: next_cursor}\n  parameters: [{name: after, in: query, schema: {type: string}}]\n  \(Self.ok)")
        #expect(declared.operations.first?.pagination?.isDeclared == true)
    }

    /// A page number is followed only where the spec says which page is
    /// first: read from 1, a list numbered from 0 would lose its first page.
    @Test func aPageNumberNeedsItsFirstPageFromTheSpec() throws {
        let page = "{type: object, properties: {data: {type: array, items: {$ref: '#/components/schemas/Item'}}, page: {type: integer}, total: {type: integer}}}"
        func numbered(_ schema: String) throws -> PaginationDeclaration? {
            try translate("get:\n  operationId: listThings\n  parameters: [{name: page, in: query, schema: \(schema)}]\n  \(Self.ok)", page: page)
                .operations.first?.pagination
        }
        #expect(try numbered("{type: integer}") == nil, "the first page not given")
        #expect(try numbered("{type: integer, minimum: 0}")?.firstPageNumber == 0)
        #expect(try numbered("{type: integer, default: 1}")?.firstPageNumber == 1)
        #expect(try numbered("{type: integer, minimum: 0}")?.style == .pageNumber)
        #expect(try numbered("{type: integer, minimum: 5}") == nil, "a first page that is neither 0 nor 1")
        #expect(try numbered("{type: integer, minimum: 0, default: 1}") == nil, "a minimum and a default that disagree")
    }

    /// A list that takes both an offset and a marker (Box's `usemarker`)
    /// pages by offset, which works without the app asking for markers.
    @Test func anOffsetWithATotalComesBeforeAMarker() throws {
        let page = "{type: object, properties: {entries: {type: array, items: {$ref: '#/components/schemas/Item'}}, total_count: {type: integer}, next_marker: {type: string}}}"
        let client = try translate("""
            get:
              operationId: listThings
              parameters: [{name: marker, in: query, schema: {type: string}}, {name: usemarker, in: query, schema: {type: boolean}}, {name: offset, in: query, schema: {type: integer}}, {name: limit, in: query, schema: {type: integer}}]
              \(Self.ok)
            """, page: page)
        #expect(client.operations.first?.pagination?.style == .offset)
    }

    /// A next page's URL in the page fills every paging parameter it
    /// carries; a `format: uri` member is a URL.
    @Test func aNextURLInThePageFillsItsParameters() throws {
        let page = "{type: object, properties: {calls: {type: array, items: {$ref: '#/components/schemas/Item'}}, next_page_uri: {type: [string, 'null'], format: uri}}}"
        let client = try translate("""
            get:
              operationId: listThings
              parameters: [{name: Page, in: query, schema: {type: integer}}, {name: PageToken, in: query, schema: {type: string}}, {name: PageSize, in: query, schema: {type: integer}}]
              \(Self.ok)
            """, page: page)
        let pagination = try #require(client.operations.first?.pagination)
        #expect(pagination.style == .link && pagination.linkMemberIsURL && pagination.member?.wirePath == "next_page_uri")
        #expect(pagination.linkParameters.map(\.wireName) == ["Page", "PageToken"])
    }

    /// An array of HATEOAS link objects (PayPal): the `href` of the one
    /// whose `rel` is `next`.
    @Test func anArrayOfLinksGivesTheNextOnesTarget() throws {
        let page = "{type: object, properties: {items: {type: array, items: {$ref: '#/components/schemas/Item'}}, links: {type: array, items: {type: object, required: [href, rel], properties: {href: {type: string}, rel: {type: string}, method: {type: string}}}}}}"
        let client = try translate("""
            get:
              operationId: listThings
              parameters: [{name: next_page_token, in: query, schema: {type: string}}, {name: page_size, in: query, schema: {type: integer}}]
              \(Self.ok)
            """, page: page)
        let pagination = try #require(client.operations.first?.pagination)
        #expect(pagination.style == .link && pagination.linkElement?.relationWireName == "rel" && pagination.linkElement?.targetWireName == "href")
        #expect(pagination.linkParameters.map(\.wireName) == ["next_page_token"])
    }
}

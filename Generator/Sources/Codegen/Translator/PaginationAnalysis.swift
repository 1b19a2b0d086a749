import OpenAPIModel

/// Finds how a list operation pages, conservatively: a wrong guess would
/// send an app's loop the wrong way, so only a convention the spec shows
/// in full counts (the parameter the cursor goes back in, and where the
/// page says what comes next), or one it declares (`x-pagination`).
///
/// | convention | the operation shows |
/// | --- | --- |
/// | cursor | a query parameter `cursor`, `page_token`/`pageToken`, `next_token`/`nextToken` or `continuation_token`, and a string member of the page named for the next one (`next_cursor`/`nextCursor`, `next_page_token`/`nextPageToken`, `next_token`/`nextToken`, `continuation_token`) |
/// | last item | a string query parameter `starting_after` (Stripe) or `after` (OpenAI), a boolean `has_more`, items with a string `id` |
/// | link | a documented `Link` response header, and an integer query parameter `page` |
/// | offset | integer query parameters `offset` and `limit`, and an integer `total`, `total_count` or `totalCount` |
///
/// The items are the page itself when it is an array, else its one array
/// member (or the one named `data`, `items`, `results`, `entries`,
/// `records` or `values`). Only `GET` operations page.
///
/// `x-pagination` on the operation declares it instead (`false` turns
/// detection off):
///
/// ```yaml
/// x-pagination: {style: cursor, parameter: page_token, next: next_page_token, items: data}
/// ```
///
/// `style` is `cursor`, `lastItem`, `link` or `offset`; `parameter` the
/// query parameter the cursor goes back in; `next` (cursor) the page's
/// member with the next cursor; `hasMore` and `itemId` (lastItem; default
/// `has_more` and `id`); `total` (offset); `items` the page's member that
/// holds the items.
enum PaginationAnalysis {

    static let cursorParameters: Set<String> = [
        "cursor", "page_token", "pageToken", "next_token", "nextToken", "continuation_token", "continuationToken",
    ]
    static let cursorMembers: Set<String> = [
        "next_cursor", "nextCursor", "next_page_token", "nextPageToken", "next_token", "nextToken", "continuation_token",
        "continuationToken",
    ]
    static let itemMembers = ["data", "items", "results", "entries", "records", "values"]
    static let totalMembers: Set<String> = ["total", "total_count", "totalCount"]

    /// `operations` with their pagination, and what was found.
    static func mark(_ operations: [OperationDeclaration], types: [TypeDeclaration], document: OpenAPIDocument) -> (
        operations: [OperationDeclaration], findings: [PaginationFinding]
    ) {
        var specOperations: [String: OpenAPIModel.Operation] = [:]
        for (path, method, operation, _) in document.operations { specOperations["\(method.rawValue) \(path)"] = operation }
        let declarations = Dictionary(types.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var taken = Set(operations.flatMap { [$0.methodName, $0.responseMethodName] + [$0.streaming?.methodName, $0.eventsMethodName].compactMap { $0 } })
        var findings: [PaginationFinding] = []
        var result = operations
        for index in result.indices {
            let operation = result[index]
            guard let spec = specOperations["\(operation.method.rawValue) \(operation.path)"] else { continue }
            var found: PaginationDeclaration?
            var note: String?
            switch spec.extensions["x-pagination"] {
            case .bool(false)?:
                continue
            case .object(let fields)?:
                (found, note) = declared(fields, operation: operation, declarations: declarations)
            case let other?:
                note = "x-pagination must be false or an object (style, parameter, next, items, ...), not \(other.jsonTypeName); not followed"
            case nil:
                found = operation.method == .get ? detected(operation, spec: spec, declarations: declarations, document: document) : nil
            }
            if var pagination = found {
                var name = SwiftName.unescaped(operation.methodName) + "Pages"
                var suffix = 2
                while taken.contains(name) {
                    name = SwiftName.unescaped(operation.methodName) + "Pages\(suffix)"
                    suffix += 1
                }
                taken.insert(name)
                pagination.methodName = name
                result[index].pagination = pagination
                note = (pagination.isDeclared ? "pages as x-pagination declares: " : "pages by ") + pagination.summary
                    + "; generated \(name)(...)" + (pagination.isDeclared ? "" : " (x-pagination declares another way, false turns it off)")
            }
            if let note { findings.append(PaginationFinding(operationID: operation.id, location: spec.location, text: note)) }
        }
        return (result, findings)
    }

    // MARK: Detection

    private static func detected(
        _ operation: OperationDeclaration, spec: OpenAPIModel.Operation, declarations: [String: TypeDeclaration], document: OpenAPIDocument
    ) -> PaginationDeclaration? {
        guard let page = pageShape(operation, declarations: declarations) else { return nil }
        let query = operation.parameters.filter { $0.location == .query }
        func parameter(_ names: Set<String>) -> ParameterDeclaration? {
            let matches = query.filter { names.contains($0.wireName) }
            return matches.count == 1 ? matches[0] : nil
        }
        // A cursor member answered to a cursor parameter.
        if let cursor = parameter(cursorParameters), unwrapped(cursor.type) == .named("String"), let structure = page.structure {
            let members = structure.properties.filter { cursorMembers.contains($0.wireName) && unwrapped($0.type) == .named("String") }
            if members.count == 1 {
                return declaration(.cursor, cursor: cursor, page: page, pageProperty: members[0],
                                   summary: "`\(cursor.wireName)` from the page's `\(members[0].wireName)`")
            }
        }
        // Stripe (`starting_after`), OpenAI (`after`): has_more, and the last
        // item's id in the parameter. A plain string: an `after` of
        // `format: date-time` is a filter, and is a `Date` here.
        if let after = parameter(["starting_after"]) ?? parameter(["after"]), unwrapped(after.type) == .named("String"), let structure = page.structure,
            let hasMore = structure.properties.first(where: { $0.wireName == "has_more" && unwrapped($0.type) == .named("Bool") }),
            let id = itemID(page.itemType, declarations: declarations, wireName: "id")
        {
            var result = declaration(.lastItem, cursor: after, page: page, pageProperty: hasMore,
                                     summary: "`\(after.wireName)` from the last item's `id` while `has_more`")
            (result.itemIDProperty, result.itemIDIsOptional, result.itemIDWireName) = (id.name, id.type.isOptional, id.wireName)
            return result
        }
        // A documented Link header and a page number.
        if let number = parameter(["page"]), isInteger(number.type), documentsLinkHeader(spec, document: document) {
            return declaration(.link, cursor: number, page: page, pageProperty: nil, summary: "`page` from the `Link` header's `rel=\"next\"`")
        }
        // Offset and limit, and a total that says where the list ends.
        if let offset = parameter(["offset"]), isInteger(offset.type), let limit = parameter(["limit"]), isInteger(limit.type),
            let structure = page.structure,
            let total = structure.properties.first(where: { totalMembers.contains($0.wireName) && isInteger($0.type) }),
            unwrapped(total.type) == unwrapped(offset.type)
        {
            return declaration(.offset, cursor: offset, page: page, pageProperty: total,
                               summary: "`offset` advanced by the items read, up to the page's `\(total.wireName)`")
        }
        return nil
    }

    // MARK: Declared

    private static func declared(
        _ fields: OrderedMap<JSONValue>, operation: OperationDeclaration, declarations: [String: TypeDeclaration]
    ) -> (PaginationDeclaration?, String?) {
        func field(_ name: String) -> String? { fields[name]?.stringValue }
        guard let styleName = field("style"), let style = PaginationDeclaration.Style(rawValue: styleName) else {
            return (nil, "x-pagination needs a style: cursor, lastItem, link or offset; not followed")
        }
        guard let parameterName = field("parameter"),
            let cursor = operation.parameters.first(where: { $0.location == .query && $0.wireName == parameterName })
        else {
            return (nil, "x-pagination's parameter '\(field("parameter") ?? "")' is not a query parameter of the operation; not followed")
        }
        guard let page = pageShape(operation, declarations: declarations, itemsMember: field("items")) else {
            return (nil, "x-pagination: the success body has no array of items\(field("items").map { " named '\($0)'" } ?? ""); not followed")
        }
        func member(_ name: String, _ accepts: (SwiftType) -> Bool) -> PropertyDeclaration? {
            page.structure?.properties.first { $0.wireName == name && accepts($0.type) }
        }
        switch style {
        case .cursor:
            guard unwrapped(cursor.type) == .named("String"), let next = field("next"), let property = member(next, { unwrapped($0) == .named("String") }) else {
                return (nil, "x-pagination (cursor) needs a string parameter and `next`, a string member of the page; not followed")
            }
            var result = declaration(.cursor, cursor: cursor, page: page, pageProperty: property, summary: "`\(parameterName)` from the page's `\(next)`")
            result.isDeclared = true
            return (result, nil)
        case .lastItem:
            let hasMoreName = field("hasMore") ?? "has_more"
            guard unwrapped(cursor.type) == .named("String"), let hasMore = member(hasMoreName, { unwrapped($0) == .named("Bool") }),
                let id = itemID(page.itemType, declarations: declarations, wireName: field("itemId") ?? "id")
            else {
                return (nil, "x-pagination (lastItem) needs a string parameter, a boolean `\(hasMoreName)` and items with a string `\(field("itemId") ?? "id")`; not followed")
            }
            var result = declaration(.lastItem, cursor: cursor, page: page, pageProperty: hasMore,
                                     summary: "`\(parameterName)` from the last item's `\(field("itemId") ?? "id")` while `\(hasMoreName)`")
            (result.itemIDProperty, result.itemIDIsOptional, result.itemIDWireName, result.isDeclared) = (id.name, id.type.isOptional, id.wireName, true)
            return (result, nil)
        case .link:
            guard isInteger(cursor.type) || unwrapped(cursor.type) == .named("String") else {
                return (nil, "x-pagination (link) needs an integer or string parameter; not followed")
            }
            var result = declaration(.link, cursor: cursor, page: page, pageProperty: nil, summary: "`\(parameterName)` from the `Link` header's `rel=\"next\"`")
            result.isDeclared = true
            return (result, nil)
        case .offset:
            guard isInteger(cursor.type), let totalName = field("total"), let total = member(totalName, isInteger),
                unwrapped(total.type) == unwrapped(cursor.type)
            else {
                return (nil, "x-pagination (offset) needs an integer parameter and `total`, an integer member of the page of the same type; not followed")
            }
            var result = declaration(.offset, cursor: cursor, page: page, pageProperty: total,
                                     summary: "`\(parameterName)` advanced by the items read, up to the page's `\(totalName)`")
            result.isDeclared = true
            return (result, nil)
        }
    }

    // MARK: Shapes

    /// A page: its structure (nil when it is an array), its items' type and
    /// where they are.
    private struct PageShape {
        let structure: StructureShape?
        let itemType: SwiftType
        let itemsProperty: PropertyDeclaration?
    }

    private static func pageShape(_ operation: OperationDeclaration, declarations: [String: TypeDeclaration], itemsMember: String? = nil) -> PageShape? {
        guard case .single(let body) = operation.success else { return nil }
        var type = body
        var seen = Set<String>()
        // Through aliases (`Pets = [Pet]`).
        while case .named(let name) = type, let declaration = declarations[name], case .alias(let aliased) = declaration.kind, seen.insert(name).inserted {
            type = aliased
        }
        if case .array(let element) = type { return itemsMember == nil ? PageShape(structure: nil, itemType: element, itemsProperty: nil) : nil }
        guard case .named(let name) = type, let declaration = declarations[name], case .structure(let structure) = declaration.kind else { return nil }
        let arrays = structure.properties.filter { if case .array = unwrapped($0.type) { return true } else { return false } }
        let items: PropertyDeclaration?
        if let itemsMember {
            items = arrays.first { $0.wireName == itemsMember }
        } else if arrays.count == 1 {
            items = arrays[0]
        } else {
            let named = arrays.filter { itemMembers.contains($0.wireName) }
            items = named.count == 1 ? named[0] : nil
        }
        guard let items, case .array(let element) = unwrapped(items.type), !element.isOptional else { return nil }
        return PageShape(structure: structure, itemType: element, itemsProperty: items)
    }

    private static func itemID(_ itemType: SwiftType, declarations: [String: TypeDeclaration], wireName: String) -> PropertyDeclaration? {
        guard case .named(let name) = itemType, let declaration = declarations[name], case .structure(let structure) = declaration.kind else { return nil }
        return structure.properties.first { $0.wireName == wireName && unwrapped($0.type) == .named("String") }
    }

    private static func declaration(
        _ style: PaginationDeclaration.Style, cursor: ParameterDeclaration, page: PageShape, pageProperty: PropertyDeclaration?, summary: String
    ) -> PaginationDeclaration {
        PaginationDeclaration(
            style: style, methodName: "", cursorLabel: cursor.label, cursorWireName: cursor.wireName, cursorType: unwrapped(cursor.type),
            itemType: page.itemType, itemsProperty: page.itemsProperty?.name, itemsPropertyIsOptional: page.itemsProperty?.type.isOptional ?? false,
            pageProperty: pageProperty?.name, pagePropertyIsOptional: pageProperty?.type.isOptional ?? false,
            itemIDProperty: nil, itemIDIsOptional: false, itemsWireName: page.itemsProperty?.wireName, pagePropertyWireName: pageProperty?.wireName,
            itemIDWireName: nil, summary: summary, isDeclared: false)
    }

    private static func documentsLinkHeader(_ spec: OpenAPIModel.Operation, document: OpenAPIDocument) -> Bool {
        spec.responses.contains { status, response in
            guard status.hasPrefix("2"), let value = document.resolve(response) else { return false }
            return value.headers.contains { name, _ in name.lowercased() == "link" }
        }
    }

    private static func isInteger(_ type: SwiftType) -> Bool {
        [.named("Int"), .named("Int32"), .named("Int64")].contains(unwrapped(type))
    }

    static func unwrapped(_ type: SwiftType) -> SwiftType {
        if case .optional(let wrapped) = type { return unwrapped(wrapped) }
        return type
    }
}

/// What pagination analysis found for one operation, or why an
/// `x-pagination` was not followed: `clientgen lint` prints it as a note.
package struct PaginationFinding: Sendable, Hashable {
    /// The operation.
    package let operationID: String
    /// Where the operation is.
    package let location: SourceLocation
    /// What was found, or why a declaration was not followed.
    package let text: String
}

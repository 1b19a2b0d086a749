import OpenAPIModel

/// Finds how a list operation pages, conservatively: a wrong guess would
/// send an app's loop the wrong way, so only a convention the spec shows
/// in full counts (the parameter the cursor goes back in, and where the
/// page says what comes next), or one it declares (`x-pagination`).
///
/// | convention | the operation shows |
/// | --- | --- |
/// | offset | integer query parameters `offset` and `limit`, and an integer `total`, `total_count` or `totalCount` |
/// | cursor | a string query parameter named for a cursor (`cursor`, `page_token`, `marker`, ...) and a string member of the page named for the next one (`next_cursor`, `next_page_token`, `next_marker`, ...), or named like the parameter beside a `done` or `has_more` |
/// | last item | a string query parameter `starting_after` (Stripe) or `after` (OpenAI), a boolean `has_more`, items with a string `id` |
/// | page number | an integer query parameter `page`, `pageNumber` or `currentPage` whose first value the spec gives (`default` or `minimum` 0 or 1, not disagreeing), a page that says its number and the pages or items in all |
/// | link | a documented `Link` response header or a member with the next page's URL (`next_page_uri`, `_links.next.href`, a `links` array's `rel: next`), and query parameters the URL fills (`page`, `PageToken`, ...) |
///
/// Offset comes first: a list that also takes a cursor (Box's `marker`
/// with `usemarker`) pages by offset unless the app asks otherwise. A page
/// number comes before a link: a documented `Link` header may carry other
/// relations, a page's own number and total cannot be misread. The
/// items are the page itself when it is an array, else its one array
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
/// `docs/Pagination.md` lists each style's keys.
enum PaginationAnalysis {

    static let cursorParameters: Set<String> = [
        "cursor", "page_token", "pageToken", "next_token", "nextToken", "continuation_token", "continuationToken", "marker", "page", "iterator",
    ]
    static let cursorMembers: Set<String> = [
        "next_cursor", "nextCursor", "next_page_token", "nextPageToken", "next_token", "nextToken", "continuation_token",
        "continuationToken", "next_marker", "nextMarker", "next_page", "nextPage",
    ]
    static let linkMembers: [[String]] = [
        ["next_page_uri"], ["next_page_url"], ["nextPageUri"], ["nextPageUrl"], ["next_url"], ["nextUrl"], ["next_link"], ["nextLink"],
        ["@odata.nextLink"], ["_links", "next", "href"], ["links", "next", "href"],
    ]
    static let linkParameters: Set<String> = [
        "page", "Page", "pageNumber", "page_number", "PageNumber", "currentPage", "current_page", "PageToken", "page_token", "pageToken",
        "cursor", "marker", "offset", "starting_after", "after", "next_token", "nextToken", "continuation_token", "continuationToken",
        "next_page_token", "nextPageToken",
    ]
    static let pageNumberParameters: Set<String> = ["page", "pageNumber", "page_number", "currentPage", "current_page"]
    static let pagesTotalMembers: Set<String> = ["pagesTotal", "totalPages", "total_pages", "pageCount", "page_count", "pages_total"]
    static let itemsTotalMembers: Set<String> = [
        "total", "itemsTotal", "items_total", "total_count", "totalCount", "totalItems", "total_items", "totalResults", "total_results",
    ]
    static let itemMembers = ["data", "items", "results", "entries", "records", "values"]
    static let offsetTotalMembers: Set<String> = ["total", "total_count", "totalCount"]

    /// `operations` with their pagination, and what was found.
    static func mark(_ operations: [OperationDeclaration], types: [TypeDeclaration], document: OpenAPIDocument) -> (
        operations: [OperationDeclaration], findings: [PaginationFinding]
    ) {
        var specOperations: [String: (OpenAPIModel.Operation, PathItem)] = [:]
        for (path, method, operation, item) in document.operations { specOperations["\(method.rawValue) \(path)"] = (operation, item) }
        // By the name a `SwiftType` spells, nested ones qualified (`ListResponse.Pagination`).
        var declarations: [String: TypeDeclaration] = [:]
        func add(_ declaration: TypeDeclaration, prefix: String) {
            let name = prefix.isEmpty ? declaration.name : prefix + "." + declaration.name
            if declarations[name] == nil { declarations[name] = declaration }
            for nested in declaration.nested { add(nested, prefix: name) }
        }
        for type in types { add(type, prefix: "") }
        var taken = Set(operations.flatMap { [$0.methodName, $0.responseMethodName] + [$0.streaming?.methodName, $0.eventsMethodName].compactMap { $0 } })
        var findings: [PaginationFinding] = []
        let lookups = NestedLookups()
        var result = operations
        for index in result.indices {
            let operation = result[index]
            guard let (spec, pathItem) = specOperations["\(operation.method.rawValue) \(operation.path)"] else { continue }
            let context = Context(operation: operation, spec: spec, pathItem: pathItem, declarations: declarations, document: document, lookups: lookups)
            var found: PaginationDeclaration?
            var note: String?
            switch spec.extensions["x-pagination"] {
            case .bool(false)?:
                continue
            case .object(let fields)?:
                (found, note) = context.declared(fields)
            case let other?:
                note = "x-pagination must be false or an object (style, parameter, next, items, ...), not \(other.jsonTypeName); not followed"
            case nil:
                found = operation.method == .get ? context.detected() : nil
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

    /// What a search of a page type's objects found, by type and names:
    /// many lists share one page type, and searching it again for each
    /// would cost the operations times the page.
    private final class NestedLookups {
        var found: [String: (member: PaginationDeclaration.Member, type: SwiftType)?] = [:]
    }

    /// One operation, and what its analysis reads.
    private struct Context {
        let operation: OperationDeclaration
        let spec: OpenAPIModel.Operation
        let pathItem: PathItem
        let declarations: [String: TypeDeclaration]
        let document: OpenAPIDocument
        let lookups: NestedLookups

        /// The one integer member named in `names`, of the page or of one of
        /// its objects; searched once per page type.
        func integerMember(_ names: Set<String>, of page: PageShape) -> (member: PaginationDeclaration.Member, type: SwiftType)? {
            guard let typeName = page.typeName else { return page.member(names, topLevelOnly: false, declarations: declarations, accepts: isInteger) }
            let key = typeName + "\u{0}" + names.sorted().joined(separator: "\u{0}")
            if let cached = lookups.found[key] { return cached }
            let found = page.member(names, topLevelOnly: false, declarations: declarations, accepts: isInteger)
            lookups.found[key] = .some(found)
            return found
        }

        var query: [ParameterDeclaration] { operation.parameters.filter { $0.location == .query } }

        /// The one query parameter named in `names`.
        func parameter(_ names: Set<String>) -> ParameterDeclaration? {
            let matches = query.filter { names.contains($0.wireName) }
            return matches.count == 1 ? matches[0] : nil
        }

        // MARK: Detection

        func detected() -> PaginationDeclaration? {
            guard let page = pageShape() else { return nil }
            // Offset and limit, and a total that says where the list ends.
            if let offset = parameter(["offset"]), isInteger(offset.type), let limit = parameter(["limit"]), isInteger(limit.type),
                let total = page.member(offsetTotalMembers, topLevelOnly: true, declarations: declarations, accepts: isInteger),
                total.type == offset.type.withoutOptional
            {
                var result = declaration(.offset, cursor: offset, page: page,
                                         summary: "`offset` advanced by the items read, up to the page's `\(total.member.wirePath)`")
                result.total = total.member
                return result
            }
            // A cursor member answered to a cursor parameter.
            let cursors = query.filter { cursorParameters.contains($0.wireName) && $0.type.withoutOptional == .named("String") }
            if cursors.count == 1, let cursor = cursors.first, page.structure != nil {
                let flag = page.member(["has_more", "hasMore", "done"], topLevelOnly: true, declarations: declarations) { $0 == .named("Bool") }
                var names = cursorMembers
                // Svix: `iterator` in, `iterator` out, with `done` (beside
                // `has_more`, a member named like the parameter may be the
                // page's own cursor, not the next).
                if flag?.member.wirePath == "done" { names.insert(cursor.wireName) }
                if let next = page.member(names, topLevelOnly: true, declarations: declarations, accepts: { $0 == .named("String") }) {
                    var result = declaration(.cursor, cursor: cursor, page: page, summary: "`\(cursor.wireName)` from the page's `\(next.member.wirePath)`"
                        + (flag.map { " while \($0.member.wirePath == "done" ? "not `done`" : "`\($0.member.wirePath)`")" } ?? ""))
                    result.member = next.member
                    result.flag = flag?.member
                    result.flagEndsList = flag?.member.wirePath == "done"
                    return result
                }
            }
            // Stripe (`starting_after`), OpenAI (`after`): has_more, and the
            // last item's id in the parameter. A plain string: an `after` of
            // `format: date-time` is a filter, and is a `Date` here.
            if let after = parameter(["starting_after"]) ?? parameter(["after"]), after.type.withoutOptional == .named("String"),
                let hasMore = page.member(["has_more"], topLevelOnly: true, declarations: declarations, accepts: { $0 == .named("Bool") }),
                let id = itemID(page.itemType, wireName: "id")
            {
                var result = declaration(.lastItem, cursor: after, page: page, summary: "`\(after.wireName)` from the last item's `id` while `has_more`")
                result.member = hasMore.member
                (result.itemIDProperty, result.itemIDIsOptional, result.itemIDWireName) = (id.name, id.type.isOptional, id.wireName)
                result.itemIDIsText = id.type.withoutOptional != .named("String")
                return result
            }
            // A page that says its number and how many there are.
            if let number = parameter(pageNumberParameters), isInteger(number.type), let first = firstPageNumber(number) {
                var names = pageNumberParameters
                names.insert(number.wireName)
                if let echo = integerMember(names, of: page), echo.type == number.type.withoutOptional {
                    let siblings = echo.member.steps.count == 1 ? nil : echo.member.steps[0].wireName
                    func total(_ names: Set<String>) -> (member: PaginationDeclaration.Member, type: SwiftType)? {
                        integerMember(names, of: page).flatMap {
                            ($0.member.steps.count == 1 ? nil : $0.member.steps[0].wireName) == siblings ? $0 : nil
                        }
                    }
                    let counted = total(pagesTotalMembers).map { ($0, true) } ?? total(itemsTotalMembers).map { ($0, false) }
                    if let (total, countsPages) = counted {
                        var result = declaration(.pageNumber, cursor: number, page: page, summary: "`\(number.wireName)` after the page's `\(echo.member.wirePath)`"
                            + " (the first is \(first)) up to `\(total.member.wirePath)` \(countsPages ? "pages" : "items")")
                        (result.member, result.total, result.totalCountsPages, result.firstPageNumber) = (echo.member, total.member, countsPages, first)
                        return result
                    }
                }
            }
            // The next page's URL, in the Link header or the page.
            let filled = query.filter { linkParameters.contains($0.wireName) && isLinkFillable($0.type) }
            if !filled.isEmpty {
                let names = filled.map { "`\($0.wireName)`" }.joined(separator: ", ")
                if documentsLinkHeader() {
                    return link(filled, page: page, member: nil, summary: "\(names) from the `Link` header's `rel=\"next\"`")
                }
                for path in linkMembers {
                    if let url = page.member(path: path, declarations: declarations), isURL(url.type) {
                        var result = link(filled, page: page, member: url.member, summary: "\(names) from the URL in the page's `\(url.member.wirePath)`")
                        result.linkMemberIsURL = url.type != .named("String")
                        return result
                    }
                }
                // HATEOAS (PayPal): an array of `{rel, href}` objects.
                for name in ["links", "_links"] {
                    if let array = page.member(path: [name], declarations: declarations), case .array(let element) = array.type,
                        let (linkElement, isURL) = linkElement(element)
                    {
                        var result = link(filled, page: page, member: array.member,
                                          summary: "\(names) from the `\(linkElement.targetWireName)` of the page's `\(name)` whose `\(linkElement.relationWireName)` is `next`")
                        (result.linkElement, result.linkMemberIsURL) = (linkElement, isURL)
                        return result
                    }
                }
            }
            return nil
        }

        // MARK: Declared

        func declared(_ fields: OrderedMap<JSONValue>) -> (PaginationDeclaration?, String?) {
            func field(_ name: String) -> String? { fields[name]?.stringValue }
            func path(_ name: String) -> [String]? { field(name).map { $0.split(separator: ".", omittingEmptySubsequences: false).map(String.init) } }
            guard let styleName = field("style"), let style = PaginationDeclaration.Style(rawValue: styleName) else {
                return (nil, "x-pagination needs a style: cursor, lastItem, link, offset or pageNumber; not followed")
            }
            var parameterNames: [String] = []
            if case .array(let names)? = fields["parameters"] { parameterNames = names.compactMap(\.stringValue) }
            if let name = field("parameter") { parameterNames.insert(name, at: 0) }
            let parameters = parameterNames.compactMap { name in query.first { $0.wireName == name } }
            guard let cursor = parameters.first, parameters.count == parameterNames.count else {
                let missing = parameterNames.first { name in !query.contains { $0.wireName == name } } ?? ""
                return (nil, "x-pagination's parameter '\(missing)' is not a query parameter of the operation; not followed")
            }
            guard let page = pageShape(itemsMember: field("items")) else {
                return (nil, "x-pagination: the success body has no array of items\(field("items").map { " named '\($0)'" } ?? ""); not followed")
            }
            func member(_ key: String, _ accepts: (SwiftType) -> Bool) -> (member: PaginationDeclaration.Member, type: SwiftType)? {
                guard let path = path(key), let found = page.member(path: path, declarations: declarations), accepts(found.type) else { return nil }
                return found
            }
            var result: PaginationDeclaration
            switch style {
            case .cursor:
                let flagKey = fields["done"] != nil ? "done" : "hasMore"
                let flag = member(flagKey) { $0 == .named("Bool") }
                guard cursor.type.withoutOptional == .named("String"), let next = member("next", { $0 == .named("String") }), flag != nil || fields[flagKey] == nil else {
                    return (nil, "x-pagination (cursor) needs a string parameter, `next`, a string member of the page, and `done` or `hasMore` a boolean one if given; not followed")
                }
                result = declaration(.cursor, cursor: cursor, page: page, summary: "`\(cursor.wireName)` from the page's `\(next.member.wirePath)`")
                (result.member, result.flag, result.flagEndsList) = (next.member, flag?.member, flagKey == "done")
            case .lastItem:
                let hasMoreName = field("hasMore") ?? "has_more"
                guard cursor.type.withoutOptional == .named("String"), let hasMore = page.member(path: [hasMoreName], declarations: declarations), hasMore.type == .named("Bool"),
                    let id = itemID(page.itemType, wireName: field("itemId") ?? "id")
                else {
                    return (nil, "x-pagination (lastItem) needs a string parameter, a boolean `\(hasMoreName)` and items with a string `\(field("itemId") ?? "id")`; not followed")
                }
                result = declaration(.lastItem, cursor: cursor, page: page,
                                     summary: "`\(cursor.wireName)` from the last item's `\(field("itemId") ?? "id")` while `\(hasMoreName)`")
                result.member = hasMore.member
                (result.itemIDProperty, result.itemIDIsOptional, result.itemIDWireName) = (id.name, id.type.isOptional, id.wireName)
                result.itemIDIsText = id.type.withoutOptional != .named("String")
            case .link:
                let url = member("next", isURL)
                guard parameters.allSatisfy({ isLinkFillable($0.type) }), url != nil || field("next") == nil else {
                    return (nil, "x-pagination (link) needs integer or string parameters, and `next`, a string or URL member of the page, if given; not followed")
                }
                let names = parameters.map { "`\($0.wireName)`" }.joined(separator: ", ")
                result = link(parameters, page: page, member: url?.member,
                              summary: "\(names) from " + (url.map { "the URL in the page's `\($0.member.wirePath)`" } ?? "the `Link` header's `rel=\"next\"`"))
                result.linkMemberIsURL = url.map { $0.type != .named("String") } ?? false
            case .offset:
                guard isInteger(cursor.type), let total = member("total", isInteger), total.type == cursor.type.withoutOptional else {
                    return (nil, "x-pagination (offset) needs an integer parameter and `total`, an integer member of the page of the same type; not followed")
                }
                result = declaration(.offset, cursor: cursor, page: page, summary: "`\(cursor.wireName)` advanced by the items read, up to the page's `\(total.member.wirePath)`")
                result.total = total.member
            case .pageNumber:
                let totalKey = fields["pagesTotal"] != nil ? "pagesTotal" : "total"
                let first: Int?
                switch fields["first"] { case .int(let value)?: first = value; case nil: first = firstPageNumber(cursor); default: first = nil }
                guard isInteger(cursor.type), let number = member("number", { $0 == cursor.type.withoutOptional }), let total = member(totalKey, isInteger), let first, first == 0 || first == 1 else {
                    return (nil, "x-pagination (pageNumber) needs an integer parameter, `number`, a member of the page of its type, `total` (or `pagesTotal`), an integer one, and `first`, 0 or 1, where the parameter's minimum or default does not say; not followed")
                }
                result = declaration(.pageNumber, cursor: cursor, page: page, summary: "`\(cursor.wireName)` after the page's `\(number.member.wirePath)` (the first is \(first)) up to `\(total.member.wirePath)` \(totalKey == "pagesTotal" ? "pages" : "items")")
                (result.member, result.total, result.totalCountsPages, result.firstPageNumber) = (number.member, total.member, totalKey == "pagesTotal", first)
            }
            result.isDeclared = true
            return (result, nil)
        }

        // MARK: Shapes

        func pageShape(itemsMember: String? = nil) -> PageShape? {
            var type: SwiftType
            var statusCase: String?
            switch operation.success {
            case .single(let body):
                type = body
            case .perStatus(_, let cases):
                // One success with a body, the others without (Adyen's 204):
                // a bodiless answer is an empty last page.
                // Only a 204 is read as the end: a 202 without a body says
                // something else.
                let bodied = cases.filter { $0.type != nil }
                let noContent = Set(operation.responses.filter { $0.isSuccess && $0.status == "204" }.compactMap(\.caseName))
                guard bodied.count == 1, let body = bodied[0].type, cases.allSatisfy({ $0.type != nil || noContent.contains($0.name) }) else { return nil }
                (type, statusCase) = (body, bodied[0].name)
            case .empty:
                return nil
            }
            var shape = pageShape(of: type, itemsMember: itemsMember)
            shape?.statusCase = statusCase
            return shape
        }

        private func pageShape(of body: SwiftType, itemsMember: String?) -> PageShape? {
            var type = body
            var seen = Set<String>()
            // Through aliases (`Pets = [Pet]`).
            while case .named(let name) = type, let declaration = declarations[name], case .alias(let aliased) = declaration.kind, seen.insert(name).inserted {
                type = aliased
            }
            if case .array(let element) = type { return itemsMember == nil ? PageShape(structure: nil, itemType: element, itemsProperty: nil) : nil }
            guard let structure = PageShape.structure(of: type, declarations: declarations) else { return nil }
            let typeName: String? = if case .named(let name) = type.withoutOptional { name } else { nil }
            let arrays = structure.properties.filter { if case .array = $0.type.withoutOptional { return true } else { return false } }
            let items: PropertyDeclaration?
            if let itemsMember {
                items = arrays.first { $0.wireName == itemsMember }
            } else if arrays.count == 1 {
                items = arrays[0]
            } else {
                let named = arrays.filter { itemMembers.contains($0.wireName) }
                items = named.count == 1 ? named[0] : nil
            }
            guard let items, case .array(let element) = items.type.withoutOptional, !element.isOptional else { return nil }
            return PageShape(structure: structure, itemType: element, itemsProperty: items, typeName: typeName)
        }

        func itemID(_ itemType: SwiftType, wireName: String) -> PropertyDeclaration? {
            guard let structure = PageShape.structure(of: itemType, declarations: declarations) else { return nil }
            // A string, or a `format: uuid` one (Resend's ids), its text the cursor.
            return structure.properties.first { $0.wireName == wireName && [.named("String"), .named("LowercaseUUID")].contains($0.type.withoutOptional) }
        }

        func declaration(_ style: PaginationDeclaration.Style, cursor: ParameterDeclaration, page: PageShape, summary: String) -> PaginationDeclaration {
            PaginationDeclaration(
                style: style, methodName: "", cursorLabel: cursor.label, cursorWireName: cursor.wireName, cursorType: cursor.type.withoutOptional,
                itemType: page.itemType, itemsProperty: page.itemsProperty?.name, itemsPropertyIsOptional: page.itemsProperty?.type.isOptional ?? false,
                member: nil, itemIDProperty: nil, itemIDIsOptional: false, itemsWireName: page.itemsProperty?.wireName, itemIDWireName: nil,
                pageCase: page.statusCase, summary: summary, isDeclared: false)
        }

        func link(_ parameters: [ParameterDeclaration], page: PageShape, member: PaginationDeclaration.Member?, summary: String) -> PaginationDeclaration {
            var result = declaration(.link, cursor: parameters[0], page: page, summary: summary)
            result.cursorType = .named("String")
            result.member = member
            result.linkParameters = parameters.map {
                PaginationDeclaration.LinkParameter(label: $0.label, wireName: $0.wireName, type: $0.type.withoutOptional, isOptional: $0.isOptional)
            }
            return result
        }

        /// A link object: a string `rel`, and a string or URL `href` (or
        /// `uri`); and whether the target is a URL.
        func linkElement(_ type: SwiftType) -> (PaginationDeclaration.LinkElement, Bool)? {
            guard let structure = PageShape.structure(of: type, declarations: declarations),
                let relation = structure.properties.first(where: { $0.wireName == "rel" && $0.type.withoutOptional == .named("String") }),
                let target = structure.properties.first(where: { ["href", "uri"].contains($0.wireName) && isURL($0.type.withoutOptional) })
            else { return nil }
            let element = PaginationDeclaration.LinkElement(
                relation: relation.name, target: target.name, targetIsOptional: target.type.isOptional, relationWireName: relation.wireName,
                targetWireName: target.wireName)
            return (element, target.type.withoutOptional != .named("String"))
        }

        func documentsLinkHeader() -> Bool {
            spec.responses.contains { status, response in
                guard status.hasPrefix("2"), let value = document.resolve(response) else { return false }
                return value.headers.contains { name, _ in name.lowercased() == "link" }
            }
        }

        /// The first page's number as the parameter's `minimum` or `default`
        /// gives it: 0 or 1, else nil (the spec does not say).
        func firstPageNumber(_ parameter: ParameterDeclaration) -> Int? {
            let declared = (pathItem.parameters + spec.parameters).compactMap { document.resolve($0) }
                .last { $0.name == parameter.wireName && $0.location == .query }
            guard let schema = declared?.schema.flatMap({ document.resolve($0) }) else { return nil }
            // `minimum: 0` may only say "not negative": where a default says
            // otherwise, the spec does not tell.
            let byDefault: Int? = if case .int(let value)? = schema.defaultValue, value == 0 || value == 1 { value } else { nil }
            let byMinimum: Int? = schema.minimum.flatMap { $0 == 0 || $0 == 1 ? Int($0) : nil }
            if let byDefault, let byMinimum, byDefault != byMinimum { return nil }
            return byDefault ?? byMinimum
        }
    }

    /// A page: its structure (nil when it is an array), its items' type and
    /// where they are.
    struct PageShape {
        let structure: StructureShape?
        let itemType: SwiftType
        let itemsProperty: PropertyDeclaration?
        /// The page's type, when it is a named structure.
        var typeName: String?
        /// The case of the operation's per-status result that holds the page.
        var statusCase: String?

        static func structure(of type: SwiftType, declarations: [String: TypeDeclaration]) -> StructureShape? {
            guard case .named(let name) = type.withoutOptional, let declaration = declarations[name], case .structure(let structure) = declaration.kind else { return nil }
            return structure
        }

        /// The member at `path` (wire names), and its type without the
        /// optional.
        func member(path: [String], declarations: [String: TypeDeclaration]) -> (member: PaginationDeclaration.Member, type: SwiftType)? {
            var current = structure
            var steps: [PaginationDeclaration.Member.Step] = []
            var type: SwiftType?
            for (index, name) in path.enumerated() {
                guard let shape = current, let property = shape.properties.first(where: { $0.wireName == name }) else { return nil }
                steps.append(.init(name: property.name, wireName: property.wireName, isOptional: property.type.isOptional))
                type = property.type.withoutOptional
                current = index < path.count - 1 ? PageShape.structure(of: property.type, declarations: declarations) : nil
            }
            return type.map { (PaginationDeclaration.Member(steps: steps), $0) }
        }

        /// The one member named in `names` that `accepts` takes: a member of
        /// the page, else (unless `topLevelOnly`) a member of one of its
        /// objects.
        func member(
            _ names: Set<String>, topLevelOnly: Bool, declarations: [String: TypeDeclaration], accepts: (SwiftType) -> Bool
        ) -> (member: PaginationDeclaration.Member, type: SwiftType)? {
            guard let structure else { return nil }
            let top = structure.properties.filter { names.contains($0.wireName) && accepts($0.type.withoutOptional) }
            if top.count == 1 { return member(path: [top[0].wireName], declarations: declarations) }
            guard top.isEmpty, !topLevelOnly else { return nil }
            var nested: [[String]] = []
            for property in structure.properties {
                guard let inner = PageShape.structure(of: property.type, declarations: declarations) else { continue }
                for candidate in inner.properties where names.contains(candidate.wireName) && accepts(candidate.type.withoutOptional) {
                    nested.append([property.wireName, candidate.wireName])
                }
            }
            return nested.count == 1 ? member(path: nested[0], declarations: declarations) : nil
        }
    }

    private static func isInteger(_ type: SwiftType) -> Bool {
        [.named("Int"), .named("Int32"), .named("Int64")].contains(type.withoutOptional)
    }

    /// A string, or a `format: uri` string (`URL`).
    private static func isURL(_ type: SwiftType) -> Bool {
        [.named("String"), .named("URL")].contains(type)
    }

    private static func isLinkFillable(_ type: SwiftType) -> Bool {
        isInteger(type) || type.withoutOptional == .named("String")
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

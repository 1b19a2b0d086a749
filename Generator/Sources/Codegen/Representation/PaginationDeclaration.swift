/// How a list operation pages, as its generated `...Pages(...)` method
/// follows it (``PaginationAnalysis``): where the next page's cursor comes
/// from, which argument it goes back in, and where a page's items are.
public struct PaginationDeclaration: Sendable, Hashable {
    /// The convention.
    public enum Style: String, Sendable, Hashable {
        /// A cursor member of the page (`next_cursor`, `nextPageToken`,
        /// `next_marker`) goes back in a query parameter (`cursor`,
        /// `pageToken`, `marker`); no cursor ends, as does a `done` that is
        /// true or a `has_more` that is false.
        case cursor
        /// `has_more` says there is more; the last item's `id` goes back in
        /// `starting_after` (Stripe).
        case lastItem
        /// The URL of the next page, from the `Link` header's `rel="next"` or
        /// a member of the page (`next_page_uri`, `_links.next.href`): its
        /// query items go back in the parameters of their names (`page`,
        /// `PageToken`); no URL ends.
        case link
        /// The next offset is this one plus the items read; a `total` member
        /// says when the list ends.
        case offset
        /// The page says its number and how many pages (or items) there are;
        /// the next request asks for the number after it.
        case pageNumber
    }

    /// A member of the page, perhaps inside one of its objects
    /// (`pagination.currentPage`).
    public struct Member: Sendable, Hashable {
        /// One step of the path: the Swift property, its wire name, and
        /// whether it is optional.
        public struct Step: Sendable, Hashable {
            /// The Swift property.
            public var name: String
            /// Its name in the JSON.
            public var wireName: String
            /// Whether the property is optional.
            public var isOptional: Bool
        }

        /// The steps from the page to the member.
        public var steps: [Step]

        /// The wire path, dotted: `pagination.currentPage`.
        public var wirePath: String { steps.map(\.wireName).joined(separator: ".") }

        /// Whether reading it can give nil.
        public var isOptional: Bool { steps.contains { $0.isOptional } }

        /// The Swift expression reading it from `root`, optional-chained
        /// after each optional step: `page.links?.next.href` (an optional
        /// `links`, a `next` that is not).
        public func expression(from root: String) -> String {
            var text = root
            var previousIsOptional = false
            for step in steps {
                text += (previousIsOptional ? "?." : ".") + step.name
                previousIsOptional = step.isOptional
            }
            return text
        }
    }

    /// One query parameter a `link` style's next URL fills.
    public struct LinkParameter: Sendable, Hashable {
        /// The Swift label.
        public var label: String
        /// The query item's name.
        public var wireName: String
        /// Its type without the optional: `String`, `Int`, `Int32`.
        public var type: SwiftType
        /// Whether the argument is optional.
        public var isOptional: Bool
    }

    /// A link object of an array of them: `{"rel": "next", "href": "..."}`.
    public struct LinkElement: Sendable, Hashable {
        /// The relation's Swift property.
        public var relation: String
        /// The target's Swift property.
        public var target: String
        /// Whether the target is optional.
        public var targetIsOptional: Bool
        /// The relation's and the target's wire names (the conformance
        /// driver's manifest).
        public var relationWireName: String
        /// See ``relationWireName``.
        public var targetWireName: String
    }

    /// The convention.
    public var style: Style
    /// The method's name: `listCustomersPages`.
    public var methodName: String
    /// The Swift label of the parameter the cursor goes back in (`link`:
    /// the first of ``linkParameters``).
    public var cursorLabel: String
    /// That parameter's wire name.
    public var cursorWireName: String
    /// Its type without the optional: `String`, `Int`, `Int32` (`link`:
    /// `String`, the next page's URL).
    public var cursorType: SwiftType
    /// The items' type.
    public var itemType: SwiftType
    /// The Swift property of a page that holds its items (`data`); nil when
    /// the page is the array itself.
    public var itemsProperty: String?
    /// Whether that property is optional (`page.data ?? []`).
    public var itemsPropertyIsOptional: Bool
    /// What the page says of the next: `cursor`, the next cursor;
    /// `lastItem`, `has_more`; `link`, the member with the next URL (nil:
    /// the `Link` header); `pageNumber`, the page's own number.
    public var member: Member?
    /// `cursor`: a boolean member that also says whether more follows
    /// (`has_more`, or `done` when ``flagEndsList``).
    public var flag: Member?
    /// Whether ``flag`` being true ends the list (`done`) rather than says
    /// more follows (`has_more`).
    public var flagEndsList: Bool = false
    /// `offset`, `pageNumber`: the member with the list's length, in items
    /// (or in pages when ``totalCountsPages``).
    public var total: Member?
    /// Whether ``total`` counts pages rather than items.
    public var totalCountsPages: Bool = false
    /// `pageNumber`: the number of the first page (0 or 1).
    public var firstPageNumber: Int = 1
    /// `link`: whether ``member`` is a `URL` (`format: uri`) rather than a
    /// `String`.
    public var linkMemberIsURL: Bool = false
    /// `link`: when ``member`` is an array of link objects (HATEOAS, PayPal's
    /// `links`), the Swift properties of an element's relation (`rel`) and
    /// target (`href`, `uri`), and whether each is optional.
    public var linkElement: LinkElement?
    /// `link`: the query parameters the next URL fills.
    public var linkParameters: [LinkParameter] = []
    /// `lastItem`: the item's `id` property, and whether it is optional.
    public var itemIDProperty: String?
    /// Whether ``itemIDProperty`` is optional.
    public var itemIDIsOptional: Bool
    /// Whether the item's id is a `LowercaseUUID` whose text is the cursor,
    /// rather than a `String`.
    public var itemIDIsText: Bool = false
    /// The wire names of the items member and the item's id member (the
    /// conformance driver's manifest).
    public var itemsWireName: String?
    /// See ``itemsWireName``.
    public var itemIDWireName: String?
    /// The case of the operation's per-status result that holds a page
    /// (`ok`), when its other successes have no body (a `204`: an empty
    /// last page); nil when the result is the page.
    public var pageCase: String?
    /// What was found, in words, for `clientgen lint`'s note and the
    /// method's documentation: "`starting_after` from the last item's `id`
    /// while `has_more`".
    public var summary: String
    /// Whether the spec declared it (`x-pagination`) rather than the
    /// generator finding it.
    public var isDeclared: Bool
}

/// How a list operation pages, as its generated `...Pages(...)` method
/// follows it (``PaginationAnalysis``): where the next page's cursor comes
/// from, which argument it goes back in, and where a page's items are.
public struct PaginationDeclaration: Sendable, Hashable {
    /// The convention.
    public enum Style: String, Sendable, Hashable {
        /// A cursor member of the page (`next_cursor`, `nextPageToken`) goes
        /// back in a query parameter (`cursor`, `pageToken`); no cursor ends.
        case cursor
        /// `has_more` says there is more; the last item's `id` goes back in
        /// `starting_after` (Stripe).
        case lastItem
        /// The `Link` header's `rel="next"` URL names the next page; its
        /// query item goes back in the parameter of that name (`page`).
        case link
        /// The next offset is this one plus the items read; a `total` member
        /// says when the list ends.
        case offset
    }

    /// The convention.
    public var style: Style
    /// The method's name: `listCustomersPages`.
    public var methodName: String
    /// The Swift label of the parameter the cursor goes back in.
    public var cursorLabel: String
    /// That parameter's wire name (the query item of a `Link` target).
    public var cursorWireName: String
    /// Its type without the optional: `String`, `Int`, `Int32`.
    public var cursorType: SwiftType
    /// The items' type.
    public var itemType: SwiftType
    /// The Swift property of a page that holds its items (`data`); nil when
    /// the page is the array itself.
    public var itemsProperty: String?
    /// Whether that property is optional (`page.data ?? []`).
    public var itemsPropertyIsOptional: Bool
    /// `cursor`: the page's property holding the next cursor, and whether it
    /// is optional. `lastItem`: the page's `has_more` property. `offset`:
    /// the page's `total` property.
    public var pageProperty: String?
    /// Whether ``pageProperty`` is optional.
    public var pagePropertyIsOptional: Bool
    /// `lastItem`: the item's `id` property, and whether it is optional.
    public var itemIDProperty: String?
    /// Whether ``itemIDProperty`` is optional.
    public var itemIDIsOptional: Bool
    /// The wire names of the items member, the page member and the item's
    /// id member (the conformance driver's manifest).
    public var itemsWireName: String?
    /// See ``itemsWireName``.
    public var pagePropertyWireName: String?
    /// See ``itemsWireName``.
    public var itemIDWireName: String?
    /// What was found, in words, for `clientgen lint`'s note and the
    /// method's documentation: "`starting_after` from the last item's `id`
    /// while `has_more`".
    public var summary: String
    /// Whether the spec declared it (`x-pagination`) rather than the
    /// generator finding it.
    public var isDeclared: Bool
}

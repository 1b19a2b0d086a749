import ClientRuntime
import Foundation
import HTTPTypes
import Testing

/// Every value a schema allows has a query and form form: flat values as
/// OpenAPI's styles say, nested ones in the bracket convention Stripe,
/// Rails, Rack, PHP and `qs` read (`scripts/conformance` checks the same
/// over loopback with a parser of its own).
@Suite struct BracketEncodingTests {
    /// The pairs with brackets decoded, for reading.
    static func readable(_ items: [String]) -> [String] {
        items.map { $0.replacingOccurrences(of: "%5B", with: "[").replacingOccurrences(of: "%5D", with: "]") }
    }

    @Test func checkoutSessionLineItemsAreIndexedObjects() throws {
        let body: JSONValue = [
            "mode": "payment",
            "line_items": [["price": "price_1", "quantity": 2], ["price": "price_2", "quantity": 1]],
        ]
        #expect(Self.readable(try ParameterEncoding.formItems(body)) == [
            "line_items[0][price]=price_1", "line_items[0][quantity]=2", "line_items[1][price]=price_2", "line_items[1][quantity]=1",
            "mode=payment",
        ])
    }

    @Test func arraysInsideObjectsInsideObjects() throws {
        let body: JSONValue = ["invoice_settings": ["custom_fields": [["name": "PO", "value": "42 & more"]]]]
        #expect(Self.readable(try ParameterEncoding.formItems(body)) == [
            "invoice_settings[custom_fields][0][name]=PO", "invoice_settings[custom_fields][0][value]=42%20%26%20more",
        ])
    }

    @Test func encodingObjectDecidesAnArrayField() throws {
        let body: JSONValue = ["payment_method_types": ["card", "sepa_debit"], "tags": ["a", "b"], "ids": ["1", "2"]]
        let items = try ParameterEncoding.formItems(body, encodings: [
            "payment_method_types": FormFieldEncoding(style: .deepObject, explode: true),
            "ids": FormFieldEncoding(style: .form, explode: false),
        ])
        // deepObject indexed; the default (form, explode) repeats the name; no explode joins with commas.
        #expect(Self.readable(items) == ["ids=1,2", "payment_method_types[0]=card", "payment_method_types[1]=sepa_debit", "tags=a", "tags=b"])
    }

    @Test func contentTypeJSONSendsTheFieldsJSONText() throws {
        let items = try ParameterEncoding.formItems(["metadata": ["k": "v"]], encodings: ["metadata": FormFieldEncoding(contentType: "application/json")])
        #expect(items == [#"metadata=%7B%22k%22:%22v%22%7D"#])
    }

    @Test func allowReservedKeepsReservedCharactersButNotTheQuerysOwn() {
        let value: JSONValue = "a/b?c:d[e]@f!$'()*,;g&h=i+j#k l"
        #expect(ParameterEncoding.items(name: "q", value: value) == ["q=a/b?c:d%5Be%5D@f!$'()*%2C;g%26h%3Di%2Bj%23k%20l"])
        #expect(ParameterEncoding.items(name: "q", value: value, allowReserved: true) == ["q=a/b?c:d[e]@f!$'()*,;g%26h%3Di%2Bj%23k%20l"])
    }

    @Test func deepObjectQueryArraysAndNestedFilters() {
        #expect(Self.readable(ParameterEncoding.items(name: "expand", value: ["customer", "invoice.subscription"], style: .deepObject))
            == ["expand[0]=customer", "expand[1]=invoice.subscription"])
        #expect(Self.readable(ParameterEncoding.items(name: "created", value: ["gte": 1_700_000_000, "lt": 1_800_000_000], style: .deepObject))
            == ["created[gte]=1700000000", "created[lt]=1800000000"])
    }

    @Test func formStyleWithNestedMembersNeverThrows() {
        let value: JSONValue = ["a": ["b": [1, ["c": true]]], "d": "e"]
        #expect(Self.readable(ParameterEncoding.items(name: "p", value: value)) == ["a[b][0]=1", "a[b][1][c]=true", "d=e"])
        #expect(Self.readable(ParameterEncoding.items(name: "p", value: value, explode: false)) == ["p[a][b][0]=1", "p[a][b][1][c]=true", "p[d]=e"])
        #expect(Self.readable(ParameterEncoding.items(name: "p", value: [[1, 2], [3]])) == ["p[0][0]=1", "p[0][1]=2", "p[1][0]=3"])
    }

    @Test func requestBuilderSendsNestedQueriesAndForms() throws {
        var request = RequestBuilder(OperationDescriptor(id: "createSession", method: .post, pathTemplate: "/v1/checkout/sessions", security: []))
        try request.addQuery("expand", ["line_items"], style: .deepObject)
        try request.setFormBody(["line_items": [["price": "price_1"]]] as JSONValue)
        #expect(Self.readable(request.queryItems) == ["expand[0]=line_items"])
        #expect(String(decoding: try #require(request.body), as: UTF8.self) == "line_items%5B0%5D%5Bprice%5D=price_1")
        #expect(request.headerFields[.contentType] == "application/x-www-form-urlencoded")
    }

    @Test func aFormBodyThatIsNotAnObjectIsATypedError() {
        #expect(throws: ParameterEncodingError.self) { try ParameterEncoding.formItems(["a", "b"]) }
    }
}

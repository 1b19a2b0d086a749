import Foundation
import HTTPTypes
import Testing

@testable import ClientRuntime

/// What OpenAPI 3.2 adds to a request: a method swift-http-types has no
/// constant for, the whole query string from one value, and the `cookie`
/// style's unescaped values that still cannot add a cookie.
@Suite struct OpenAPI32RequestTests {
    struct Filter: Encodable {
        let q: String
        let limit: Int?
        let tags: [String]
    }

    static func request(_ method: HTTPRequest.Method = .get, path: String = "/search") -> RequestBuilder {
        RequestBuilder(OperationDescriptor(id: "search", method: method, pathTemplate: path, security: []))
    }

    @Test func aQueryOrAdditionalMethodGoesAsWrittenAndQueryIsRepeatable() {
        #expect(HTTPRequest.Method.named("QUERY").rawValue == "QUERY")
        #expect(HTTPRequest.Method.named("PURGE").rawValue == "PURGE")
        // Never a crash: a name that is no token goes as one a server refuses.
        #expect(HTTPRequest.Method.named("BAD METHOD").rawValue == "INVALID-METHOD-NAME")
        #expect(OperationDescriptor(id: "q", method: .named("QUERY"), pathTemplate: "/items", security: []).isIdempotent)
        #expect(!OperationDescriptor(id: "p", method: .named("PURGE"), pathTemplate: "/items", security: []).isIdempotent)
        #expect(Self.request(.named("QUERY")).makeHTTPRequest().method.rawValue == "QUERY")
    }

    @Test func aFormQuerystringWritesTheWholeQueryFromOneValue() throws {
        var request = Self.request()
        try request.setQueryString(Filter(q: "caf\u{E9} & more", limit: 5, tags: ["a", "b"]), contentType: "application/x-www-form-urlencoded")
        #expect(request.makeHTTPRequest().path == "/search?limit=5&q=caf%C3%A9%20%26%20more&tags=a&tags=b")
        var none = Self.request()
        try none.setQueryString(Filter?.none, contentType: "application/x-www-form-urlencoded")
        #expect(none.makeHTTPRequest().path == "/search")
    }

    @Test func aJSONQuerystringIsItsPercentEncodedText() throws {
        var request = Self.request()
        try request.setQueryString(Filter(q: "a b", limit: nil, tags: []), contentType: "application/json")
        #expect(request.makeHTTPRequest().path == "/search?%7B%22q%22%3A%22a%20b%22%2C%22tags%22%3A%5B%5D%7D")
    }

    @Test func theCookieStyleSendsTheValueAsGivenButCannotAddACookie() throws {
        var request = Self.request()
        try request.addCookie("session", "abc%2F1.x!", percentEncoding: false)
        try request.addCookie("evil", "x; admin=true", percentEncoding: false)
        try request.addCookie("form", "x; admin=true")
        let cookie = request.makeHTTPRequest().headerFields[.cookie]
        #expect(cookie == "session=abc%2F1.x!; evil=x%3B%20admin=true; form=x%3B%20admin%3Dtrue")
    }
}

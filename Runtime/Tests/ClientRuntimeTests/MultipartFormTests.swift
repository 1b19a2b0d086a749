import Foundation
import HTTPTypes
import Testing

@testable import ClientRuntime

/// How a multipart part is written for the media type its `encoding` names.
struct MultipartFormTests {
    private func body(_ build: (inout MultipartForm) throws -> Void) rethrows -> String {
        var form = MultipartForm(boundary: "b")
        try build(&form)
        return String(decoding: form.encoded(), as: UTF8.self)
    }

    @Test func aStringPartOfANonJSONMediaTypeIsItsTextNotAJSONString() throws {
        let text = try body { try $0.append("sdp", "v=0\r\no=- 1 2 IN IP4 0.0.0.0", contentType: "application/sdp") }
        #expect(text.contains("Content-Type: application/sdp\r\n\r\nv=0\r\no=- 1 2 IN IP4 0.0.0.0\r\n--b--"))
    }

    @Test func aStringPartOfAJSONMediaTypeIsAJSONString() throws {
        let text = try body { try $0.append("name", "a\"b", contentType: "application/vnd.api+json; charset=utf-8") }
        #expect(text.contains("\r\n\r\n\"a\\\"b\"\r\n"))
    }

    @Test func aPrimitivePartWithoutAnEncodingIsPlainText() throws {
        let text = try body { try $0.append("count", 3) }
        #expect(text.contains("Content-Type: text/plain\r\n\r\n3\r\n"))
    }

    @Test func anObjectPartIsJSON() throws {
        let text = try body { try $0.append("meta", ["a": 1]) }
        #expect(text.contains("Content-Type: application/json\r\n\r\n{\"a\":1}\r\n"))
    }

    /// OpenAPI 3.2's positional parts: each item a part of its own, no
    /// name, the first items' media types from `prefixEncoding`, the rest
    /// from `itemEncoding`.
    @Test func itemsArePartsByPositionWithTheirPrefixAndItemMediaTypes() throws {
        var form = MultipartForm(boundary: "b", mediaType: "multipart/mixed")
        try form.appendItems(["first", "second", "third"], prefixContentTypes: ["application/json"], itemContentType: "text/plain")
        let text = String(decoding: form.encoded(), as: UTF8.self)
        #expect(text == "--b\r\nContent-Type: application/json\r\n\r\n\"first\"\r\n"
            + "--b\r\nContent-Type: text/plain\r\n\r\nsecond\r\n"
            + "--b\r\nContent-Type: text/plain\r\n\r\nthird\r\n--b--\r\n")
        var request = RequestBuilder(OperationDescriptor(id: "sendBundle", method: .post, pathTemplate: "/bundle", security: []))
        request.setMultipartBody(form)
        #expect(request.headerFields[.contentType] == "multipart/mixed; boundary=b")
    }

    @Test func bytesItemsAreSentAsTheyAre() throws {
        var form = MultipartForm(boundary: "b", mediaType: "multipart/mixed")
        try form.appendItems([Data([0x89, 0x50]), Data([0x00])], itemContentType: "image/png")
        #expect(form.parts.map(\.contentType) == ["image/png", "image/png"])
        #expect(form.parts.map(\.data) == [Data([0x89, 0x50]), Data([0x00])])
        #expect(!String(decoding: form.encoded(), as: UTF8.self).contains("Content-Disposition"))
    }
}

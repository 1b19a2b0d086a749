import Foundation
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
}

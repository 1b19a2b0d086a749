import ClientRuntime
import Foundation
import Testing

@testable import MobileTracker

@Suite struct PayloadWriterTests {
    /// The hand-written JSON reads back as the item `JSONEncoder`'s bytes
    /// read back as, for awkward strings and numbers too.
    @Test func handWrittenEventsReadBackExactly() throws {
        let data: [String: JSONValue] = [
            "quote": .string(#"say "hi"\ now"#), "control": .string("tab\tnew\nline\u{01}bell"), "unicode": .string("café ☕︎ 𝄞"),
            "int": .int(-42), "big": .int(Int.max), "double": .double(29.99), "tiny": .double(1e-7), "whole": .double(5),
            "huge": .double(1.5e300), "flag": .bool(false), "none": .null,
            "nested": .object(["list": .array([.int(1), .double(2.5), .string("x"), .null, .array([])]), "empty": .object([:])]),
        ]
        for item in [EventQueue.Item.event(name: "PURCHASE \"x\"", data: data), .event(name: "BARE", data: nil)] {
            guard case .event(let name, let payload) = item else { continue }
            let bytes = Data(EventPayloadWriter.event(name: name, data: payload))
            let decoded = try JSONCoding.makeDecoder().decode(EventQueue.Item.self, from: bytes)
            let reference = try JSONCoding.makeDecoder().decode(EventQueue.Item.self, from: JSONCoding.makeEncoder().encode(item))
            #expect(decoded == reference, "\(String(decoding: bytes, as: UTF8.self))")
            #expect(try JSONSerialization.jsonObject(with: bytes) is [String: Any], "valid JSON")
        }
    }
}

import Foundation
import Testing

@testable import ClientRuntime

/// ``ResponseJSONDecoder`` against Foundation's `JSONDecoder` (configured as
/// ``JSONCoding/makeDecoder()``): the same values from the same bodies, and
/// the same kind of error at the same field for the bodies they refuse.
@Suite struct ResponseJSONDecoderTests {
    struct Hit: Codable, Equatable {
        let transactionID: LowercaseUUID
        let occurredOn: CalendarDate
        let merchant: String
        let category: String?
        let amountCents: Int64
        let score: Double?
        let tags: [String]?
        enum CodingKeys: String, CodingKey {
            case transactionID = "transactionId"
            case occurredOn, merchant, category, amountCents, score, tags
        }
    }

    struct Page: Codable, Equatable {
        let results: [Hit]
        let totals: [String: Int]?
        let next: URL?
        let at: Date?
        let blob: Data?
        let note: Nullable<String>?
        let extra: JSONValue?
        let flags: [Bool]?
        let small: Int8?
        let ratio: Float?
        let price: Decimal?
    }

    /// A type that reads nested containers by hand, as a generated union or
    /// a hand-written model may.
    struct Manual: Decodable, Equatable {
        let name: String
        let first: Int
        let rest: [Int]
        enum Keys: String, CodingKey { case name, inner, list }
        enum InnerKeys: String, CodingKey { case first }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            let inner = try container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
            var list = try container.nestedUnkeyedContainer(forKey: .list)
            first = try inner.decode(Int.self, forKey: .first)
            var rest: [Int] = []
            while !list.isAtEnd { rest.append(try list.decode(Int.self)) }
            self.rest = rest
            name = try container.decode(String.self, forKey: .name)
        }
    }

    enum Outcome: Equatable {
        case value
        /// The error's case and the field it names.
        case error(kind: String, field: String)
    }

    /// What decoding `json` gives: the value, or the error's kind and field.
    func outcome<T: Decodable>(_ type: T.Type, _ json: String, ours: Bool) -> (outcome: Outcome, value: T?) {
        let data = Data(json.utf8)
        do {
            let value = ours ? try ResponseJSONDecoder().decode(T.self, from: data) : try JSONCoding.makeDecoder().decode(T.self, from: data)
            return (.value, value)
        } catch let error as DecodingError {
            let kind: String
            switch error {
            case .typeMismatch: kind = "typeMismatch"
            case .valueNotFound: kind = "valueNotFound"
            case .keyNotFound: kind = "keyNotFound"
            case .dataCorrupted: kind = "dataCorrupted"
            @unknown default: kind = "other"
            }
            return (.error(kind: kind, field: ResponseDecodingError(operationID: "op", status: 200, decoding: error).field), nil)
        } catch {
            return (.error(kind: String(describing: Swift.type(of: error)), field: ""), nil)
        }
    }

    func expectSame<T: Decodable & Equatable>(_ type: T.Type, _ json: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let ours = outcome(T.self, json, ours: true)
        let foundation = outcome(T.self, json, ours: false)
        #expect(ours.outcome == foundation.outcome, "\(json)", sourceLocation: sourceLocation)
        #expect(ours.value == foundation.value, "\(json)", sourceLocation: sourceLocation)
    }

    static let hit = #"{"transactionId":"6f1c2d3e-4b5a-4c6d-8e7f-00000000000a","occurredOn":"2024-06-01","merchant":"M","amountCents":-1000}"#

    @Test func valuesDecodeAsFoundationDecodesThem() {
        let bodies = [
            #"{"results":[]}"#,
            #"{"results":[\#(Self.hit)]}"#,
            // Keys in another order, unknown keys, nulls for optionals, whitespace.
            #" { "extra" : {"a":[1,2.5,"x",true,null],"b":{}} , "results" : [ {"merchant":"M","unknown":{"deep":[1]},"amountCents":7,"score":null,"occurredOn":"2024-02-29","transactionId":"6F1C2D3E-4B5A-4C6D-8E7F-00000000000A","category":null,"tags":["a","b"]} ] } "#,
            #"{"results":[],"totals":{"a":1,"b":-2,"\u00e9":3},"next":"https://example.com/p?page=2","at":"2024-05-01T10:00:00.123+02:00"}"#,
            #"{"results":[],"blob":"aGVsbG8=","note":null,"flags":[true,false],"small":-128,"ratio":0.5,"price":12.34}"#,
            #"{"results":[],"note":"x","extra":"text","small":1.0,"totals":{"a":1e2}}"#,
            // Escapes: every short form, \u with a surrogate pair, non-ASCII text.
            #"{"results":[{"transactionId":"6f1c2d3e-4b5a-4c6d-8e7f-00000000000a","occurredOn":"2024-06-01","merchant":"a\"b\\c\/d\b\f\n\r\t \u00e9 \ud83d\ude00 é 😀","amountCents":0}]}"#,
            "\u{FEFF}{\"results\":[]}",
        ]
        for body in bodies { expectSame(Page.self, body) }
        expectSame(Manual.self, #"{"list":[2,3],"name":"n","inner":{"first":1}}"#)
        expectSame([String: JSONValue].self, #"{"a":{"b":[{"c":null}]},"d":-0.0,"e":12345678901234}"#)
        expectSame([Int].self, "[1,2,3]")
        expectSame(String.self, #""top-level string""#)
        expectSame(Int.self, "42")
    }

    @Test func refusalsNameTheSameField() {
        let bodies = [
            #"{}"#,
            #"{"results":null}"#,
            #"{"results":[{"merchant":"M"}]}"#,
            #"{"results":[\#(Self.hit),{"transactionId":"x","occurredOn":"2024-06-01","merchant":"M","amountCents":1}]}"#,
            #"{"results":[\#(Self.hit.replacingOccurrences(of: "2024-06-01", with: "2023-02-29"))]}"#,
            #"{"results":[\#(Self.hit.replacingOccurrences(of: #""M""#, with: "7"))]}"#,
            #"{"results":[\#(Self.hit.replacingOccurrences(of: "-1000", with: #""1""#))]}"#,
            #"{"results":[\#(Self.hit.replacingOccurrences(of: "-1000", with: "null"))]}"#,
            #"{"results":[],"flags":[true,1]}"#,
            #"{"results":[],"totals":{"a":"1"}}"#,
            #"{"results":[],"at":"yesterday"}"#,
            #"{"results":[],"blob":"not base64!"}"#,
            #"{"results":{}}"#,
            #"{"results":"[]"}"#,
        ]
        for body in bodies { expectSame(Page.self, body) }
        expectSame(Manual.self, #"{"list":[2,"3"],"name":"n","inner":{"first":1}}"#)
        expectSame(Manual.self, #"{"list":[2],"name":"n","inner":[]}"#)
        expectSame(Manual.self, #"{"list":[2],"name":"n"}"#)
    }

    /// Bodies that break RFC 8259 are refused as a whole, without a field.
    /// (Foundation's decoder is more lenient with some: it reads `[1,]`.)
    @Test func invalidJSONIsRefusedWithoutAPath() {
        let bodies = [
            "", " ", "{", "[1,]", #"{"a" 1}"#, #"{"a":1,}"#, "01", "1.", "-", "1e", ".5", "+1", #""\x""#, #""\u12""#, "tru", "nul",
            "[1] x", "\"a\u{01}b\"", #""unterminated"#, "{'a':1}", "[1 2]", "NaN", String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
        ]
        for body in bodies {
            #expect(outcome(JSONValue.self, body, ours: true).outcome == .error(kind: "dataCorrupted", field: ""), "\(body)")
        }
        // A lone surrogate and bytes that are not UTF-8 are refused, not replaced.
        #expect(throws: DecodingError.self) { try ResponseJSONDecoder().decode(String.self, from: Data(#""\ud800""#.utf8)) }
        #expect(throws: DecodingError.self) { try ResponseJSONDecoder().decode(String.self, from: Data([0x22, 0xC3, 0x28, 0x22])) }
    }

    /// A number too large for its type is reported at its field. (Foundation's
    /// decoder on Linux calls the whole body invalid JSON, without a path.)
    @Test func anIntegerOutOfRangeNamesItsField() {
        #expect(outcome(Page.self, #"{"results":[],"small":300}"#, ours: true).outcome == .error(kind: "dataCorrupted", field: "small"))
        let fraction = #"{"results":[{"transactionId":"6f1c2d3e-4b5a-4c6d-8e7f-00000000000a","occurredOn":"2024-06-01","merchant":"M","amountCents":1.5}]}"#
        #expect(outcome(Page.self, fraction, ours: true).outcome == .error(kind: "dataCorrupted", field: "results[0].amountCents"))
        let big = #"{"results":[{"transactionId":"6f1c2d3e-4b5a-4c6d-8e7f-00000000000a","occurredOn":"2024-06-01","merchant":"M","amountCents":99999999999999999999}]}"#
        #expect(outcome(Page.self, big, ours: true).outcome == .error(kind: "dataCorrupted", field: "results[0].amountCents"))
    }

    /// Random documents of every JSON shape decode to the same `JSONValue`.
    @Test func randomDocumentsDecodeAlike() throws {
        var generator = SystemRandomNumberGenerator()
        func randomValue(_ depth: Int) -> JSONValue {
            switch Int.random(in: 0..<(depth > 3 ? 5 : 7), using: &generator) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &generator))
            case 2: return .int(Int.random(in: -1_000_000...1_000_000, using: &generator))
            case 3: return .double(Double.random(in: -1e6...1e6, using: &generator))
            case 4: return .string(String((0..<Int.random(in: 0...12, using: &generator)).map { _ in "aé\"\\\n😀/ z".randomElement(using: &generator)! }))
            case 5: return .array((0..<Int.random(in: 0...5, using: &generator)).map { _ in randomValue(depth + 1) })
            default:
                var object: [String: JSONValue] = [:]
                for index in 0..<Int.random(in: 0...5, using: &generator) { object["k\(index)\(["", "é", "\"", "/"].randomElement(using: &generator)!)"] = randomValue(depth + 1) }
                return .object(object)
            }
        }
        let encoder = JSONEncoder()
        for _ in 0..<300 {
            let body = try encoder.encode(randomValue(0))
            let ours = try ResponseJSONDecoder().decode(JSONValue.self, from: body)
            let foundation = try JSONCoding.makeDecoder().decode(JSONValue.self, from: body)
            #expect(ours == foundation, "\(String(decoding: body, as: UTF8.self))")
        }
    }
}

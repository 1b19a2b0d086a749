import Foundation
import HTTPTypes
import Testing

@testable import ClientRuntime

/// A generated-style open enum, as the code generator will emit it.
enum ErrorCode: OpenEnum {
    case invalidRequest
    case rateLimited
    case unknown(String)

    init(rawValue: String) {
        switch rawValue {
        case "INVALID_REQUEST": self = .invalidRequest
        case "RATE_LIMITED": self = .rateLimited
        default: self = .unknown(rawValue)
        }
    }

    var rawValue: String {
        switch self {
        case .invalidRequest: return "INVALID_REQUEST"
        case .rateLimited: return "RATE_LIMITED"
        case .unknown(let value): return value
        }
    }
}

/// A PATCH body whose `notes` may be absent, null or a value.
struct TransactionUpdate: Codable, Equatable {
    var category: String?
    var notes: Nullable<String>?
}

@Suite struct CodingTests {
    let decoder = JSONCoding.makeDecoder()
    let encoder = JSONCoding.makeEncoder()

    @Test func jsonLiteralsEncodeAsTheJSONTheyRead() throws {
        let value: [String: JSONValue] = ["plan": "pro", "seats": 5, "ratio": 0.5, "trial": false, "tags": ["a", 1], "nested": ["deep": true]]
        let decoded = try JSONSerialization.jsonObject(with: encoder.encode(value)) as? NSDictionary
        let expected: NSDictionary = ["plan": "pro", "seats": 5, "ratio": 0.5, "trial": false, "tags": ["a", 1], "nested": ["deep": true]]
        #expect(decoded == expected)
        #expect(value["seats"] == .int(5) && value["ratio"] == .double(0.5) && value["tags"] == .array([.string("a"), .int(1)]))
    }

    @Test func openEnumsKeepUnknownValues() throws {
        let codes = try decoder.decode([ErrorCode].self, from: Data(#"["RATE_LIMITED","QUOTA_EXCEEDED"]"#.utf8))
        #expect(codes == [.rateLimited, .unknown("QUOTA_EXCEEDED")])
        #expect(String(decoding: try encoder.encode(codes), as: UTF8.self) == #"["RATE_LIMITED","QUOTA_EXCEEDED"]"#, "encoded back unchanged")
    }

    @Test func absentNullAndValueStayDistinct() throws {
        let absent = try decoder.decode(TransactionUpdate.self, from: Data(#"{"category":"food"}"#.utf8))
        let null = try decoder.decode(TransactionUpdate.self, from: Data(#"{"notes":null}"#.utf8))
        let value = try decoder.decode(TransactionUpdate.self, from: Data(#"{"notes":"lunch"}"#.utf8))
        #expect(absent.notes == nil && null.notes == .null && value.notes == .value("lunch"))
        #expect(String(decoding: try encoder.encode(TransactionUpdate(category: nil, notes: .null)), as: UTF8.self) == #"{"notes":null}"#)
        #expect(String(decoding: try encoder.encode(TransactionUpdate(category: "food", notes: nil)), as: UTF8.self) == #"{"category":"food"}"#)
    }

    @Test func dateTimesWithAndWithoutFractions() throws {
        let dates = try decoder.decode([Date].self, from: Data(#"["2024-05-01T10:00:00Z","2024-05-01T10:00:00.250Z","2024-05-01T12:00:00+02:00","2024-05-01T10:00:00.123456Z"]"#.utf8))
        #expect(dates[0].timeIntervalSince1970 == 1_714_557_600)
        #expect(dates[1].timeIntervalSince1970 == 1_714_557_600.25)
        #expect(dates[2] == dates[0], "offsets are honoured")
        #expect(abs(dates[3].timeIntervalSince1970 - 1_714_557_600.123) < 0.0005, "microseconds are read")
        #expect(String(decoding: try encoder.encode([dates[0], dates[1]]), as: UTF8.self) == #"["2024-05-01T10:00:00Z","2024-05-01T10:00:00.250Z"]"#)
        #expect(throws: DecodingError.self) { try decoder.decode(Date.self, from: Data(#""yesterday""#.utf8)) }
    }

    /// A date read from a server goes back exactly as it came (a cursor, a
    /// `last_synced_at`): every millisecond and microsecond value survives
    /// parse and format, nine digits come back to the microsecond, and other
    /// dates are rounded to the nearest microsecond, not truncated.
    @Test func dateTimesRoundTripToTheMicrosecond() throws {
        for millisecond in 0..<1000 {
            let text = millisecond == 0 ? "2024-01-02T08:15:00Z" : "2024-01-02T08:15:00.\(String(format: "%03d", millisecond))Z"
            let date = try #require(JSONCoding.parseDateTime(text))
            #expect(JSONCoding.formatDateTime(date) == text)
        }
        for text in ["2024-01-02T08:15:00.123456Z", "2024-01-02T08:15:00.000001Z", "2024-01-02T08:15:00.999999Z", "2038-01-19T03:14:07.654321Z"] {
            #expect(JSONCoding.formatDateTime(try #require(JSONCoding.parseDateTime(text))) == text)
        }
        let nine = try #require(JSONCoding.parseDateTime("2024-03-05T13:04:05.123456789+05:30"))
        #expect(JSONCoding.formatDateTime(nine) == "2024-03-05T07:34:05.123457Z")
        let base = try #require(JSONCoding.parseDateTime("2024-01-02T08:15:00Z"))
        #expect(JSONCoding.formatDateTime(base.addingTimeInterval(0.1236)) == "2024-01-02T08:15:00.1236Z")
        #expect(JSONCoding.formatDateTime(base.addingTimeInterval(0.9999996)) == "2024-01-02T08:15:01Z")
        #expect(JSONCoding.formatDateTime(Date(timeIntervalSince1970: -1.2345)) == "1969-12-31T23:59:58.7655Z")
    }

    @Test func calendarDates() throws {
        #expect((try? CalendarDate("2024-02-29"))?.description == "2024-02-29")
        #expect((try? CalendarDate("2023-02-29")) == nil)
        #expect((try? CalendarDate("2024-5-1")) == nil)
        // The Gregorian leap-year rule for every year, and only ASCII digits.
        #expect((try? CalendarDate("2000-02-29")) != nil && (try? CalendarDate("1900-02-29")) == nil && (try? CalendarDate("1500-02-29")) == nil)
        #expect((try? CalendarDate("2024-04-31")) == nil && (try? CalendarDate("2024-12-31")) != nil && (try? CalendarDate("2024-13-01")) == nil)
        #expect((try? CalendarDate("2024-00-10")) == nil && (try? CalendarDate("2024-01-00")) == nil)
        #expect((try? CalendarDate("２０２４-01-01")) == nil && (try? CalendarDate("2024-01-01 ")) == nil && (try? CalendarDate("2024/01/01")) == nil)
        #expect((try? CalendarDate(Substring("x2024-06-30").dropFirst().description)) == (try? CalendarDate(year: 2024, month: 6, day: 30)))
        let decoded = try decoder.decode([CalendarDate].self, from: Data(#"["2024-05-01"]"#.utf8))
        #expect(decoded == [try! CalendarDate(year: 2024, month: 5, day: 1)])
        #expect(String(decoding: try encoder.encode(decoded), as: UTF8.self) == #"["2024-05-01"]"#)
    }

    /// An app's text that is not a UUID or a day throws, naming the type and
    /// the input's length but never the input: it cannot become a nil that
    /// an optional request argument then leaves out of the call.
    @Test func typedValuesFromAnAppsTextThrowRatherThanBecomeNil() throws {
        let mistyped = "3f2504e0-4f89-11d3-9a0c-0305e82c330"
        #expect(throws: InvalidValueError(typeName: "LowercaseUUID", expected: "8-4-4-4-12 hexadecimal digits", inputLength: 35)) {
            try LowercaseUUID(mistyped)
        }
        do {
            _ = try LowercaseUUID(mistyped)
        } catch {
            #expect(error.description == "not a LowercaseUUID: expected 8-4-4-4-12 hexadecimal digits, got 35 characters")
            #expect(!error.description.contains("3f2504e0"))
        }
        #expect(throws: InvalidValueError.self) { try CalendarDate("2023-02-29") }
        #expect(throws: InvalidValueError.self) { try CalendarDate(year: 2023, month: 2, day: 29) }
        #expect(try LowercaseUUID(mistyped + "1").uuidString == mistyped + "1")
    }

    @Test func freeFormJSON() throws {
        let value = try decoder.decode(JSONValue.self, from: Data(#"{"a":[1,2.5,"x",true,null],"b":{"c":-3}}"#.utf8))
        #expect(value["a"] == .array([.int(1), .double(2.5), .string("x"), .bool(true), .null]))
        #expect(value["b"]?["c"] == .int(-3))
        let roundTrip = try decoder.decode(JSONValue.self, from: try encoder.encode(value))
        #expect(roundTrip == value)
    }

    @Test func decodingErrorsNameTheField() throws {
        struct Record: Decodable { var logo_url: URL? ; var brand_name: String }
        struct Sync: Decodable { var branding: [Record] }
        let body = Data(#"{"branding":[{"brand_name":"A"},{"brand_name":7}]}"#.utf8)
        do {
            _ = try decoder.decode(Sync.self, from: body)
            Issue.record("expected a decoding error")
        } catch {
            let wrapped = ResponseDecodingError(operationID: "syncBranding", status: 200, decoding: error)
            #expect(wrapped.field == "branding[1].brand_name")
            #expect(wrapped.description.hasPrefix("syncBranding: response 200 does not match the spec at branding[1].brand_name: expected String"))
        }
        do {
            _ = try decoder.decode(Sync.self, from: Data(#"{"branding":[{}]}"#.utf8))
        } catch {
            #expect(ResponseDecodingError(operationID: "syncBranding", status: 200, decoding: error).field == "branding[0].brand_name")
        }
    }

    /// A generated-style row: synthesized `Codable` reads its typed string
    /// properties through the keyed overloads, which must behave as the
    /// types' own `init(from:)` (arrays still take that path).
    struct Row: Codable, Equatable {
        let id: LowercaseUUID
        let day: CalendarDate
        let parent: LowercaseUUID?
        let due: CalendarDate?
        let tags: [LowercaseUUID]
    }

    @Test func typedStringsInKeyedContainersDecodeAndFailAsTheTypeDoes() throws {
        let id = "6F1C2D3E-4B5A-4C6D-8E7F-00000000000A"
        let row = try decoder.decode(Row.self, from: Data(#"{"id":"\#(id)","day":"2024-02-29","parent":null,"tags":["\#(id)"]}"#.utf8))
        #expect(row.id == (try! LowercaseUUID(id)) && row.tags == [try! LowercaseUUID(id)])
        #expect(row.day == (try! CalendarDate(year: 2024, month: 2, day: 29)) && row.parent == nil && row.due == nil)
        // Read from the document's bytes in place, or, with an escape, from the unescaped text: the same values.
        let escaped = id.replacingOccurrences(of: "-", with: "\\u002d")
        let unescaped = try decoder.decode(Row.self, from: Data(#"{"id":"\#(escaped)","day":"2024\u002d02-29","tags":["\#(escaped)"]}"#.utf8))
        #expect(unescaped.id == row.id && unescaped.day == row.day && unescaped.tags == row.tags)
        // Encoded in lower case, absent optionals left out, as the types' own encode(to:) writes them.
        let encoded = String(decoding: try encoder.encode(row), as: UTF8.self)
        #expect(encoded == #"{"day":"2024-02-29","id":"\#(id.lowercased())","tags":["\#(id.lowercased())"]}"#)
        #expect(try decoder.decode(Row.self, from: Data(encoded.utf8)) == row)

        let bad: [(json: String, field: String, message: String)] = [
            (#"{"id":"6f1c","day":"2024-02-29","tags":[]}"#, "id", "Expected a UUID (8-4-4-4-12 hexadecimal digits), found 4 characters that are not one"),
            (#"{"id":"\#(id)","day":"2023-02-29","tags":[]}"#, "day", "'2023-02-29' is not a date (YYYY-MM-DD)"),
            (#"{"id":"\#(id)","day":"2024-02-29","parent":"x","tags":[]}"#, "parent", "Expected a UUID (8-4-4-4-12 hexadecimal digits), found 1 characters that are not one"),
            (#"{"id":"\#(id)","day":"2024-02-29","due":7,"tags":[]}"#, "due", ""),
        ]
        for (json, field, message) in bad {
            do {
                _ = try decoder.decode(Row.self, from: Data(json.utf8))
                Issue.record("expected \(json) to be refused")
            } catch {
                #expect(ResponseDecodingError(operationID: "listRows", status: 200, decoding: error).field == field)
                if case DecodingError.dataCorrupted(let context) = error { #expect(context.debugDescription == message) }
            }
        }
    }

    @Test func undocumentedStatusKeepsTheResponse() {
        let error = UndocumentedResponseError(
            operationID: "listMoods", response: HTTPResponse(status: .init(code: 418)), body: Array(#"{"detail":"teapot"}"#.utf8))
        #expect(error.description == #"listMoods: undocumented response status 418: "teapot""#)
        #expect(error.rawBody == Data(#"{"detail":"teapot"}"#.utf8))
    }

    /// Every HTTP error's description quotes the server's message, documented
    /// status or not, whatever the documented body type (a 400 the spec gives
    /// no schema is `APIError<EmptyBody>`), and only the message: not the
    /// rest of the body, not a token or a phone number inside it.
    @Test func httpErrorsQuoteTheServersMessageAndNothingElse() {
        func documented(_ body: String, contentType: String? = "application/json") -> String {
            var fields = HTTPFields()
            if let contentType { fields[.contentType] = contentType }
            return APIError(operationID: "createPet", status: 400, headerFields: fields, body: EmptyBody(), rawBody: Data(body.utf8)).description
        }
        #expect(documented(#"{"message":"name is required","password":"hunter22"}"#)
            == #"createPet: documented error status 400 (EmptyBody): "name is required""#)
        #expect(documented(#"{"error":"invalid_grant","error_description":"code expired"}"#).hasSuffix(#": "code expired""#))
        #expect(documented(#"{"error":{"code":"E1","message":"limit reached"}}"#).hasSuffix(#": "limit reached""#))
        #expect(documented(#"{"errors":[{"detail":"bad date"}]}"#).hasSuffix(#": "bad date""#))
        #expect(documented("out of stock\r\nretry later", contentType: "text/plain; charset=utf-8").hasSuffix(#": "out of stock  retry later""#))
        #expect(documented(#"{"message":"no user +15551234567 with Bearer abc.def"}"#).hasSuffix(#": "no user +*******4567 with Bearer ***""#))
        #expect(documented(String(repeating: "x", count: 300), contentType: "text/plain").hasSuffix(String(repeating: "x", count: 200) + "...\""))
        // No message: nothing quoted, and never the body itself.
        #expect(documented(#"{"access_token":"eyJabc.eyJdef.sig"}"#) == "createPet: documented error status 400 (EmptyBody)")
        #expect(documented("<html>Bad Request</html>", contentType: "text/html") == "createPet: documented error status 400 (EmptyBody)")
        #expect(documented("") == "createPet: documented error status 400 (EmptyBody)")
    }
}

@Suite struct ParameterEncodingTests {
    @Test func formStyle() {
        #expect(ParameterEncoding.queryItems(name: "month", value: .primitive("2024-05")) == ["month=2024-05"])
        #expect(ParameterEncoding.queryItems(name: "id", value: .array(["3", "4"])) == ["id=3", "id=4"])
        #expect(ParameterEncoding.queryItems(name: "id", value: .array(["3", "4"]), explode: false) == ["id=3,4"])
        #expect(ParameterEncoding.queryItems(name: "color", value: .object([("R", "100"), ("G", "200")])) == ["R=100", "G=200"])
        #expect(ParameterEncoding.queryItems(name: "color", value: .object([("R", "100"), ("G", "200")]), explode: false) == ["color=R,100,G,200"])
    }

    @Test func delimitedAndDeepObjectStyles() {
        #expect(ParameterEncoding.queryItems(name: "id", value: .array(["3", "4"]), style: .spaceDelimited, explode: false) == ["id=3%204"])
        #expect(ParameterEncoding.queryItems(name: "id", value: .array(["3", "4"]), style: .pipeDelimited, explode: false) == ["id=3%7C4"])
        #expect(ParameterEncoding.queryItems(name: "filter", value: .object([("color", "red"), ("size", "L")]), style: .deepObject)
            == ["filter%5Bcolor%5D=red", "filter%5Bsize%5D=L"])
    }

    @Test func percentEncoding() {
        #expect(ParameterEncoding.queryItems(name: "e164", value: .primitive("+15551234567")) == ["e164=%2B15551234567"], "+ would read as a space")
        #expect(ParameterEncoding.queryItems(name: "q", value: .primitive("a b&c=d/é")) == ["q=a%20b%26c%3Dd/%C3%A9"])
        #expect(ParameterEncoding.pathSegment(.primitive("a/b c")) == "a%2Fb%20c")
        #expect(ParameterEncoding.pathSegment(.primitive("3f2b-uuid")) == "3f2b-uuid")
        #expect(ParameterEncoding.query([["a=1"], [], ["b=2", "b=3"]]) == "a=1&b=2&b=3")
    }

    @Test func pathStylesAndExplode() {
        let list = ParameterValue.array(["3", "4"])
        let object = ParameterValue.object([("role", "admin"), ("name", "a b")])
        #expect(ParameterEncoding.pathValue(name: "id", value: list, style: "simple", explode: false) == "3,4")
        #expect(ParameterEncoding.pathValue(name: "id", value: list, style: "label", explode: false) == ".3,4")
        #expect(ParameterEncoding.pathValue(name: "id", value: list, style: "label", explode: true) == ".3.4")
        #expect(ParameterEncoding.pathValue(name: "id", value: list, style: "matrix", explode: false) == ";id=3,4")
        #expect(ParameterEncoding.pathValue(name: "id", value: list, style: "matrix", explode: true) == ";id=3;id=4")
        #expect(ParameterEncoding.pathValue(name: "p", value: object, style: "simple", explode: false) == "role,admin,name,a%20b")
        #expect(ParameterEncoding.pathValue(name: "p", value: object, style: "simple", explode: true) == "role=admin,name=a%20b")
        #expect(ParameterEncoding.pathValue(name: "p", value: object, style: "matrix", explode: true) == ";role=admin;name=a%20b")
        #expect(object.headerText(explode: true) == "role=admin,name=a b")
        #expect(object.headerText(explode: false) == "role,admin,name,a b")
    }
}

/// A member of any JSON (a schema the generator cannot type) keeps a null
/// apart from an absent member, in both directions.
@Suite struct AnyJSONMemberTests {
    struct Holder: Codable, Equatable {
        var extra: JSONValue?

        init(extra: JSONValue?) { self.extra = extra }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: DynamicCodingKey.self)
            self.extra = try container.decodeIfPresent(JSONValue.self, forKey: "extra")
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: DynamicCodingKey.self)
            try container.encodeIfPresent(self.extra, forKey: "extra")
        }
    }

    @Test func nullStaysNullAndAbsentStaysAbsent() throws {
        let null = try JSONDecoder().decode(Holder.self, from: Data(#"{"extra":null}"#.utf8))
        let absent = try JSONDecoder().decode(Holder.self, from: Data("{}".utf8))
        #expect(null.extra == .null)
        #expect(absent.extra == nil)
        #expect(String(decoding: try JSONEncoder().encode(null), as: UTF8.self) == #"{"extra":null}"#)
        #expect(String(decoding: try JSONEncoder().encode(absent), as: UTF8.self) == "{}")
    }
}

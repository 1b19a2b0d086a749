import Foundation
import HTTPTypes

/// One stored response: what the server sent, when, and for which request
/// and subject. On disk: a 4-byte big-endian length, the metadata as JSON,
/// then the body's bytes.
struct CacheEntry: Sendable, Codable {
    /// The request it answers (method, URL, `Accept`).
    var key: String
    /// The signed-in subject it belongs to (nil: anonymous).
    var subject: String?
    /// The status.
    var status: Int
    /// The response headers, in order (`Set-Cookie` left out).
    var headers: [[String]]
    /// When it was received (or last confirmed by a `304`).
    var storedAt: Date
    /// The `Age` the response carried when received, in seconds.
    var initialAge: Int
    /// Seconds it stays fresh after `storedAt` (0: revalidate before use).
    var freshFor: Int
    /// Whether it may be served stale when the server cannot be reached
    /// (false after `must-revalidate`).
    var mayServeStale: Bool
    /// The body (after the JSON head in the file).
    var body = Data()

    /// How old the response is at `now`, RFC 9111 section 4.2.3 simplified
    /// for a private cache: the age it arrived with plus the time since.
    func age(at now: Date) -> Duration {
        .milliseconds(Int64(max(0, now.timeIntervalSince(storedAt)) * 1000)) + .seconds(initialAge)
    }

    /// Whether it may be used without asking the server at `now`.
    func isFresh(at now: Date) -> Bool { age(at: now) < .seconds(freshFor) }

    /// The header fields.
    var headerFields: HTTPFields {
        var fields = HTTPFields()
        for pair in headers where pair.count == 2 {
            if let name = HTTPField.Name(pair[0]) { fields.append(HTTPField(name: name, value: pair[1])) }
        }
        return fields
    }

    /// Everything but the body goes into the file's JSON head.
    private enum CodingKeys: String, CodingKey {
        case key, subject, status, headers, storedAt, initialAge, freshFor, mayServeStale
    }

    /// The file's bytes.
    func encoded() -> Data {
        let json = (try? JSONEncoder().encode(self)) ?? Data()
        var data = Data(capacity: 4 + json.count + body.count)
        let length = UInt32(json.count).bigEndian
        withUnsafeBytes(of: length) { data.append(contentsOf: $0) }
        data.append(json)
        data.append(body)
        return data
    }

    /// Reads a file's bytes; nil when they are not a whole entry.
    static func decode(_ data: Data) -> CacheEntry? {
        guard data.count >= 4 else { return nil }
        let length = data.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        let start = data.startIndex + 4
        guard length > 0, data.count >= 4 + length,
              var entry = try? JSONDecoder().decode(CacheEntry.self, from: data[start..<start + length])
        else { return nil }
        entry.body = Data(data[(start + length)...])
        return entry
    }
}

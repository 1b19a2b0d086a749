import ClientRuntime
import Foundation

/// How a body is logged: by an allow-list. What a body holds (a balance, a
/// merchant, a chat message, an email, a location) is the user's, and no
/// list of names can know every field of every API, so a body's log shows
/// its shape (members, types, lengths) and a value only at a place named in
/// ``Redactor/loggablePaths``: what the spec marks `x-loggable: true`, or
/// what the app adds. A secret or a phone number is masked even there. An
/// object's key is shown when the spec declares it
/// (``Redactor/memberNames``); any other key is a map's, which is data, and
/// shows as its length.
///
/// `{"amount":-42.5,"merchant":"Blue Bottle","status":"posted","tags":{"coffee":1}}`
/// with `status` loggable, and `tags` a map, is logged as
/// `{"amount": number, "merchant": string(11), "status": "posted", "tags": {key(6): number}}`:
/// a value is JSON (a string in quotes), a shape is bare.
extension Redactor {
    /// The most elements of an array whose shapes a body's log shows; the
    /// rest are counted.
    static let shownElements = 5

    /// A body fit for a log: a JSON body as its shape with the values at
    /// ``loggablePaths``, a form body as its names with the lengths of
    /// their values (the loggable ones' values, masked as a query string
    /// is), text as its length, anything else as its size.
    public func body(_ bytes: [UInt8], contentType: String?) -> String {
        guard !bytes.isEmpty else { return "<0 bytes>" }
        let type = contentType?.lowercased() ?? ""
        if type.contains("json") || (type.isEmpty && (bytes.first == UInt8(ascii: "{") || bytes.first == UInt8(ascii: "["))) {
            guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) else {
                return "<\(bytes.count) bytes of malformed JSON>"
            }
            return shape(of: value, key: nil, path: "")
        }
        if type.contains("x-www-form-urlencoded") { return formShape(String(decoding: bytes, as: UTF8.self)) }
        if type.hasPrefix("text/") || type.isEmpty, let string = String(bytes: bytes, encoding: .utf8) {
            return "<text of \(string.count) characters>"
        }
        return "<\(bytes.count) bytes>"
    }

    /// The shape of `value`, found under `key` (the member an array's
    /// elements belong to counts as their key) at `path` (normalised names
    /// joined with `.`, `[]` for an array's elements; nil below a key that
    /// is not a declared name, or that holds `.`, `[` or `]`: no value
    /// there is loggable).
    func shape(of value: JSONValue, key: String?, path: String?) -> String {
        if let key, secretFields.contains(Self.normalise(key)), value != .null { return Self.mask }
        if let path, !path.isEmpty, loggablePaths.contains(path) { return Self.json(redacted(value, key: key)) }
        switch value {
        case .null: return "null"
        case .bool: return "boolean"
        case .int, .double: return "number"
        case .string(let string): return "string(\(string.count))"
        case .array(let items):
            var parts = items.prefix(Self.shownElements).map { shape(of: $0, key: key, path: path.map { $0 + "[]" }) }
            if items.count > Self.shownElements { parts.append("… \(items.count - Self.shownElements) more") }
            return "[" + parts.joined(separator: ", ") + "]"
        case .object(let members):
            let shown = members.sorted { $0.key < $1.key }.map { member -> String in
                shownKey(member.key) + ": " + shape(of: member.value, key: member.key, path: childPath(path, member.key))
            }
            return "{" + shown.joined(separator: ", ") + "}"
        }
    }

    /// The path below `path` at `key`: nil when `key` is not a declared
    /// name (a map's) or could read as another path.
    private func childPath(_ path: String?, _ key: String) -> String? {
        guard let path, memberNames?.contains(key) ?? true, !key.isEmpty, !key.contains(where: { $0 == "." || $0 == "[" || $0 == "]" }) else {
            return nil
        }
        let name = Self.normalise(key)
        return path.isEmpty ? name : path + "." + name
    }

    /// A key as a log shows it: quoted when the spec declares it (or
    /// nothing is known), else its length.
    private func shownKey(_ key: String) -> String {
        guard let memberNames, !memberNames.contains(key) else { return Self.json(.string(text(key))) }
        return "key(\(key.count))"
    }

    /// A loggable value with what is secret in it masked: members named
    /// secret, phone numbers, and known secrets, JWTs and bearer tokens in
    /// its text.
    private func redacted(_ value: JSONValue, key: String?) -> JSONValue {
        if let key {
            let name = Self.normalise(key)
            if secretFields.contains(name), value != .null { return .string(Self.mask) }
            if phoneFields.contains(name) {
                switch value {
                case .string(let string): return .string(Self.maskPhone(string))
                case .int(let number): return .string(Self.maskPhone(String(number)))
                case .double: return .string(Self.mask)
                case .null, .bool, .array, .object: break
                }
            }
        }
        switch value {
        case .object(let members): return .object(members.reduce(into: [:]) { $0[text($1.key)] = redacted($1.value, key: $1.key) })
        case .array(let items): return .array(items.map { redacted($0, key: key) })
        case .string(let string): return .string(text(string))
        case .null, .bool, .int, .double: return value
        }
    }

    /// A form body's names (each as a key is shown), with the lengths of
    /// their values, or the values of the loggable ones.
    private func formShape(_ form: String) -> String {
        form.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let raw = String(parts[0])
            let name = raw.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? raw
            let shownName = memberNames.map { $0.contains(name) ? text(raw) : "key(\(name.count))" } ?? text(raw)
            guard parts.count == 2 else { return shownName }
            let key = Self.normalise(name)
            if secretFields.contains(key) { return shownName + "=" + Self.mask }
            if memberNames?.contains(name) ?? true, loggablePaths.contains(key) { return query(String(pair)) }
            let value = String(parts[1]).replacingOccurrences(of: "+", with: " ")
            return shownName + "=string(\((value.removingPercentEncoding ?? value).count))"
        }.joined(separator: "&")
    }

    /// `value` as JSON text, its members sorted.
    private static func json(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "<not encodable>" }
        return String(decoding: data, as: UTF8.self)
    }
}

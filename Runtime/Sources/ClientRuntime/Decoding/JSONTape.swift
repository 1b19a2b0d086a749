import Foundation

/// A JSON document scanned once into a flat table of values, which
/// ``ResponseJSONDecoder`` decodes from without building dictionaries,
/// arrays or strings for what the decoded type does not read.
///
/// Values are listed in document order: a container's children follow it,
/// an object's as key, value, key, value. Every entry knows where the
/// entries after its subtree start, so a value is skipped in one step.
/// Memory is owned here and freed with it; decoding only reads it (and the
/// per-object lookup hints).
final class JSONTape {
    /// The kinds of JSON value.
    enum Kind: UInt8 {
        case object, array, string, number, `true`, `false`, null
    }

    /// What the scanner found out about a string or number, so decoding
    /// takes the fast path when it can.
    struct Flags: OptionSet {
        let rawValue: UInt8
        /// A string with a `\` escape.
        static let escaped = Flags(rawValue: 1)
        /// A string with bytes outside ASCII.
        static let nonASCII = Flags(rawValue: 2)
        /// A number with a fraction or an exponent.
        static let fractional = Flags(rawValue: 4)
    }

    /// One value.
    struct Entry {
        var kind: Kind
        var flags: Flags
        /// Strings: the first byte after the opening quote. Numbers: the
        /// first byte. Containers: the opening bracket.
        var start: UInt32
        /// Strings and numbers: their bytes. Arrays: their elements.
        /// Objects: their pairs.
        var length: UInt32
        /// The index of the first entry after this value and its children.
        var end: UInt32
    }

    /// The document, followed by one 0 byte (so a scan may look one byte
    /// past the end, and number parsing always stops).
    let bytes: UnsafeMutableBufferPointer<UInt8>
    /// The document's length, without the 0.
    let count: Int
    /// The values, in document order; the document's root is entry 0.
    let entries: UnsafeMutableBufferPointer<Entry>
    /// Per entry: for objects, the entry of the key after the one read last
    /// (where the next lookup starts: decoding reads keys in declaration
    /// order, and servers mostly send them in that order). 0 = from the start.
    let hints: UnsafeMutableBufferPointer<UInt32>
    /// An entry holding `null` after the document's own, for a super
    /// decoder asked for a key the object does not have.
    let nullEntry: Int

    /// Scans `data`; throws ``JSONSyntaxError`` when it is not one JSON value.
    init(_ data: Data) throws(JSONSyntaxError) {
        guard data.count < Int(UInt32.max) else { throw JSONSyntaxError(reason: "the document is larger than 4 GB", offset: 0) }
        count = data.count
        bytes = .allocate(capacity: data.count + 1)
        data.copyBytes(to: bytes.baseAddress!, count: data.count)
        bytes[data.count] = 0
        var scanner = JSONTapeScanner(bytes: UnsafePointer(bytes.baseAddress!), count: data.count)
        let scanned: [Entry]
        do {
            scanned = try scanner.scanDocument()
        } catch {
            bytes.deallocate()
            throw error
        }
        nullEntry = scanned.count
        entries = .allocate(capacity: scanned.count + 1)
        _ = entries.initialize(from: scanned)
        entries[nullEntry] = Entry(kind: .null, flags: [], start: 0, length: 0, end: UInt32(scanned.count + 1))
        hints = .allocate(capacity: scanned.count + 1)
        hints.initialize(repeating: 0)
    }

    deinit {
        bytes.deallocate()
        entries.deallocate()
        hints.deallocate()
    }

    /// A string entry's bytes as written between its quotes.
    func rawBytes(of entry: Entry) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: bytes.baseAddress! + Int(entry.start), count: Int(entry.length))
    }

    /// A string entry's value, escapes resolved; nil when its bytes are not
    /// valid UTF-8.
    func string(of entry: Entry) -> String? {
        let raw = rawBytes(of: entry)
        if entry.flags.isEmpty { return String(decoding: raw, as: UTF8.self) }
        if entry.flags.contains(.escaped) {
            return JSONStringUnescaper.unescape(raw)
        }
        return Self.validated(raw)
    }

    /// `bytes` as a string when they are valid UTF-8 (decoding would
    /// otherwise replace what is not).
    static func validated(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.utf8.elementsEqual(bytes) ? text : nil
    }

    /// A number entry's text (ASCII).
    func numberText(of entry: Entry) -> String {
        String(decoding: rawBytes(of: entry), as: UTF8.self)
    }

    /// Whether a string entry's value is exactly `key`.
    func string(of entry: Entry, equals key: UnsafeBufferPointer<UInt8>) -> Bool {
        if entry.flags.contains(.escaped) {
            guard let text = JSONStringUnescaper.unescape(rawBytes(of: entry)) else { return false }
            return text.utf8.elementsEqual(key)
        }
        guard Int(entry.length) == key.count else { return false }
        guard key.count > 0 else { return true }
        return memcmp(bytes.baseAddress! + Int(entry.start), key.baseAddress!, key.count) == 0
    }
}

/// Why a response body is not JSON, and where.
struct JSONSyntaxError: Error, CustomStringConvertible {
    /// What is wrong.
    let reason: String
    /// The byte offset of the problem.
    let offset: Int

    var description: String { "\(reason) at byte \(offset)" }
}

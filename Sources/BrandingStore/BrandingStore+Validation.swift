import Foundation
import GRDB
import SecureNodeCallDirectory

/// What an incoming record must be to be stored, and the limits it is clamped to.
extension BrandingStore {
    /// A failure injected by tests.
    struct InjectedFailure: Error {}

    /// What validation makes of an incoming record.
    enum Validation {
        /// Storable, with whether a value was clamped to fit a limit and how
        /// many invalid optional fields were dropped.
        case valid(BrandingRecord, clamped: Bool, dropped: Int)
        /// Not storable, and why.
        case invalid(String)
    }

    static let notANumber = "phone_number_e164: not an E.164 number (+ and 1 to 15 digits)"

    /// The record with values clamped to the limits, and whether any was;
    /// invalid when it cannot be shown (an empty brand name). An optional
    /// field that cannot be kept is dropped and counted, not the record: an
    /// id or an `updated_at` longer than one can be, an empty or over-long
    /// logo URL, an empty call reason. The brand id may be empty: the iOS
    /// README lists it as optional, and lookup answers carry none.
    ///
    /// Brand names and call reasons are shown on the call screen, in the
    /// lookup's answer and in a contact: they lose every control and format
    /// character (Unicode categories Cc and Cf: a bidi override that would
    /// show "Bank" followed by another name reversed, a zero-width space,
    /// a byte-order mark), a tab or line break becoming a space, so all three
    /// show the same clean text.
    static func validate(_ incoming: IncomingBrandingRecord) -> Validation {
        let name = trimmed(CallDirectorySnapshotFormat.sanitizedLabel(incoming.brandName))
        guard !name.isEmpty else { return .invalid("brand_name: empty") }
        var dropped = 0
        var brandID = incoming.brandID
        if brandID.utf8.count > BrandingRecord.Limits.brandID {
            brandID = ""
            dropped += 1
        }
        var updatedAt = incoming.updatedAt
        if updatedAt.utf8.count > BrandingRecord.Limits.timestamp {
            updatedAt = ""
            dropped += 1
        }
        var callReason = incoming.callReason.map { trimmed(CallDirectorySnapshotFormat.sanitizedLabel($0)) }
        if callReason?.isEmpty == true {
            callReason = nil
            dropped += 1
        }
        var clamped = false
        func clamp(_ text: String, _ limit: Int) -> String {
            // At most `limit` bytes is at most `limit` characters: no need to count them.
            guard text.utf8.count > limit else { return text }
            var result = text
            if text.count > limit {
                clamped = true
                result = String(text.prefix(limit))
            }
            // A character can be many bytes (a letter with hundreds of
            // combining marks): cap the bytes too, at four per allowed
            // character, cutting between scalars (one character alone may be
            // over the cap, and the text must not come out empty).
            let byteLimit = limit * 4
            guard result.utf8.count > byteLimit else { return result }
            clamped = true
            var bytes = 0
            var scalars = String.UnicodeScalarView()
            for scalar in result.unicodeScalars {
                bytes += String(scalar).utf8.count
                guard bytes <= byteLimit else { break }
                scalars.append(scalar)
            }
            return String(scalars)
        }
        var logo = incoming.logoURL
        if let url = logo, url.utf8.count > BrandingRecord.Limits.logoURL || !isWebURL(url) {
            // A cut URL points nowhere, nor does an empty or relative one: drop it.
            logo = nil
            dropped += 1
        }
        let record = BrandingRecord(
            e164: incoming.e164, brandName: clamp(name, BrandingRecord.Limits.brandName), brandID: brandID,
            logoURL: logo, callReason: callReason.map { clamp($0, BrandingRecord.Limits.callReason) }, updatedAt: updatedAt)
        return .valid(record, clamped: clamped, dropped: dropped)
    }

    /// An absolute `https` or `http` URL with a host: what a logo can be
    /// fetched from. A plain URL (`https://host/path`, letters, digits and
    /// `-._~/?#&=+:;,!*'()@$` only) is read here, without Foundation's URL
    /// parser, which cost the 1M-record sync a tenth of its time; anything
    /// else (escapes, brackets, other characters) goes to the parser.
    static func isWebURL(_ text: String) -> Bool {
        switch plainWebURL(text) {
        case .some(let answer): return answer
        case .none:
            guard !text.isEmpty, !text.contains(" "), let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                scheme == "https" || scheme == "http", let host = url.host, !host.isEmpty
            else { return false }
            return true
        }
    }

    /// Whether a plain URL is an `https` or `http` URL with a host; nil when
    /// the text is not plain (the parser decides).
    static func plainWebURL(_ text: String) -> Bool? {
        var bytes = Array(text.utf8)[...]
        func dropPrefix(_ prefix: StaticString) -> Bool {
            let count = prefix.utf8CodeUnitCount
            guard bytes.count >= count else { return false }
            for (index, byte) in UnsafeBufferPointer(start: prefix.utf8Start, count: count).enumerated()
            where bytes[bytes.startIndex + index] | 0x20 != byte {
                return false
            }
            bytes = bytes.dropFirst(count)
            return true
        }
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): continue
            default:
                guard "-._~/?#&=+:;,!*'()@$".utf8.contains(byte) else { return nil }
            }
        }
        guard dropPrefix("https://") || dropPrefix("http://") else {
            // Another scheme, or none: not a web URL, unless the parser reads it otherwise (`HTTPS:/x` is not plain enough).
            return bytes.contains(UInt8(ascii: ":")) ? nil : false
        }
        // The authority: up to the path, query or fragment; then without user info and port.
        var authority = bytes.prefix { $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") }
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) { authority = authority[(at + 1)...] }
        if let colon = authority.lastIndex(of: UInt8(ascii: ":")) {
            let port = authority[(colon + 1)...]
            guard port.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
            authority = authority[..<colon]
        }
        return !authority.isEmpty
    }

    /// `text` without leading and trailing white space; the text itself
    /// (no copy) when it starts and ends with a visible ASCII character,
    /// which is almost every brand name.
    static func trimmed(_ text: String) -> String {
        let utf8 = text.utf8
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F { return text }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Turns names from a spec (`phone_number_e164`, `logo_url`, `brand-id`,
/// `INVALID_REQUEST`, `repos/get-content`) into Swift identifiers that read
/// like hand-written code (`phoneNumberE164`, `logoURL`, `brandID`,
/// `invalidRequest`, `reposGetContent`), safe to declare.
///
/// Rules:
/// 1. Words split at `_`, `-`, `.`, `/`, spaces and other punctuation, at
///    lower-to-upper case changes (`userId`), and before the last capital of
///    an upper-case run followed by lower case (`HTTPMethod` -> HTTP, Method).
///    Digits stay with the word they follow (`e164`, `v2`).
/// 2. Known acronyms (``acronyms``) are written in capitals (`URL`, `ID`,
///    `OTP`), also in plural (`IDs`); other words are capitalised. The first
///    word of a member name is all lower case (`url`, `idToken`).
/// 3. A name starting with a digit gets a leading `_`; an empty one becomes `_`.
/// 4. Swift keywords are escaped with backticks where a declaration allows it
///    (`` `default` ``); `self`, `Type`, `Protocol`, `init` and similar, which
///    cannot be used as plain member names even escaped, get a trailing `_`.
public enum SwiftName {
    /// Words written in capitals.
    public static let acronyms: Set<String> = [
        "id", "url", "uri", "api", "http", "https", "json", "xml", "html", "uuid", "otp", "sms", "ip", "os", "ui",
        "ai", "rag", "pkce", "jwt", "sdk", "css", "tls", "ssl", "dns", "tcp", "udp", "sha", "md5", "utc", "iso", "gps",
        "voip", "pdf", "csv", "rss", "ssh", "gpg", "ttl", "eta", "faq", "cpu", "gpu", "ram", "vpn", "pin", "ssn",
    ]

    /// Keywords that must be escaped with backticks in declarations.
    public static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "inout", "internal",
        "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer", "do", "else",
        "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "as", "false",
        "is", "nil", "super", "throws", "true", "try", "await", "async", "consume", "copy", "discard", "each", "any",
        "some", "borrowing", "consuming",
    ]

    /// Names that no escaping makes usable as a member: they get a trailing `_`.
    public static let reservedMembers: Set<String> = ["self", "Self", "Type", "Protocol", "init", "subscript", "deinit"]

    /// `UpperCamelCase`, for types: `branding_record` -> `BrandingRecord`.
    public static func typeName(_ raw: String) -> String {
        typeNames.value(for: raw, makeTypeName)
    }

    private static let typeNames = NameMemo()

    private static func makeTypeName(_ raw: String) -> String {
        let words = self.words(raw)
        let name = fixLeadingDigit(words.map(capitalised).joined())
        if reservedMembers.contains(name) || name == "Any" || name == "Self" { return name + "_" }
        return keywords.contains(name) ? "`\(name)`" : name
    }

    /// `lowerCamelCase`, for properties, methods and parameters: `logo_url` -> `logoURL`.
    public static func memberName(_ raw: String) -> String {
        memberNames.value(for: raw, makeMemberName)
    }

    private static let memberNames = NameMemo()

    private static func makeMemberName(_ raw: String) -> String {
        let words = self.words(raw)
        guard let first = words.first else { return "_" }
        let name = fixLeadingDigit(first.lowercased() + words.dropFirst().map(capitalised).joined())
        if reservedMembers.contains(name) { return name + "_" }
        return keywords.contains(name) ? "`\(name)`" : name
    }

    /// `memberName`, or `fallback` when the raw name has no letters or
    /// digits at all (`/`, `*`), which would otherwise give `_`.
    public static func memberName(_ raw: String, fallback: String) -> String {
        let name = memberName(raw)
        return name == "_" ? fallback : name
    }

    /// An enum case name for a raw value: like ``memberName(_:)``, with a
    /// leading `+` or `-` spelled out (`+1` -> `plus1`, `-1` -> `minus1`)
    /// and `fallback` for a value without letters or digits.
    public static func caseName(_ raw: String, fallback: String) -> String {
        if raw.count > 1, raw.first == "+" { return memberName("plus_" + raw.dropFirst(), fallback: fallback) }
        if raw.count > 1, raw.first == "-" { return memberName("minus_" + raw.dropFirst(), fallback: fallback) }
        return memberName(raw, fallback: fallback)
    }

    /// The name without backticks, for use after a `.` or inside a longer name.
    public static func unescaped(_ name: String) -> String {
        name.hasPrefix("`") && name.hasSuffix("`") && name.count > 2 ? String(name.dropFirst().dropLast()) : name
    }

    /// The words of a raw name (rule 1). Works on UTF-8 bytes: only ASCII
    /// letters and digits make words, so every other byte separates them
    /// (names are split tens of thousands of times for a large spec).
    public static func words(_ raw: String) -> [String] {
        var words: [String] = []
        var current: [UInt8] = []
        let bytes = Array(raw.utf8)
        func flush() {
            if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
            current.removeAll(keepingCapacity: true)
        }
        for (index, byte) in bytes.enumerated() {
            guard isUpper(byte) || isLower(byte) || isDigit(byte) else {
                flush()
                continue
            }
            if let previous = current.last {
                let next = index + 1 < bytes.count ? bytes[index + 1] : nil
                let after = index + 2 < bytes.count ? bytes[index + 2] : nil
                let startsWord =
                    (isLower(previous) && isUpper(byte))
                    || (isUpper(previous) && isUpper(byte) && next.map(isLower) == true
                        && !isPluralAcronym(current + [byte], next: next, after: after))
                    || (isDigit(previous) && isUpper(byte))
                if startsWord { flush() }
            }
            current.append(byte)
        }
        flush()
        return words
    }

    private static func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
    private static func isLower(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// `IDs`, `URLs`: an upper-case run that is a known acronym, followed by
    /// an `s` that ends the word, stays one word.
    private static func isPluralAcronym(_ run: [UInt8], next: UInt8?, after: UInt8?) -> Bool {
        guard next == 0x73, after.map({ !isLower($0) }) ?? true else { return false }
        return acronyms.contains(String(decoding: run, as: UTF8.self).lowercased())
    }

    private static func capitalised(_ word: String) -> String {
        let lower = word.lowercased()
        if acronyms.contains(lower) { return lower.uppercased() }
        if lower.hasSuffix("s"), acronyms.contains(String(lower.dropLast())) { return lower.dropLast().uppercased() + "s" }
        return lower.prefix(1).uppercased() + lower.dropFirst()
    }

    private static func fixLeadingDigit(_ name: String) -> String {
        guard let first = name.first else { return "_" }
        return first.isNumber ? "_" + name : name
    }
}

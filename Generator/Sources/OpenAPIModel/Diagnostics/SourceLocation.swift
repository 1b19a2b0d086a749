@_exported import struct YAMLReader.SourceMark

/// Where a piece of an OpenAPI document was written: the file, the
/// `line:column` of its node, and the JSON pointer to it inside that file.
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file as it was named on the command line (or resolved from a `$ref`).
    public let file: String
    /// The 1-based line and column of the node.
    public let mark: SourceMark
    /// The JSON pointer from the file's root to the node.
    public let pointer: JSONPointer

    /// Creates a location.
    public init(file: String, mark: SourceMark, pointer: JSONPointer) {
        self.file = file
        self.mark = mark
        self.pointer = pointer
    }

    /// The line of the node.
    public var line: Int { mark.line }
    /// The column of the node.
    public var column: Int { mark.column }

    /// `file:line:column`.
    public var description: String { "\(file):\(mark.line):\(mark.column)" }
}

/// A JSON pointer (RFC 6901) such as `/paths/~1pets/get`, built token by token.
public struct JSONPointer: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The encoded pointer; empty for the document root.
    public let encoded: String

    /// The root pointer.
    public static let root = JSONPointer(encoded: "")

    /// Wraps an already encoded pointer (`""` or starting with `/`).
    public init(encoded: String) {
        self.encoded = encoded
    }

    /// The pointer one step further down, escaping `~` and `/` in `token`.
    public func appending(_ token: String) -> JSONPointer {
        JSONPointer(encoded: encoded + "/" + Self.escape(token))
    }

    /// The pointer to item `index` of a sequence.
    public func appending(_ index: Int) -> JSONPointer {
        JSONPointer(encoded: encoded + "/" + String(index))
    }

    /// The decoded tokens.
    public var tokens: [String] {
        guard !encoded.isEmpty else { return [] }
        return encoded.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map(Self.unescape)
    }

    /// `#` followed by the pointer, as written in a `$ref`.
    public var fragment: String { "#" + encoded }

    /// The pointer with the `#` prefix, as JSON output shows it.
    public var description: String { fragment }

    /// Orders pointers by their encoded text.
    public static func < (lhs: JSONPointer, rhs: JSONPointer) -> Bool { lhs.encoded < rhs.encoded }

    /// Escapes one token: `~` as `~0`, `/` as `~1`.
    public static func escape<S: StringProtocol>(_ token: S) -> String {
        // A byte scan: Foundation's `contains` for strings is a locale-aware
        // search, and this runs for every node the loader visits.
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
            return String(token)
        }
        var result = ""
        for character in token {
            switch character {
            case "~": result += "~0"
            case "/": result += "~1"
            default: result.append(character)
            }
        }
        return result
    }

    /// Undoes ``escape(_:)``.
    public static func unescape<S: StringProtocol>(_ token: S) -> String {
        guard token.utf8.contains(UInt8(ascii: "~")) else { return String(token) }
        var result = ""
        var iterator = token.makeIterator()
        while let character = iterator.next() {
            guard character == "~" else {
                result.append(character)
                continue
            }
            switch iterator.next() {
            case "0": result += "~"
            case "1": result += "/"
            case let other?: result += "~" + String(other)
            case nil: result += "~"
            }
        }
        return result
    }
}

#if LIBYAML_VENDORED
import CLibYAMLVendored
#else
import CLibYAML
#endif
import Foundation

/// Reads YAML (and JSON, which is YAML) into a ``YAMLTree`` through
/// libyaml's event API (the system's on Linux, the vendored copy on Apple
/// platforms: `LibYAML`).
///
/// ```swift
/// let tree = try YAMLReader.read(contentsOfFile: "specs/soul.yaml")
/// if let root = tree.root, let info = tree.value(forKey: "info", in: root) {
///     print(tree.mark(info)) // 4:1
/// }
/// ```
///
/// Syntax errors throw ``YAMLError`` with the position libyaml reports;
/// problems that leave the tree usable (duplicate keys, extra documents) are
/// listed in ``YAMLTree/issues``.
public enum YAMLReader {
    /// Reads the file at `path`; `displayName` (default: `path`) is the name
    /// used in marks and errors.
    public static func read(contentsOfFile path: String, displayName: String? = nil) throws(YAMLError) -> YAMLTree {
        let name = displayName ?? path
        guard let data = FileManager.default.contents(atPath: path) else {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            throw .unreadable(file: name, reason: !exists ? "no such file" : isDirectory.boolValue ? "it is a directory" : "permission denied")
        }
        return try read(bytes: [UInt8](data), fileName: name)
    }

    /// Reads YAML text.
    public static func read(string: String, fileName: String) throws(YAMLError) -> YAMLTree {
        try read(bytes: Array(string.utf8), fileName: fileName)
    }

    /// Reads YAML from raw bytes (UTF-8, or UTF-16 with a byte order mark).
    public static func read(bytes: [UInt8], fileName: String) throws(YAMLError) -> YAMLTree {
        let isUTF16 = bytes.count >= 2 && ((bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE))
        let nulOffset = bytes.withUnsafeBytes { raw -> Int? in
            guard let base = raw.baseAddress, let found = memchr(base, 0, raw.count) else { return nil }
            return UnsafeRawPointer(found) - base
        }
        if !isUTF16, let nul = nulOffset {
            throw .binaryContent(
                file: fileName, mark: SourceText(bytes: bytes).mark(atByteOffset: nul),
                reason: "found a NUL byte at offset \(nul)")
        }
        var composer = YAMLComposer(fileName: fileName, input: isUTF16 ? bytes : JSONSurrogatePairs.joined(bytes))
        return try composer.compose()
    }
}

/// Line and column arithmetic over the raw input, for errors that libyaml
/// reports as byte offsets or whose offending character we want to inspect.
/// Understands what libyaml reads: UTF-8 (with or without a byte order mark)
/// and UTF-16 with a byte order mark; marks count characters after the BOM.
struct SourceText {
    private enum Encoding { case utf8, utf16LittleEndian, utf16BigEndian }

    let bytes: [UInt8]
    private let encoding: Encoding
    private let bodyStart: Int

    init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xFE {
            (encoding, bodyStart) = (.utf16LittleEndian, 2)
        } else if bytes.count >= 2, bytes[0] == 0xFE, bytes[1] == 0xFF {
            (encoding, bodyStart) = (.utf16BigEndian, 2)
        } else if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            (encoding, bodyStart) = (.utf8, 3)
        } else {
            (encoding, bodyStart) = (.utf8, 0)
        }
    }

    /// The mark of a byte offset into the raw input (columns count characters).
    func mark(atByteOffset offset: Int) -> SourceMark {
        var line = 1
        var column = 1
        let end = min(offset, bytes.count)
        var index = bodyStart
        switch encoding {
        case .utf8:
            while index < end {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else if byte & 0xC0 != 0x80 {
                    column += 1
                }
                index += 1
            }
        case .utf16LittleEndian, .utf16BigEndian:
            while index < end, index + 1 < bytes.count {
                let unit = encoding == .utf16LittleEndian
                    ? UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
                    : UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
                if unit == 0x0A {
                    line += 1
                    column = 1
                } else if !(0xDC00...0xDFFF).contains(unit) {
                    column += 1
                }
                index += 2
            }
        }
        return SourceMark(line: line, column: column)
    }

    /// The text as UTF-8 without a byte order mark.
    private var utf8Body: [UInt8] {
        switch encoding {
        case .utf8:
            return Array(bytes[bodyStart...])
        case .utf16LittleEndian, .utf16BigEndian:
            var units: [UInt16] = []
            var index = bodyStart
            while index + 1 < bytes.count {
                units.append(
                    encoding == .utf16LittleEndian
                        ? UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8
                        : UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
                index += 2
            }
            return Array(String(decoding: units, as: UTF16.self).utf8)
        }
    }

    /// The first UTF-8 byte of the character at a mark, if there is one.
    func byte(at mark: SourceMark) -> UInt8? {
        let text = utf8Body
        var line = 1
        var index = 0
        while line < mark.line, index < text.count {
            if text[index] == UInt8(ascii: "\n") { line += 1 }
            index += 1
        }
        var column = 1
        while column < mark.column, index < text.count, text[index] != UInt8(ascii: "\n") {
            index += 1
            while index < text.count, text[index] & 0xC0 == 0x80 { index += 1 }
            column += 1
        }
        return index < text.count ? text[index] : nil
    }
}

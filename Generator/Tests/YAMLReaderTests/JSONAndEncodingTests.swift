import Foundation
import Testing
import YAMLReader

/// JSON is read with the same API.
@Suite struct JSONInputTests {
    @Test func jsonObjectWithNestedValues() throws {
        let tree = try parse(#"""
            {
              "openapi": "3.1.0",
              "info": {"title": "Caf\u00e9", "path": "a\/b", "quote": "say \"hi\"\n"},
              "numbers": [1, -2.5, 1e3, 0, 12345678901234567890],
              "flags": [true, false, null],
              "empty": {},
              "none": []
            }
            """#, fileName: "api.json")
        let root = try requireRoot(tree)
        #expect(tree.kind(root) == .mapping)
        #expect(keyTexts(tree, root) == ["openapi", "info", "numbers", "flags", "empty", "none"])
        #expect(tree.scalar(try walk(tree, "openapi")) == .string("3.1.0"))
        #expect(tree.text(try walk(tree, "info", "title")) == "Café")
        #expect(tree.text(try walk(tree, "info", "path")) == "a/b")
        #expect(tree.text(try walk(tree, "info", "quote")) == "say \"hi\"\n")
        let numbers = try walk(tree, "numbers")
        #expect(tree.items(numbers).map { tree.scalar($0) } == [
            .int(1), .double(-2.5), .double(1000), .int(0), .double(12_345_678_901_234_567_890.0),
        ])
        #expect(tree.items(try walk(tree, "flags")).map { tree.scalar($0) } == [.bool(true), .bool(false), .null])
        #expect(tree.count(try walk(tree, "empty")) == 0)
        #expect(tree.kind(try walk(tree, "none")) == .sequence)
        #expect(tree.issues.isEmpty)
    }

    @Test func jsonStringsStayStrings() throws {
        let tree = try parse(#"{"a": "123", "b": "true", "c": "null", "d": ""}"#)
        let root = try requireRoot(tree)
        #expect(tree.pairs(root).map { tree.scalar($0.value) } == [.string("123"), .string("true"), .string("null"), .string("")])
    }

    @Test func minifiedJSON() throws {
        let tree = try parse(#"{"a":1,"b":[1,2,{"c":"d"}],"e":{"f":null}}"#)
        #expect(tree.scalar(try walk(tree, "a")) == .int(1))
        #expect(tree.text(try walk(tree, "b", "2", "c")) == "d")
        #expect(tree.scalar(try walk(tree, "e", "f")) == .null)
        #expect(tree.mark(try walk(tree, "b", "2", "c")) == at(1, 22))
    }

    @Test func jsonArrayRoot() throws {
        let tree = try parse(#"[{"id": 1}, {"id": 2}]"#)
        let root = try requireRoot(tree)
        #expect(tree.kind(root) == .sequence)
        #expect(tree.count(root) == 2)
        #expect(tree.scalar(try walk(tree, "1", "id")) == .int(2))
    }

    @Test func jsonMarksAcrossLines() throws {
        let tree = try parse("{\n  \"a\": {\n    \"b\": [true]\n  }\n}\n")
        let root = try requireRoot(tree)
        #expect(tree.mark(root) == at(1, 1))
        #expect(tree.mark(tree.pairs(root)[0].key) == at(2, 3))
        #expect(tree.mark(try walk(tree, "a")) == at(2, 8))
        #expect(tree.mark(try walk(tree, "a", "b")) == at(3, 10))
        #expect(tree.mark(try walk(tree, "a", "b", "0")) == at(3, 11))
    }

    @Test func jsonDuplicateKeysAreReported() throws {
        let tree = try parse(#"{"a": 1, "a": 2}"#)
        let duplicates = duplicateKeys(tree)
        #expect(duplicates.count == 1)
        #expect(duplicates.first?.mark == at(1, 10))
        #expect(duplicates.first?.firstMark == at(1, 2))
    }

    @Test func unterminatedJSONString() throws {
        let error = try #require(readError(#"{"a": "b}"#))
        #expect(error.mark == at(1, 7))
        #expect(error.description.hasPrefix("test.yaml:1:7: error:"))
    }
}

/// Byte order marks and UTF-16.
@Suite struct EncodingTests {
    static let text = "a: é\nb: [1, 日本]\n"

    private func utf16(_ string: String, bigEndian: Bool) -> [UInt8] {
        var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        for unit in string.utf16 {
            let high = UInt8(unit >> 8)
            let low = UInt8(unit & 0xFF)
            bytes += bigEndian ? [high, low] : [low, high]
        }
        return bytes
    }

    @Test(arguments: [false, true])
    func utf16WithByteOrderMark(bigEndian: Bool) throws {
        let tree = try YAMLReader.read(bytes: utf16(Self.text, bigEndian: bigEndian), fileName: "utf16.yaml")
        let root = try requireRoot(tree)
        #expect(keyTexts(tree, root) == ["a", "b"])
        #expect(tree.text(try walk(tree, "a")) == "é")
        #expect(tree.text(try walk(tree, "b", "1")) == "日本")
        #expect(tree.mark(try walk(tree, "a")) == at(1, 4))
        #expect(tree.mark(try walk(tree, "b", "1")) == at(2, 8))
    }

    @Test func utf16FileOnDisk() throws {
        try withTemporaryFile(utf16(Self.text, bigEndian: false)) { path in
            let tree = try YAMLReader.read(contentsOfFile: path)
            #expect(tree.text(try walk(tree, "b", "0")) == "1")
        }
    }

    @Test func utf16SyntaxErrorMarkCountsCharacters() throws {
        let error = try #require(readError(bytes: utf16("a: 1\nb: \"open\n", bigEndian: false)))
        #expect(error.mark == at(2, 4))
    }

    @Test func utf16InvalidSurrogateMarkCountsCharacters() throws {
        // "a: " then a lone low surrogate: the bad character is at 1:4.
        let bytes: [UInt8] = [0xFF, 0xFE, 0x61, 0x00, 0x3A, 0x00, 0x20, 0x00, 0x00, 0xDC, 0x0A, 0x00]
        let error = try #require(readError(bytes: bytes))
        guard case .binaryContent(_, let mark, _) = error else {
            Issue.record("expected binaryContent, got \(error)")
            return
        }
        #expect(mark == at(1, 4))
    }

    @Test func utf16TabIndentationGetsTheTabHint() throws {
        let error = try #require(readError(bytes: utf16("a:\n\tb: 1\n", bigEndian: false)))
        #expect(error.mark == at(2, 1))
        #expect(error.hint?.localizedCaseInsensitiveContains("tab") == true)
    }

    @Test func utf8ByteOrderMarkIsNotPartOfTheFirstKey() throws {
        let tree = try YAMLReader.read(bytes: [0xEF, 0xBB, 0xBF] + Array("name: x\n".utf8), fileName: "bom.yaml")
        let root = try requireRoot(tree)
        #expect(keyTexts(tree, root) == ["name"])
        #expect(tree.mark(tree.pairs(root)[0].key) == at(1, 1))
        #expect(tree.mark(try walk(tree, "name")) == at(1, 7))
    }

    @Test func utf8ByteOrderMarkDoesNotShiftBinaryContentColumns() throws {
        // Node marks do not count the BOM (`x` is at 1:4), so neither should
        // the mark of a NUL byte right after it.
        let error = try #require(readError(bytes: [0xEF, 0xBB, 0xBF] + Array("a: ".utf8) + [0]))
        #expect(error.mark == at(1, 4))
        let invalid = try #require(readError(bytes: [0xEF, 0xBB, 0xBF] + Array("a: ".utf8) + [0xFF]))
        #expect(invalid.mark == at(1, 4))
    }

    @Test func utf16WithoutByteOrderMarkIsBinary() throws {
        let bytes = Array("a: 1\n".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let error = try #require(readError(bytes: bytes))
        guard case .binaryContent = error else {
            Issue.record("expected binaryContent, got \(error)")
            return
        }
    }
}

/// JSON's surrogate-pair escapes, which libyaml alone refuses (Twilio's spec
/// writes an emoji so): read as the character they encode, in JSON strings
/// only.
@Suite struct JSONSurrogatePairTests {
    @Test func aSurrogatePairInAJSONStringIsItsCharacter() throws {
        let tree = try parse(#"{"body": "Hello! \ud83d\udc4d", "plain": "caf\u00e9", "escaped": "\\ud83d\\udc4d"}"#)
        #expect(tree.text(try walk(tree, "body")) == "Hello! \u{1F44D}")
        #expect(tree.text(try walk(tree, "plain")) == "café")
        #expect(tree.text(try walk(tree, "escaped")) == #"\ud83d\udc4d"#, "an escaped backslash stays one")
    }

    @Test func yamlScalarsKeepTheirBackslashes() throws {
        let tree = try parse("plain: \\ud83d\\udc4d\nsingle: '\\ud83d\\udc4d'\n")
        #expect(tree.text(try walk(tree, "plain")) == #"\ud83d\udc4d"#)
        #expect(tree.text(try walk(tree, "single")) == #"\ud83d\udc4d"#)
    }

    @Test func aLoneSurrogateIsStillAnError() {
        #expect(readError(#"{"body": "\ud83d!"}"#) != nil)
    }
}

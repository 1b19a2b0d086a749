import Testing
import YAMLReader

/// The value of `v` in `v: <text>`.
private func resolved(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> YAMLScalar? {
    let tree = try parse("v: \(text)\n")
    return tree.scalar(try walk(tree, "v", sourceLocation: sourceLocation))
}

/// Scalar styles and their text after unescaping and folding.
@Suite struct ScalarStyleTests {
    @Test func flowScalarStylesAndText() throws {
        let tree = try parse(#"""
            plain: hello world
            single: 'it''s "x"'
            double: "tab\there\nline \"q\" \\ \u00e9"
            multiline: one
              two
            """#)
        let plain = try walk(tree, "plain")
        #expect(tree.style(plain) == .plain)
        #expect(tree.text(plain) == "hello world")
        let single = try walk(tree, "single")
        #expect(tree.style(single) == .singleQuoted)
        #expect(tree.text(single) == #"it's "x""#)
        let double = try walk(tree, "double")
        #expect(tree.style(double) == .doubleQuoted)
        #expect(tree.text(double) == "tab\there\nline \"q\" \\ é")
        #expect(tree.text(try walk(tree, "multiline")) == "one two")
    }

    @Test func literalBlockKeepsNewlines() throws {
        let tree = try parse("""
            a: |
              line one
                indented
              line three
            b: |-
              stripped
            c: |+
              kept

            d: end
            """)
        let a = try walk(tree, "a")
        #expect(tree.style(a) == .literal)
        #expect(tree.text(a) == "line one\n  indented\nline three\n")
        #expect(tree.text(try walk(tree, "b")) == "stripped")
        #expect(tree.text(try walk(tree, "c")) == "kept\n\n")
    }

    @Test func foldedBlockJoinsLines() throws {
        let tree = try parse("""
            a: >
              one
              two

              three
            b: >-
              x
              y
            """)
        let a = try walk(tree, "a")
        #expect(tree.style(a) == .folded)
        #expect(tree.text(a) == "one two\nthree\n")
        #expect(tree.style(try walk(tree, "b")) == .folded)
        #expect(tree.text(try walk(tree, "b")) == "x y")
    }

    @Test func collectionsHavePlainStyleAndNoScalarValue() throws {
        let tree = try parse("m: {a: 1}\ns: [1]\n")
        #expect(tree.style(try walk(tree, "m")) == .plain)
        #expect(tree.scalar(try walk(tree, "m")) == nil)
        #expect(tree.scalar(try walk(tree, "s")) == nil)
    }
}

/// Explicit tags.
@Suite struct TagTests {
    @Test func strTagKeepsNumberAsString() throws {
        let tree = try parse("v: !!str 123\n")
        let v = try walk(tree, "v")
        #expect(tree.tag(v) == "tag:yaml.org,2002:str")
        #expect(tree.scalar(v) == .string("123"))
        #expect(tree.text(v) == "123")
    }

    @Test func intTagOnQuotedText() throws {
        let tree = try parse("v: !!int \"5\"\n")
        let v = try walk(tree, "v")
        #expect(tree.tag(v) == "tag:yaml.org,2002:int")
        #expect(tree.style(v) == .doubleQuoted)
        #expect(tree.scalar(v) == .int(5))
    }

    @Test func otherStandardTags() throws {
        #expect(try resolved("!!float 1") == .double(1))
        #expect(try resolved("!!float '2.5'") == .double(2.5))
        #expect(try resolved("!!bool \"true\"") == .bool(true))
        #expect(try resolved("!!null ''") == .null)
        // Text that does not fit the tag stays a string.
        #expect(try resolved("!!int abc") == .string("abc"))
        #expect(try resolved("!!bool yes") == .string("yes"))
    }

    @Test func customTagIsKeptAndValueIsAString() throws {
        let tree = try parse("v: !foo bar\nw: !foo 12\n")
        let v = try walk(tree, "v")
        #expect(tree.tag(v) == "!foo")
        #expect(tree.scalar(v) == .string("bar"))
        #expect(tree.scalar(try walk(tree, "w")) == .string("12"))
    }

    @Test func nonSpecificTagMakesAString() throws {
        #expect(try resolved("! 12") == .string("12"))
        #expect(try resolved("! true") == .string("true"))
    }

    @Test func tagsOnCollectionsAndUntaggedNodes() throws {
        let tree = try parse("m: !!map {a: 1}\ns: !custom [1]\nplain: 1\n")
        #expect(tree.tag(try walk(tree, "m")) == "tag:yaml.org,2002:map")
        #expect(tree.tag(try walk(tree, "s")) == "!custom")
        #expect(tree.tag(try walk(tree, "plain")) == nil)
        #expect(tree.kind(try walk(tree, "s")) == .sequence)
    }
}

/// YAML 1.2 core schema resolution of untagged plain scalars.
@Suite struct CoreSchemaTests {
    @Test(arguments: ["~", "null", "Null", "NULL", ""])
    func nullForms(text: String) throws {
        #expect(try resolved(text) == .null)
    }

    @Test(arguments: [("true", true), ("True", true), ("TRUE", true), ("false", false), ("False", false), ("FALSE", false)])
    func booleans(text: String, value: Bool) throws {
        #expect(try resolved(text) == .bool(value))
    }

    @Test(arguments: [
        ("0", 0), ("42", 42), ("-17", -17), ("+5", 5), ("007", 7),
        ("0x1F", 31), ("0xff", 255), ("0o17", 15), ("0o0", 0),
        ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min),
    ])
    func integers(text: String, value: Int) throws {
        #expect(try resolved(text) == .int(value))
    }

    @Test(arguments: [
        ("9223372036854775808", 9_223_372_036_854_775_808.0),
        ("123456789012345678901234567890", 123_456_789_012_345_678_901_234_567_890.0),
        ("-99999999999999999999", -99_999_999_999_999_999_999.0),
    ])
    func decimalIntegersTooLargeForIntBecomeDoubles(text: String, value: Double) throws {
        #expect(try resolved(text) == .double(value))
    }

    @Test func hexAndOctalIntegersTooLargeForIntBecomeDoubles() throws {
        // Documented: `.double` is "a float, or an integer too large for Int".
        #expect(try resolved("0x10000000000000000") == .double(18_446_744_073_709_551_616.0))
        #expect(try resolved("0o2000000000000000000000") == .double(18_446_744_073_709_551_616.0))
    }

    @Test(arguments: [
        ("1.5", 1.5), ("-0.25", -0.25), ("+2.5", 2.5), ("1e3", 1000), ("1E-2", 0.01), ("2.5e+2", 250),
        (".5", 0.5), ("1.", 1), ("0.0", 0),
        (".inf", Double.infinity), (".Inf", Double.infinity), (".INF", Double.infinity), ("+.inf", Double.infinity),
        ("-.inf", -Double.infinity), ("-.Inf", -Double.infinity),
    ])
    func floats(text: String, value: Double) throws {
        #expect(try resolved(text) == .double(value))
    }

    @Test(arguments: [".nan", ".NaN", ".NAN"])
    func notANumber(text: String) throws {
        guard case .double(let value) = try resolved(text) else {
            Issue.record("\(text) did not resolve to a double")
            return
        }
        #expect(value.isNaN)
    }

    @Test(arguments: [
        "yes", "no", "on", "off", "y", "n", "Yes", "tRUE", "nULL", "none", "nil",
        "1.2.3", "3.1.0", "0x", "0o", "0x1G", "0o8", "-0x1F", "+0o7", "0b101", "1_000",
        "1e", "1e+", "e3", ".", "+", "-.nan", "nan", "inf", "Infinity", ".inf.", "1.5f",
        "12:30", "2024-01-31", "1-2", "--1", "hello",
    ])
    func nonCoreValuesStayStrings(text: String) throws {
        #expect(try resolved(text) == .string(text))
    }

    @Test(arguments: ["\"true\"", "'1'", "\"null\"", "'~'", "\"0x1F\"", "\"1.5\"", "''"])
    func quotedScalarsStayStrings(text: String) throws {
        let unquoted = String(text.dropFirst().dropLast())
        #expect(try resolved(text) == .string(unquoted))
    }

    @Test func blockScalarsStayStrings() throws {
        let tree = try parse("a: |\n  42\nb: >-\n  true\n")
        #expect(tree.scalar(try walk(tree, "a")) == .string("42\n"))
        #expect(tree.scalar(try walk(tree, "b")) == .string("true"))
    }

    @Test func resolvePlainMatchesTreeResolution() {
        #expect(YAMLScalar.resolvePlain("0x1F") == .int(31))
        #expect(YAMLScalar.resolvePlain("") == .null)
        #expect(YAMLScalar.resolvePlain("on") == .string("on"))
        #expect(YAMLScalar.resolvePlain("-") == .string("-"))
        #expect(YAMLScalar.resolveTagged("5", tag: "tag:yaml.org,2002:int") == .int(5))
        #expect(YAMLScalar.resolveTagged("x", tag: "tag:yaml.org,2002:int") == nil)
    }
}

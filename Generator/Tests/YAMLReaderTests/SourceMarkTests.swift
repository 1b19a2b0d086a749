import Testing
import YAMLReader

/// 1-based line:column marks on every node.
@Suite struct SourceMarkTests {
    @Test func blockMappingKeysAndValues() throws {
        let tree = try parse("""
            openapi: 3.1.0
            info:
              title: Pets
              version: "1.0"
            paths: {}
            """)
        let root = try requireRoot(tree)
        let pairs = tree.pairs(root)
        #expect(tree.mark(root) == at(1, 1))
        #expect(tree.mark(pairs[0].key) == at(1, 1))
        #expect(tree.mark(pairs[0].value) == at(1, 10))
        #expect(tree.mark(pairs[1].key) == at(2, 1))
        // A block mapping starts at its first key.
        #expect(tree.mark(pairs[1].value) == at(3, 3))
        let info = tree.pairs(pairs[1].value)
        #expect(tree.mark(info[0].key) == at(3, 3))
        #expect(tree.mark(info[0].value) == at(3, 10))
        #expect(tree.mark(info[1].key) == at(4, 3))
        // A quoted scalar starts at its opening quote.
        #expect(tree.mark(info[1].value) == at(4, 12))
        #expect(tree.mark(pairs[2].key) == at(5, 1))
        #expect(tree.mark(pairs[2].value) == at(5, 8))
    }

    @Test func deeplyNestedBlockNodes() throws {
        let tree = try parse("""
            paths:
              /pets:
                get:
                  responses:
                    "200":
                      description: OK
            """)
        let code = try walk(tree, "paths", "/pets", "get", "responses")
        let pair = try #require(tree.pairs(code).first)
        #expect(tree.mark(pair.key) == at(5, 9))
        let description = try walk(tree, "paths", "/pets", "get", "responses", "200", "description")
        #expect(tree.mark(description) == at(6, 24))
    }

    @Test func blockSequenceItems() throws {
        let tree = try parse("""
            tags:
              - a
              - name: b
                x: 1
            flat:
            - c
            """)
        let tags = try walk(tree, "tags")
        #expect(tree.mark(tags) == at(2, 3))
        let items = tree.items(tags)
        #expect(tree.mark(items[0]) == at(2, 5))
        #expect(tree.mark(items[1]) == at(3, 5))
        let second = tree.pairs(items[1])
        #expect(tree.mark(second[1].key) == at(4, 5))
        #expect(tree.mark(second[1].value) == at(4, 8))
        let flat = try walk(tree, "flat")
        #expect(tree.mark(flat) == at(6, 1))
        #expect(tree.mark(tree.items(flat)[0]) == at(6, 3))
    }

    @Test func flowCollections() throws {
        let tree = try parse("x: {a: 1, b: [p, q], c: {d: e}}\n")
        let map = try walk(tree, "x")
        #expect(tree.mark(map) == at(1, 4))
        let pairs = tree.pairs(map)
        #expect(tree.mark(pairs[0].key) == at(1, 5))
        #expect(tree.mark(pairs[0].value) == at(1, 8))
        #expect(tree.mark(pairs[1].key) == at(1, 11))
        #expect(tree.mark(pairs[1].value) == at(1, 14))
        #expect(tree.items(pairs[1].value).map(tree.mark) == [at(1, 15), at(1, 18)])
        #expect(tree.mark(pairs[2].value) == at(1, 25))
        #expect(tree.mark(try walk(tree, "x", "c", "d")) == at(1, 29))
    }

    @Test func flowCollectionSpanningLines() throws {
        let tree = try parse("""
            list: [
              one,
              "two",
              {k: v}
            ]
            """)
        let list = try walk(tree, "list")
        #expect(tree.items(list).map(tree.mark) == [at(2, 3), at(3, 3), at(4, 3)])
        #expect(tree.mark(try walk(tree, "list", "2", "k")) == at(4, 7))
    }

    @Test func columnsCountCharactersNotBytes() throws {
        // é is 2 bytes, 日本 6 bytes, 😀 4 bytes in UTF-8: each is one column.
        let tree = try parse("""
            café: 😀 done
            k: {日本: [a, b]}
            """)
        let root = try requireRoot(tree)
        let pairs = tree.pairs(root)
        #expect(tree.mark(pairs[0].value) == at(1, 7))
        #expect(tree.text(pairs[0].value) == "😀 done")
        let nested = try walk(tree, "k", "日本")
        #expect(tree.mark(nested) == at(2, 9))
        #expect(tree.items(nested).map(tree.mark) == [at(2, 10), at(2, 13)])
    }

    @Test func columnsAfterMultiByteCharactersInSequences() throws {
        let tree = try parse("- ñandú: [ä, ö]\n- ü\n")
        let first = try walk(tree, "0", "ñandú")
        #expect(tree.mark(first) == at(1, 10))
        #expect(tree.items(first).map(tree.mark) == [at(1, 11), at(1, 14)])
        #expect(tree.mark(try walk(tree, "1")) == at(2, 3))
    }

    @Test func blockScalarsStartAtTheirIndicator() throws {
        let tree = try parse("""
            description: |
              line one
              line two
            summary: >
              folded
            after: x
            """)
        #expect(tree.mark(try walk(tree, "description")) == at(1, 14))
        #expect(tree.mark(try walk(tree, "summary")) == at(4, 10))
        #expect(tree.mark(try walk(tree, "after")) == at(6, 8))
    }

    @Test func commentsAndBlankLinesCountAsLines() throws {
        let tree = try parse("# header\n\n  # indented comment\na: 1 # trailing\n\nb: 2\n")
        #expect(tree.mark(try walk(tree, "a")) == at(4, 4))
        let root = try requireRoot(tree)
        #expect(tree.mark(tree.pairs(root)[1].key) == at(6, 1))
    }

    @Test func crlfLineEndings() throws {
        let tree = try parse("a: 1\r\nb:\r\n  c: two\r\n")
        let root = try requireRoot(tree)
        #expect(tree.mark(tree.pairs(root)[1].key) == at(2, 1))
        let c = try walk(tree, "b", "c")
        #expect(tree.mark(c) == at(3, 6))
        #expect(tree.text(c) == "two")
        #expect(tree.text(try walk(tree, "a")) == "1")
    }

    @Test func sourceMarkOrderingAndDescription() {
        #expect(at(1, 9) < at(2, 1))
        #expect(at(3, 2) < at(3, 10))
        #expect(!(at(3, 2) < at(3, 2)))
        #expect(at(12, 7).description == "12:7")
        #expect(SourceMark.start == at(1, 1))
    }
}

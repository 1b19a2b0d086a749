import Testing
import YAMLReader

/// The shape of the node tree: kinds, order, lookups and pointers.
@Suite struct NodeTreeTests {
    @Test func nodeKindsOfMappingSequenceAndScalar() throws {
        let tree = try parse("""
            map: {a: 1}
            list: [1, 2]
            text: hello
            """)
        let root = try requireRoot(tree)
        #expect(tree.kind(root) == .mapping)
        #expect(tree.kind(try walk(tree, "map")) == .mapping)
        #expect(tree.kind(try walk(tree, "list")) == .sequence)
        #expect(tree.kind(try walk(tree, "text")) == .scalar)
    }

    @Test func mappingPairsKeepDocumentOrder() throws {
        let tree = try parse("""
            zeta: 1
            alpha: 2
            mid: 3
            beta: 4
            """)
        let root = try requireRoot(tree)
        #expect(keyTexts(tree, root) == ["zeta", "alpha", "mid", "beta"])
        #expect(tree.pairs(root).map { tree.text($0.value) } == ["1", "2", "3", "4"])
    }

    @Test func sequenceItemsKeepDocumentOrder() throws {
        let tree = try parse("""
            - c
            - a
            - b
            - [x]
            """)
        let root = try requireRoot(tree)
        #expect(tree.kind(root) == .sequence)
        let items = tree.items(root)
        #expect(items.count == 4)
        #expect(itemTexts(tree, root).prefix(3) == ["c", "a", "b"])
        #expect(tree.kind(items[3]) == .sequence)
    }

    @Test func itemsAndPairsAreEmptyForTheOtherKinds() throws {
        let tree = try parse("m: {a: 1}\ns: [1]\nv: x\n")
        let map = try walk(tree, "m")
        let seq = try walk(tree, "s")
        let scalar = try walk(tree, "v")
        #expect(tree.items(map).isEmpty)
        #expect(tree.pairs(seq).isEmpty)
        #expect(tree.items(scalar).isEmpty)
        #expect(tree.pairs(scalar).isEmpty)
    }

    @Test func valueForKeyFindsNestedValuesAndReturnsNilOtherwise() throws {
        let tree = try parse("""
            info:
              title: Pets
              version: "1.0"
            tags: [a]
            """)
        let root = try requireRoot(tree)
        let info = try #require(tree.value(forKey: "info", in: root))
        let title = try #require(tree.value(forKey: "title", in: info))
        #expect(tree.text(title) == "Pets")
        #expect(tree.value(forKey: "missing", in: root) == nil)
        #expect(tree.value(forKey: "titl", in: info) == nil)
        #expect(tree.value(forKey: "title ", in: info) == nil)
        // Not a mapping: always nil.
        let tags = try #require(tree.value(forKey: "tags", in: root))
        #expect(tree.value(forKey: "0", in: tags) == nil)
        #expect(tree.value(forKey: "Pets", in: title) == nil)
    }

    @Test func valueForKeyMatchesQuotedAndNonASCIIKeys() throws {
        let tree = try parse("""
            "quoted key": 1
            'single': 2
            café: 3
            "": 4
            """)
        let root = try requireRoot(tree)
        #expect(tree.value(forKey: "quoted key", in: root).flatMap(tree.text) == "1")
        #expect(tree.value(forKey: "single", in: root).flatMap(tree.text) == "2")
        #expect(tree.value(forKey: "café", in: root).flatMap(tree.text) == "3")
        #expect(tree.value(forKey: "", in: root).flatMap(tree.text) == "4")
    }

    @Test func countIsPairsItemsOrZero() throws {
        let tree = try parse("""
            map: {a: 1, b: 2, c: 3}
            list: [1, 2]
            emptyMap: {}
            emptyList: []
            scalar: hello
            """)
        #expect(tree.count(try requireRoot(tree)) == 5)
        #expect(tree.count(try walk(tree, "map")) == 3)
        #expect(tree.count(try walk(tree, "list")) == 2)
        #expect(tree.count(try walk(tree, "emptyMap")) == 0)
        #expect(tree.count(try walk(tree, "emptyList")) == 0)
        #expect(tree.count(try walk(tree, "scalar")) == 0)
        #expect(tree.pairs(try walk(tree, "map")).count == 3)
    }

    @Test func textIsTheScalarTextAndNilForCollections() throws {
        let tree = try parse("a: hello world\nb: [1]\nc: {x: 1}\nd: 日本語\n")
        #expect(tree.text(try walk(tree, "a")) == "hello world")
        #expect(tree.text(try walk(tree, "b")) == nil)
        #expect(tree.text(try walk(tree, "c")) == nil)
        #expect(tree.text(try walk(tree, "d")) == "日本語")
        #expect(tree.text(try walk(tree, "b", "0")) == "1")
    }

    @Test func isScalarComparesTheWholeText() throws {
        let tree = try parse("a: hello\nb: [hello]\nc: ''\nd: héllo\n")
        let a = try walk(tree, "a")
        #expect(tree.isScalar(a, equalTo: "hello"))
        #expect(!tree.isScalar(a, equalTo: "hell"))
        #expect(!tree.isScalar(a, equalTo: "hello!"))
        #expect(!tree.isScalar(a, equalTo: "Hello"))
        #expect(!tree.isScalar(a, equalTo: ""))
        #expect(!tree.isScalar(try walk(tree, "b"), equalTo: "hello"))
        #expect(tree.isScalar(try walk(tree, "c"), equalTo: ""))
        #expect(tree.isScalar(try walk(tree, "d"), equalTo: "héllo"))
        #expect(!tree.isScalar(try walk(tree, "d"), equalTo: "hello"))
    }

    @Test func scalarHasPrefix() throws {
        let tree = try parse("ref: '#/components/schemas/Pet'\nshort: '#'\nlist: ['#/x']\n")
        let ref = try walk(tree, "ref")
        #expect(tree.scalar(ref, hasPrefix: "#/"))
        #expect(tree.scalar(ref, hasPrefix: "#/components/schemas/Pet"))
        #expect(!tree.scalar(ref, hasPrefix: "#/components/schemas/Pets"))
        #expect(!tree.scalar(ref, hasPrefix: "/"))
        #expect(!tree.scalar(try walk(tree, "short"), hasPrefix: "#/"))
        #expect(!tree.scalar(try walk(tree, "list"), hasPrefix: "["))
    }

    @Test func nodeIDsFollowDocumentOrder() throws {
        let tree = try parse("first: 1\nsecond: 2\n")
        let root = try requireRoot(tree)
        let pairs = tree.pairs(root)
        #expect(root < pairs[0].key)
        #expect(pairs[0].key < pairs[0].value)
        #expect(pairs[0].value < pairs[1].key)
        #expect(pairs[1].key < pairs[1].value)
        #expect(tree.nodeCount == 5)
    }

    @Test func fileNameIsKept() throws {
        let tree = try parse("a: 1", fileName: "specs/api.yaml")
        #expect(tree.fileName == "specs/api.yaml")
    }
}

/// `node(atPointer:from:)`, RFC 6901 JSON pointers.
@Suite struct JSONPointerTests {
    static let yaml = """
        paths:
          /pets/{id}:
            get:
              operationId: getPet
          a~b: tilde
          ~1: literal-tilde-one
          "": empty
        list:
          - zero
          - one
          - [nested]
        """

    @Test func emptyPointerIsTheStartNode() throws {
        let tree = try parse(Self.yaml)
        let root = try requireRoot(tree)
        #expect(tree.node(atPointer: "", from: root) == root)
        let paths = try walk(tree, "paths")
        #expect(tree.node(atPointer: "", from: paths) == paths)
    }

    @Test func slashEscapeTildeOne() throws {
        let tree = try parse(Self.yaml)
        let root = try requireRoot(tree)
        let node = try #require(tree.node(atPointer: "/paths/~1pets~1{id}/get/operationId", from: root))
        #expect(tree.text(node) == "getPet")
        #expect(node == (try walk(tree, "paths", "/pets/{id}", "get", "operationId")))
    }

    @Test func tildeEscapeTildeZero() throws {
        let tree = try parse(Self.yaml)
        let root = try requireRoot(tree)
        #expect(tree.node(atPointer: "/paths/a~0b", from: root).flatMap(tree.text) == "tilde")
        // `~01` is `~1` (decode `~1` first, then `~0`), not `~/`.
        #expect(tree.node(atPointer: "/paths/~01", from: root).flatMap(tree.text) == "literal-tilde-one")
        // An unescaped `~b` key does not exist.
        #expect(tree.node(atPointer: "/paths/a~1b", from: root) == nil)
    }

    @Test func emptyTokenNamesTheEmptyKey() throws {
        let tree = try parse(Self.yaml)
        let root = try requireRoot(tree)
        #expect(tree.node(atPointer: "/paths/", from: root).flatMap(tree.text) == "empty")
    }

    @Test func sequenceIndexes() throws {
        let tree = try parse(Self.yaml)
        let root = try requireRoot(tree)
        #expect(tree.node(atPointer: "/list/0", from: root).flatMap(tree.text) == "zero")
        #expect(tree.node(atPointer: "/list/1", from: root).flatMap(tree.text) == "one")
        #expect(tree.node(atPointer: "/list/2/0", from: root).flatMap(tree.text) == "nested")
        #expect(tree.node(atPointer: "/list/3", from: root) == nil)
        #expect(tree.node(atPointer: "/list/-1", from: root) == nil)
        #expect(tree.node(atPointer: "/list/-", from: root) == nil)
        #expect(tree.node(atPointer: "/list/one", from: root) == nil)
    }

    @Test func relativeToAnyStartNode() throws {
        let tree = try parse(Self.yaml)
        let list = try walk(tree, "list")
        #expect(tree.node(atPointer: "/1", from: list).flatMap(tree.text) == "one")
    }

    @Test func missingStepsAndMalformedPointersAreNil() throws {
        let tree = try parse(Self.yaml)
        let root = try requireRoot(tree)
        #expect(tree.node(atPointer: "/nope", from: root) == nil)
        #expect(tree.node(atPointer: "/paths/~1pets~1{id}/post", from: root) == nil)
        // Stepping into a scalar.
        #expect(tree.node(atPointer: "/list/0/x", from: root) == nil)
        // No leading slash.
        #expect(tree.node(atPointer: "paths", from: root) == nil)
        #expect(tree.node(atPointer: "#/paths", from: root) == nil)
    }
}

/// Streams with several, or no, documents.
@Suite struct DocumentStreamTests {
    @Test func multipleDocumentsAreListedWithAnExtraDocumentsIssue() throws {
        let tree = try parse("""
            a: 1
            ---
            b: 2
            ---
            - c
            """)
        #expect(tree.documents.count == 3)
        let roots = tree.documents
        #expect(tree.root == roots.first)
        #expect(tree.value(forKey: "a", in: roots[0]).flatMap(tree.text) == "1")
        #expect(tree.value(forKey: "b", in: roots[1]).flatMap(tree.text) == "2")
        #expect(tree.kind(roots[2]) == .sequence)
        #expect(tree.mark(roots[1]) == at(3, 1))
        #expect(tree.mark(roots[2]) == at(5, 1))
        #expect(tree.issues.count == 1)
        let issue = try #require(tree.issues.first)
        #expect(issue.kind == .extraDocuments(count: 3))
        #expect(issue.node == roots[1])
        #expect(issue.mark == at(3, 1))
    }

    @Test func explicitStartAndEndMarkersMakeOneDocument() throws {
        let tree = try parse("---\na: 1\n...\n")
        #expect(tree.documents.count == 1)
        #expect(tree.issues.isEmpty)
        #expect(tree.mark(try requireRoot(tree)) == at(2, 1))
    }

    @Test func singleDocumentHasNoIssues() throws {
        let tree = try parse("a: 1\nb: [1, 2]\n")
        #expect(tree.documents.count == 1)
        #expect(tree.issues.isEmpty)
    }

    @Test(arguments: ["", "\n\n", "# only a comment\n", "# one\n  # two\n\n# three"])
    func emptyOrCommentOnlyStreamHasNoDocuments(yaml: String) throws {
        let tree = try parse(yaml)
        #expect(tree.documents.isEmpty)
        #expect(tree.root == nil)
        #expect(tree.issues.isEmpty)
        #expect(tree.nodeCount == 0)
    }

    @Test func documentMarkerAloneIsOneNullDocument() throws {
        let tree = try parse("---\n")
        #expect(tree.documents.count == 1)
        let root = try requireRoot(tree)
        #expect(tree.kind(root) == .scalar)
        #expect(tree.scalar(root) == .null)
    }
}

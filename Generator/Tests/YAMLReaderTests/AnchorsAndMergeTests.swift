import Testing
import YAMLReader

/// Anchors, aliases and alias-expansion limits.
@Suite struct AnchorAliasTests {
    @Test func aliasSharesTheAnchoredMapping() throws {
        let tree = try parse("""
            a: &shared {k: v}
            b: *shared
            """)
        let a = try walk(tree, "a")
        let b = try walk(tree, "b")
        #expect(a == b)
        #expect(tree.kind(b) == .mapping)
        #expect(tree.mark(b) == tree.mark(a))
        #expect(tree.value(forKey: "k", in: b).flatMap(tree.text) == "v")
        // root, a, {k: v}, k, v, b: the alias adds no node.
        #expect(tree.nodeCount == 6)
    }

    @Test func aliasSharesAnchoredScalarsAndSequences() throws {
        let tree = try parse("""
            name: &n Pet
            list: &l [1, 2]
            again: [*n, *l]
            """)
        let again = try walk(tree, "again")
        let items = tree.items(again)
        #expect(items[0] == (try walk(tree, "name")))
        #expect(items[1] == (try walk(tree, "list")))
        #expect(tree.text(items[0]) == "Pet")
        #expect(tree.count(items[1]) == 2)
    }

    @Test func aliasAsMappingKey() throws {
        let tree = try parse("""
            keys:
              - &k id
            map:
              *k : 42
            """)
        let map = try walk(tree, "map")
        #expect(tree.value(forKey: "id", in: map).flatMap(tree.text) == "42")
        #expect(tree.pairs(map)[0].key == (try walk(tree, "keys", "0")))
    }

    @Test func laterAnchorWithTheSameNameWins() throws {
        let tree = try parse("""
            a: &x first
            b: *x
            c: &x second
            d: *x
            """)
        #expect(tree.text(try walk(tree, "b")) == "first")
        #expect(tree.text(try walk(tree, "d")) == "second")
    }

    @Test func undefinedAliasThrowsAtTheAlias() throws {
        let error = try #require(readError("a: 1\nb:\n  c: *missing\n"))
        #expect(error == .undefinedAlias(file: "test.yaml", mark: at(3, 6), anchor: "missing"))
        #expect(error.mark == at(3, 6))
        #expect(error.description.hasPrefix("test.yaml:3:6: error:"))
        #expect(error.message.contains("*missing"))
    }

    @Test func aliasBeforeItsAnchorIsUndefined() throws {
        let error = try #require(readError("a: *later\nb: &later 1\n"))
        #expect(error == .undefinedAlias(file: "test.yaml", mark: at(1, 4), anchor: "later"))
    }

    @Test func anchorsDoNotCrossDocuments() throws {
        let error = try #require(readError("a: &x 1\n---\nb: *x\n"))
        #expect(error == .undefinedAlias(file: "test.yaml", mark: at(3, 4), anchor: "x"))
    }

    @Test func recursiveSequenceAliasThrows() throws {
        let error = try #require(readError("a: &x [*x]\n"))
        #expect(error == .undefinedAlias(file: "test.yaml", mark: at(1, 8), anchor: "x"))
    }

    @Test func recursiveMappingAliasThrows() throws {
        let error = try #require(readError("root: &node\n  name: n\n  child: *node\n"))
        #expect(error == .undefinedAlias(file: "test.yaml", mark: at(3, 10), anchor: "node"))
    }

    @Test func billionLaughsThrowsAliasExpansionTooLarge() throws {
        var yaml = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...9 {
            let aliases = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
            yaml += "a\(level): &a\(level) [\(aliases)]\n"
        }
        let error = try #require(readError(yaml))
        guard case .aliasExpansionTooLarge(let file, let mark, _, _, let expanded, _, let limit) = error else {
            Issue.record("expected aliasExpansionTooLarge, got \(error)")
            return
        }
        #expect(file == "test.yaml")
        #expect(expanded > limit)
        // The mark is on one of the alias-only lines.
        #expect((2...10).contains(mark.line))
        #expect(error.description.hasPrefix("test.yaml:\(mark.line):\(mark.column): error:"))
    }

    @Test func moderateAliasReuseIsAllowedAndShared() throws {
        var yaml = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...3 {
            let aliases = Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ")
            yaml += "a\(level): &a\(level) [\(aliases)]\n"
        }
        let tree = try parse(yaml)
        let a3 = try walk(tree, "a3")
        #expect(tree.count(a3) == 10)
        #expect(Set(tree.items(a3)).count == 1)
        #expect(tree.nodeCount < 100)
    }
}

/// `<<` merge keys.
@Suite struct MergeKeyTests {
    @Test func mergeSingleMapWithExplicitKeysWinning() throws {
        let tree = try parse("""
            base: &base
              a: 1
              b: 2
            child:
              <<: *base
              b: 3
              c: 4
            """)
        let child = try walk(tree, "child")
        #expect(keyTexts(tree, child) == ["a", "b", "c"])
        #expect(tree.count(child) == 3)
        #expect(tree.value(forKey: "a", in: child).flatMap(tree.text) == "1")
        #expect(tree.value(forKey: "b", in: child).flatMap(tree.text) == "3")
        #expect(tree.value(forKey: "c", in: child).flatMap(tree.text) == "4")
        #expect(tree.value(forKey: "<<", in: child) == nil)
        #expect(tree.issues.isEmpty)
        // The base mapping is unchanged.
        #expect(tree.count(try walk(tree, "base")) == 2)
    }

    @Test func explicitKeyBeforeTheMergeAlsoWins() throws {
        let tree = try parse("""
            base: &base {a: 1, b: 2}
            child: {b: 3, <<: *base}
            """)
        let child = try walk(tree, "child")
        #expect(tree.value(forKey: "b", in: child).flatMap(tree.text) == "3")
        #expect(tree.value(forKey: "a", in: child).flatMap(tree.text) == "1")
        #expect(tree.count(child) == 2)
        #expect(tree.issues.isEmpty)
    }

    @Test func mergedValuesAreTheBaseNodes() throws {
        let tree = try parse("""
            base: &base {a: {deep: 1}}
            child:
              <<: *base
            """)
        #expect(try walk(tree, "child", "a") == (try walk(tree, "base", "a")))
    }

    @Test func mergeListEarlierMapsWin() throws {
        let tree = try parse("""
            one: &one {a: 1, b: 1}
            two: &two {b: 2, c: 2}
            child:
              <<: [*one, *two]
              d: 4
            """)
        let child = try walk(tree, "child")
        #expect(Set(keyTexts(tree, child).compactMap { $0 }) == ["a", "b", "c", "d"])
        #expect(tree.count(child) == 4)
        #expect(tree.value(forKey: "a", in: child).flatMap(tree.text) == "1")
        #expect(tree.value(forKey: "b", in: child).flatMap(tree.text) == "1")
        #expect(tree.value(forKey: "c", in: child).flatMap(tree.text) == "2")
        #expect(tree.value(forKey: "d", in: child).flatMap(tree.text) == "4")
        #expect(tree.issues.isEmpty)
    }

    @Test func mergeListWithExplicitOverride() throws {
        let tree = try parse("""
            one: &one {a: 1}
            two: &two {a: 2, b: 2}
            child: {<<: [*two, *one], b: 9}
            """)
        let child = try walk(tree, "child")
        #expect(tree.value(forKey: "a", in: child).flatMap(tree.text) == "2")
        #expect(tree.value(forKey: "b", in: child).flatMap(tree.text) == "9")
        #expect(tree.count(child) == 2)
    }

    @Test func mergeInlineMapping() throws {
        let tree = try parse("child:\n  <<: {x: 1, y: 2}\n  y: 3\n")
        let child = try walk(tree, "child")
        #expect(tree.value(forKey: "x", in: child).flatMap(tree.text) == "1")
        #expect(tree.value(forKey: "y", in: child).flatMap(tree.text) == "3")
        #expect(tree.count(child) == 2)
    }

    @Test func chainedMerges() throws {
        let tree = try parse("""
            a: &a {x: 1, y: 1}
            b: &b
              <<: *a
              y: 2
            c:
              <<: *b
              z: 3
            """)
        let c = try walk(tree, "c")
        #expect(tree.value(forKey: "x", in: c).flatMap(tree.text) == "1")
        #expect(tree.value(forKey: "y", in: c).flatMap(tree.text) == "2")
        #expect(tree.value(forKey: "z", in: c).flatMap(tree.text) == "3")
        #expect(tree.count(c) == 3)
    }

    @Test func quotedMergeKeyIsAnOrdinaryKey() throws {
        let tree = try parse("""
            base: &base {a: 1}
            child:
              "<<": *base
            """)
        let child = try walk(tree, "child")
        #expect(tree.count(child) == 1)
        #expect(tree.value(forKey: "a", in: child) == nil)
        #expect(tree.value(forKey: "<<", in: child) == (try walk(tree, "base")))
    }

    @Test func mergedNodesInSequencesOfMappings() throws {
        let tree = try parse("""
            defaults: &d {timeout: 30, retries: 3}
            servers:
              - <<: *d
                name: a
              - <<: *d
                name: b
                retries: 5
            """)
        #expect(tree.text(try walk(tree, "servers", "0", "retries")) == "3")
        #expect(tree.text(try walk(tree, "servers", "1", "retries")) == "5")
        #expect(tree.text(try walk(tree, "servers", "1", "timeout")) == "30")
        #expect(tree.text(try walk(tree, "servers", "1", "name")) == "b")
    }
}

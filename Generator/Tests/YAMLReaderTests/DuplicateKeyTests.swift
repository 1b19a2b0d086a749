import Testing
import YAMLReader

/// `.duplicateKey` issues: the tree is still read, the repeat is reported.
@Suite struct DuplicateKeyTests {
    @Test func smallMappingDuplicateIsReportedWithBothMarks() throws {
        let tree = try parse("""
            name: a
            id: 1
            name: b
            """)
        let duplicates = duplicateKeys(tree)
        #expect(duplicates.count == 1)
        let duplicate = try #require(duplicates.first)
        #expect(duplicate.key == "name")
        #expect(duplicate.mark == at(3, 1))
        #expect(duplicate.firstMark == at(1, 1))
        let issue = try #require(tree.issues.first)
        #expect(tree.isScalar(issue.node, equalTo: "name"))
        #expect(tree.mark(issue.node) == at(3, 1))
        // Both pairs stay in the tree.
        #expect(tree.count(try requireRoot(tree)) == 3)
    }

    @Test func nestedAndFlowDuplicates() throws {
        let tree = try parse("""
            outer:
              inner: {x: 1, y: 2, x: 3}
            """)
        let duplicates = duplicateKeys(tree)
        #expect(duplicates.count == 1)
        #expect(duplicates.first?.key == "x")
        #expect(duplicates.first?.mark == at(2, 23))
        #expect(duplicates.first?.firstMark == at(2, 11))
    }

    @Test func quotingDoesNotMakeKeysDistinct() throws {
        let tree = try parse("a: 1\n\"a\": 2\n")
        let duplicates = duplicateKeys(tree)
        #expect(duplicates.count == 1)
        #expect(duplicates.first?.mark == at(2, 1))
        #expect(duplicates.first?.firstMark == at(1, 1))
    }

    @Test func largeMappingDuplicateIsReported() throws {
        var yaml = ""
        for index in 0..<20 { yaml += "key\(index): \(index)\n" }
        yaml += "key7: again\n"
        let tree = try parse(yaml)
        #expect(tree.count(try requireRoot(tree)) == 21)
        let duplicates = duplicateKeys(tree)
        #expect(duplicates.count == 1)
        let duplicate = try #require(duplicates.first)
        #expect(duplicate.key == "key7")
        #expect(duplicate.mark == at(21, 1))
        #expect(duplicate.firstMark == at(8, 1))
    }

    @Test(arguments: [2, 12, 13, 40])
    func duplicatesFoundAtEveryMappingSize(keyCount: Int) throws {
        var yaml = ""
        for index in 0..<keyCount { yaml += "k\(index): v\n" }
        yaml += "k0: repeated\n"
        let tree = try parse(yaml)
        let duplicates = duplicateKeys(tree)
        #expect(duplicates.count == 1)
        #expect(duplicates.first?.key == "k0")
        #expect(duplicates.first?.mark == at(keyCount + 1, 1))
        #expect(duplicates.first?.firstMark == at(1, 1))
    }

    @Test(arguments: [3, 20])
    func keyRepeatedThreeTimesPointsBackToItsFirstAppearance(fillerCount: Int) throws {
        var yaml = "dup: 1\ndup: 2\ndup: 3\n"
        for index in 0..<fillerCount { yaml += "filler\(index): x\n" }
        let tree = try parse(yaml)
        let duplicates = duplicateKeys(tree).sorted { $0.mark < $1.mark }
        #expect(duplicates.count == 2)
        #expect(duplicates.map(\.mark) == [at(2, 1), at(3, 1)])
        // "firstMark is where it first appears": line 1 for both repeats.
        #expect(duplicates.map(\.firstMark) == [at(1, 1), at(1, 1)])
    }

    @Test func largeMappingKeysDifferingOnlyInTheMiddleAreTold() throws {
        // Same length, same first and last eight bytes: only the middle
        // tells them apart, and the one real repeat is still found.
        var yaml = ""
        for index in 0..<30 { yaml += "x-shared-\(index < 10 ? "0" : "")\(index)-suffix: \(index)\n" }
        yaml += "x-shared-17-suffix: again\n"
        let tree = try parse(yaml)
        let duplicates = duplicateKeys(tree)
        #expect(duplicates.count == 1)
        #expect(duplicates.first?.key == "x-shared-17-suffix")
        #expect(duplicates.first?.mark == at(31, 1))
        #expect(duplicates.first?.firstMark == at(18, 1))
    }

    @Test func distinctKeysSharingAPrefixAreNotDuplicates() throws {
        let small = try parse("get: 1\ngetter: 2\nge: 3\n\"\": 4\n")
        #expect(small.issues.isEmpty)
        var yaml = ""
        for length in 1...20 { yaml += String(repeating: "p", count: length) + ": \(length)\n" }
        yaml += "pq: x\npqr: y\n"
        let large = try parse(yaml)
        #expect(large.count(try requireRoot(large)) == 22)
        #expect(large.issues.isEmpty)
    }

    @Test func sameKeyInDifferentMappingsIsFine() throws {
        let tree = try parse("""
            a: {name: 1}
            b: {name: 2}
            list:
              - name: x
              - name: y
            """)
        #expect(tree.issues.isEmpty)
    }

    @Test func mergedKeysAreNotDuplicates() throws {
        let tree = try parse("""
            base: &b {a: 1, b: 1}
            others: &o [{b: 2}, {c: 2, a: 2}]
            child:
              <<: *b
              a: 3
            list:
              <<: *o
              b: 3
            """)
        #expect(tree.issues.isEmpty)
        #expect(tree.text(try walk(tree, "child", "a")) == "3")
        #expect(tree.text(try walk(tree, "list", "b")) == "3")
        #expect(tree.text(try walk(tree, "list", "a")) == "2")
    }
}

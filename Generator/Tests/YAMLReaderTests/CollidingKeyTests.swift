import Testing

@testable import YAMLReader

/// Keys a document chooses cannot make reading slow: the duplicate and merge
/// tables hash every byte of a key with a seeded hasher, so keys that share
/// their length and their first and last bytes (which a hash of a key's ends
/// put in one bucket: 20,000 of them took 1.9 s to read, 60,000 over 120 s)
/// spread like any others. Measured in the keys the tables look at, which
/// does not depend on the machine.
@Suite struct CollidingKeyTests {
    /// `prefix00<8 digits>suffix00`: one length, the same first and last 8 bytes.
    static func collidingKeys(_ count: Int) -> String {
        (0..<count).map { "prefix00\(String(repeating: "0", count: 8 - String($0).count))\($0)suffix00: \($0)" }.joined(separator: "\n")
    }

    @Test func keysThatShareTheirEndsCostAboutOneLookEach() throws {
        let count = 5_000
        let tree = try parse(Self.collidingKeys(count))
        #expect(tree.count(try requireRoot(tree)) == count)
        #expect(tree.issues.isEmpty, "no key is a duplicate")
        // An open-addressing table at most half full: about 1.5 looks a key.
        #expect(tree.keyProbes < 3 * count, "\(tree.keyProbes) looks for \(count) keys")
    }

    @Test func mergedKeysThatShareTheirEndsCostAboutOneLookEach() throws {
        let count = 2_000
        let merged = (0..<count).map { "  prefix00\(String(repeating: "0", count: 8 - String($0).count))\($0)suffix00: \($0)" }.joined(separator: "\n")
        let yaml = "base: &base\n\(merged)\ncopy:\n  <<: *base\n  extra: 1\n"
        let tree = try parse(yaml)
        #expect(tree.count(try walk(tree, "copy")) == count + 1)
        #expect(tree.keyProbes < 6 * count, "\(tree.keyProbes) looks for \(count) merged keys")
    }

    @Test func aRepeatedKeyAmongCollidingOnesIsStillFound() throws {
        let yaml = Self.collidingKeys(1_000) + "\nprefix0000000500suffix00: again"
        let tree = try parse(yaml)
        #expect(tree.issues.count == 1)
        guard case .duplicateKey(let key, let first)? = tree.issues.first?.kind else {
            Issue.record("expected one duplicate key, got \(tree.issues)")
            return
        }
        #expect(key == "prefix0000000500suffix00")
        #expect(first == at(501, 1))
    }
}

import Foundation
import OpenAPIModel
import SpecDiff
import Testing
import YAMLReader

/// The comparator on our real specs, recursive schemas, the ignore file and
/// the output formats.
@Suite struct SpecDiffTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func load(_ text: String, _ name: String) throws -> OpenAPIDocument {
        let result = OpenAPILoader.load(string: text, fileName: name)
        #expect(result.errors.isEmpty, "\(result.errors)")
        return try #require(result.document)
    }

    static func spec(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent("specs/\(name).yaml"), encoding: .utf8)
    }

    static func compare(_ base: String, _ revision: String, module: String = "SecureNodeAPI") throws -> [Finding] {
        compare(try load(base, "base.yaml"), try load(revision, "revision.yaml"), module: module)
    }

    static func compare(_ base: OpenAPIDocument, _ revision: OpenAPIDocument, module: String) -> [Finding] {
        SpecComparator(base: base, revision: revision, moduleName: module, today: "2026-11-22").compare()
    }

    @Test(arguments: ["securenode", "soul", "safepocket", "mobiletracker"])
    func aSpecAgainstItselfReportsNothing(_ name: String) throws {
        let text = try Self.spec(name)
        #expect(try Self.compare(text, text).isEmpty)
    }

    @Test func aChangedBrandingRecordFieldNamesTheSwiftProperty() throws {
        let base = try Self.spec("securenode")
        // `brand_name` loses its place in `required`: a response property became optional.
        let start = try #require(base.range(of: "    BrandingRecord:"))
        let requiredList = try #require(base.range(of: "        - brand_name\n", range: start.upperBound..<base.endIndex))
        let revision = base.replacingCharacters(in: requiredList, with: "")
        let findings = try Self.compare(base, revision)
        let finding = try #require(findings.first { $0.id == "response-property-became-optional" })
        #expect(finding.level == .error)
        #expect(finding.swiftSymbols == ["SecureNodeAPI.BrandingRecord.brandName"])
        #expect(finding.operation == "GET /api/mobile/branding/sync")
        #expect(finding.pointer == "/components/schemas/BrandingRecord/properties/brand_name")
        #expect(finding.location?.file == "revision.yaml")
    }

    @Test func aRemovedOperationNamesTheMethod() throws {
        let base = try Self.spec("soul")
        let start = try #require(base.range(of: "  /api/auth/logout:"))
        let end = try #require(base.range(of: "  /api/moods:"))
        let revision = base.replacingCharacters(in: start.lowerBound..<end.lowerBound, with: "")
        let findings = try Self.compare(base, revision, module: "SoulAPI")
        #expect(findings.map(\.id) == ["api-path-removed-without-deprecation"])
        #expect(findings.first?.swiftSymbols == ["SoulAPI.Client.logout(body:)"])
    }

    @Test func recursiveSchemasEnd() throws {
        let base = """
            openapi: 3.0.3
            info: {title: Tree, version: '1'}
            paths:
              /tree:
                get:
                  responses:
                    '200':
                      description: OK
                      content: {application/json: {schema: {$ref: '#/components/schemas/Node'}}}
            components:
              schemas:
                Node:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    parent: {$ref: '#/components/schemas/Node'}
                    children: {type: array, items: {$ref: '#/components/schemas/Node'}}
            """
        let revision = base.replacingOccurrences(of: "required: [name]", with: "required: []")
        let findings = try Self.compare(base, revision)
        #expect(findings.map(\.id) == ["response-property-became-optional"])
        #expect(findings.first?.swiftSymbols == ["SecureNodeAPI.Node.name"])
    }

    @Test func aChangedItemSchemaOfAStreamIsBreaking() throws {
        // 3.2's itemSchema, and the extension that says the same in 3.1.
        for (version, keyword) in [("3.2.0", "itemSchema"), ("3.1.0", "x-item-schema")] {
            let base = """
                openapi: \(version)
                info: {title: Scores, version: '1'}
                paths:
                  /scores:
                    get:
                      responses:
                        '200':
                          description: OK
                          content:
                            application/jsonl:
                              \(keyword):
                                type: object
                                required: [home]
                                properties:
                                  home: {type: integer}
                """
            let revision = base.replacingOccurrences(of: "home: {type: integer}", with: "home: {type: string}")
            let findings = try Self.compare(base, revision)
            #expect(findings.map(\.id) == ["response-property-type-changed"], "\(keyword): \(findings.map(\.message))")
            #expect(findings.first?.level == .error)
        }
    }

    /// A request stream's element (the events method's `events:` type)
    /// follows its item schema: a newly required member breaks apps.
    @Test func aChangedItemSchemaOfARequestStreamIsBreaking() throws {
        let base = """
            openapi: 3.2.0
            info: {title: Logs, version: '1'}
            paths:
              /logs:
                post:
                  requestBody:
                    required: true
                    content:
                      application/jsonl:
                        itemSchema:
                          type: object
                          required: [message]
                          properties:
                            message: {type: string}
                            level: {type: string}
                  responses:
                    '204': {description: Taken}
            """
        let revision = base.replacingOccurrences(of: "required: [message]", with: "required: [message, level]")
        let findings = try Self.compare(base, revision)
        #expect(findings.map(\.id) == ["request-property-became-required"], "\(findings.map(\.message))")
        #expect(findings.first?.level == .error)
    }

    @Test func aChangedQuerystringSchemaIsBreaking() throws {
        let base = """
            openapi: 3.2.0
            info: {title: Search, version: '1'}
            paths:
              /search:
                get:
                  parameters:
                    - name: filter
                      in: querystring
                      content:
                        application/x-www-form-urlencoded:
                          schema:
                            type: object
                            properties:
                              limit: {type: integer}
                  responses:
                    '204': {description: OK}
            """
        let revision = base.replacingOccurrences(of: "limit: {type: integer}", with: "limit: {type: string}")
        let findings = try Self.compare(base, revision)
        #expect(findings.map(\.level) == [.error], "\(findings.map(\.message))")
        #expect(findings.first?.message.contains("filter") == true, "\(findings.map(\.message))")
    }

    @Test func ignoreEntriesMarkFindingsWithTheirReason() throws {
        let list = try IgnoreList(text: """
            # accepted changes
            response-*-removed | GET /api/mobile/* | no shipped app reads it
            api-path-removed-without-deprecation | * /internal/* | internal
            """, file: "ignore.txt")
        let findings = [
            Finding(rule: .responseOptionalPropertyRemoved, operation: "GET /api/mobile/branding/sync", pointer: "", location: nil, message: "", swiftSymbols: []),
            Finding(rule: .responseOptionalPropertyRemoved, operation: "POST /api/mobile/x", pointer: "", location: nil, message: "", swiftSymbols: []),
            Finding(rule: .apiPathRemovedWithoutDeprecation, operation: "DELETE /internal/cache", pointer: "", location: nil, message: "", swiftSymbols: []),
        ]
        let applied = list.apply(to: findings)
        #expect(applied.map(\.ignoredBecause) == ["no shipped app reads it", nil, "internal"])
        #expect(throws: IgnoreList.ParseError.self) { try IgnoreList(text: "request-parameter-removed | GET /a |   ", file: "f") }
        #expect(throws: IgnoreList.ParseError.self) { try IgnoreList(text: "request-parameter-removed GET /a", file: "f") }
    }

    @Test func outputFormats() throws {
        let finding = Finding(
            rule: .responseRequiredPropertyRemoved, operation: "GET /items", pointer: "/components/schemas/Item/properties/id",
            location: SourceLocation(file: "specs/items.yaml", mark: SourceMark(line: 12, column: 9), pointer: JSONPointer(encoded: "/components/schemas/Item/properties/id")),
            message: "removed the required property id from the response with the 200 status", swiftSymbols: ["ItemsAPI.Item.id"])
        var ignored = finding
        ignored.ignoredBecause = "agreed with the app teams"
        ignored.level = .info

        let json = FindingFormatter.format([finding, ignored], as: .json, base: "a", revision: "b")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let entries = try #require(object["findings"] as? [[String: Any]])
        #expect(entries.count == 2)
        #expect(entries[0]["id"] as? String == "response-required-property-removed")
        #expect(entries[0]["level"] as? String == "ERR")
        #expect(entries[0]["operation"] as? String == "GET /items")
        #expect(entries[0]["pointer"] as? String == "/components/schemas/Item/properties/id")
        #expect(entries[0]["swiftSymbols"] as? [String] == ["ItemsAPI.Item.id"])
        #expect(entries[0]["ignored"] as? Bool == false)
        #expect(entries[1]["ignored"] as? Bool == true)

        let github = FindingFormatter.format([finding], as: .github, base: "a", revision: "b")
        #expect(github.hasPrefix("::error file=specs/items.yaml,line=12,col=9,title=ERR response-required-property-removed::GET /items: removed"))
        #expect(github.contains("(Swift: ItemsAPI.Item.id)"))

        let markdown = FindingFormatter.format([finding, ignored], as: .markdown, base: "a", revision: "b")
        #expect(markdown.contains("| **ERR** | `response-required-property-removed` | GET /items |"))
        #expect(markdown.contains("~~INFO~~ ignored: agreed with the app teams"))

        let text = FindingFormatter.format([finding], as: .text, base: "a", revision: "b")
        #expect(text.contains("ERR response-required-property-removed\n  in GET /items\n"))
        #expect(text.contains("at specs/items.yaml:12:9 #/components/schemas/Item/properties/id"))
    }
}

/// Twenty scripted changes to the 3 MB GitHub spec (`Tests/Fixtures/github-20-changes.json`):
/// every one is reported with its rule.
@Suite struct GitHubChangesTests {
    struct Change: Decodable {
        var rule: String
        var find: String
        var replace: String
    }

    struct Script: Decodable {
        var spec: String
        var changes: [Change]
    }

    @Test func allTwentyChangesAreReported() throws {
        let root = SpecDiffTests.root
        let script = try JSONDecoder().decode(Script.self, from: Data(contentsOf: root.appendingPathComponent("Tests/Fixtures/github-20-changes.json")))
        let corpus = root.appendingPathComponent("corpus").appendingPathComponent(script.spec)
        let original = try String(contentsOf: corpus, encoding: .utf8)
        // The changes are made on the UTF-8 bytes: Foundation's string search
        // took half of this test's 20 s in a debug build.
        var changedBytes = Array(original.utf8)
        for change in script.changes {
            let find = Array(change.find.utf8)
            let offsets = Self.offsets(of: find, in: changedBytes)
            #expect(offsets.count == 1, "\(change.rule): the text to change must occur exactly once")
            if let offset = offsets.first { changedBytes.replaceSubrange(offset..<offset + find.count, with: change.replace.utf8) }
        }
        let changed = String(decoding: changedBytes, as: UTF8.self)
        #expect(script.changes.count == 20)
        // The original is read once, for both comparisons (each read of 3 MB costs a second here).
        let base = try SpecDiffTests.load(original, "base.yaml")
        let findings = SpecDiffTests.compare(base, try SpecDiffTests.load(changed, "revision.yaml"), module: "GitHubAPI")
        let reported = Set(findings.map(\.id))
        for change in script.changes {
            #expect(reported.contains(change.rule), "\(change.rule) was not reported")
        }
        // Every finding names an operation and the Swift it touches.
        #expect(findings.allSatisfy { $0.operation != nil })
        #expect(findings.filter { $0.swiftSymbols.isEmpty }.map(\.id) == [])
        // Unchanged: nothing.
        #expect(SpecDiffTests.compare(base, base, module: "GitHubAPI").isEmpty)
    }

    /// Where `needle` starts in `haystack`, every occurrence (overlapping ones too).
    static func offsets(of needle: [UInt8], in haystack: [UInt8]) -> [Int] {
        guard !needle.isEmpty, needle.count <= haystack.count else { return [] }
        var offsets: [Int] = []
        haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { pin in
                guard let hayStart = hay.baseAddress, let pinStart = pin.baseAddress else { return }
                // memchr to each candidate first byte, memcmp for the rest (C, fast in a debug build).
                let first = Int32(needle[0])
                var from = 0
                while from + pin.count <= hay.count, let hit = memchr(hayStart + from, first, hay.count - pin.count + 1 - from) {
                    let offset = hayStart.distance(to: UnsafeRawPointer(hit))
                    if memcmp(hit, pinStart, pin.count) == 0 { offsets.append(offset) }
                    from = offset + 1
                }
            }
        }
        return offsets
    }

    @Test func offsetsFindsEveryOccurrence() {
        #expect(Self.offsets(of: Array("ab".utf8), in: Array("abcab".utf8)) == [0, 3])
        #expect(Self.offsets(of: Array("aa".utf8), in: Array("aaa".utf8)) == [0, 1])
        #expect(Self.offsets(of: Array("x".utf8), in: Array("abc".utf8)) == [])
        #expect(Self.offsets(of: Array("abcd".utf8), in: Array("abc".utf8)) == [])
    }
}

import BrandingStore
import Foundation
import RuntimeSupport
import SecureNode
import Testing

/// Thousands of sync responses with damaged records, served over loopback
/// to the real generated client and applied to a real store: a damaged
/// record is skipped and counted, the others apply, and a response that is
/// damaged as a whole (cut short, no cursor) changes nothing.
///
/// `SYNC_FUZZ_ROUNDS` sets the number of responses (default 10,000).
@Suite struct SyncFuzzTests {
    /// What a record-level mutation does; each one makes the record unusable.
    static let mutations: [(name: String, apply: @Sendable (String) -> String)] = [
        ("no number", { $0.replacing(#/"phone_number_e164":"[^"]*",/#, with: "") }),
        ("no brand name", { $0.replacing(#/"brand_name":"[^"]*",/#, with: "") }),
        ("no updated_at", { $0.replacing(#/,"updated_at":"[^"]*"/#, with: "") }),
        ("brand name a number", { $0.replacing(#/"brand_name":"[^"]*"/#, with: #""brand_name":42"#) }),
        ("is_active a string", { $0.replacing(#/"is_active":(true|false)/#, with: #""is_active":"yes""#) }),
        ("updated_at not a date", { $0.replacing(#/"updated_at":"[^"]*"/#, with: #""updated_at":"yesterday""#) }),
        ("number without +", { $0.replacing(#/"phone_number_e164":"\+/#, with: #""phone_number_e164":""#) }),
        ("logo_url an object", { $0.replacing(#/"logo_url":("[^"]*"|null)/#, with: #""logo_url":{"u":1}"#) }),
        ("call_reason an array", { $0.replacing(#/"call_reason":("[^"]*"|null)/#, with: #""call_reason":[1]"#) }),
        ("blank brand name", { $0.replacing(#/"brand_name":"[^"]*"/#, with: #""brand_name":"   ""#) }),
        ("brand id too long", { "{" + #""brand_id":""# + String(repeating: "b", count: 300) + #"","# + $0.replacing(#/"brand_id":"[^"]*",/#, with: "").dropFirst() }),
        ("null record", { _ in "null" }),
        ("string record", { _ in #""record""# }),
        ("array record", { _ in #"[{"phone_number_e164":"+61400000000"}]"# }),
    ]

    static func record(_ e164: String, name: String, active: Bool, logo: Bool, reason: Bool, brandID: Bool, updatedAt: String) -> String {
        var fields = [#""phone_number_e164":"\#(e164)""#, #""brand_name":"\#(name)""#]
        if brandID { fields.append(#""brand_id":"brand_\#(name.count)""#) }
        fields.append(#""logo_url":"# + (logo ? #""https://assets.securenode.io/logos/\#(name.count).png""# : "null"))
        fields.append(#""call_reason":"# + (reason ? #""Reason \#(name.count)""# : "null"))
        fields.append(#""updated_at":"\#(updatedAt)""#)
        fields.append(#""is_active":\#(active)"#)
        return "{" + fields.joined(separator: ",") + "}"
    }

    /// What one stream of responses did.
    struct Counts: Sendable {
        var rounds = 0, mutated = 0, skipped = 0, rejectedWhole = 0, applied = 0, crashes = 0, partialCommits = 0

        static func + (lhs: Counts, rhs: Counts) -> Counts {
            Counts(
                rounds: lhs.rounds + rhs.rounds, mutated: lhs.mutated + rhs.mutated, skipped: lhs.skipped + rhs.skipped,
                rejectedWhole: lhs.rejectedWhole + rhs.rejectedWhole, applied: lhs.applied + rhs.applied, crashes: lhs.crashes + rhs.crashes,
                partialCommits: lhs.partialCommits + rhs.partialCommits)
        }
    }

    /// Streams run at once, each with its own server, store and seed: the
    /// rounds of one stream follow each other (each builds on the store the
    /// last one left), the streams keep every core busy.
    static let streams = 4

    @Test func damagedRecordsAreSkippedAndCountedAndNothingElseIsLost() async throws {
        let rounds = ProcessInfo.processInfo.environment["SYNC_FUZZ_ROUNDS"].flatMap(Int.init) ?? 10_000
        let counts = try await withThrowingTaskGroup(of: Counts.self) { group in
            for stream in 0..<Self.streams {
                let share = rounds / Self.streams + (stream < rounds % Self.streams ? 1 : 0)
                group.addTask { try await Self.fuzz(rounds: share, seed: 0x5EC0_DE5E &+ UInt64(stream)) }
            }
            return try await group.reduce(Counts(), +)
        }
        print("sync fuzz: \(counts.rounds) responses in \(Self.streams) streams, \(counts.applied) applied, \(counts.rejectedWhole) refused as a whole, "
            + "\(counts.mutated) damaged records, \(counts.skipped) skipped, partial commits \(counts.partialCommits), unexpected outcomes \(counts.crashes)")
        #expect(counts.rounds == rounds)
        #expect(counts.skipped == counts.mutated)
        #expect(counts.partialCommits == 0)
        #expect(counts.mutated > rounds / 2)
        #expect(counts.rejectedWhole > rounds / 40)
    }

    /// `rounds` responses, one after another, to one store.
    static func fuzz(rounds: Int, seed: UInt64) async throws -> Counts {
        let fake = try FakeSecureNode()
        let folder = try makeFolder("sync-fuzz")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try BrandingStore(path: folder.appendingPathComponent("branding.sqlite").path)
        let engine = BrandingSync(store: store, client: fake.client())
        var generator = SplitMix64(seed: seed)
        let numbers = (0..<60).map { "+614" + String(10_000_000 + $0 * 7919) }
        let timestamps = ISO8601DateFormatter()
        // What the store must hold: number -> brand name.
        var expected: [String: String] = [:]
        var cursor: String?
        var counts = Counts(rounds: rounds)

        for round in 0..<rounds {
            let syncedAt = timestamps.string(from: Date(timeIntervalSince1970: 1_735_689_600 + Double(round)))
            var chosen = numbers.shuffled(using: &generator).prefix(Int.random(in: 1...8, using: &generator))
            if round == 0 { chosen = numbers[...] }
            var bodies: [String] = []
            var next = expected
            var mutated = 0
            for number in chosen {
                let name = "Brand \(round)-\(Int.random(in: 0..<1000, using: &generator))"
                let active = round == 0 || Int.random(in: 0..<5, using: &generator) > 0
                let text = Self.record(
                    number, name: name, active: active, logo: .random(using: &generator), reason: .random(using: &generator),
                    brandID: .random(using: &generator), updatedAt: "2025-01-01T00:00:00Z")
                if active, Int.random(in: 0..<4, using: &generator) == 0 {
                    let mutation = Self.mutations.randomElement(using: &generator)!
                    let damaged = mutation.apply(text)
                    #expect(damaged != text, "mutation '\(mutation.name)' changed nothing")
                    bodies.append(damaged)
                    mutated += 1
                } else {
                    bodies.append(text)
                    next[number] = active ? name : nil
                }
            }
            var body = #"{"branding":[\#(bodies.joined(separator: ","))],"synced_at":"\#(syncedAt)","config":{"branding_enabled":true}}"#
            // Now and then the response as a whole is broken.
            let wholeDamage = round > 0 ? Int.random(in: 0..<40, using: &generator) : 99
            switch wholeDamage {
            case 0: body = String(body.prefix(Int.random(in: 0..<body.count, using: &generator)))
            case 1: body = body.replacingOccurrences(of: #""synced_at":"\#(syncedAt)""#, with: #""synced_at":"later""#)
            case 2: body = body.replacingOccurrences(of: #","synced_at":"\#(syncedAt)""#, with: "")
            default: break
            }
            let isWholeDamaged = wholeDamage <= 2
            fake.route("GET /api/mobile/branding/sync", .json(200, body))
            let before = try contents(of: store)

            let status = await engine.sync()
            let after = try contents(of: store)
            switch status {
            case .upToDate(_, _, let outcome) where !isWholeDamaged:
                counts.applied += 1
                counts.mutated += mutated
                counts.skipped += outcome.skipped
                #expect(outcome.skipped == mutated, "round \(round): \(mutated) damaged, \(outcome.skipped) skipped: \(outcome.skippedRecords)")
                if after != next { counts.partialCommits += 1 }
                #expect(after == next, "round \(round): the store does not hold the good records")
                #expect(try store.cursor() == syncedAt)
                expected = next
                cursor = syncedAt
            case .rejected where isWholeDamaged, .offline where isWholeDamaged:
                counts.rejectedWhole += 1
                if after != before { counts.partialCommits += 1 }
                #expect(after == before, "round \(round): a broken response changed the store")
                #expect(try store.cursor() == cursor)
            default:
                counts.crashes += 1
                Issue.record("round \(round): unexpected status \(status) (whole damage: \(isWholeDamaged))")
            }
        }
        return counts
    }

    /// Number -> brand name, for every stored record.
    static func contents(of store: BrandingStore) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try store.allRecords().map { ($0.e164, $0.brandName) })
    }
}

import BrandingStore
import Foundation
import RuntimeSupport
import SecureNodeEngine
import ProcessTestSupport
import Testing

/// Thousands of sync responses with damaged records, served over loopback
/// to the real generated client and applied to a real store: a damaged
/// record costs only what cannot be read of it (an invalid optional field
/// is dropped, a record without a usable name unbrands its number, one
/// without a readable number changes nothing), the others apply, any record
/// not applied makes the next sync fetch the range again, and a response
/// that is damaged as a whole (cut short, no cursor) changes nothing.
///
/// `SYNC_FUZZ_ROUNDS` sets the number of responses (default: 10,000 in
/// `make test-heavy` and CI, a sample of 600 in `make test`).
@Suite struct SyncFuzzTests {
    /// What a damaged record does to its number.
    enum Effect: Sendable {
        /// Stored, an invalid optional field dropped.
        case salvaged
        /// Not applied; the number's branding removed.
        case unbrands
        /// Not applied; no number could be read, so nothing changes.
        case unreadable
    }

    /// Record-level mutations and what each does.
    static let mutations: [(name: String, effect: Effect, apply: @Sendable (String) -> String)] = [
        ("no number", .unreadable, { $0.replacing(#/"phone_number_e164":"[^"]*",/#, with: "") }),
        ("no brand name", .unbrands, { $0.replacing(#/"brand_name":"[^"]*",/#, with: "") }),
        ("no updated_at", .salvaged, { $0.replacing(#/,"updated_at":"[^"]*"/#, with: "") }),
        ("brand name a number", .unbrands, { $0.replacing(#/"brand_name":"[^"]*"/#, with: #""brand_name":42"#) }),
        ("is_active a string", .unbrands, { $0.replacing(#/"is_active":(true|false)/#, with: #""is_active":"yes""#) }),
        ("updated_at not a date", .salvaged, { $0.replacing(#/"updated_at":"[^"]*"/#, with: #""updated_at":"yesterday""#) }),
        ("number without +", .unreadable, { $0.replacing(#/"phone_number_e164":"\+/#, with: #""phone_number_e164":""#) }),
        ("logo_url an object", .salvaged, { $0.replacing(#/"logo_url":("[^"]*"|null)/#, with: #""logo_url":{"u":1}"#) }),
        ("logo_url empty", .salvaged, { $0.replacing(#/"logo_url":("[^"]*"|null)/#, with: #""logo_url":"""#) }),
        ("call_reason an array", .salvaged, { $0.replacing(#/"call_reason":("[^"]*"|null)/#, with: #""call_reason":[1]"#) }),
        ("blank brand name", .unbrands, { $0.replacing(#/"brand_name":"[^"]*"/#, with: #""brand_name":"   ""#) }),
        ("brand id too long", .salvaged, { "{" + #""brand_id":""# + String(repeating: "b", count: 300) + #"","# + $0.replacing(#/"brand_id":"[^"]*",/#, with: "").dropFirst() }),
        ("null record", .unreadable, { _ in "null" }),
        ("string record", .unreadable, { _ in #""record""# }),
        ("array record", .unreadable, { _ in #"[{"phone_number_e164":"+61400000000"}]"# }),
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
        var rounds = 0, mutated = 0, salvaged = 0, skipped = 0, rejectedWhole = 0, applied = 0, crashes = 0, partialCommits = 0

        static func + (lhs: Counts, rhs: Counts) -> Counts {
            Counts(
                rounds: lhs.rounds + rhs.rounds, mutated: lhs.mutated + rhs.mutated, salvaged: lhs.salvaged + rhs.salvaged,
                skipped: lhs.skipped + rhs.skipped,
                rejectedWhole: lhs.rejectedWhole + rhs.rejectedWhole, applied: lhs.applied + rhs.applied, crashes: lhs.crashes + rhs.crashes,
                partialCommits: lhs.partialCommits + rhs.partialCommits)
        }
    }

    /// Streams run at once, each with its own server, store and seed: the
    /// rounds of one stream follow each other (each builds on the store the
    /// last one left), the streams keep every core busy.
    static let streams = 4

    @Test func damagedRecordsCostOnlyWhatCannotBeReadAndNothingElseIsLost() async throws {
        let rounds = ProcessInfo.processInfo.environment["SYNC_FUZZ_ROUNDS"].flatMap(Int.init) ?? ExperimentScale.pick(full: 10_000, sample: 600)
        let counts = try await withThrowingTaskGroup(of: Counts.self) { group in
            for stream in 0..<Self.streams {
                let share = rounds / Self.streams + (stream < rounds % Self.streams ? 1 : 0)
                group.addTask { try await Self.fuzz(rounds: share, seed: 0x5EC0_DE5E &+ UInt64(stream)) }
            }
            return try await group.reduce(Counts(), +)
        }
        print("sync fuzz: \(counts.rounds) responses in \(Self.streams) streams, \(counts.applied) applied, \(counts.rejectedWhole) refused as a whole, "
            + "\(counts.mutated) damaged records, \(counts.salvaged) salvaged, \(counts.skipped) skipped, partial commits \(counts.partialCommits), unexpected outcomes \(counts.crashes)")
        #expect(counts.rounds == rounds)
        #expect(counts.skipped + counts.salvaged == counts.mutated)
        #expect(counts.salvaged > 0 && counts.skipped > 0)
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
            // A full sync (the first, or the retry of a full one) replaces everything.
            let isFull = try store.nextSyncCursor() == nil
            var next = isFull ? [:] : expected
            var mutated = 0, salvaged = 0
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
                    switch mutation.effect {
                    case .salvaged:
                        salvaged += 1
                        next[number] = name
                    case .unbrands: next[number] = nil
                    case .unreadable: break
                    }
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
                counts.salvaged += salvaged
                #expect(outcome.skipped == mutated - salvaged, "round \(round): \(mutated) damaged, \(outcome.skipped) skipped: \(outcome.skippedRecords)")
                #expect(outcome.droppedFields == salvaged, "round \(round): one field dropped per salvaged record")
                #expect(outcome.retryPending == (outcome.skipped > 0))
                if after != next { counts.partialCommits += 1 }
                #expect(after == next, "round \(round): the store does not hold the good records")
                #expect(try store.cursor() == syncedAt)
                if !outcome.retryPending { #expect(try store.nextSyncCursor() == syncedAt) }
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
